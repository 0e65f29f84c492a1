import type { Task } from 'graphile-worker';
import type { AppDeps } from '../deps.ts';
import type { WorkerIdentity } from '../worker/identity.ts';
import { recoverInterruptedSubtitles } from '../subtitles/recovery.ts';
import { recoverInterruptedRuns } from './recovery.ts';

export const RECOVER_TASK = 'downloads/recover';

export function recoverTask(deps: AppDeps, identity: WorkerIdentity): Task {
  return async () => {
    await recoverInterruptedRuns(deps, identity);
    await recoverInterruptedSubtitles(deps, identity);
  };
}
