import type { AppDeps } from '../../deps.ts';
import { REFRESH_TOKENS_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob } from '../../../platform/queue/define.ts';
import { refreshEndingGrants } from '../token-upkeep.ts';

/** `publishing/refresh-tokens` (cron, daily): grants that end within a week are refreshed (token-upkeep.ts). */
export function refreshTokensJob(deps: AppDeps) {
  return defineJob({ ...REFRESH_TOKENS_JOB, run: async (_payload, ctx) => void (await refreshEndingGrants(deps, undefined, ctx.signal)) });
}
