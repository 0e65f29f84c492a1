import { z } from 'zod';
import { graphId, seconds } from '../meta/types.ts';

/*
 * Schemas of the Instagram answers we read (Instagram API with Instagram Login, graph.instagram.com)
 * and the shapes the client returns. Objects are not strict: Meta adds fields over time.
 */

/** Reading the professional account and publishing to it. */
export const INSTAGRAM_SCOPES: readonly string[] = ['instagram_business_basic', 'instagram_business_content_publish'];

const permissions = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (value === undefined ? [] : (Array.isArray(value) ? value : value.split(',')).map((name) => name.trim()).filter(Boolean)));

const shortToken = z.object({ access_token: z.string().min(1), user_id: graphId, permissions });

/**
 * api.instagram.com's code exchange: Business Login documents `{"data":[{…}]}`, and the older flat
 * `{access_token, user_id}` is still what some apps get. Either is read.
 */
export const shortTokenSchema = z.union([z.object({ data: z.array(shortToken).min(1) }).transform((body) => body.data[0] as z.output<typeof shortToken>), shortToken]);

/** ig_exchange_token and ig_refresh_token: a long-lived token, valid about 60 days. */
export const longTokenSchema = z.object({ access_token: z.string().min(1), token_type: z.string().optional(), expires_in: seconds });

export interface InstagramTokens {
  /** The long-lived token (about 60 days); refresh it before expiresAt. */
  accessToken: string;
  expiresAt: Date;
  /** The Instagram-scoped id of the person who signed in. */
  userId: string;
  /** The permissions granted (a person may refuse some). */
  permissions: string[];
}

export interface InstagramRefreshedToken {
  accessToken: string;
  expiresAt: Date;
}

export const meSchema = z.object({
  id: graphId.optional(),
  user_id: graphId,
  username: z.string().min(1),
  name: z.string().optional(),
  profile_picture_url: z.string().optional(),
});

export interface InstagramUser {
  /** The professional account's id: what /{ig-user-id}/media and media_publish take. */
  userId: string;
  username: string;
  name: string | null;
  avatarUrl: string | null;
}

export const idSchema = z.object({ id: graphId });

export const CONTAINER_STATUSES = ['IN_PROGRESS', 'FINISHED', 'ERROR', 'EXPIRED', 'PUBLISHED'] as const;
export type ContainerStatusCode = (typeof CONTAINER_STATUSES)[number];

export const containerStatusSchema = z.object({ id: graphId.optional(), status_code: z.enum(CONTAINER_STATUSES), status: z.string().optional() });

export interface ContainerState {
  containerId: string;
  statusCode: ContainerStatusCode;
  /** For ERROR: Instagram's subcode (2207026 unsupported format…), when its status names one. */
  errorSubcode: number | null;
  /** Instagram's own words (the `status` field), for logs. */
  status: string | null;
}

export interface ReelContainerRequest {
  /** A URL Instagram downloads the video from (a presigned or signed media URL). */
  videoUrl: string;
  caption: string;
  /** Also show the Reel in the profile's main grid; Instagram's default is true. */
  shareToFeed: boolean;
  /** Usernames invited as collaborators (at most 3). */
  collaborators: readonly string[];
  /** A trial Reel: shown to non-followers first, shared with followers if it does well. */
  trialReel: boolean;
}

export interface WaitForContainerOptions {
  signal?: AbortSignal;
  /** How long processing may take before not_ready is thrown (default 5 minutes). */
  budgetMs?: number;
  /** After each status read. */
  onPoll?: (state: ContainerState) => void;
}

export const publishingLimitSchema = z.object({
  data: z
    .array(
      z.object({
        quota_usage: z.number().int().nonnegative().default(0),
        config: z.object({ quota_total: z.number().int().positive(), quota_duration: z.number().int().positive() }).optional(),
      }),
    )
    .min(1),
});

export interface PublishingLimit {
  /** Posts published through the API in the moving window. */
  used: number;
  total: number;
  windowSeconds: number;
}

const insightValue = z.object({ value: z.number() });

export const insightsSchema = z.object({
  data: z
    .array(
      z.object({
        name: z.string(),
        values: z.array(insightValue).optional(),
        total_value: insightValue.optional(),
      }),
    )
    .default([]),
});

export const mediaCountsSchema = z.object({ like_count: z.number().optional(), comments_count: z.number().optional() });
