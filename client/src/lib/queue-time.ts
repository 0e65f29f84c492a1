const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "Tue 18:00" in the zone (the account's: its slots are set in it). */
export function weekdayTime(instant: number, timezone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('weekday')} ${part('hour')}:${part('minute')}`;
}

/** "in 3 h", "in 12 min", "now", "2 min late" (a post past its time that has not started yet). */
export function relativeToNow(instant: number, now: number): string {
  const ahead = instant - now;
  if (Math.abs(ahead) < MINUTE_MS) return 'now';
  if (ahead < 0) return `${Math.round(-ahead / MINUTE_MS)} min late`;
  if (ahead < HOUR_MS) return `in ${Math.round(ahead / MINUTE_MS)} min`;
  if (ahead < DAY_MS) return `in ${Math.round(ahead / HOUR_MS)} h`;
  const days = Math.round(ahead / DAY_MS);
  return `in ${days} day${days === 1 ? '' : 's'}`;
}

/** "Tue 18:00 (in 3 h)"; more than a week ahead the date is named too, as a weekday alone would mislead. */
export function queueTimeLabel(iso: string, timezone: string, now: number): string {
  const instant = Date.parse(iso);
  if (Number.isNaN(instant)) return '—';
  const when = weekdayTime(instant, timezone);
  const date = instant - now > 6 * DAY_MS ? `${new Intl.DateTimeFormat('en-US', { timeZone: timezone, month: 'short', day: 'numeric' }).format(instant)}, ` : '';
  return `${date}${when} (${relativeToNow(instant, now)})`;
}

/** The browser's own time zone, the default for a schedule never saved. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every zone this browser knows, for the schedule's zone field. */
export function knownTimeZones(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [browserTimeZone()];
}
