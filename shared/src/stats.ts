import { z } from 'zod';
import { ACCOUNT_PLATFORMS } from './accounts.ts';
import { queryInt, rowId } from './input.ts';

/** GET /api/accounts/{id}/stats: how far back the chart goes, in days. */
export const STATS_DAYS_DEFAULT = 30;
export const STATS_DAYS_MAX = 90;
/** How many of the account's best posts `top` lists. */
export const STATS_TOP_POSTS = 5;
const DAYS_RULE = `days must be a whole number between 1 and ${STATS_DAYS_MAX}`;

export const accountStatsInput = z.object({
  id: rowId('id is required'),
  days: queryInt(z.number().int(DAYS_RULE).min(1, DAYS_RULE).max(STATS_DAYS_MAX, DAYS_RULE), DAYS_RULE).default(STATS_DAYS_DEFAULT),
});

const count = z.number().int().nonnegative();

/** An account's post statistics: totals of its latest counts, views per day, its best posts. */
export const accountStats = z.object({
  account_id: z.string(),
  platform: z.enum(ACCOUNT_PLATFORMS),
  /** Sums of every published post's latest counts; posts counts those with any. shares is null when the platform tells none (YouTube). */
  totals: z.object({ views: count, likes: count, comments: count, shares: count.nullable(), posts: count }),
  /** One entry per UTC day, oldest first, ending today: the views of all the account's posts as last read by the end of that day. */
  series: z.array(z.object({ date: z.string(), views: count })),
  /** The account's most-viewed posts, best first. */
  top: z.array(
    z.object({
      upload_id: z.string(),
      clip_id: z.string(),
      title: z.string(),
      views: count,
      likes: count,
      comments: count,
      shares: count.nullable(),
      published_at: z.string().nullable(),
    }),
  ),
});
export type AccountStats = z.infer<typeof accountStats>;
