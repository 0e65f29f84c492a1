import { describe, expect, it } from 'vitest';
import { formatCount, shortDate } from './stats-format';

describe('stats-format', () => {
  it('shortens counts the way people read them', () => {
    expect(formatCount(950)).toBe('950');
    expect(formatCount(1234)).toBe('1.2K');
    expect(formatCount(1_500_000)).toBe('1.5M');
  });

  it('reads a day as a calendar day, whatever the time zone', () => {
    expect(shortDate('2026-03-04')).toBe('Mar 4');
    expect(shortDate('2026-12-31')).toBe('Dec 31');
    expect(shortDate('not a day')).toBe('not a day');
  });
});
