import { z } from 'zod';
import { CLIP_LIMIT_MAX, CLIP_LIMIT_MIN, CONCURRENCY_MAX, CONCURRENCY_MIN } from './constants.ts';
import { skipCountsSchema } from './selection.ts';
import { CLIP_LIMIT_RULE } from './streamers.ts';

export const DOWNLOAD_STATUSES = ['downloading', 'stopping', 'completed', 'stopped', 'error'] as const;

/** downloading and stopping are busy: no new start, no edit, no delete (spec section 4). */
export function isBusyStatus(status: string | null | undefined): boolean {
  return status === 'downloading' || status === 'stopping';
}

export type StatusTone = 'info' | 'warning' | 'success' | 'danger' | 'neutral';

/** Badge colours by status; anything unknown is neutral (spec section 4). */
export function statusTone(status: string | null | undefined): StatusTone {
  switch (status) {
    case 'downloading':
      return 'info';
    case 'stopping':
      return 'warning';
    case 'completed':
      return 'success';
    case 'error':
      return 'danger';
    case null:
    case undefined:
    default:
      return 'neutral';
  }
}

const CLIP_STAGES = ['queued', 'downloading', 'probing', 'transcribing', 'waiting_to_render', 'rendering', 'thumbnail', 'saving'] as const;
export type ClipStage = (typeof CLIP_STAGES)[number];

const clipProgress = z.object({
  clip_id: z.string(),
  title: z.string(),
  stage: z.enum(CLIP_STAGES),
  /** 0..100 within the stage that has measurable progress (download, render). */
  percent: z.number(),
});
export type ClipProgress = z.infer<typeof clipProgress>;

const statusEntry = z.object({
  status: z.string(),
  clips_downloaded: z.number(),
  clips_total: z.number(),
  clips_failed: z.number(),
  started_at: z.string(),
  completed_at: z.string().nullable(),
  error: z.string().nullable(),
  /** The clips being worked on right now, with their stage and percentage. */
  progress: z.array(clipProgress),
  /** Listed clips the streamer's selection rules skipped, by reason; absent before the run has listed. */
  skipped: skipCountsSchema.optional(),
});
export type StatusEntry = z.infer<typeof statusEntry>;

export const statusMap = z.record(z.string(), statusEntry);
export type StatusMap = z.infer<typeof statusMap>;

const CONCURRENCY_RULE = 'Concurrency must be a whole number from 1 to 20';

const optionalLimit = z
  .number({ error: CLIP_LIMIT_RULE })
  .int(CLIP_LIMIT_RULE)
  .min(CLIP_LIMIT_MIN, CLIP_LIMIT_RULE)
  .max(CLIP_LIMIT_MAX, CLIP_LIMIT_RULE)
  .optional();

/** Start accepts `limit` or `clip_limit` (the streamers screen sends the latter). */
export const startDownloadInput = z.object({
  name: z.string().trim().min(1),
  limit: optionalLimit,
  clip_limit: optionalLimit,
  vertical: z.boolean({ error: 'vertical must be true or false' }).optional(),
  /** The user's concurrency preference (app-settings); without it the one saved in Settings. Bounded by WORKER_CONCURRENCY. */
  concurrency: z.number({ error: CONCURRENCY_RULE }).int(CONCURRENCY_RULE).min(CONCURRENCY_MIN, CONCURRENCY_RULE).max(CONCURRENCY_MAX, CONCURRENCY_RULE).optional(),
});
export type StartDownloadInput = z.infer<typeof startDownloadInput>;

export const startDownloadResult = z.object({
  message: z.string(),
  status: z.literal('downloading'),
  clips_downloaded: z.literal(0),
  started_at: z.string(),
});

/** Overall percentage of a run: finished clips plus the fractions of those in flight. */
export function runPercent(entry: Pick<StatusEntry, 'clips_downloaded' | 'clips_failed' | 'clips_total' | 'progress'>): number {
  if (entry.clips_total <= 0) return 0;
  const inFlight = entry.progress.reduce((sum, clip) => sum + clip.percent / 100, 0);
  const done = entry.clips_downloaded + entry.clips_failed + inFlight;
  return Math.min(100, Math.round((done / entry.clips_total) * 100));
}
