import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDateTime, formatLogTimestamp, formatTime, plural, timeAgo } from './format';

describe('dates and times', () => {
  it('show a dash for a missing or unreadable value', () => {
    for (const format of [formatDate, formatDateTime]) {
      expect(format(null)).toBe('—');
      expect(format(undefined)).toBe('—');
      expect(format('not a date')).toBe('—');
    }
    expect(formatTime('not a date')).toBe('—');
  });

  it('write log timestamps as YYYY-MM-DD HH:MM:SS in local time', () => {
    const local = new Date(2026, 2, 4, 5, 6, 7);
    expect(formatLogTimestamp(local.toISOString())).toBe('2026-03-04 05:06:07');
    expect(formatLogTimestamp('garbage')).toBe('garbage');
  });

  it('use the 24-hour clock of the log rows for every other time', () => {
    const afternoon = new Date(2026, 2, 4, 14, 5, 9);
    expect(formatTime(afternoon)).toBe('14:05:09');
    expect(formatDateTime(afternoon)).toMatch(/14:05/);
    expect(formatDateTime(afternoon)).not.toMatch(/[AP]M/);
  });

  it('put a count’s noun in the right number', () => {
    expect(plural(1, 'day')).toBe('1 day');
    expect(plural(2, 'day')).toBe('2 days');
    expect(plural(0, 'clip')).toBe('0 clips');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
  });

  it('write a date in the visitor’s locale', () => {
    expect(formatDate(new Date(2026, 2, 1, 12))).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(2026, 2, 1, 12)));
  });
});

describe('time ago', () => {
  const now = new Date(2026, 2, 4, 12, 0, 0).getTime();
  const before = (ms: number) => new Date(now - ms).toISOString();

  it('counts minutes, hours, then days', () => {
    expect(timeAgo(before(20_000), now)).toBe('just now');
    expect(timeAgo(before(3 * 60_000 + 59_000), now)).toBe('3 min ago');
    expect(timeAgo(before(2 * 3_600_000 + 5 * 60_000), now)).toBe('2 h ago');
    expect(timeAgo(before(24 * 3_600_000), now)).toBe('1 day ago');
    expect(timeAgo(before(5 * 24 * 3_600_000), now)).toBe('5 days ago');
  });

  it('reads a time slightly ahead (another clock) as just now, and an unreadable one as a dash', () => {
    expect(timeAgo(new Date(now + 5_000).toISOString(), now)).toBe('just now');
    expect(timeAgo('garbage', now)).toBe('—');
  });
});

describe('formatBytes', () => {
  it('uses powers of 1024 with one decimal below 10', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MB');
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.3 GB');
    expect(formatBytes(5 * 1024 ** 5)).toBe('5120 TB');
  });
});
