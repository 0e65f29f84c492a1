import { describe, expect, it } from 'vitest';
import { postingScheduleInput } from '@clipshift/shared';
import { nextFreeSlot, slotLabel, type SlotRules } from '../../server/src/domains/publishing/slots.ts';
import { localDay, zonedInstant } from '../../server/src/platform/zoned-time.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const rules = (overrides: Partial<SlotRules>): SlotRules => ({ timezone: 'UTC', slots: [], dailyCap: null, minGapMinutes: 0, ...overrides });

describe('posting slots (pure)', () => {
  it('posts at once without slots', () => {
    expect(nextFreeSlot(rules({}), [], at('2025-01-01T00:00:00Z'))).toBeNull();
  });

  it('takes the next slot of the week in the account’s zone, skipping taken ones', () => {
    // Wednesday 2025-01-01; slots Wed 18:00 and Fri 09:30 in New York (UTC-5 in winter).
    const schedule = rules({ timezone: 'America/New_York', slots: [{ day: 3, time: '18:00' }, { day: 5, time: '09:30' }] });
    const now = at('2025-01-01T12:00:00Z');
    expect(iso(nextFreeSlot(schedule, [], now))).toBe('2025-01-01T23:00:00.000Z');
    expect(iso(nextFreeSlot(schedule, [at('2025-01-01T23:00:00Z')], now))).toBe('2025-01-03T14:30:00.000Z');
    // Past today's slot: next week's Wednesday is after Friday.
    expect(iso(nextFreeSlot(schedule, [], at('2025-01-01T23:00:01Z')))).toBe('2025-01-03T14:30:00.000Z');
    expect(slotLabel(at('2025-01-03T14:30:00Z'), 'America/New_York')).toBe('Fri 09:30');
  });

  it('moves a slot in the hour skipped by spring-forward to the jump (03:00), and keeps wall times across the change', () => {
    // Europe/Berlin jumps 02:00 → 03:00 on Sunday 2025-03-30 (01:00 UTC).
    const schedule = rules({ timezone: 'Europe/Berlin', slots: [{ day: 0, time: '02:30' }, { day: 0, time: '18:00' }, { day: 6, time: '18:00' }] });
    const saturday = at('2025-03-29T12:00:00Z');
    expect(iso(nextFreeSlot(schedule, [], saturday))).toBe('2025-03-29T17:00:00.000Z'); // 18:00 CET
    const taken = [at('2025-03-29T17:00:00Z')];
    const skipped = nextFreeSlot(schedule, taken, saturday)!;
    expect(iso(skipped)).toBe('2025-03-30T01:00:00.000Z');
    expect(slotLabel(skipped, 'Europe/Berlin')).toBe('Sun 03:00');
    // After the change 18:00 is CEST (UTC+2).
    expect(iso(nextFreeSlot(schedule, [...taken, skipped], saturday))).toBe('2025-03-30T16:00:00.000Z');
    // The repeated hour of fall-back (2025-10-26, 03:00 CEST → 02:00 CET): its first occurrence.
    expect(iso(zonedInstant(Date.UTC(2025, 9, 26, 2, 30), 'Europe/Berlin'))).toBe('2025-10-26T00:30:00.000Z');
  });

  it('keeps the daily cap per local day of the zone, counting posts already made', () => {
    // Tokyo is UTC+9: 2025-01-01T20:00Z is already Jan 2 there.
    const schedule = rules({
      timezone: 'Asia/Tokyo',
      slots: [0, 1, 2, 3, 4, 5, 6].flatMap((day) => [{ day, time: '09:00' }, { day, time: '12:00' }, { day, time: '21:00' }]),
      dailyCap: 2,
    });
    const now = at('2025-01-01T20:00:00Z'); // Thu 05:00 in Tokyo
    const postedEarlierToday = at('2025-01-01T19:00:00Z'); // Thu 04:00 local, an immediate post
    const first = nextFreeSlot(schedule, [postedEarlierToday], now)!;
    expect(slotLabel(first, 'Asia/Tokyo')).toBe('Thu 09:00');
    // The cap (2) is reached with the one posted earlier that local day: the next goes to Friday.
    const second = nextFreeSlot(schedule, [postedEarlierToday, first], now)!;
    expect(slotLabel(second, 'Asia/Tokyo')).toBe('Fri 09:00');
    expect(localDay(second, 'Asia/Tokyo')).toBe('2025-01-03');
  });

  it('keeps the minimum gap to scheduled and recent posts', () => {
    const schedule = rules({ slots: [{ day: 3, time: '10:00' }, { day: 3, time: '10:30' }, { day: 3, time: '12:00' }], minGapMinutes: 60 });
    const now = at('2025-01-01T09:00:00Z');
    // A post made at 09:30 keeps 10:00 and 10:30 free of others for an hour.
    expect(iso(nextFreeSlot(schedule, [at('2025-01-01T09:30:00Z')], now))).toBe('2025-01-01T10:30:00.000Z');
    expect(iso(nextFreeSlot(schedule, [at('2025-01-01T10:00:00Z')], now))).toBe('2025-01-01T12:00:00.000Z');
  });

  it('validates schedules: zones by Intl, times, caps, and sorts slots', () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const ok = postingScheduleInput.parse({ id, timezone: 'utc', slots: [{ day: 2, time: '09:00' }, { day: 1, time: '18:00' }, { day: 2, time: '09:00' }], daily_cap: null, min_gap_minutes: 0 });
    expect(ok.timezone).toBe('UTC');
    expect(ok.slots).toEqual([{ day: 1, time: '18:00' }, { day: 2, time: '09:00' }]);
    for (const bad of [{ timezone: 'Mars/Olympus' }, { slots: [{ day: 1, time: '24:00' }] }, { slots: [{ day: 7, time: '10:00' }] }, { daily_cap: 0 }, { min_gap_minutes: -1 }]) {
      expect(postingScheduleInput.safeParse({ id, timezone: 'UTC', slots: [], daily_cap: null, min_gap_minutes: 0, ...bad }).success).toBe(false);
    }
  });
});
