import type { Task } from 'graphile-worker';
import { deleteExpiredSessions } from '../domains/auth/sessions.ts';
import { deleteStaleLoginLocks } from '../domains/auth/throttle.ts';
import type { AppDeps } from '../domains/deps.ts';
import { deleteStaleRateLimits } from '../platform/rate-limit.ts';
import { trimLogs } from '../domains/logs/service.ts';

export const LOGS_TRIM_TASK = 'logs/trim';

/** Hourly housekeeping: log retention, expired sessions, old rate-limit windows and sign-in locks. */
export function logsTrimTask(deps: AppDeps): Task {
  return async () => {
    const removed = await trimLogs(deps.db);
    const sessions = await deleteExpiredSessions(deps.db);
    await deleteStaleRateLimits(deps.db);
    await deleteStaleLoginLocks(deps.db);
    deps.logger.info({ removedLogs: removed, removedSessions: sessions }, 'housekeeping done');
  };
}
