import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.ts';

export interface AddJobOptions {
  /** A job with the same key is replaced (its payload and run_at updated) instead of duplicated. */
  jobKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/**
 * Queues a graphile-worker job with SQL, so it commits or rolls back with the write that needs it
 * (pass the open transaction).
 */
export async function addJob(db: DbOrTrx, task: string, payload: Record<string, unknown>, options: AddJobOptions = {}): Promise<void> {
  await sql`select graphile_worker.add_job(
    identifier => ${task},
    payload => ${JSON.stringify(payload)}::json,
    run_at => ${options.runAt ?? null}::timestamptz,
    max_attempts => ${options.maxAttempts ?? 5}::int,
    job_key => ${options.jobKey ?? null}::text,
    job_key_mode => 'replace'
  )`.execute(db);
}

/** Removes a queued job by key; a job that is running now is left to finish. */
export async function removeJob(db: DbOrTrx, jobKey: string): Promise<void> {
  await sql`select graphile_worker.remove_job(${jobKey})`.execute(db);
}
