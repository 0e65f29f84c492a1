import type { AppDeps } from '../../deps.ts';
import { markRendered } from '../../clips/service.ts';
import { clipRenderPlan, makeClipVideo, savedCaptionsOf } from '../../studio/service.ts';
import type { WorkerIdentity } from '../../../platform/identity.ts';
import { RENDER_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob } from '../../../platform/queue/define.ts';
import { reportStage, runClipRequest, type RequestOutcome, type RequestRun } from './clip-request.ts';

/**
 * `clips/render`: the clip rendered again from its kept source with its settings (the clip's over
 * its streamer's) through the studio's pipeline: layout, trim, its saved words as captions when it
 * is subtitled, loudness, in one encode. Stoppable; the previous video stays until the new one is
 * placed.
 */
export function renderJob(deps: AppDeps, identity: WorkerIdentity) {
  return defineJob({
    ...RENDER_JOB,
    run: ({ requestId }, ctx) =>
      runClipRequest(deps, identity, requestId, ctx, {
        kind: 'render',
        firstStage: 'rendering',
        logger: 'render',
        failed: (reason) => `Render failed: ${reason}`,
        failedLog: (title, reason) => `Rendering "${title}" again failed: ${reason}`,
        work: (run) => renderAgain(deps, run),
      }),
  });
}

async function renderAgain(deps: AppDeps, run: RequestRun): Promise<RequestOutcome> {
  const { clip } = run;
  const video = await makeClipVideo(deps, {
    source: run.source,
    workDir: run.workDir,
    plan: (sourceDurationSec) => clipRenderPlan(deps.db, clip, sourceDurationSec),
    captions: savedCaptionsOf(clip),
    signal: run.signal,
    onStage: reportStage(run.progress),
  });
  return {
    kind: 'replace',
    files: video.files,
    record: (trx) => markRendered(trx, clip.id, video.rendered),
    log: `Rendered "${clip.title}" (${clip.clip_id}) again with its settings`,
  };
}
