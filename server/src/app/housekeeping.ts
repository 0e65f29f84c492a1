import { deleteExpiredSessions } from '../domains/auth/sessions.ts';
import { deleteStaleLoginLocks } from '../domains/auth/throttle.ts';
import type { AppDeps } from '../domains/deps.ts';
import { trimLogs } from '../domains/logs/service.ts';
import { deleteStaleRateLimits } from '../platform/rate-limit.ts';
import { LOGS_TRIM_JOB } from '../platform/queue/contracts.ts';
import { defineJob } from '../platform/queue/define.ts';

/** Hourly housekeeping: log retention, expired sessions, old rate-limit windows and sign-in locks. */
export function housekeepingJob(deps: AppDeps) {
  return defineJob({
    ...LOGS_TRIM_JOB,
    run: async () => {
      const removed = await trimLogs(deps.db);
      const sessions = await deleteExpiredSessions(deps.db);
      await deleteStaleRateLimits(deps.db);
      await deleteStaleLoginLocks(deps.db);
      deps.logger.info({ removedLogs: removed, removedSessions: sessions }, 'housekeeping done');
    },
  });
}
