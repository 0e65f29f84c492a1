import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ClipMoment, ClipStage } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import type { TwitchClient, TwitchClip } from '../../engines/providers/twitch/index.ts';
import { CLIP_FILES, instanceWorkDir } from '../clips/service.ts';
import { recentSuggestionTexts, saveClip, type SavedClip } from '../clips/service.ts';
import { describeClip, type ClipSuggestions } from '../descriptions/service.ts';
import { linkedPlatforms, performanceProfileFor } from '../publishing/service.ts';
import { studioOf, type StreamerRow } from '../streamers/service.ts';
import { recordLog } from '../logs/service.ts';
import { whisperModelFor } from '../settings/service.ts';
import { makeClipVideo, renderPlan, type CaptionSource } from '../studio/service.ts';
import type { OfficialFiles } from './official-files.ts';

export interface ClipJob {
  userId: string;
  runId: string;
  streamer: StreamerRow;
  clip: TwitchClip;
  gameName: string | null;
  vertical: boolean;
  /** The chat moment the clip was made of (a moment's run); null otherwise. */
  moment: ClipMoment | null;
  signal: AbortSignal;
  workDir: string;
  /** The run's way to Twitch's official clip files (channels the user's account edits). */
  officialFiles: OfficialFiles;
  onStage(stage: ClipStage, percent: number): void;
}

/**
 * A run subtitles a clip when its streamer asks (auto_subtitle), with the model saved in Settings:
 * runs have no browser behind them. A clip without speech is rendered without captions.
 */
async function runCaptions(deps: AppDeps, job: ClipJob): Promise<CaptionSource> {
  if (!job.streamer.auto_subtitle) return { kind: 'none' };
  return { kind: 'transcribe', language: job.streamer.language || null, model: await whisperModelFor(deps.db, job.userId), speechRequired: false };
}

async function describeNewClip(deps: AppDeps, job: ClipJob, transcript: string | null): Promise<ClipSuggestions> {
  const { streamer } = job;
  return describeClip(deps, {
    clip: {
      clipId: job.clip.id,
      platforms: await linkedPlatforms(deps.db, streamer.id),
      title: job.clip.title,
      streamer: streamer.display_name ?? streamer.name,
      gameName: job.gameName,
      transcript,
      language: job.clip.language && job.clip.language !== 'other' ? job.clip.language : streamer.language || null,
    },
    userId: job.userId,
    performance: await performanceProfileFor(deps.db, job.userId, streamer.id),
    avoid: await recentSuggestionTexts(deps.db, { userId: job.userId, streamer: streamer.name, exceptClipId: job.clip.id }),
    signal: job.signal,
  });
}

async function logNoSpeech(deps: AppDeps, job: ClipJob): Promise<void> {
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'subtitles', message: `No speech found in "${job.clip.title}": rendered without captions`, userId: job.userId });
}

/**
 * One clip end to end: download the source, make its video (studio's pipeline: probe, transcribe when
 * auto_subtitle so captions join the single render, thumbnail), describe, then save it into the library — which queues
 * auto-publishing with the row when the streamer asks for it. Any failure or abort leaves nothing
 * behind but the work folder, which the caller removes.
 */
export async function processClip(deps: AppDeps, twitch: TwitchClient, job: ClipJob): Promise<SavedClip> {
  const { streamer, signal } = job;
  await mkdir(job.workDir, { recursive: true });
  const sourcePath = path.join(job.workDir, CLIP_FILES.source);

  job.onStage('downloading', 0);
  const { portraitSource } = await downloadSource(deps, twitch, job, sourcePath);

  const video = await makeClipVideo(deps, {
    source: sourcePath,
    workDir: job.workDir,
    // A new clip has no overrides yet: the streamer's settings, the whole source.
    plan: (sourceDurationSec) => renderPlan({ vertical: job.vertical, streamer: studioOf(streamer), sourceDurationSec, logoKey: streamer.logo_key, portraitSource }),
    captions: await runCaptions(deps, job),
    // Described once its words are known, before the render: the hook it suggests can title the clip.
    describe: (spoken) => describeNewClip(deps, job, spoken.text),
    signal,
    onStage: (stage, fraction) => job.onStage(stage, Math.round(fraction * 100)),
  });
  if (streamer.auto_subtitle && !video.spokenText) await logNoSpeech(deps, job);
  // The pipeline described the clip (its describe step always runs when given).
  const { descriptions, hook } = video.described!;

  job.onStage('saving', 0);
  signal.throwIfAborted();
  return saveClip(deps.db, deps.storage, job.workDir, {
    userId: job.userId,
    runId: job.runId,
    streamer: { id: streamer.id, name: streamer.name },
    twitch: job.clip,
    gameName: job.gameName,
    layout: video.plan.layout,
    portraitSource,
    sourceDurationSec: video.sourceInfo.durationSec,
    rendered: video.rendered,
    descriptions,
    hookSuggestion: hook,
    transcript: video.recognised,
    // Review mode holds the clip for the user's approval: nothing posts that they wanted to see first.
    autoPublish: streamer.auto_publish && streamer.publish_mode === 'auto',
    review: streamer.auto_publish && streamer.publish_mode === 'review',
    moment: job.moment,
  });
}

/**
 * The clip's source file: Twitch's official file where the user's account edits the channel — its
 * portrait version when the streamer made one, the clip renders 9:16 and the layout is `auto`
 * (the streamer's own vertical edit beats any automatic framing) — else through GQL as always.
 */
async function downloadSource(deps: AppDeps, twitch: TwitchClient, job: ClipJob, sourcePath: string): Promise<{ portraitSource: boolean }> {
  const { signal } = job;
  const options = { signal, onProgress: (bytes: number, total: number | null) => job.onStage('downloading', total ? Math.round((bytes / total) * 100) : 0) };
  const official = await job.officialFiles.fileFor(job.clip.broadcaster_id, job.clip.id, signal);
  const portrait = job.vertical && job.streamer.layout === 'auto' ? (official?.portrait_download_url ?? null) : null;
  const url = portrait ?? official?.landscape_download_url ?? null;
  if (url) {
    try {
      await twitch.downloadClip(url, sourcePath, options);
      return { portraitSource: portrait !== null };
    } catch (error) {
      if (signal.aborted) throw error;
      deps.logger.warn({ err: error, clipId: job.clip.id }, 'Official Twitch clip download failed; fetching it through GQL');
    }
  }
  const source = await twitch.resolveClipSource(job.clip.id, signal);
  await twitch.downloadClip(source.url, sourcePath, options);
  return { portraitSource: false };
}

export function clipWorkDir(dataDir: string, instance: string, runId: string, slug: string): string {
  return path.join(instanceWorkDir(dataDir, instance), runId, slug.replace(/[^A-Za-z0-9_-]/g, '_'));
}
