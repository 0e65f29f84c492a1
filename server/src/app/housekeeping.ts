import type { Task } from 'graphile-worker';
import { cleanUpAuth } from '../domains/auth/service.ts';
import type { AppDeps } from '../domains/deps.ts';
import { trimLogs } from '../domains/logs/service.ts';
import { deleteStaleRateLimits } from '../platform/rate-limit.ts';

export const LOGS_TRIM_TASK = 'logs/trim';

/** Hourly housekeeping: log retention, expired sessions and sign-in locks, old rate-limit windows. */
export async function runHousekeeping(deps: AppDeps): Promise<void> {
  const removed = await trimLogs(deps.db);
  const sessions = await cleanUpAuth(deps.db);
  await deleteStaleRateLimits(deps.db);
  deps.logger.info({ removedLogs: removed, removedSessions: sessions }, 'housekeeping done');
}

/** The housekeeping job (jobs/worker.ts runs it on a cron). */
export function logsTrimTask(deps: AppDeps): Task {
  return () => runHousekeeping(deps);
}
