import type { Task } from 'graphile-worker';
import type { AppDeps } from '../../deps.ts';
import type { WorkerIdentity } from '../../../platform/identity.ts';
import { recoverDeadWork } from '../../../jobs/recovery.ts';

export const RECOVER_TASK = 'downloads/recover';

/**
 * Every minute: catches processes that died on other machines (their heartbeat goes silent) and
 * jobs locked by dead workers. `staleVerdicts` says whether this process trusts silence right now.
 */
export function recoverTask(deps: AppDeps, identity: WorkerIdentity, staleVerdicts: () => boolean = () => true): Task {
  return async () => {
    const report = await recoverDeadWork(deps, identity, { staleVerdicts: staleVerdicts() });
    if (report.instances + report.runs + report.subtitles + report.requeued > 0) deps.logger.warn({ ...report }, 'recovered work of stopped processes');
  };
}
