import { z } from 'zod';
import { graphId, seconds } from '../meta/types.ts';

/*
 * Schemas of the Facebook Graph answers we read and the shapes the client returns. Objects are not
 * strict: Meta adds fields over time.
 */

/** Listing the person's Pages, reading their engagement, and posting Reels to them. */
export const FACEBOOK_SCOPES: readonly string[] = ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_video'];

/** oauth/access_token: a user token; expires_in is absent for tokens that do not expire. */
export const userTokenSchema = z.object({ access_token: z.string().min(1), token_type: z.string().optional(), expires_in: seconds.optional() });

export interface FacebookUserToken {
  /** The long-lived user token (about 60 days); its Page tokens do not expire. */
  accessToken: string;
  /** null: a token Facebook gave no end to. */
  expiresAt: Date | null;
}

export const permissionsSchema = z.object({ data: z.array(z.object({ permission: z.string(), status: z.string() })).default([]) });

export const pagesSchema = z.object({
  data: z
    .array(
      z.object({
        id: graphId,
        name: z.string().default(''),
        access_token: z.string().min(1).optional(),
        picture: z.object({ data: z.object({ url: z.string().optional() }).optional() }).optional(),
        tasks: z.array(z.string()).optional(),
      }),
    )
    .default([]),
  paging: z.object({ cursors: z.object({ after: z.string().optional() }).optional(), next: z.string().optional() }).optional(),
});

export interface FacebookPage {
  pageId: string;
  name: string;
  /** The Page token: what posts to the Page (stored encrypted by the caller). */
  accessToken: string;
  pictureUrl: string | null;
  /** What the person may do on the Page (CREATE_CONTENT is needed to post). */
  tasks: string[];
}

export const reelStartSchema = z.object({ video_id: graphId, upload_url: z.string().optional() });

/** A Reel's upload session: the video id Facebook made and where its bytes go. */
export interface ReelUpload {
  videoId: string;
  uploadUrl: string;
}

export const successSchema = z.object({ success: z.boolean(), post_id: graphId.optional() });

const phaseErrors = z.array(z.object({ code: z.number().optional(), message: z.string().optional() })).optional();

export const reelStatusSchema = z.object({
  id: graphId.optional(),
  status: z.object({
    video_status: z.string().optional(),
    uploading_phase: z.object({ status: z.string(), bytes_transferred: z.number().int().nonnegative().optional(), errors: phaseErrors }).optional(),
    processing_phase: z.object({ status: z.string(), errors: phaseErrors }).optional(),
    publishing_phase: z.object({ status: z.string(), publish_status: z.string().optional(), publish_time: z.union([z.string(), z.number()]).optional(), errors: phaseErrors }).optional(),
  }),
});

export interface ReelStatus {
  videoId: string;
  /** upload_complete, processing, ready, error, expired… as Facebook names it. */
  videoStatus: string | null;
  uploading: { status: string | null; bytesTransferred: number | null };
  processing: { status: string | null; error: string | null };
  publishing: { status: string | null; publishStatus: string | null; error: string | null };
}

export const videoInsightsSchema = z.object({
  data: z
    .array(z.object({ name: z.string(), values: z.array(z.object({ value: z.union([z.number(), z.record(z.string(), z.number())]) })).default([]) }))
    .default([]),
});

const summary = z.object({ summary: z.object({ total_count: z.number().int().nonnegative() }).optional() }).optional();
export const engagementSchema = z.object({ likes: summary, comments: summary });

export interface ReelMetadata {
  /** The Reel's text (Facebook's "description"). */
  description: string;
}

/** Reads `bytes` [start, end) of the video; used when it is not a local file. */
export type ReadChunk = (start: number, end: number) => Promise<Uint8Array>;

export interface UploadBytesOptions {
  /** The first byte to send (default 0); after a restart ask reelStatus where the upload stands. */
  startAt?: number;
  signal?: AbortSignal;
  /** After each answer, with the bytes Facebook holds so far. */
  onProgress?: (receivedBytes: number, totalBytes: number) => void;
}
