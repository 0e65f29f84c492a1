import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatLogTimestamp, formatTime } from './format';

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

  it('write a date in the visitor’s locale', () => {
    expect(formatDate(new Date(2026, 2, 1, 12))).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(2026, 2, 1, 12)));
  });
});
