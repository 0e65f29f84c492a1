import type { AppDeps } from '../deps.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { SubtitleRequestStatus } from '../../platform/db/schema.ts';
import { ownerIsDead, type RecoveryScope } from '../../platform/identity.ts';
import { findJob, jobWillRun, removeJob } from '../../platform/queue/queue.ts';
import { moveSubtitleRequest, selectSubtitleRequest, selectSubtitleRequestsIn } from './queries.ts';
import type { RenderJobKind } from '../../platform/db/schema.ts';
import { queueRequestJob, requestJobKey } from './request-jobs.ts';

const INTERRUPTED: Record<RenderJobKind, string> = {
  subtitles: 'Subtitle generation was interrupted by a restart. Please try again.',
  render: 'The render was interrupted by a restart. Please try again.',
};
const NEVER_STARTED: Record<RenderJobKind, string> = {
  subtitles: 'Subtitle generation never started: its job was lost. Please try again.',
  render: 'The render never started: its job was lost. Please try again.',
};

/**
 * Ends the request as failed and drops its job. The job has one attempt, which the dead worker used:
 * once its lock is released it would never run again, yet graphile-worker would keep its row for
 * ever (a failed job in the queue's counts and metrics).
 */
async function fail(deps: AppDeps, request: { id: string; kind: RenderJobKind }, from: SubtitleRequestStatus, message: string, now: number): Promise<number> {
  const failed = await moveSubtitleRequest(deps.db, request.id, { from, set: { status: 'failed', message, finished_at: new Date(now) } });
  if (!failed) return 0;
  await removeJob(deps.db, requestJobKey(request));
  return 1;
}

/**
 * Subtitle and re-render requests whose process died end as failed, so the clip can be subtitled
 * or rendered again; so do queued ones whose job is gone for good (a queued request blocks new ones
 * for its clip).
 */
export async function recoverInterruptedSubtitles(deps: AppDeps, scope: RecoveryScope): Promise<number> {
  const pending = await selectSubtitleRequestsIn(deps.db, ['queued', 'running']);
  let recovered = 0;
  for (const request of pending) {
    if (request.status === 'running') {
      if (ownerIsDead(request, scope)) recovered += await fail(deps, request, 'running', INTERRUPTED[request.kind], scope.now);
    } else if (!jobWillRun(await findJob(deps.db, requestJobKey(request)))) {
      recovered += await fail(deps, request, 'queued', NEVER_STARTED[request.kind], scope.now);
    }
  }
  return recovered;
}

/** A queued request whose job a dead worker had locked before starting it: queued again. */
export async function requeueInterruptedSubtitles(deps: AppDeps, requestId: string): Promise<boolean> {
  const request = await selectSubtitleRequest(deps.db, requestId);
  if (request?.status !== 'queued') return false;
  await queueRequestJob(deps.db, request);
  return true;
}

/** Requests a worker may be writing files for right now. */
export async function runningSubtitleRequestIds(db: DbOrTrx): Promise<string[]> {
  return (await selectSubtitleRequestsIn(db, ['running'])).map((row) => row.id);
}
