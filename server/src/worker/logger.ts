import { Logger as WorkerLogger } from 'graphile-worker';
import type { Logger } from '../logs/logger.ts';

/** graphile-worker's log lines through the app's pino logger. */
export function workerLogger(logger: Logger): WorkerLogger {
  const child = logger.child({ component: 'worker' });
  return new WorkerLogger(() => (level, message, meta) => {
    if (level === 'error') child.error(meta ?? {}, message);
    else if (level === 'warning') child.warn(meta ?? {}, message);
    else if (level === 'info') child.info(meta ?? {}, message);
    else child.debug(meta ?? {}, message);
  });
}
