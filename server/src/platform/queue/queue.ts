import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.ts';
import type { JobContract } from './define.ts';

interface EnqueueOptions {
  runAt?: Date;
  /** Overrides the contract's default. */
  maxAttempts?: number;
}

/** graphile-worker's default (25) retries for a day; no job here wants that. */
const DEFAULT_MAX_ATTEMPTS = 5;

/** The key a keyed contract gives this payload. */
export function jobKey<P>(contract: JobContract<P>, payload: NoInfer<P>): string {
  if (!contract.key) throw new Error(`${contract.name} jobs have no key`);
  return contract.key(payload);
}

/**
 * Queues a job with SQL, so it commits or rolls back with the write that needs it (pass the open
 * transaction). The payload is typed by the contract and checked against its schema here too, so a
 * bad one fails at the caller rather than in the worker. A job with the same key is replaced (its
 * payload and run_at updated) instead of doubled.
 */
export async function enqueue<P>(db: DbOrTrx, contract: JobContract<P>, payload: NoInfer<P>, options: EnqueueOptions = {}): Promise<void> {
  const checked = contract.payload.parse(payload);
  await sql`select graphile_worker.add_job(
    identifier => ${contract.name},
    payload => ${JSON.stringify(checked)}::json,
    run_at => ${options.runAt ?? null}::timestamptz,
    max_attempts => ${options.maxAttempts ?? contract.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}::int,
    job_key => ${contract.key?.(checked) ?? null}::text,
    job_key_mode => 'replace'
  )`.execute(db);
}

/** Removes a queued job by key; a job that is running now is left to finish. */
export async function removeJob(db: DbOrTrx, jobKey: string): Promise<void> {
  await sql`select graphile_worker.remove_job(${jobKey})`.execute(db);
}

/**
 * Moves the waiting job with this key to `runAt`; false when there is none, or it is running now
 * (graphile-worker leaves locked jobs alone). Unlike enqueue's replace, this never creates a
 * second job beside a running one.
 */
export async function rescheduleJob(db: DbOrTrx, jobKey: string, runAt: Date): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    select id from graphile_worker.reschedule_jobs(array(select id from graphile_worker.jobs where key = ${jobKey}), run_at => ${runAt}::timestamptz)
  `.execute(db);
  return rows.length > 0;
}

export interface LockedJob {
  key: string | null;
  task_identifier: string;
  locked_by: string;
}

/**
 * A lock held by a pool that no live process has registered is taken as dead only after this long:
 * a new process records its pool id a moment after graphile-worker creates the pool.
 */
const UNKNOWN_POOL_GRACE_MS = 60_000;

/** Jobs locked by a pool of a dead process, or by a pool nobody alive owns (after the grace period). */
export async function jobsLockedByDeadPools(db: DbOrTrx, livePools: readonly string[], deadPools: readonly string[], now: Date): Promise<LockedJob[]> {
  const { rows } = await sql<LockedJob>`
    select key, task_identifier, locked_by from graphile_worker.jobs
    where locked_by is not null
      and not (locked_by = any(${[...livePools]}::text[]))
      and (locked_by = any(${[...deadPools]}::text[]) or locked_at < ${now}::timestamptz - make_interval(secs => ${UNKNOWN_POOL_GRACE_MS / 1000}))
  `.execute(db);
  return rows;
}

/** Releases the jobs of dead pools at once, rather than after graphile-worker's four hours. */
export async function forceUnlockWorkers(db: DbOrTrx, poolIds: readonly string[]): Promise<void> {
  if (!poolIds.length) return;
  await sql`select graphile_worker.force_unlock_workers(${[...poolIds]}::text[])`.execute(db);
}

interface JobState {
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  last_error: string | null;
}

/** The job with this key, if any. */
export async function findJob(db: DbOrTrx, jobKey: string): Promise<JobState | undefined> {
  const { rows } = await sql<JobState>`
    select attempts, max_attempts, locked_by, last_error from graphile_worker.jobs where key = ${jobKey}
  `.execute(db);
  return rows[0];
}

/** Whether a job will still run: it exists and is running, or has attempts left. */
export function jobWillRun(job: JobState | undefined): boolean {
  return job !== undefined && (job.locked_by !== null || job.attempts < job.max_attempts);
}
