import { WEEKDAY_NAMES, type PostingSlot } from '@clipshift/shared';
import { DAY_MS, localDay, MINUTE_MS, wallClock, zonedInstant } from '../../platform/zoned-time.ts';

/*
 * Which posting slot a new post takes: pure, so time zones, DST days, caps and gaps are tested
 * without a database or a clock. Wall-clock times become instants in platform/zoned-time.ts:
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

/** How far ahead a free slot is looked for: a queue longer than this is a mistake, not a plan. */
export const SLOT_HORIZON_DAYS = 400;

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
