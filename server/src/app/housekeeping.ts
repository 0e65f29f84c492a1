import { cleanUpAuth } from '../domains/auth/service.ts';
import type { AppDeps } from '../domains/deps.ts';
import { trimLogs } from '../domains/logs/service.ts';
import { deleteStaleRateLimits } from '../platform/rate-limit.ts';
import { LOGS_TRIM_JOB } from '../platform/queue/contracts.ts';
import { defineJob } from '../platform/queue/define.ts';

/** Hourly housekeeping: log retention, expired sessions and sign-in locks, old rate-limit windows. */
async function runHousekeeping(deps: AppDeps): Promise<void> {
  const removed = await trimLogs(deps.db);
  const sessions = await cleanUpAuth(deps.db);
  await deleteStaleRateLimits(deps.db);
  deps.logger.info({ removedLogs: removed, removedSessions: sessions }, 'housekeeping done');
}

/** The housekeeping job, on the hourly cron of app/jobs.ts. */
export function housekeepingJob(deps: AppDeps) {
  return defineJob({ ...LOGS_TRIM_JOB, run: () => runHousekeeping(deps) });
}
