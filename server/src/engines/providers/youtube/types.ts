import { z } from 'zod';

/*
 * Schemas of the Google answers we read and the shapes the client returns. Objects are not strict:
 * Google adds fields over time and unknown keys are dropped.
 */

export const PRIVACY_STATUSES = ['private', 'unlisted', 'public'] as const;
export type YouTubePrivacy = (typeof PRIVACY_STATUSES)[number];

/** Upload (youtube.upload) plus reading the channel and the videos' statistics (youtube.readonly). */
export const YOUTUBE_SCOPES: readonly string[] = ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly'];

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().nonnegative(),
  /** Only with access_type=offline on a consent, never on a refresh. */
  refresh_token: z.string().min(1).optional(),
  scope: z.string().default(''),
  token_type: z.string().optional(),
});

export interface YouTubeTokens {
  accessToken: string;
  /** When the access token stops working (from expires_in and the client's clock). */
  expiresAt: Date;
  /** New only on a code exchange; null on a refresh, where the old one stays valid and must be kept. */
  refreshToken: string | null;
  /** Space-separated scopes actually granted (the consent page lets a user untick some). */
  scope: string;
}

const thumbnail = z.object({ url: z.string() }).optional();

export const channelListSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        snippet: z.object({
          title: z.string().default(''),
          customUrl: z.string().optional(),
          thumbnails: z.object({ default: thumbnail, medium: thumbnail, high: thumbnail }).partial().default({}),
        }),
      }),
    )
    .default([]),
});

export interface YouTubeChannel {
  channelId: string;
  title: string;
  /** "@handle", null for a channel without one. */
  handle: string | null;
  avatarUrl: string | null;
}

export const videoResourceSchema = z.object({ id: z.string().min(1) });

/** Counts come as decimal strings (they may exceed 2^31); a hidden count is absent. */
const count = z.string().regex(/^\d+$/).optional();

export const videoListSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        status: z
          .object({
            uploadStatus: z.string(),
            privacyStatus: z.string().optional(),
            rejectionReason: z.string().optional(),
            failureReason: z.string().optional(),
          })
          .optional(),
        processingDetails: z.object({ processingStatus: z.string() }).optional(),
        statistics: z.object({ viewCount: count, likeCount: count, commentCount: count, favoriteCount: count }).optional(),
      }),
    )
    .default([]),
});

export interface YouTubeVideoStats {
  views: number | null;
  likes: number | null;
  comments: number | null;
  /** YouTube publishes no share count. */
  shares: null;
}

export interface YouTubeVideoState {
  videoId: string;
  /** uploaded, processed, rejected, failed, deleted */
  uploadStatus: string | null;
  privacyStatus: string | null;
  /** Why YouTube rejected (rejected) or could not process (failed) the video, as YouTube names it. */
  rejectionReason: string | null;
  /** processing, succeeded, failed, terminated */
  processingStatus: string | null;
  stats: YouTubeVideoStats;
}

export interface YouTubeVideoMetadata {
  /** 1–100 characters, no < or > (youtubeTitle makes one from a clip title). */
  title: string;
  /** At most 5,000 bytes, no < or >. */
  description: string;
  tags: readonly string[];
  /** Chosen by the user; there is no default on purpose. */
  privacyStatus: YouTubePrivacy;
  /** Sent on every upload: YouTube requires the audience declaration (COPPA). */
  madeForKids: boolean;
  /** Default '20' (Gaming). */
  categoryId?: string;
  /** Whether YouTube tells the channel's subscribers about the video; default false (YouTube's own default is true). */
  notifySubscribers?: boolean;
}

/** Where a resumable upload stands at YouTube. */
export type UploadState = { complete: string } | { received: number };

/** Reads `bytes` [start, end) of the video; used when it is not a local file. */
export type ReadChunk = (start: number, end: number) => Promise<Uint8Array>;

export interface UploadChunksOptions {
  /** The first byte to send (default 0); after a restart ask queryUpload where YouTube stands. */
  startAt?: number;
  /** A multiple of 256 KiB (default 8 MiB). */
  chunkSize?: number;
  signal?: AbortSignal;
  /** After each answer, with the bytes YouTube holds so far. */
  onProgress?: (receivedBytes: number, totalBytes: number) => void;
}
