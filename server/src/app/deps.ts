import type { AppDeps } from '../domains/deps.ts';
import { withYouTubeQuota, youtubeQuotaFromEnv } from '../domains/publishing/service.ts';
import { configureRendering, resolveMediaBinaries } from '../engines/media/index.ts';
import { tiktokFromEnv } from '../engines/providers/tiktok/index.ts';
import { youtubeFromEnv } from '../engines/providers/youtube/index.ts';
import { instagramFromEnv } from '../engines/providers/instagram/index.ts';
import { facebookFromEnv } from '../engines/providers/facebook/index.ts';
import { transcriberFromEnv } from '../engines/providers/transcription/index.ts';
import { twitchFromEnv } from '../engines/providers/twitch/index.ts';
import type { Db } from '../platform/db/database.ts';
import type { Env } from '../platform/env.ts';
import type { Logger } from '../platform/logger.ts';
import { createStorage } from '../platform/storage/index.ts';

interface DepsOptions {
  appSecret: string;
  workerRunning?: () => boolean;
  stopping?: AbortSignal;
  /** Clients to use instead of those the configuration makes (a bench without Twitch, a fake). */
  overrides?: Partial<Pick<AppDeps, 'twitch' | 'tiktok' | 'youtube' | 'instagram' | 'facebook' | 'media' | 'storage' | 'transcriber' | 'transcriberProblem'>>;
}

/**
 * The one place AppDeps are assembled, for the app, its worker processes, tests and benches: the
 * clients come from the configuration unless overridden. Whoever builds them closes the transcriber.
 */
export function createDeps(env: Env, db: Db, logger: Logger, options: DepsOptions): AppDeps {
  const { overrides = {} } = options;
  const media = overrides.media ?? resolveMediaBinaries(env);
  // One render plan per process: how many renders run at once, their threads, the encoder.
  configureRendering({ encoder: env.FFMPEG_ENCODER, maxParallel: env.FFMPEG_MAX_PARALLEL, threads: env.FFMPEG_THREADS, demand: env.WORKER_CONCURRENCY }, logger);
  const youtube = 'youtube' in overrides ? (overrides.youtube ?? null) : youtubeFromEnv(env, logger);
  // Every worker books YouTube calls on the project's daily count before making them.
  const youtubeQuota = youtubeQuotaFromEnv(env);
  const transcription = 'transcriber' in overrides ? { transcriber: overrides.transcriber ?? null, problem: overrides.transcriberProblem } : transcriberFromEnv(env, media.ffmpeg, logger);
  return {
    env,
    db,
    logger,
    appSecret: options.appSecret,
    twitch: 'twitch' in overrides ? (overrides.twitch ?? null) : twitchFromEnv(env, logger),
    tiktok: 'tiktok' in overrides ? (overrides.tiktok ?? null) : tiktokFromEnv(env, logger),
    youtube: youtube && youtubeQuota ? withYouTubeQuota(youtube, db, youtubeQuota) : youtube,
    instagram: 'instagram' in overrides ? (overrides.instagram ?? null) : instagramFromEnv(env, logger),
    facebook: 'facebook' in overrides ? (overrides.facebook ?? null) : facebookFromEnv(env, logger),
    storage: overrides.storage ?? createStorage(env),
    media,
    transcriber: transcription.transcriber,
    transcriberProblem: transcription.problem,
    workerRunning: options.workerRunning ?? (() => false),
    stopping: options.stopping,
  };
}
