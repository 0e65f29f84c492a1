import { Logger as WorkerLogger } from 'graphile-worker';
import type { Logger } from '../platform/logger.ts';

/** graphile-worker's log lines through the app's pino logger. */
export function workerLogger(logger: Logger): WorkerLogger {
  const child = logger.child({ component: 'worker' });
  return new WorkerLogger(() => (level, message, meta) => {
    if (level === 'error') child.error(meta ?? {}, message);
    else if (level === 'warning') child.warn(meta ?? {}, message);
    // graphile-worker reports every completed job at info level (the cron jobs run every minute):
    // that is debug detail here; the app's own events carry what users care about.
    else child.debug(meta ?? {}, message);
  });
}
