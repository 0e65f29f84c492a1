import { z } from 'zod';
import { storableText } from '../http/runtime.ts';

/*
 * Schemas of the Twitch responses we read (external-apis.md part A). Objects are not strict:
 * Twitch adds fields over time (e.g. twitch-cli's mock adds refresh_token/scope to the token
 * response) and unknown keys are simply dropped.
 */

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().nonnegative(),
  token_type: z.string().optional(),
});

/** Helix error body `{"error":"Unauthorized","status":401,"message":"Invalid OAuth token"}`; id.twitch.tv omits `error`. */
export const errorBodySchema = z.object({
  error: z.string().optional(),
  status: z.number().optional(),
  message: z.string().optional(),
});

/** Text Twitch's users wrote (titles, names): cleaned once here, where it enters, so every write of it can be stored. */
export const text = () => z.string().transform(storableText);

/** `pagination` is `{}` on the last page in production and missing in twitch-cli's mock. */
const paginationSchema = z
  .object({ cursor: z.string().optional() })
  .optional()
  .transform((pagination) => pagination?.cursor || undefined);

const twitchUserSchema = z.object({
  id: text(),
  login: text(),
  display_name: text(),
  type: text().default(''),
  broadcaster_type: text().default(''),
  description: text().default(''),
  profile_image_url: text().default(''),
  offline_image_url: text().default(''),
  created_at: text(),
});
export type TwitchUser = z.infer<typeof twitchUserSchema>;

export const usersResponseSchema = z.object({ data: z.array(twitchUserSchema) });

const twitchClipSchema = z.object({
  id: text(),
  url: text(),
  broadcaster_id: text(),
  broadcaster_name: text(),
  creator_id: text().default(''),
  creator_name: text(),
  /** "" when the VOD is unavailable. */
  video_id: text().default(''),
  game_id: text(),
  language: text(),
  title: text(),
  view_count: z.number().int().nonnegative(),
  created_at: text(),
  thumbnail_url: text(),
  duration: z.number(),
  // null while Twitch has not computed it yet or when there is no VOD; tolerate a missing key too.
  vod_offset: z
    .number()
    .nullable()
    .optional()
    .transform((offset) => offset ?? null),
  is_featured: z.boolean().optional(),
});
export type TwitchClip = z.infer<typeof twitchClipSchema>;

export const clipsResponseSchema = z.object({
  data: z.array(twitchClipSchema),
  pagination: paginationSchema,
});

export const gamesResponseSchema = z.object({
  data: z.array(z.object({ id: text(), name: text() })),
});

/** A user token's grant (authorization code or refresh); Twitch sends the scopes as an array. */
export const userTokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().nonnegative(),
  scope: z.array(z.string()).optional().default([]),
});

export interface UserTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
  scopes: string[];
}

/** GET /oauth2/validate of a user token (A1): its user and scopes. */
export const validateResponseSchema = z.object({
  client_id: z.string().optional(),
  login: z.string().optional(),
  user_id: z.string().optional(),
  scopes: z.array(z.string()).nullable().optional().transform((scopes) => scopes ?? []),
  expires_in: z.number().optional(),
});

export interface TokenInfo {
  userId: string;
  login: string;
  scopes: string[];
}

/** Create Clip / Create Clip From VOD: `{data:[{id, edit_url}]}`. */
const createdClipSchema = z.object({ id: z.string().min(1), edit_url: z.string().default('') });
export type CreatedClip = z.infer<typeof createdClipSchema>;
export const createdClipResponseSchema = z.object({ data: z.array(createdClipSchema) });

/** Get Clips Download (A6a): portrait_download_url is null when the streamer made no vertical version. */
const clipDownloadSchema = z.object({
  clip_id: z.string(),
  landscape_download_url: z.string().nullable().optional().transform((url) => url || null),
  portrait_download_url: z.string().nullable().optional().transform((url) => url || null),
});
export type ClipDownload = z.infer<typeof clipDownloadSchema>;
export const clipDownloadsResponseSchema = z.object({ data: z.array(clipDownloadSchema) });

const videoQualitySchema = z.object({
  quality: z.string(),
  frameRate: z.number().nullable().optional(),
  sourceURL: z.string().nullable().optional(),
});

export const gqlClipOperationSchema = z.object({
  data: z
    .object({
      clip: z
        .object({
          playbackAccessToken: z.object({ signature: z.string(), value: z.string() }).nullable().optional(),
          videoQualities: z.array(videoQualitySchema).nullable().optional(),
        })
        .nullable(),
    })
    .nullable()
    .optional(),
  errors: z.array(z.object({ message: z.string() })).optional(),
});
export type GqlClipOperation = z.infer<typeof gqlClipOperationSchema>;

/** A downloadable rendition of a clip: the signed CDN URL (secret: never log it unredacted). */
export interface ClipSource {
  url: string;
  /** Twitch's quality label, e.g. "1080". */
  quality: string;
  frameRate: number | null;
}

export interface TopClipsOptions {
  /** How many clips at most (Twitch allows 100 per page; more are fetched page by page). */
  limit: number;
  signal?: AbortSignal;
  /** Only clips made since then (epoch ms): one window from then to now instead of the walk back. */
  since?: number;
  /** Asked after every page with the clips so far: true stops the listing there. */
  enough?: (clips: readonly TwitchClip[]) => boolean;
  /** Only Twitch's featured clips (Helix `is_featured=true`). */
  featuredOnly?: boolean;
  /** Length of one started_at/ended_at window in days (default 7). */
  windowDays?: number;
  /** How many windows to walk back in time at most (default 12, about three months). */
  maxWindows?: number;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Bytes written so far and the expected total (null when the server sent no Content-Length). */
  onProgress?: (bytes: number, total: number | null) => void;
  /** Attempts for a broken, short or stalled transfer (default 3). */
  maxAttempts?: number;
  /** An attempt that receives no data for this long counts as broken (default 30 s). */
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  path: string;
  bytes: number;
}
