/*
 * Wall clocks of IANA time zones with Intl alone (Temporal is not in Node 20): what a zone's clock
 * shows at an instant, and the instant at which it shows a given time. Offsets are read from the
 * time-zone database, never assumed, so daylight-saving days come out right:
 * - a wall time inside the hour a spring-forward day skips maps to the moment the clocks jump
 *   (the first minute that exists);
 * - a wall time inside the hour a fall-back day repeats maps to its first occurrence.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function wallClock(instant: number, timezone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timezone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** The wall clock at `instant` written as if it were UTC, in ms: the instant plus the zone's offset. */
function wallMs(instant: number, timezone: string): number {
  const wall = wallClock(instant, timezone);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

function offsetAt(instant: number, timezone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return wallMs(whole, timezone) - whole;
}

/**
 * The instant at which the zone's clocks show `wall` (ms written as UTC). A skipped wall time gives
 * the moment the clocks jump; a repeated one its first occurrence.
 */
export function zonedInstant(wall: number, timezone: string): number {
  // Offsets change at most once within two days in every zone, so one before and one after suffice.
  const before = wall - offsetAt(wall - DAY_MS, timezone);
  const after = wall - offsetAt(wall + DAY_MS, timezone);
  const exact = [before, after].filter((instant) => wallMs(instant, timezone) === wall).sort((a, b) => a - b);
  if (exact.length) return exact[0]!;
  // In the gap: the earliest instant whose wall clock is past `wall` is when the clocks jumped.
  let low = Math.min(before, after);
  let high = Math.max(before, after);
  while (high - low > MINUTE_MS) {
    const middle = Math.floor((low + high) / 2 / MINUTE_MS) * MINUTE_MS;
    if (wallMs(middle, timezone) > wall) high = middle;
    else low = middle;
  }
  return high;
}

/** "2025-03-30": the zone's calendar day at `instant`. */
export function localDay(instant: number, timezone: string): string {
  const wall = wallClock(instant, timezone);
  return `${wall.year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;
}
