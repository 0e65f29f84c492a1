import { describe, expect, it } from 'vitest';
import type { StatusEntry } from '@clipshift/shared';
import { groupRuns } from './run-groups';

function entry(status: string, startedAt: string, completedAt: string | null = null): StatusEntry {
  return { status, started_at: startedAt, completed_at: completedAt } as StatusEntry;
}

describe('running and recent runs', () => {
  it('keeps busy runs apart from ended ones, the latest ended first', () => {
    const { running, recent } = groupRuns({
      a: entry('completed', '2026-03-04T10:00:00Z', '2026-03-04T10:05:00Z'),
      b: entry('downloading', '2026-03-04T11:00:00Z'),
      c: entry('error', '2026-03-04T10:00:00Z', '2026-03-04T10:30:00Z'),
      d: entry('stopping', '2026-03-04T09:00:00Z'),
      e: entry('stopped', '2026-03-04T10:10:00Z'),
    });
    expect(running.map(([name]) => name)).toEqual(['b', 'd']);
    // e has no end time: its start places it.
    expect(recent.map(([name]) => name)).toEqual(['c', 'e', 'a']);
  });
});
