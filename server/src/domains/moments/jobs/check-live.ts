import type { AppDeps } from '../../deps.ts';
import { defineJob } from '../../../platform/queue/define.ts';
import { LIVE_CHECK_JOB } from '../../../platform/queue/contracts.ts';
import { checkLiveStreams } from '../service.ts';

/** The `moments/check-live` job (cron, every minute): which watched streamers are live. */
export function liveCheckJob(deps: AppDeps) {
  return defineJob({ ...LIVE_CHECK_JOB, run: (_payload, ctx) => checkLiveStreams(deps, new Date(), ctx.signal) });
}
