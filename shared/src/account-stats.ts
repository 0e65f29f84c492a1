import { z } from 'zod';
import { ACCOUNT_PLATFORMS } from './accounts.ts';

/*
 * GET /api/accounts/{id}/stats?days=30 (tRPC accounts.stats): one account's published posts
 * summed, its daily views and its best clips. Written against the contract of issue 14 while the
 * server part is built beside it; the server's own schema replaces this one when they meet.
 */

export const ACCOUNT_STATS_DAYS = 30;

export const accountStatsInput = z.object({ id: z.string().trim().min(1), days: z.number().int().min(1).max(365).optional() });

export const accountStatsTotals = z.object({
  views: z.number().int().nonnegative(),
  likes: z.number().int().nonnegative(),
  comments: z.number().int().nonnegative(),
  /** null where the platform does not count shares (YouTube). */
  shares: z.number().int().nonnegative().nullable(),
  posts: z.number().int().nonnegative(),
});

export const accountStatsPoint = z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), views: z.number().int().nonnegative() });
export type AccountStatsPoint = z.infer<typeof accountStatsPoint>;

export const accountTopClip = z.object({
  upload_id: z.string(),
  clip_id: z.string(),
  title: z.string(),
  views: z.number().int().nonnegative(),
  likes: z.number().int().nonnegative(),
  comments: z.number().int().nonnegative(),
  shares: z.number().int().nonnegative().nullable(),
  published_at: z.string().nullable(),
});
export type AccountTopClip = z.infer<typeof accountTopClip>;

export const accountStats = z.object({
  account_id: z.string(),
  platform: z.enum(ACCOUNT_PLATFORMS),
  totals: accountStatsTotals,
  series: z.array(accountStatsPoint),
  top: z.array(accountTopClip),
});
export type AccountStats = z.infer<typeof accountStats>;
