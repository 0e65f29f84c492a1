import { DAY_MS, MINUTE_MS } from '../../platform/zoned-time.ts';

/**
 * When a published post's statistics are read (issue 14): at once, then hourly for the first 7
 * days after publishing, then daily until 30 days, then never again. One place for the rule: the
 * post jobs (every platform) set the first reading, the refresh job the following ones.
 */

const HOUR_MS = 60 * MINUTE_MS;
/** Readings are hourly until this long after publishing… */
export const HOURLY_FOR_MS = 7 * DAY_MS;
/** …then daily until this long after publishing; none after. */
export const DAILY_UNTIL_MS = 30 * DAY_MS;

/** The first reading of a post published at `publishedAt`: at once. */
export function firstStatsDue(publishedAt: Date): Date {
  return publishedAt;
}

/**
 * The reading after one made at `now` of a post published at `publishedAt`: an hour later within
 * the first 7 days, a day later until 30 days, null afterwards. A step that would cross a boundary
 * is cut at it (the last hourly reading is followed by the first daily one 7 days in; the last
 * reading falls on day 30 at the latest).
 */
export function nextStatsDue(publishedAt: Date, now: Date): Date | null {
  const published = publishedAt.getTime();
  const at = now.getTime();
  const age = at - published;
  if (age >= DAILY_UNTIL_MS) return null;
  if (age < HOURLY_FOR_MS) return new Date(Math.min(at + HOUR_MS, published + HOURLY_FOR_MS));
  return new Date(Math.min(at + DAY_MS, published + DAILY_UNTIL_MS));
}
