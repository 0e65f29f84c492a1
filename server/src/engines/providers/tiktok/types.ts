import { PRIVACY_LEVELS, type PrivacyLevel } from '@clipshift/shared';
import { z } from 'zod';

/*
 * Schemas of the TikTok answers we read (external-apis.md part B) and the shapes the client
 * returns. Objects are not strict: TikTok adds fields over time and unknown keys are dropped.
 */

export { PRIVACY_LEVELS, type PrivacyLevel };

export const POST_STATUSES = ['PROCESSING_UPLOAD', 'PROCESSING_DOWNLOAD', 'SEND_TO_USER_INBOX', 'PUBLISH_COMPLETE', 'FAILED'] as const;
export type PostStatusValue = (typeof POST_STATUSES)[number];

/** Flat token answer (B2); TikTok's numbers are seconds. */
export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().nonnegative(),
  open_id: z.string().min(1),
  refresh_token: z.string().min(1),
  refresh_expires_in: z.number().nonnegative(),
  scope: z.string().default(''),
  token_type: z.string().optional(),
});

export interface TikTokTokens {
  accessToken: string;
  /** Seconds; doc versions disagree (24 h or 2 h), so always schedule the refresh from this. */
  expiresIn: number;
  /** Always store this one: TikTok may rotate it on every refresh, and the old one then dies. */
  refreshToken: string;
  refreshExpiresIn: number;
  openId: string;
  /** Comma-separated scopes actually granted (the user may grant a subset). */
  scope: string;
}

const optionalText = z
  .string()
  .nullable()
  .optional()
  .transform((value) => value || null);

export const userInfoResponseSchema = z.object({
  data: z.object({
    user: z.object({
      open_id: z.string().min(1),
      union_id: optionalText,
      avatar_url: optionalText,
      display_name: optionalText,
      username: optionalText,
    }),
  }),
});

export interface TikTokUserInfo {
  openId: string;
  unionId: string | null;
  avatarUrl: string | null;
  displayName: string;
  /** Needs user.info.profile; null when TikTok did not send it. */
  username: string | null;
}

export const creatorInfoResponseSchema = z.object({
  data: z.object({
    creator_avatar_url: optionalText,
    creator_username: optionalText,
    creator_nickname: optionalText,
    privacy_level_options: z.array(z.string()),
    comment_disabled: z.boolean().default(false),
    duet_disabled: z.boolean().default(false),
    stitch_disabled: z.boolean().default(false),
    max_video_post_duration_sec: z.number().positive(),
  }),
});

export interface CreatorInfo {
  /** Exactly what the privacy dropdown must offer (content-sharing guidelines), in TikTok's order. */
  privacyLevelOptions: PrivacyLevel[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
  username: string | null;
  nickname: string | null;
  /** Valid for about 2 hours: show it, do not store it. */
  avatarUrl: string | null;
}

export const publishInitResponseSchema = z.object({
  data: z.object({
    publish_id: z.string().min(1),
    upload_url: z.string().min(1),
  }),
});

export interface DirectPostInfo {
  /** The caption; at most 2200 UTF-16 code units. */
  title: string;
  /** Must be one of creator_info's privacyLevelOptions; there is no default on purpose. */
  privacyLevel: PrivacyLevel;
  disableComment: boolean;
  disableDuet: boolean;
  disableStitch: boolean;
  videoCoverTimestampMs?: number;
  brandContentToggle?: boolean;
  brandOrganicToggle?: boolean;
  isAigc?: boolean;
}

export interface PublishTarget {
  publishId: string;
  /** Valid for 1 hour, used verbatim; carries upload_token: never log it unredacted. */
  uploadUrl: string;
}

export const statusResponseSchema = z.object({
  data: z.object({
    status: z.enum(POST_STATUSES),
    fail_reason: optionalText,
    uploaded_bytes: z.number().nullable().optional(),
    downloaded_bytes: z.number().nullable().optional(),
  }),
});

export interface PostStatus {
  status: PostStatusValue;
  failReason: string | null;
  /** TikTok's int64 post ids as strings (they exceed JS's safe integers); only after public + moderation. */
  publicPostIds: string[];
  uploadedBytes: number | null;
}

export interface UploadProgressOptions {
  signal?: AbortSignal;
  /** Called after each chunk TikTok accepted, with the bytes it holds so far. */
  onProgress?: (uploadedBytes: number, totalBytes: number) => void;
  /** Chunk index to start from, e.g. a TikTokError's resumeAtChunk after a 416 (default 0). */
  startAt?: number;
}

export interface UploadResult {
  uploadedBytes: number;
  /** Chunks sent by this call (less than the plan's count when resuming). */
  chunksSent: number;
}

export interface WaitForPublishOptions {
  signal?: AbortSignal;
  /** Between status polls; at least 2 s so one upload stays far under 30 status requests a minute (default 5 s). */
  pollMs?: number;
  /** Give up with a timeout error after this long (default 15 min). */
  timeoutMs?: number;
  /** Each status seen, for progress reporting. */
  onStatus?: (status: PostStatus) => void;
}

/** video.list's video query (Display API): the counts of the creator's own posts. */
export const videoQueryResponseSchema = z.object({
  data: z.object({
    videos: z
      .array(
        z.object({
          // A string in TikTok's reference; read losslessly from the raw text when a number (see queryVideos).
          id: z.union([z.string(), z.number()]),
          view_count: z.number().nonnegative().nullable().optional(),
          like_count: z.number().nonnegative().nullable().optional(),
          comment_count: z.number().nonnegative().nullable().optional(),
          share_count: z.number().nonnegative().nullable().optional(),
          create_time: z.number().nullable().optional(),
        }),
      )
      .default([]),
  }),
});

/** One post's counts as TikTok's video query tells them. */
export interface TikTokVideoStats {
  /** The public post id (status fetch's publicaly_available_post_id), as a digit string. */
  id: string;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  /** Unix seconds, when TikTok sent it. */
  createTime: number | null;
}
