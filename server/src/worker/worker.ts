import { parseCronItems, run, type Runner, type TaskList } from 'graphile-worker';
import type pg from 'pg';
import { createClipHooks } from '../clips/hooks.ts';
import type { AppDeps } from '../deps.ts';
import { RECOVER_TASK, recoverTask } from '../downloads/recover-task.ts';
import { downloadRunTask } from '../downloads/run-task.ts';
import { scheduleTask } from '../downloads/schedule-task.ts';
import { RUN_TASK } from '../downloads/service.ts';
import { LOGS_TRIM_TASK, logsTrimTask } from '../logs/trim-task.ts';
import { SCHEDULE_TASK } from '../streamers/service.ts';
import { SUBTITLE_TASK } from '../subtitles/service.ts';
import { subtitleTask } from '../subtitles/task.ts';
import { postTask } from '../tiktok/post-task.ts';
import { POST_TASK } from '../tiktok/uploads.ts';
import { PROCESS_IDENTITY, type WorkerIdentity } from './identity.ts';
import { workerLogger } from './logger.ts';

/** Every task the worker runs, by name; domains add theirs here. */
export function buildTaskList(deps: AppDeps, identity: WorkerIdentity = PROCESS_IDENTITY): TaskList {
  return {
    [LOGS_TRIM_TASK]: logsTrimTask(deps),
    [RUN_TASK]: downloadRunTask(deps, { identity, hooks: createClipHooks(deps) }),
    [SCHEDULE_TASK]: scheduleTask(deps),
    [RECOVER_TASK]: recoverTask(deps, identity),
    [SUBTITLE_TASK]: subtitleTask(deps, identity),
    [POST_TASK]: postTask(deps),
  };
}

const CRON_ITEMS = parseCronItems([
  { task: LOGS_TRIM_TASK, match: '17 * * * *', identifier: 'logs-trim' },
  // Catches runs whose worker died on another machine (their heartbeat goes silent).
  { task: RECOVER_TASK, match: '* * * * *', identifier: 'downloads-recover' },
]);

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
