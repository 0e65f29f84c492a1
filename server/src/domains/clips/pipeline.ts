import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ClipStage } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import type { DescriptionOption } from '../../platform/db/schema.ts';
import { makeThumbnail, probe, renderHorizontal, renderVertical, type ProbeResult } from '../../engines/media/index.ts';
import type { TwitchClient, TwitchClip } from '../../engines/providers/twitch/index.ts';
import type { StreamerRow } from '../streamers/service.ts';
import { CLIP_FILES, clipFilesDir, instanceWorkDir, mediaRoot } from './files.ts';

/** Burned-in captions prepared before the single render (filled by the subtitles capability). */
export interface PreparedSubtitles {
  assPath: string;
  fontsDir: string;
  transcript: string;
}

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

/**
 * Extension points of clip processing. Subtitles run before the render so captions join the one
 * encode; descriptions and auto-publishing run once the clip is saved.
 */
export interface ClipProcessingHooks {
  prepareSubtitles?(job: ClipJob, sourcePath: string, info: ProbeResult): Promise<PreparedSubtitles | null>;
  describe?(job: ClipJob, transcript: string | null): Promise<DescriptionOption[]>;
  afterSaved?(clipRowId: string, job: ClipJob): Promise<void>;
}

export interface ProcessedClip {
  id: string;
  inserted: boolean;
}

/** Twitch renders clip thumbnails near the start; a frame a little in avoids black openings. */
const THUMBNAIL_AT_SEC = 1;
/** ffmpeg must finish a short clip's render well inside this, or something is wrong. */
const RENDER_TIMEOUT_MS = 20 * 60_000;

/**
 * One clip end to end: download the source, probe it, (transcribe), render once, thumbnail, then
 * move the finished folder into the library and save the row. Any failure or abort leaves nothing
 * behind but the work folder, which the caller removes.
 */
export async function processClip(deps: AppDeps, twitch: TwitchClient, job: ClipJob, hooks: ClipProcessingHooks = {}): Promise<ProcessedClip> {
  const { media } = deps;
  const work = job.workDir;
  await mkdir(work, { recursive: true });
  const sourcePath = path.join(work, CLIP_FILES.source);
  const videoPath = path.join(work, CLIP_FILES.video);
  const thumbPath = path.join(work, CLIP_FILES.thumbnail);

  job.onStage('downloading', 0);
  const source = await twitch.resolveClipSource(job.clip.id, job.signal);
  await twitch.downloadClip(source.url, sourcePath, {
    signal: job.signal,
    onProgress: (bytes, total) => job.onStage('downloading', total ? Math.round((bytes / total) * 100) : 0),
  });

  job.onStage('probing', 0);
  const info = await probe(media.ffprobe, sourcePath, job.signal);

  let subtitles: PreparedSubtitles | null = null;
  if (job.streamer.auto_subtitle && hooks.prepareSubtitles) {
    job.onStage('transcribing', 0);
    subtitles = await hooks.prepareSubtitles(job, sourcePath, info);
  }

  job.onStage('rendering', 0);
  const onRenderProgress = (fraction: number) => job.onStage('rendering', Math.round(fraction * 100));
  if (job.vertical) {
    await renderVertical({
      ffmpeg: media.ffmpeg,
      source: sourcePath,
      output: videoPath,
      layout: job.streamer.layout,
      sourceInfo: info,
      subtitles: subtitles ? { assPath: subtitles.assPath, fontsDir: subtitles.fontsDir } : undefined,
      signal: job.signal,
      onProgress: onRenderProgress,
      timeoutMs: RENDER_TIMEOUT_MS,
    });
  } else {
    await renderHorizontal({
      ffmpeg: media.ffmpeg,
      source: sourcePath,
      output: videoPath,
      sourceInfo: info,
      subtitles: subtitles ? { assPath: subtitles.assPath, fontsDir: subtitles.fontsDir } : undefined,
      signal: job.signal,
      onProgress: onRenderProgress,
      timeoutMs: RENDER_TIMEOUT_MS,
    });
  }
  job.onStage('thumbnail', 0);
  await makeThumbnail({ ffmpeg: media.ffmpeg, source: videoPath, output: thumbPath, atSec: THUMBNAIL_AT_SEC, durationSec: info.durationSec, width: 480, signal: job.signal });
  const rendered = await probe(media.ffprobe, videoPath, job.signal);
  const descriptions = hooks.describe ? await hooks.describe(job, subtitles?.transcript ?? null) : [];

  job.onStage('saving', 0);
  job.signal.throwIfAborted();
  return saveClip(deps, job, { rendered, descriptions, subtitles });
}

interface SaveInput {
  rendered: ProbeResult;
  descriptions: DescriptionOption[];
  subtitles: PreparedSubtitles | null;
}

async function saveClip(deps: AppDeps, job: ClipJob, { rendered, descriptions, subtitles }: SaveInput): Promise<ProcessedClip> {
  const id = crypto.randomUUID();
  const filesDir = clipFilesDir(job.userId, id);
  const finalDir = path.join(mediaRoot(deps.env.dataDir), filesDir);
  await mkdir(path.dirname(finalDir), { recursive: true });
  await rename(job.workDir, finalDir);
  const { clip } = job;
  const inserted = await deps.db
    .insertInto('clips')
    .values({
      id,
      user_id: job.userId,
      streamer_id: job.streamer.id,
      streamer_name: job.streamer.name,
      clip_id: clip.id,
      title: clip.title,
      broadcaster_id: clip.broadcaster_id,
      broadcaster_name: clip.broadcaster_name,
      creator_name: clip.creator_name,
      game_id: clip.game_id || null,
      game_name: job.gameName,
      language: clip.language,
      view_count: clip.view_count,
      duration: rendered.durationSec,
      twitch_created_at: clip.created_at,
      thumbnail_url: clip.thumbnail_url,
      url: clip.url,
      format_type: job.vertical ? 'vertical' : 'horizontal',
      layout: job.vertical ? job.streamer.layout : null,
      subtitled: subtitles !== null,
      width: rendered.width,
      height: rendered.height,
      size_bytes: rendered.sizeBytes,
      files_dir: filesDir,
      descriptions: JSON.stringify(descriptions),
      transcript: subtitles?.transcript ?? null,
      run_id: job.runId,
    })
    .onConflict((conflict) => conflict.columns(['user_id', 'clip_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    // Another run saved this clip first: the library keeps one copy.
    await rm(finalDir, { recursive: true, force: true });
    return { id, inserted: false };
  }
  return { id, inserted: true };
}

export function clipWorkDir(dataDir: string, instance: string, runId: string, slug: string): string {
  return path.join(instanceWorkDir(dataDir, instance), runId, slug.replace(/[^A-Za-z0-9_-]/g, '_'));
}
