import { describe, expect, it } from 'vitest';
import { queueTimeLabel, relativeToNow, weekdayTime } from './queue-time';

describe('queue times', () => {
  const now = Date.parse('2025-01-07T12:00:00Z'); // a Tuesday

  it('names the slot in the account’s zone with how far away it is', () => {
    expect(queueTimeLabel('2025-01-07T17:00:00Z', 'Europe/Berlin', now)).toBe('Tue 18:00 (in 5 h)');
    expect(queueTimeLabel('2025-01-07T12:20:00Z', 'America/New_York', now)).toBe('Tue 07:20 (in 20 min)');
    expect(queueTimeLabel('2025-01-09T12:00:00Z', 'UTC', now)).toBe('Thu 12:00 (in 2 days)');
    expect(queueTimeLabel('2025-01-20T12:00:00Z', 'UTC', now)).toBe('Jan 20, Mon 12:00 (in 13 days)');
    expect(queueTimeLabel('nope', 'UTC', now)).toBe('—');
  });

  it('says now or late around the moment itself', () => {
    expect(relativeToNow(now + 20_000, now)).toBe('now');
    expect(relativeToNow(now - 180_000, now)).toBe('3 min late');
    expect(weekdayTime(Date.parse('2025-03-30T01:00:00Z'), 'Europe/Berlin')).toBe('Sun 03:00');
  });
});
