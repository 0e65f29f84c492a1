import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseCronItems, run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import { sql } from 'kysely';
import type pg from 'pg';
import { createClipHooks } from '../domains/clips/hooks.ts';
import type { AppDeps } from '../domains/deps.ts';
import { RECOVER_TASK, recoverTask } from '../domains/downloads/jobs/recover.ts';
import { downloadRunTask } from '../domains/downloads/jobs/run.ts';
import { scheduleTask } from '../domains/downloads/jobs/schedule.ts';
import { RUN_TASK } from '../domains/downloads/service.ts';
import { LOGS_TRIM_TASK, logsTrimTask } from '../app/housekeeping.ts';
import { SCHEDULE_TASK } from '../domains/streamers/service.ts';
import { SUBTITLE_TASK } from '../domains/subtitles/service.ts';
import { subtitleTask } from '../domains/subtitles/jobs/subtitle.ts';
import { postTask } from '../domains/publishing/jobs/post.ts';
import { POST_TASK } from '../domains/publishing/uploads.ts';
import { PROCESS_IDENTITY, type WorkerIdentity } from '../platform/identity.ts';
import { recordWorkerPool, registerInstance } from './instances.ts';
import { forceUnlockWorkers } from '../platform/queue.ts';
import { workerLogger } from './logger.ts';

export interface WorkerOptions {
  identity?: WorkerIdentity;
  /** Whether the recovery cron may take silence for death right now (see RecoveryOptions). */
  staleVerdicts?: () => boolean;
}

/** Every task the worker runs, by name; domains add theirs here. */
export function buildTaskList(deps: AppDeps, options: WorkerOptions = {}): TaskList {
  const identity = options.identity ?? PROCESS_IDENTITY;
  return {
    [LOGS_TRIM_TASK]: logsTrimTask(deps),
    [RUN_TASK]: downloadRunTask(deps, { identity, hooks: createClipHooks(deps) }),
    [SCHEDULE_TASK]: scheduleTask(deps),
    [RECOVER_TASK]: recoverTask(deps, identity, options.staleVerdicts),
    [SUBTITLE_TASK]: subtitleTask(deps, identity),
    [POST_TASK]: postTask(deps),
  };
}

const CRON_ITEMS = parseCronItems([
  { task: LOGS_TRIM_TASK, match: '17 * * * *', identifier: 'logs-trim' },
  // Catches runs whose worker died on another machine (their heartbeat goes silent).
  { task: RECOVER_TASK, match: '* * * * *', identifier: 'downloads-recover' },
]);

/**
 * How long a stop lets running jobs finish by themselves before their abortSignal fires; every task
 * then puts its work back (see each task), so the whole stop fits well inside Docker's 10 s.
 */
export const GRACEFUL_ABORT_MS = 1_000;
const RESTART_FIRST_DELAY_MS = 500;
const RESTART_MAX_DELAY_MS = 10_000;
const HEALTHY_RUN_MS = 60_000;
export const RESTARTING_MESSAGE = 'the job worker stopped unexpectedly; starting it again once the database answers';

export interface WorkerHandle {
  /** graphile-worker pool ids this worker has run (the values its jobs were locked with). */
  poolIds(): string[];
  /** Stops taking jobs; running ones finish or, after GRACEFUL_ABORT_MS, are aborted and put back. */
  stop(): Promise<void>;
}

/**
 * Runs graphile-worker under supervision. When a runner dies — typically because it could not
 * record a job's outcome while the database was away ("Could not completeJobs/failJobs") — the
 * failure is logged, the supervisor waits until the database answers, releases the jobs the dead
 * runner still held, and starts a new runner. A lost connection never ends the process.
 */
export async function startWorker(deps: AppDeps, pool: pg.Pool, concurrency: number, options: WorkerOptions = {}): Promise<WorkerHandle> {
  const identity = options.identity ?? PROCESS_IDENTITY;
  // Registered before any job can be taken: recovery elsewhere then never mistakes this process's
  // work folder or jobs for a dead one's.
  await registerInstance(deps.db, identity);
  const taskList = buildTaskList(deps, options);
  const poolIds: string[] = [];
  const stopping = new AbortController();
  let current: Runner | null = null;

  const startRunner = async (): Promise<{ runner: Runner; pools: string[] }> => {
    const events: WorkerEvents = new EventEmitter();
    const pools: string[] = [];
    events.on('pool:create', ({ workerPool }) => {
      poolIds.push(workerPool.id);
      pools.push(workerPool.id);
      // If this write fails (database away), the instance heartbeat sends the pool ids again.
      recordWorkerPool(deps.db, identity, workerPool.id).catch(() => undefined);
    });
    const runner = await run({
      pgPool: pool,
      concurrency,
      taskList,
      parsedCronItems: CRON_ITEMS,
      noHandleSignals: true,
      pollInterval: 1000,
      gracefulShutdownAbortTimeout: GRACEFUL_ABORT_MS,
      events,
      logger: workerLogger(deps.logger),
      // Batched (with no delay) so that failing to record a job's outcome is reported to the
      // runner, which stops and is restarted, instead of becoming an unhandled rejection.
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    });
    return { runner, pools };
  };

  const supervise = async () => {
    let failures = 0;
    while (!stopping.signal.aborted) {
      let pools: string[] = [];
      const startedAt = Date.now();
      try {
        const started = await startRunner();
        pools = started.pools;
        if (stopping.signal.aborted) return await started.runner.stop();
        current = started.runner;
        await started.runner.promise;
        if (stopping.signal.aborted) return;
        // graphile-worker ends its runner (resolving, its reason logged above) when it cannot
        // record a job's outcome.
        deps.logger.error(RESTARTING_MESSAGE);
      } catch (error) {
        if (stopping.signal.aborted) return;
        deps.logger.error({ err: error }, RESTARTING_MESSAGE);
      } finally {
        current = null;
      }
      // A runner that had been working for a while starts the backoff afresh.
      failures = Date.now() - startedAt > HEALTHY_RUN_MS ? 0 : failures + 1;
      const delay = Math.min(RESTART_MAX_DELAY_MS, RESTART_FIRST_DELAY_MS * 2 ** Math.min(failures, 5));
      if (!(await waitForDatabase(deps, delay, stopping.signal))) return;
      // Jobs the failed runner held stay locked by its pool until someone releases them.
      await forceUnlockWorkers(deps.db, pools).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not release the failed worker’s jobs'));
    }
  };
  const supervising = supervise();

  return {
    poolIds: () => [...poolIds],
    stop: async () => {
      stopping.abort();
      const runner = current as Runner | null;
      if (runner) await runner.stop().catch((error: unknown) => deps.logger.warn({ err: error }, 'the job worker did not stop cleanly'));
      await supervising;
    },
  };
}

/** Waits `delay`, then until `select 1` answers (same backoff); false when stopped meanwhile. */
async function waitForDatabase(deps: AppDeps, delay: number, signal: AbortSignal): Promise<boolean> {
  for (;;) {
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      return false;
    }
    try {
      await sql`select 1`.execute(deps.db);
      return true;
    } catch {
      // still away: wait again
    }
  }
}
