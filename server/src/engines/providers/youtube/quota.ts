/*
 * YouTube's quota day ends at midnight Pacific time (America/Los_Angeles), whatever the caller's
 * zone; the offset moves between -08:00 and -07:00 with daylight saving, so it is read from the
 * time-zone database through Intl rather than assumed.
 */

export const QUOTA_TIME_ZONE = 'America/Los_Angeles';

/** Units of a project's default daily quota, and what one upload (videos.insert) costs. */
export const DEFAULT_DAILY_QUOTA = 10_000;
export const UPLOAD_QUOTA_COST = 1_600;

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: QUOTA_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function pacificWallTime(instant: number): WallTime {
  const parts = Object.fromEntries(wallClock.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  const read = (name: string) => Number(parts[name]);
  return { year: read('year'), month: read('month'), day: read('day'), hour: read('hour'), minute: read('minute'), second: read('second') };
}

/** Pacific wall time minus UTC at an instant, in ms (-8 h in winter, -7 h in summer). */
function pacificOffsetMs(instant: number): number {
  const wall = pacificWallTime(instant);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant the quota resets after `now`: the next 00:00 in Los Angeles. Midnight is never
 * skipped or repeated there (the clocks change at 02:00), so it always exists exactly once; the
 * offset is taken at that midnight itself, which is what matters on the days the clocks change.
 */
export function nextPacificMidnight(now: Date | number): Date {
  const instant = typeof now === 'number' ? now : now.getTime();
  const today = pacificWallTime(instant);
  // Date.UTC rolls day 32 over into the next month, and December 32 into the next year.
  const midnightAsUtc = Date.UTC(today.year, today.month - 1, today.day + 1);
  let guess = midnightAsUtc - pacificOffsetMs(instant);
  guess = midnightAsUtc - pacificOffsetMs(guess);
  return new Date(guess);
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
