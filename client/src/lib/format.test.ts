import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatLogTimestamp, formatTime, plural } from './format';

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
