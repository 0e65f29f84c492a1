import { parseCronItems, run, runMigrations, type Runner, type TaskList, Logger as WorkerLogger } from 'graphile-worker';
import type pg from 'pg';
import type { AppDeps } from '../deps.ts';
import { RECOVER_TASK, recoverTask } from '../downloads/recover-task.ts';
import { downloadRunTask } from '../downloads/run-task.ts';
import { scheduleTask } from '../downloads/schedule-task.ts';
import { RUN_TASK } from '../downloads/service.ts';
import type { Logger } from '../logs/logger.ts';
import { LOGS_TRIM_TASK, logsTrimTask } from '../logs/trim-task.ts';
import { SCHEDULE_TASK } from '../streamers/service.ts';
import { PROCESS_IDENTITY, type WorkerIdentity } from './identity.ts';

/** Every task the worker runs, by name; domains add theirs here. */
export function buildTaskList(deps: AppDeps, identity: WorkerIdentity = PROCESS_IDENTITY): TaskList {
  return {
    [LOGS_TRIM_TASK]: logsTrimTask(deps),
    [RUN_TASK]: downloadRunTask(deps, { identity }),
    [SCHEDULE_TASK]: scheduleTask(deps),
    [RECOVER_TASK]: recoverTask(deps, identity),
  };
}

const CRON_ITEMS = parseCronItems([
  { task: LOGS_TRIM_TASK, match: '17 * * * *', identifier: 'logs-trim' },
  // Catches runs whose worker died on another machine (their heartbeat goes silent).
  { task: RECOVER_TASK, match: '* * * * *', identifier: 'downloads-recover' },
]);

function workerLogger(logger: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    const child = logger.child({ component: 'worker' });
    if (level === 'error') child.error(meta ?? {}, message);
    else if (level === 'warning') child.warn(meta ?? {}, message);
    else if (level === 'info') child.info(meta ?? {}, message);
    else child.debug(meta ?? {}, message);
  });
}

/** Installs graphile-worker's own schema (idempotent). */
export async function migrateWorkerSchema(pool: pg.Pool, logger: Logger): Promise<void> {
  await runMigrations({ pgPool: pool, logger: workerLogger(logger) });
}

export async function startWorker(deps: AppDeps, pool: pg.Pool, concurrency: number, identity: WorkerIdentity = PROCESS_IDENTITY): Promise<Runner> {
  return run({
    pgPool: pool,
    concurrency,
    taskList: buildTaskList(deps, identity),
    parsedCronItems: CRON_ITEMS,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: workerLogger(deps.logger),
  });
}
