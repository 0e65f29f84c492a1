import { z } from 'zod';
import { rowId } from './input.ts';
import { UPLOAD_STATUSES } from './posting.ts';
import { ACCOUNT_PLATFORMS } from './accounts.ts';

/*
 * Posting slots and the posting queue (rest-api.md "Automation"): a weekly grid of local times per
 * account, a daily cap and a minimum gap; posts wait for their slot as uploads in `scheduled`.
 */

export const DAILY_CAP_MAX = 100;
export const MIN_GAP_MAX_MINUTES = 1440;
export const SLOTS_MAX = 200;
/** Sunday first, as JavaScript's Date.getDay() and the contract's `day` count. */
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

const TIME_RULE = "time must be a 24-hour time 'HH:MM' (00:00 to 23:59)";
const DAY_RULE = 'day must be a whole number from 0 (Sunday) to 6 (Saturday)';
const ZONE_RULE = 'timezone must be an IANA time zone such as Europe/Berlin or America/New_York';
const CAP_RULE = `daily_cap must be null (no cap) or a whole number from 1 to ${DAILY_CAP_MAX}`;
const GAP_RULE = `min_gap_minutes must be a whole number from 0 to ${MIN_GAP_MAX_MINUTES}`;
const SLOTS_RULE = `slots must be a list of at most ${SLOTS_MAX} {day, time}`;

/** The zone's canonical name when Intl knows it ("utc" → "UTC"), else null. */
export function canonicalTimeZone(zone: string): string | null {
  if (!zone || zone.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const postingSlot = z.object({
  day: z.number({ error: DAY_RULE }).int(DAY_RULE).min(0, DAY_RULE).max(6, DAY_RULE),
  time: z.string({ error: TIME_RULE }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME_RULE),
});
export type PostingSlot = z.infer<typeof postingSlot>;

/** Sorted by day then time, each slot once. */
export function normalizeSlots(slots: readonly PostingSlot[]): PostingSlot[] {
  const unique = new Map(slots.map((slot) => [`${slot.day} ${slot.time}`, { day: slot.day, time: slot.time }]));
  return [...unique.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, slot]) => slot);
}

export const postingScheduleInput = z.object({
  id: rowId('id is required'),
  timezone: z
    .string({ error: ZONE_RULE })
    .trim()
    .transform((zone, ctx) => {
      const canonical = canonicalTimeZone(zone);
      if (canonical === null) ctx.addIssue({ code: 'custom', message: `${ZONE_RULE}: "${zone.slice(0, 64)}" is not one` });
      return canonical ?? zone;
    }),
  slots: z.array(postingSlot, { error: SLOTS_RULE }).max(SLOTS_MAX, SLOTS_RULE).transform(normalizeSlots),
  daily_cap: z.number({ error: CAP_RULE }).int(CAP_RULE).min(1, CAP_RULE).max(DAILY_CAP_MAX, CAP_RULE).nullable(),
  min_gap_minutes: z.number({ error: GAP_RULE }).int(GAP_RULE).min(0, GAP_RULE).max(MIN_GAP_MAX_MINUTES, GAP_RULE),
});
/** A schedule as the server saves it: the zone canonical, the slots sorted and unique. */
export type PostingScheduleInput = z.output<typeof postingScheduleInput>;

export const postingSchedule = z.object({
  timezone: z.string(),
  slots: z.array(postingSlot),
  daily_cap: z.number().int().nullable(),
  min_gap_minutes: z.number().int(),
  /** When the schedule was last saved; null while none is (the account posts at once). */
  updated_at: z.string().nullable(),
});
export type PostingSchedule = z.infer<typeof postingSchedule>;

/** One upload not yet finished, as the Queue screen lists it. */
export const queueItem = z.object({
  id: z.string(),
  clip_id: z.string(),
  /** null once the account has been removed. */
  account_id: z.string().nullable(),
  platform: z.enum(ACCOUNT_PLATFORMS),
  status: z.enum(UPLOAD_STATUSES),
  /** When it goes to TikTok (its slot), or when it was queued for an immediate post. */
  scheduled_for: z.string().nullable(),
  error: z.string().nullable(),
  /** Upload.warning: e.g. YouTube keeping the video private. */
  warning: z.string().nullable(),
  /** For the screen: the clip's title, the account's name and time zone (slots are in it). */
  clip_title: z.string(),
  account: z.string(),
  timezone: z.string(),
});
export type QueueItem = z.infer<typeof queueItem>;

export const queueItemInput = z.object({ id: rowId('id is required') });
