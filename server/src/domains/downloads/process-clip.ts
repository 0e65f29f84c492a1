import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ClipStage } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { clipThumbnail, probe, renderClip } from '../../engines/media/index.ts';
import type { TwitchClient, TwitchClip } from '../../engines/providers/twitch/index.ts';
import { CLIP_FILES, instanceWorkDir } from '../clips/service.ts';
import { recentSuggestionTexts, saveClip, type SavedClip } from '../clips/service.ts';
import { describeClip } from '../descriptions/service.ts';
import { linkedPlatforms, performanceProfileFor } from '../publishing/service.ts';
import { studioOf, type StreamerRow } from '../streamers/service.ts';
import { renderPlan } from '../studio/service.ts';
import { captionsForRun, type RunCaptions } from '../subtitles/service.ts';

export interface ClipJob {
  userId: string;
  runId: string;
  streamer: StreamerRow;
  clip: TwitchClip;
  gameName: string | null;
  vertical: boolean;
  signal: AbortSignal;
  workDir: string;
  onStage(stage: ClipStage, percent: number): void;
}

/** ffmpeg must finish a short clip's render well inside this, or something is wrong. */
const RENDER_TIMEOUT_MS = 20 * 60_000;

/**
 * One clip end to end: download the source, probe it, transcribe (auto_subtitle) so captions join
 * the single render, thumbnail, describe, then save it into the library — which queues
 * auto-publishing with the row when the streamer asks for it. Any failure or abort leaves nothing
 * behind but the work folder, which the caller removes.
 */
export async function processClip(deps: AppDeps, twitch: TwitchClient, job: ClipJob): Promise<SavedClip> {
  const { media } = deps;
  const { streamer, signal } = job;
  await mkdir(job.workDir, { recursive: true });
  const sourcePath = path.join(job.workDir, CLIP_FILES.source);
  const videoPath = path.join(job.workDir, CLIP_FILES.video);

  job.onStage('downloading', 0);
  const source = await twitch.resolveClipSource(job.clip.id, signal);
  await twitch.downloadClip(source.url, sourcePath, {
    signal,
    onProgress: (bytes, total) => job.onStage('downloading', total ? Math.round((bytes / total) * 100) : 0),
  });

  job.onStage('probing', 0);
  const sourceInfo = await probe(media.ffprobe, sourcePath, signal);
  // A new clip has no overrides yet: the streamer's settings, the whole source.
  const plan = renderPlan({ vertical: job.vertical, streamer: studioOf(streamer), sourceDurationSec: sourceInfo.durationSec });
  const { layout } = plan;

  let captions: RunCaptions | null = null;
  if (streamer.auto_subtitle) {
    job.onStage('transcribing', 0);
    captions = await captionsForRun(deps, {
      userId: job.userId,
      clipTitle: job.clip.title,
      sourcePath,
      sourceInfo,
      layout,
      workDir: job.workDir,
      language: streamer.language || null,
      captionStyle: plan.captionStyle,
      glossary: plan.glossary,
      signal,
    });
  }

  job.onStage('rendering', 0);
  const render = await renderClip({
    ffmpeg: media.ffmpeg,
    source: sourcePath,
    output: videoPath,
    sourceInfo,
    layout,
    captions: captions?.overlay,
    audio: { normalize: plan.normalizeAudio },
    signal,
    onWaiting: () => job.onStage('waiting_to_render', 0),
    onProgress: (fraction) => job.onStage('rendering', Math.round(fraction * 100)),
    timeoutMs: RENDER_TIMEOUT_MS,
  });
  job.onStage('thumbnail', 0);
  const thumbPath = path.join(job.workDir, CLIP_FILES.thumbnail);
  await clipThumbnail({ ffmpeg: media.ffmpeg, source: videoPath, output: thumbPath, durationSec: sourceInfo.durationSec, signal });
  const rendered = { ...(await probe(media.ffprobe, videoPath, signal)), loudness: render.loudness };
  const { descriptions, hook } = await describeClip(deps, {
    clip: {
      clipId: job.clip.id,
      platforms: await linkedPlatforms(deps.db, streamer.id),
      title: job.clip.title,
      streamer: streamer.display_name ?? streamer.name,
      gameName: job.gameName,
      transcript: captions?.transcript.text ?? null,
      language: job.clip.language && job.clip.language !== 'other' ? job.clip.language : streamer.language || null,
    },
    userId: job.userId,
    performance: await performanceProfileFor(deps.db, job.userId, streamer.id),
    avoid: await recentSuggestionTexts(deps.db, { userId: job.userId, streamer: streamer.name, exceptClipId: job.clip.id }),
    signal,
  });

  job.onStage('saving', 0);
  signal.throwIfAborted();
  return saveClip(deps.db, deps.storage, job.workDir, {
    userId: job.userId,
    runId: job.runId,
    streamer: { id: streamer.id, name: streamer.name },
    twitch: job.clip,
    gameName: job.gameName,
    layout,
    sourceDurationSec: sourceInfo.durationSec,
    rendered,
    descriptions,
    hookSuggestion: hook,
    transcript: captions?.transcript ?? null,
    // Review mode holds the clip for the user's approval: nothing posts that they wanted to see first.
    autoPublish: streamer.auto_publish && streamer.publish_mode === 'auto',
    review: streamer.auto_publish && streamer.publish_mode === 'review',
  });
}

export function clipWorkDir(dataDir: string, instance: string, runId: string, slug: string): string {
  return path.join(instanceWorkDir(dataDir, instance), runId, slug.replace(/[^A-Za-z0-9_-]/g, '_'));
}
