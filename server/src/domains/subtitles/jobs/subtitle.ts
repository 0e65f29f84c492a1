import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../../deps.ts';
import { CLIP_FILES, findClipById, instanceWorkDir, localClipFile, markSubtitled, replaceClipFiles, type TranscriptUpdate } from '../../clips/service.ts';
import { describeClip } from '../../descriptions/service.ts';
import { performanceProfileFor } from '../../publishing/service.ts';
import { recordLog } from '../../logs/service.ts';
import { findStreamerById, studioOf } from '../../streamers/service.ts';
import { clipRenderPlan, writeCaptionOverlay } from '../../studio/service.ts';
import { clipThumbnail, outputFrame, probe, renderClip, type SubtitleOverlay } from '../../../engines/media/index.ts';
import type { RenderJobKind } from '../../../platform/db/schema.ts';
import { startBeating } from '../../../platform/beat.ts';
import { publicReason } from '../../../platform/public-reason.ts';
import type { WorkerIdentity } from '../../../platform/identity.ts';
import { captionClip, recognisedTranscript, requireTranscriber } from '../captions.ts';
import { SUBTITLE_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob, type JobContext } from '../../../platform/queue/define.ts';
import { claimQueuedRequest, moveSubtitleRequest, updateSubtitleRequest } from '../queries.ts';
import { NO_SPEECH, queueRequestJob } from '../service.ts';
import { subtitleProgress } from '../progress.ts';

const HEARTBEAT_MS = 5_000;

/**
 * Hands an interrupted request back to the queue (the app is stopping, or this worker's runner is
 * being replaced), so the next worker starts it again. False if it is no longer this process's.
 */
export async function putBack(deps: AppDeps, requestId: string, identity: WorkerIdentity, kind: RenderJobKind = 'subtitles'): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const set = { status: 'queued', owner_host: null, owner_pid: null, owner_instance: null, heartbeat_at: null } as const;
    if (!(await moveSubtitleRequest(trx, requestId, { from: 'running', owner: identity.instance, set }))) return false;
    await queueRequestJob(trx, { id: requestId, kind });
    return true;
  });
}

/**
 * `subtitles/generate`: transcribe the kept source with the streamer's glossary as vocabulary (or,
 * when the user corrected the transcript and did not ask to transcribe again, take the saved
 * words as they are), write captions, render the clip again from the
 * source in one encode (layout + captions), then mark it subtitled with its transcript and fresh
 * description suggestions. A clip with no speech is left as it was. graphile-worker's abort signal
 * (the app is stopping) reaches probe, transcription and ffmpeg; the request then goes back to the
 * queue and runs again after the restart. The render replaces the clip's video atomically, so an
 * interrupted one leaves the previous video in place.
 */
export function subtitleJob(deps: AppDeps, identity: WorkerIdentity) {
  return defineJob({ ...SUBTITLE_JOB, run: ({ requestId }, ctx) => generateSubtitles(deps, identity, requestId, ctx) });
}

async function generateSubtitles(deps: AppDeps, identity: WorkerIdentity, requestId: string, ctx: JobContext): Promise<void> {
  const { signal } = ctx;
  const request = await claimQueuedRequest(deps.db, requestId, identity);
  if (!request) return;
  const beating = startBeating(() => updateSubtitleRequest(deps.db, requestId, { heartbeat_at: new Date() }), HEARTBEAT_MS, () => undefined);
  const workDir = path.join(instanceWorkDir(deps.env.dataDir, identity.instance), `subtitles-${requestId}`);
  const progress = subtitleProgress(deps.db, requestId);
  const finish = async (status: 'done' | 'no_speech' | 'failed', message: string | null) => {
    await progress.stop();
    await updateSubtitleRequest(deps.db, requestId, { status, message, finished_at: new Date(), ...(status === 'failed' ? {} : { percent: 100 }) });
  };
  const clip = await findClipById(deps.db, request.clip_row_id);
  try {
    if (!clip) {
      await finish('failed', 'The clip no longer exists');
      return;
    }
    const streamer = clip.streamer_id ? await findStreamerById(deps.db, clip.streamer_id) : undefined;
    await mkdir(workDir, { recursive: true });
    const source = await localClipFile(deps.storage, clip, 'source', workDir, signal);
    // Rendered beside the source and put in place whole once complete: the previous video stays until then.
    const output = path.join(workDir, CLIP_FILES.video);
    const sourceInfo = await probe(deps.media.ffprobe, source, signal);
    const plan = await clipRenderPlan(deps.db, clip, sourceInfo.durationSec, { streamer: streamer ? studioOf(streamer) : null });
    const { layout } = plan;
    const target = outputFrame(layout, sourceInfo);
    const trimStart = plan.trim?.start ?? 0;
    const assPath = path.join(workDir, 'captions.ass');
    // The user's corrected words are burned as they are; only "transcribe again" replaces them.
    const savedWords = !request.retranscribe && clip.transcript_edited ? clip.transcript_words : null;
    let spoken: { text: string; language: string | null; wordCount: number };
    let recognised: TranscriptUpdate | null = null;
    let overlay: SubtitleOverlay | null;
    if (savedWords?.length) {
      progress.report('rendering', 0);
      overlay = await writeCaptionOverlay({ words: savedWords, style: plan.captionStyle, frame: target, trimStart, assPath, language: clip.transcript_language, glossary: plan.glossary });
      spoken = { text: clip.transcript ?? savedWords.map((word) => word.text).join(' '), language: clip.transcript_language, wordCount: savedWords.length };
    } else {
      const result = await captionClip({
        transcriber: requireTranscriber(deps),
        sourcePath: source,
        assPath,
        target,
        language: streamer?.language || clip.language || undefined,
        model: request.model ?? undefined,
        vocabulary: plan.glossary,
        style: plan.captionStyle,
        trimStart,
        signal,
        onProgress: (fraction) => progress.report('transcribing', fraction),
      });
      overlay = result.overlay;
      recognised = recognisedTranscript(result.transcript);
      spoken = { text: result.transcript.text, language: result.transcript.language ?? null, wordCount: result.transcript.words.length };
    }
    if (!overlay) {
      await finish('no_speech', NO_SPEECH);
      await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'subtitles', message: `No speech found in "${clip.title}" (${clip.clip_id}): no subtitles added`, userId: clip.user_id });
      return;
    }
    progress.report('rendering', 0);
    const render = await renderClip({
      ffmpeg: deps.media.ffmpeg,
      source,
      output,
      sourceInfo,
      layout,
      captions: overlay,
      trim: plan.trim,
      audio: { normalize: plan.normalizeAudio },
      signal,
      onProgress: (fraction) => progress.report('rendering', fraction),
    });
    const rendered = await probe(deps.media.ffprobe, output);
    // The clip's layout or trim may have changed since its picture was taken.
    const thumbnail = path.join(workDir, CLIP_FILES.thumbnail);
    await clipThumbnail({ ffmpeg: deps.media.ffmpeg, source: output, output: thumbnail, durationSec: rendered.durationSec, signal });
    progress.report('describing', 0);
    const descriptions = await describeClip(deps, {
      clip: { title: clip.title, streamer: clip.broadcaster_name, gameName: clip.game_name, transcript: spoken.text, language: spoken.language ?? clip.language },
      userId: clip.user_id,
      performance: await performanceProfileFor(deps.db, clip.user_id, clip.streamer_id),
      signal,
    });
    signal.throwIfAborted();
    await replaceClipFiles(deps.storage, clip, { video: output, thumbnail });
    await markSubtitled(deps.db, clip.id, {
      // null keeps the saved (edited) words as they are.
      transcript: recognised,
      video: { sizeBytes: rendered.sizeBytes, durationSec: rendered.durationSec, width: rendered.width, height: rendered.height, loudness: render.loudness },
      descriptions,
    });
    await finish('done', null);
    await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'subtitles', message: `Subtitles added to "${clip.title}" (${clip.clip_id}, ${spoken.wordCount} words)`, userId: clip.user_id });
  } catch (error) {
    if (signal.aborted && (await putBack(deps, requestId, identity))) {
      deps.logger.info({ requestId }, 'subtitle generation interrupted by a restart; queued again');
      return;
    }
    const reason = publicReason(error);
    await finish('failed', `Subtitle generation failed: ${reason}`);
    await recordLog(deps.db, deps.logger, { level: 'ERROR', logger: 'subtitles', message: `Subtitles for "${clip?.title ?? 'a clip'}" failed: ${reason}`, userId: request.user_id, error });
  } finally {
    await progress.stop();
    await beating.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}
