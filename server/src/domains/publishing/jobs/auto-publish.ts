import type { AppDeps } from '../../deps.ts';
import { AUTO_PUBLISH_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob } from '../../../platform/queue/define.ts';
import { autoPublishClip } from '../service.ts';

/** `publishing/auto-publish`: queued by a run with the clip it saved (see saveClip). */
export function autoPublishJob(deps: AppDeps) {
  return defineJob({ ...AUTO_PUBLISH_JOB, run: ({ clipRowId }) => autoPublishClip(deps, clipRowId) });
}
