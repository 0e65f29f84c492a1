import type { AppDeps } from '../../deps.ts';
import { recordLog } from '../../logs/service.ts';
import { advanceSchedule, findStreamerById } from '../../streamers/service.ts';
import { SCHEDULE_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob } from '../../../platform/queue/define.ts';
import { diskShortage, diskShortageMessage, hasActiveRun, startRun } from '../service.ts';

/** Tolerance for a job that fires a moment before its due time. */
const EARLY_MS = 5_000;

/**
 * Fires a streamer's scheduled run and queues the next one. State is re-read from the database:
 * a removed schedule, a deleted streamer or a job made stale by an edit does nothing.
 */
export function scheduleJob(deps: AppDeps) {
  return defineJob({ ...SCHEDULE_JOB, run: ({ streamerId }) => fireSchedule(deps, streamerId) });
}

async function fireSchedule(deps: AppDeps, streamerId: string): Promise<void> {
  // Measured before the transaction, so that no row lock waits on the file system.
  const shortage = await diskShortage(deps.env);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const row = await findStreamerById(trx, streamerId, { lock: true });
    if (!row || !row.schedule_interval || !row.next_run_at) return null;
    if (row.next_run_at.getTime() - Date.now() > EARLY_MS) return null;
    const busy = await hasActiveRun(trx, row.id);
    if (!busy && !shortage) {
      await startRun(deps.db, row.user_id, { name: row.name }, { trigger: 'schedule', maxConcurrency: deps.env.WORKER_CONCURRENCY, streamer: row }, trx);
    }
    const next = await advanceSchedule(trx, row);
    return { row, busy, next };
  });
  if (!outcome) return;
  const { row, busy, next } = outcome;
  if (shortage && !busy) {
    deps.logger.warn({ dir: shortage.dir, freeMb: shortage.freeMb, neededMb: shortage.neededMb }, 'scheduled download skipped: not enough free disk space');
    await recordLog(deps.db, deps.logger, {
      level: 'WARNING',
      logger: 'downloads',
      message: `Skipped the scheduled download for ${row.name}: ${diskShortageMessage(shortage)} (next at ${next?.toISOString()})`,
      userId: row.user_id,
    });
    return;
  }
  await recordLog(deps.db, deps.logger, {
    level: 'INFO',
    logger: 'downloads',
    message: busy
      ? `Skipped the scheduled download for ${row.name}: a download is still running (next at ${next?.toISOString()})`
      : `Started the scheduled download for ${row.name} (next at ${next?.toISOString()})`,
    userId: row.user_id,
  });
}
