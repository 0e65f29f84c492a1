import { WEEKDAY_NAMES, type PostingSlot } from '@clipshift/shared';

/*
 * Which posting slot a new post takes: pure, so time zones, DST days, caps and gaps are tested
 * without a database or a clock. Wall-clock times are turned into instants with Intl alone
 * (Temporal is not in Node 20):
 * - a slot inside the hour that a spring-forward day skips (02:30 in Europe/Berlin on the last
 *   Sunday of March) fires when the clocks jump, at the first minute that exists (03:00): the
 *   day keeps its post, at the earliest moment that is not before the slot's time;
 * - a slot inside the hour that a fall-back day repeats fires at its first occurrence.
 */

export interface SlotRules {
  timezone: string;
  slots: readonly PostingSlot[];
  /** Posts per local day of `timezone`, counting those already scheduled or posted; null = no cap. */
  dailyCap: number | null;
  minGapMinutes: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** How far ahead a free slot is looked for: a queue longer than this is a mistake, not a plan. */
export const SLOT_HORIZON_DAYS = 400;

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

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(instant: number, timezone: string): WallClock {
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
 * the moment the clocks jump; a repeated one its first occurrence (see the top of this file).
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

/** The slots of one local day, as instants, soonest first. */
function slotsOfDay(dayStartWall: number, rules: SlotRules): number[] {
  const weekday = new Date(dayStartWall).getUTCDay();
  return rules.slots
    .filter((slot) => slot.day === weekday)
    .map((slot) => {
      const [hour, minute] = slot.time.split(':').map(Number);
      return zonedInstant(dayStartWall + (hour! * 60 + minute!) * MINUTE_MS, rules.timezone);
    })
    .sort((a, b) => a - b);
}

/**
 * The next free slot at or after `now` (ms), or null when the account has no slots (it posts at
 * once). `taken` are the times of the account's other posts, scheduled or already made: a slot is
 * free when its local day holds fewer than dailyCap of them and none lies closer than
 * minGapMinutes (or in the same minute). Throws when nothing is free within SLOT_HORIZON_DAYS.
 */
export function nextFreeSlot(rules: SlotRules, taken: readonly number[], now: number): number | null {
  if (!rules.slots.length) return null;
  const gapMs = Math.max(rules.minGapMinutes * MINUTE_MS, MINUTE_MS);
  const perDay = new Map<string, number>();
  for (const instant of taken) {
    const day = localDay(instant, rules.timezone);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  const today = wallClock(now, rules.timezone);
  const todayStartWall = Date.UTC(today.year, today.month - 1, today.day);
  for (let offset = 0; offset <= SLOT_HORIZON_DAYS; offset++) {
    const dayStartWall = todayStartWall + offset * DAY_MS;
    const day = new Date(dayStartWall).toISOString().slice(0, 10);
    if (rules.dailyCap !== null && (perDay.get(day) ?? 0) >= rules.dailyCap) continue;
    for (const candidate of slotsOfDay(dayStartWall, rules)) {
      if (candidate < now) continue;
      if (taken.some((instant) => Math.abs(instant - candidate) < gapMs)) continue;
      return candidate;
    }
  }
  throw new Error(`No free posting slot in the next ${SLOT_HORIZON_DAYS} days`);
}

/** "Tue 18:00" in the zone: how a slot is named to people. */
export function slotLabel(instant: number, timezone: string): string {
  const wall = wallClock(instant, timezone);
  const weekday = WEEKDAY_NAMES[new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay()]!.slice(0, 3);
  return `${weekday} ${String(wall.hour).padStart(2, '0')}:${String(wall.minute).padStart(2, '0')}`;
}
