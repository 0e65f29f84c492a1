import { wallClock, zonedInstant } from '../../../platform/zoned-time.ts';

/*
 * YouTube's quota day ends at midnight Pacific time (America/Los_Angeles), whatever the caller's
 * zone; the offset moves between -08:00 and -07:00 with daylight saving, so it is read from the
 * time-zone database (platform/zoned-time.ts) rather than assumed.
 */

export const QUOTA_TIME_ZONE = 'America/Los_Angeles';

/**
 * A Google project's daily quota has two buckets: uploads (videos.insert, one call each; 100 a day
 * by default, YOUTUBE_DAILY_UPLOADS) and units for every other Data API call (10,000 by default,
 * YOUTUBE_DAILY_UNITS). Units of the calls Clipshift makes, as Google's quota calculator lists them
 * (OAuth calls and the bytes of an upload cost none):
 */
export const QUOTA_UNITS = { channelsList: 1, videosList: 1 } as const;
/** videos.list takes at most 50 ids per request. */
export const MAX_IDS_PER_LIST = 50;

/** Units the lists of these video ids cost: one videos.list per 50 distinct ids. */
export function videosListUnits(ids: readonly string[]): number {
  return Math.ceil(new Set(ids).size / MAX_IDS_PER_LIST) * QUOTA_UNITS.videosList;
}

/** The quota day `now` falls in, as YYYY-MM-DD: the calendar date in Los Angeles. */
export function quotaDay(now: Date | number): string {
  const today = wallClock(typeof now === 'number' ? now : now.getTime(), QUOTA_TIME_ZONE);
  return `${today.year}-${String(today.month).padStart(2, '0')}-${String(today.day).padStart(2, '0')}`;
}

/**
 * The instant the quota resets after `now`: the next 00:00 in Los Angeles. Midnight is never
 * skipped or repeated there (the clocks change at 02:00), so it always exists exactly once.
 */
export function nextPacificMidnight(now: Date | number): Date {
  const today = wallClock(typeof now === 'number' ? now : now.getTime(), QUOTA_TIME_ZONE);
  // Date.UTC rolls day 32 over into the next month, and December 32 into the next year.
  return new Date(zonedInstant(Date.UTC(today.year, today.month - 1, today.day + 1), QUOTA_TIME_ZONE));
}

export interface QuotaWaitWording {
  /** The reader's IANA zone (e.g. the user's setting); without it the time is given in UTC. */
  timeZone?: string;
  locale?: string;
}

/**
 * "YouTube's daily upload quota is used up; the post waits until it resets at midnight Pacific time
 * (09:00 your time)." The reader's clock time is added because "midnight Pacific" means nothing to
 * most people outside California.
 */
export function explainQuotaWait(retryAt: Date, wording: QuotaWaitWording = {}): string {
  const local = new Intl.DateTimeFormat(wording.locale ?? 'en-GB', {
    timeZone: wording.timeZone ?? 'UTC',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(retryAt);
  const whose = wording.timeZone ? 'your time' : 'UTC';
  return `YouTube's daily upload quota is used up; the post waits until it resets at midnight Pacific time (${local} ${whose}).`;
}
