import { z } from 'zod';
import { jobContract } from './define.ts';

/*
 * Every job's name and payload, with no domain code: a domain queues another domain's job through
 * its contract (a saved clip queues auto-publish) without importing that domain. The names are the
 * task identifiers stored in graphile-worker's tables; jobs queued by earlier versions must still
 * find their task, so a renamed job keeps its old name in formerNames. The key prefixes are read back by recovery.
 */

const empty = z.object({});

/** Hourly housekeeping (cron): log retention, expired sessions, rate-limit windows, sign-in locks. */
export const LOGS_TRIM_JOB = jobContract('logs/trim', empty);

/** Hourly (cron): MEDIA_RETENTION_DAYS deletes the video files of clips posted long enough ago. */
export const MEDIA_RETENTION_JOB = jobContract('publishing/expire-media', empty);

/**
 * Every 10 minutes (cron): the statistics of published posts that are due. Keyed, so a queued
 * refresh is never doubled; the job itself also holds a lock so that two never run at once.
 */
export const REFRESH_STATS_JOB = jobContract('publishing/refresh-stats', empty, { maxAttempts: 1, key: () => 'publishing-refresh-stats' });

/**
 * Daily (cron): tokens whose grant ends within a week are refreshed, so that an account that does
 * not post (an Instagram token lives 60 days) stays connected. Keyed, so a queued run is never doubled.
 */
export const REFRESH_TOKENS_JOB = jobContract('publishing/refresh-tokens', empty, { maxAttempts: 1, key: () => 'publishing-refresh-tokens' });

/** Every minute (cron): work of processes that died elsewhere. */
export const RECOVER_JOB = jobContract('downloads/recover', empty);

/** One download run. One attempt: a failed run is reported as failed, not silently retried hours later. */
export const RUN_JOB = jobContract('downloads/run', z.object({ runId: z.uuid() }), { maxAttempts: 1, key: ({ runId }) => `run:${runId}` });

/** A streamer's next scheduled run, keyed per streamer so an edit replaces it. */
export const SCHEDULE_JOB = jobContract('downloads/schedule', z.object({ streamerId: z.uuid() }), {
  maxAttempts: 3,
  key: ({ streamerId }) => `schedule:${streamerId}`,
});

/** One subtitle request (its HTTP call waits on it). */
export const SUBTITLE_JOB = jobContract('subtitles/generate', z.object({ requestId: z.uuid() }), {
  maxAttempts: 1,
  key: ({ requestId }) => `subtitles:${requestId}`,
});

/** One re-render of a clip with its saved settings (answered at once; the clip shows its progress). */
export const RENDER_JOB = jobContract('clips/render', z.object({ requestId: z.uuid() }), {
  maxAttempts: 1,
  key: ({ requestId }) => `render:${requestId}`,
});

/**
 * One clip to one account of any platform; what the upload saves before sending (publish id, upload
 * session, container) keeps it to one post. Named 'tiktok/post' until every platform shared it.
 */
export const POST_JOB = jobContract('publishing/post', z.object({ uploadId: z.uuid() }), {
  maxAttempts: 3,
  key: ({ uploadId }) => `upload:${uploadId}`,
  formerNames: ['tiktok/post'],
});

/** A clip just saved by a run of an auto_publish streamer: post it to the streamer's linked accounts. */
export const AUTO_PUBLISH_JOB = jobContract('publishing/auto-publish', z.object({ clipRowId: z.uuid() }), {
  maxAttempts: 3,
  key: ({ clipRowId }) => `auto-publish:${clipRowId}`,
});

/**
 * One try of one webhook delivery. The job reschedules itself (run_at) for the next try with the
 * notifications domain's backoff, so graphile-worker's own retries only cover crashes mid-try.
 */
export const WEBHOOK_DELIVERY_JOB = jobContract('notifications/deliver', z.object({ deliveryId: z.uuid() }), {
  maxAttempts: 3,
  key: ({ deliveryId }) => `webhook:${deliveryId}`,
});

/**
 * Every minute (cron): whether each watched streamer is live (Helix, at most once a minute each).
 * Keyed, so a queued check is never doubled.
 */
export const LIVE_CHECK_JOB = jobContract('moments/check-live', empty, { maxAttempts: 1, key: () => 'moments-check-live' });

/**
 * A moment at or above its streamer's threshold: make its Twitch clip, then a run that downloads
 * it. Retried (graphile-worker's growing backoff) while the streamer's other run is busy.
 */
export const MOMENT_CLIP_JOB = jobContract('moments/clip', z.object({ momentId: z.uuid() }), {
  maxAttempts: 12,
  key: ({ momentId }) => `moment:${momentId}`,
});
