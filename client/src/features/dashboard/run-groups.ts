import { isBusyStatus, type StatusEntry, type StatusMap } from '@clipshift/shared';

export type NamedRun = readonly [name: string, entry: StatusEntry];

/** When a run ended; a run with no end time (an older server) by its start. */
export function endedAt(entry: StatusEntry): string {
  return entry.completed_at ?? entry.started_at;
}

/** Runs still at work, in the server's order, and those that have ended, the latest first. */
export function groupRuns(status: StatusMap): { running: NamedRun[]; recent: NamedRun[] } {
  const runs = Object.entries(status);
  const recent = runs.filter(([, entry]) => !isBusyStatus(entry.status));
  recent.sort(([, a], [, b]) => Date.parse(endedAt(b)) - Date.parse(endedAt(a)));
  return { running: runs.filter(([, entry]) => isBusyStatus(entry.status)), recent };
}
