import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseCronItems, run, type Runner, type WorkerEvents } from 'graphile-worker';
import type pg from 'pg';
import { databaseAnswers, type Db } from '../platform/db/database.ts';
import type { Logger } from '../platform/logger.ts';
import { PROCESS_IDENTITY, type WorkerIdentity } from '../platform/identity.ts';
import type { AnyJobDefinition } from '../platform/queue/define.ts';
import { forceUnlockWorkers } from '../platform/queue/queue.ts';
import { toTaskList } from './adapter.ts';
import { recordWorkerPool, registerInstance } from './instances.ts';
import { workerLogger } from './logger.ts';

/** A job queued on a clock (graphile-worker's crontab syntax), by its contract's name. */
export interface CronSchedule {
  job: { name: string };
  match: string;
  identifier: string;
}

interface WorkerSetup {
  db: Db;
  logger: Logger;
  pool: pg.Pool;
  concurrency: number;
  jobs: readonly AnyJobDefinition[];
  cron: readonly CronSchedule[];
  identity?: WorkerIdentity;
}

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
export async function superviseWorker(setup: WorkerSetup): Promise<WorkerHandle> {
  const { db, logger, pool, concurrency } = setup;
  const identity = setup.identity ?? PROCESS_IDENTITY;
  // Registered before any job can be taken: recovery elsewhere then never mistakes this process's
  // work folder or jobs for a dead one's.
  await registerInstance(db, identity);
  const taskList = toTaskList(setup.jobs, logger);
  const parsedCronItems = parseCronItems(setup.cron.map(({ job, match, identifier }) => ({ task: job.name, match, identifier })));
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
      recordWorkerPool(db, identity, workerPool.id).catch(() => undefined);
    });
    const runner = await run({
      pgPool: pool,
      concurrency,
      taskList,
      parsedCronItems,
      noHandleSignals: true,
      pollInterval: 1000,
      gracefulShutdownAbortTimeout: GRACEFUL_ABORT_MS,
      events,
      logger: workerLogger(logger),
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
        logger.error(RESTARTING_MESSAGE);
      } catch (error) {
        if (stopping.signal.aborted) return;
        logger.error({ err: error }, RESTARTING_MESSAGE);
      } finally {
        current = null;
      }
      // A runner that had been working for a while starts the backoff afresh.
      failures = Date.now() - startedAt > HEALTHY_RUN_MS ? 0 : failures + 1;
      const delay = Math.min(RESTART_MAX_DELAY_MS, RESTART_FIRST_DELAY_MS * 2 ** Math.min(failures, 5));
      if (!(await waitForDatabase(db, delay, stopping.signal))) return;
      // Jobs the failed runner held stay locked by its pool until someone releases them.
      await forceUnlockWorkers(db, pools).catch((error: unknown) => logger.warn({ err: error }, 'could not release the failed worker’s jobs'));
    }
  };
  const supervising = supervise();

  return {
    poolIds: () => [...poolIds],
    stop: async () => {
      stopping.abort();
      const runner = current as Runner | null;
      if (runner) await runner.stop().catch((error: unknown) => logger.warn({ err: error }, 'the job worker did not stop cleanly'));
      await supervising;
    },
  };
}

/** Waits `delay`, then until `select 1` answers (same backoff); false when stopped meanwhile. */
async function waitForDatabase(db: Db, delay: number, signal: AbortSignal): Promise<boolean> {
  for (;;) {
    try {
      await sleep(delay, undefined, { signal });
    } catch {
      return false;
    }
    if (await databaseAnswers(db)) return true; // else still away: wait again
  }
}
