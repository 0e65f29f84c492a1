import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../../deps.ts';
import { CLIP_FILES, findClipById, instanceWorkDir, localClipFile, markRendered, replaceClipFiles, transcriptWordsOf, type ClipRow } from '../../clips/service.ts';
import { recordLog } from '../../logs/service.ts';
import { clipRenderPlan, writeCaptionOverlay, type CaptionOverlayRequest } from '../../studio/service.ts';
import { clipThumbnail, outputFrame, probe, renderClip, type SubtitleOverlay } from '../../../engines/media/index.ts';
import { startBeating } from '../../../platform/beat.ts';
import { publicReason } from '../../../platform/public-reason.ts';
import type { WorkerIdentity } from '../../../platform/identity.ts';
import { RENDER_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob, type JobContext } from '../../../platform/queue/define.ts';
import { beatRequest, claimQueuedRequest, moveSubtitleRequest } from '../queries.ts';
import { subtitleProgress } from '../progress.ts';
import { putBack } from './subtitle.ts';

/**
 * How often the job beats and looks at its row: a stop (the row set to stopped, from any process)
 * reaches ffmpeg within this.
 */
const STOP_CHECK_MS = 500;
/** A clip's render finishes well inside this, or ffmpeg is stuck. */
const RENDER_TIMEOUT_MS = 20 * 60_000;

class RenderStopped extends Error {
  constructor() {
    super('Render stopped');
  }
}

/**
 * `clips/render`: the clip rendered again from its kept source with its settings (the clip's over
 * its streamer's) in one encode: layout, trim, its saved words as captions when it is subtitled,
 * loudness. The new video and thumbnail are made in the work folder and moved over the clip's in
 * the same transaction that ends the request as done, so a stop either comes first (nothing is
 * replaced) or finds nothing to stop.
 */
export function renderJob(deps: AppDeps, identity: WorkerIdentity) {
  return defineJob({ ...RENDER_JOB, run: ({ requestId }, ctx) => renderAgain(deps, identity, requestId, ctx) });
}

/** The saved words as captions for this render, or null when the clip is not subtitled. */
async function savedCaptions(clip: ClipRow, request: Omit<CaptionOverlayRequest, 'words' | 'language'>): Promise<SubtitleOverlay | null> {
  const words = transcriptWordsOf(clip);
  if (!clip.subtitled || !words?.length) return null;
  return writeCaptionOverlay({ words, language: clip.transcript_language, ...request });
}

async function renderAgain(deps: AppDeps, identity: WorkerIdentity, requestId: string, ctx: JobContext): Promise<void> {
  const { signal } = ctx;
  const request = await claimQueuedRequest(deps.db, requestId, identity, 'rendering');
  if (!request) return;
  let stopped = false;
  const beat = async () => {
    // Stopped by the user, or ended by recovery: either way the row has its final word already.
    if ((await beatRequest(deps.db, requestId)) !== 'running') {
      stopped = true;
      ctx.stop(new RenderStopped());
    }
  };
  const beating = startBeating(beat, STOP_CHECK_MS, (error) => deps.logger.warn({ err: error, requestId }, 'render heartbeat failed'));
  const workDir = path.join(instanceWorkDir(deps.env.dataDir, identity.instance), `render-${requestId}`);
  const progress = subtitleProgress(deps.db, requestId, 'render');
  const fail = async (message: string) => {
    await progress.stop();
    await moveSubtitleRequest(deps.db, requestId, { from: 'running', set: { status: 'failed', message, finished_at: new Date() } });
  };
  const clip = await findClipById(deps.db, request.clip_row_id);
  try {
    if (!clip) {
      await fail('The clip no longer exists');
      return;
    }
    await mkdir(workDir, { recursive: true });
    const source = await localClipFile(deps.storage, clip, 'source', workDir, signal);
    const sourceInfo = await probe(deps.media.ffprobe, source, signal);
    const plan = await clipRenderPlan(deps.db, clip, sourceInfo.durationSec);
    const captions = await savedCaptions(clip, {
      style: plan.captionStyle,
      glossary: plan.glossary,
      frame: outputFrame(plan.layout, sourceInfo),
      trimStart: plan.trim?.start ?? 0,
      assPath: path.join(workDir, 'captions.ass'),
    });
    progress.report('rendering', 0);
    const video = path.join(workDir, CLIP_FILES.video);
    const render = await renderClip({
      ffmpeg: deps.media.ffmpeg,
      source,
      output: video,
      sourceInfo,
      layout: plan.layout,
      captions,
      trim: plan.trim,
      audio: { normalize: plan.normalizeAudio },
      signal,
      onProgress: (fraction) => progress.report('rendering', fraction),
      timeoutMs: RENDER_TIMEOUT_MS,
    });
    const rendered = await probe(deps.media.ffprobe, video, signal);
    const thumbnail = path.join(workDir, CLIP_FILES.thumbnail);
    await clipThumbnail({ ffmpeg: deps.media.ffmpeg, source: video, output: thumbnail, durationSec: rendered.durationSec, signal });
    await progress.stop();
    const placed = await deps.db.transaction().execute(async (trx) => {
      const done = { status: 'done', percent: 100, message: null, finished_at: new Date() } as const;
      if (!(await moveSubtitleRequest(trx, requestId, { from: 'running', owner: identity.instance, set: done }))) return false;
      await markRendered(trx, clip.id, { sizeBytes: rendered.sizeBytes, durationSec: rendered.durationSec, width: rendered.width, height: rendered.height, loudness: render.loudness });
      // Inside the transaction that marks the render done: a stop that won the race leaves the old files.
      await replaceClipFiles(deps.storage, clip, { video, thumbnail });
      return true;
    });
    if (!placed) throw new RenderStopped();
    await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'render', message: `Rendered "${clip.title}" (${clip.clip_id}) again with its settings`, userId: clip.user_id });
  } catch (error) {
    if (stopped || error instanceof RenderStopped) {
      deps.logger.info({ requestId }, 'render stopped; the clip keeps its previous video');
      return;
    }
    if (ctx.shutdown.aborted && (await putBack(deps, requestId, identity, 'render'))) {
      deps.logger.info({ requestId }, 'render interrupted by a restart; queued again');
      return;
    }
    const reason = publicReason(error);
    await fail(`Render failed: ${reason}`);
    await recordLog(deps.db, deps.logger, { level: 'ERROR', logger: 'render', message: `Rendering "${clip?.title ?? 'a clip'}" again failed: ${reason}`, userId: request.user_id, error });
  } finally {
    await progress.stop();
    await beating.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}
