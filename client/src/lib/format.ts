// One clock everywhere: log rows are YYYY-MM-DD HH:MM:SS, so every other time is 24-hour too.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' });
const timeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

function parse(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** e.g. "May 1, 2025, 14:30" in the visitor's locale (24-hour); a dash for missing or bad values. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const date = parse(value);
  return date ? dateTime.format(date) : '—';
}

export function formatTime(value: string | number | Date): string {
  const date = parse(value);
  return date ? timeOnly.format(date) : '—';
}

/** Log timestamps sort and scan best as YYYY-MM-DD HH:MM:SS in local time. */
export function formatLogTimestamp(value: string): string {
  const date = parse(value);
  if (!date) return value;
  const pad = (part: number) => String(part).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** e.g. "May 1, 2025" in the visitor's locale; a dash for missing or bad values. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const date = parse(value);
  return date ? dateOnly.format(date) : '—';
}

/** "1 clip", "3 clips": the count with its noun in the right number. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "just now", "3 min ago", "2 h ago", "5 days ago"; a dash for an unreadable value. */
export function timeAgo(value: string | number | Date, now: number): string {
  const date = parse(value);
  if (!date) return '—';
  // A clock slightly ahead of this browser's still reads as the past, not as "in 2 s".
  const elapsed = Math.max(0, now - date.getTime());
  if (elapsed < MINUTE_MS) return 'just now';
  if (elapsed < HOUR_MS) return `${Math.floor(elapsed / MINUTE_MS)} min ago`;
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)} h ago`;
  return `${plural(Math.floor(elapsed / DAY_MS), 'day')} ago`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1536 → "1.5 KB": powers of 1024 (as disk tools show them), one decimal below 10. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}
