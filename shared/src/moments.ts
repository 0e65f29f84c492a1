import { z } from 'zod';
import { queryInt } from './input.ts';

/*
 * Moments (rest-api.md, "Moments"): bursts of a live stream's chat, scored 0..1 with the reasons in
 * plain sentences; a strong enough one becomes a Twitch clip made with the user's connected account.
 */

export const MOMENT_STATUSES = ['found', 'clipped', 'skipped', 'failed'] as const;
export type MomentStatus = (typeof MOMENT_STATUSES)[number];

export const MOMENT_THRESHOLD_DEFAULT = 0.6;
const MOMENT_THRESHOLD_RULE = 'moment_threshold must be a number from 0 to 1';

/** What a moment waits for when nobody can make its clip. */
export const CONNECT_TWITCH_FOR_MOMENTS = 'Connect Twitch to turn moments into clips';

/** A streamer's moment settings, as written (POST/PUT /api/streamers). */
export const streamerMomentFields = {
  watch_live: z.boolean({ error: 'watch_live must be true or false' }),
  moment_threshold: z.number({ error: MOMENT_THRESHOLD_RULE }).min(0, MOMENT_THRESHOLD_RULE).max(1, MOMENT_THRESHOLD_RULE),
};

export const STREAMER_MOMENT_DEFAULTS = { watch_live: false, moment_threshold: MOMENT_THRESHOLD_DEFAULT } as const satisfies StreamerMoments;

/** A streamer's moment settings as the API shows them. */
export const streamerMoments = z.object({ watch_live: z.boolean(), moment_threshold: z.number() });
export type StreamerMoments = z.infer<typeof streamerMoments>;

export const moment = z.object({
  id: z.string(),
  streamer: z.string(),
  detected_at: z.string(),
  /** Seconds from the stream's start to where the moment begins. */
  stream_offset: z.number().int().min(0),
  score: z.number().min(0).max(1),
  reasons: z.array(z.string()),
  /** The Twitch clip made of it, once there is one. */
  clip_id: z.string().nullable(),
  status: z.enum(MOMENT_STATUSES),
  /** Why it was skipped or failed, or what it waits for; null otherwise. */
  error: z.string().nullable(),
});
export type Moment = z.infer<typeof moment>;

/** What a clip made of a moment carries to its details and the review inbox. */
export const clipMoment = z.object({ score: z.number().min(0).max(1), reasons: z.array(z.string()) });
export type ClipMoment = z.infer<typeof clipMoment>;

export const MOMENT_PAGE_MAX = 200;
export const MOMENT_PAGE_DEFAULT = 50;
const MOMENT_LIMIT_RULE = `limit must be a whole number from 1 to ${MOMENT_PAGE_MAX}`;

export const listMomentsInput = z
  .object({
    streamer: z.string().trim().max(64).optional(),
    limit: queryInt(z.number().int(MOMENT_LIMIT_RULE).min(1, MOMENT_LIMIT_RULE).max(MOMENT_PAGE_MAX, MOMENT_LIMIT_RULE), MOMENT_LIMIT_RULE).default(MOMENT_PAGE_DEFAULT),
  })
  .default({ limit: MOMENT_PAGE_DEFAULT });
export type ListMomentsInput = z.infer<typeof listMomentsInput>;

/** "0.82" as people read it: "82%". */
export function momentScoreLabel(score: number): string {
  return `${Math.round(score * 100)}%`;
}

/** "1:02:15" / "12:05": where in the stream the moment is. */
export function streamOffsetLabel(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}
