import type { AppDeps } from '../deps.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { recordLog } from '../logs/service.ts';
import { findStreamerById } from '../streamers/service.ts';
import { ownerIsDead, type RecoveryScope } from '../../platform/identity.ts';
import { findJob, jobWillRun, removeJob } from '../../platform/queue/queue.ts';
import { ACTIVE_RUN, endActiveRun, selectActiveRuns, selectRunOwner, type RunRow } from './queries.ts';
import { queueRunJob, runJobKey } from './run-jobs.ts';

export const INTERRUPTED_MESSAGE = 'Interrupted: the app stopped while this download was running. Start it again to fetch the remaining clips.';
const NEVER_STARTED_MESSAGE = 'The download never started: its job was lost. Start it again.';


async function streamerName(deps: AppDeps, run: RunRow): Promise<string> {
  const streamer = await findStreamerById(deps.db, run.streamer_id);
  return streamer?.name ?? 'a streamer';
}

/**
 * Ends a busy run whose process is gone: `stopped` if a stop had been asked, else `error` with
 * the reason. Guarded by the owner it was judged on, so a run another process has since claimed
 * is left alone. Returns whether this call ended it.
 */
async function endRun(deps: AppDeps, run: RunRow, now: number, error: string): Promise<boolean> {
  const stopped = run.status === 'stopping';
  const ended = await endActiveRun(deps.db, run.id, run.owner_instance, { status: stopped ? 'stopped' : 'error', error: stopped ? null : error, completed_at: new Date(now) });
  if (!ended) return false;
  await removeJob(deps.db, runJobKey(run.id));
  return true;
}

/**
 * Makes the state users see true again after a crash: runs whose process died end as `error`
 * (interrupted) — or `stopped` if a stop had been asked — and their jobs are dropped. Clips they
 * finished stay; their half-done work files go with the dead process's work folder. A run no
 * process ever claimed is resumed when a dead worker had locked its job (see requeueInterruptedRun)
 * and ended when its job is gone for good. Returns how many runs were ended.
 */
export async function recoverInterruptedRuns(deps: AppDeps, scope: RecoveryScope): Promise<number> {
  const active = await selectActiveRuns(deps.db);
  let recovered = 0;
  for (const run of active) {
    if (run.owner_instance !== null) {
      if (!ownerIsDead(run, scope) || !(await endRun(deps, run, scope.now, INTERRUPTED_MESSAGE))) continue;
      recovered += 1;
      await recordLog(deps.db, deps.logger, {
        level: run.status === 'stopping' ? 'INFO' : 'WARNING',
        logger: 'downloads',
        message:
          run.status === 'stopping'
            ? `The download for ${await streamerName(deps, run)} was stopped while the app was down`
            : `The download for ${await streamerName(deps, run)} was interrupted (${run.clips_downloaded} of ${run.clips_total} clips had finished)`,
        userId: run.user_id,
      });
    } else if (!jobWillRun(await findJob(deps.db, runJobKey(run.id)))) {
      if (!(await endRun(deps, run, scope.now, NEVER_STARTED_MESSAGE))) continue;
      recovered += 1;
      await recordLog(deps.db, deps.logger, { level: 'WARNING', logger: 'downloads', message: `The download for ${await streamerName(deps, run)} never started: its job was lost`, userId: run.user_id });
    }
  }
  return recovered;
}

/**
 * A run whose job a dead worker had locked before claiming it (the crash fell between the two):
 * nothing of it ran, so it is queued again and starts afresh. Returns whether it was queued.
 */
export async function requeueInterruptedRun(deps: AppDeps, runId: string): Promise<boolean> {
  const run = await selectRunOwner(deps.db, runId);
  if (!run || run.owner_instance !== null || !(ACTIVE_RUN as readonly string[]).includes(run.status)) return false;
  await queueRunJob(deps.db, runId);
  return true;
}

/** Runs a worker may be writing files for right now. */
export async function busyRunIds(db: DbOrTrx): Promise<string[]> {
  return (await selectActiveRuns(db)).map((row) => row.id);
}
