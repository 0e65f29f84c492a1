import type { DbOrTrx } from '../../platform/db/database.ts';
import { RUN_JOB } from '../../platform/queue/contracts.ts';
import { enqueue, jobKey } from '../../platform/queue/queue.ts';

// Apart from service.ts so that recovery.ts, which service.ts re-exports, queues runs without a cycle.

export const runJobKey = (runId: string) => jobKey(RUN_JOB, { runId });

/** Queues (or queues again, to resume) the job that executes a run. */
export async function queueRunJob(db: DbOrTrx, runId: string): Promise<void> {
  await enqueue(db, RUN_JOB, { runId });
}
