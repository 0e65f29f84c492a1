import type { Db } from '../platform/db/database.ts';
import type { Env } from '../platform/env.ts';
import type { Logger } from '../platform/logger.ts';
import type { MediaStorage } from '../platform/storage/index.ts';
import type { MediaBinaries } from '../engines/media/index.ts';
import type { Transcriber } from '../engines/providers/transcription/index.ts';
import type { TikTokClient } from '../engines/providers/tiktok/index.ts';
import type { YouTubeClient } from '../engines/providers/youtube/index.ts';
import type { TwitchClient } from '../engines/providers/twitch/index.ts';
import type { InstagramClient } from '../engines/providers/instagram/index.ts';
import type { FacebookClient } from '../engines/providers/facebook/index.ts';

/**
 * How long a call that waits on a job (POST /api/subtitle/{id}, POST /api/clips/{id}/post) is held
 * before it answers 503 that the work carries on in the background: long enough for a clip's usual
 * subtitles or upload on a small machine, short of the minutes a stalled provider would hold it.
 */
export const HELD_CALL_LIMIT_MS = 3 * 60_000;

/**
 * The long-lived parts every request and job shares, built once in main.ts (or by a test harness)
 * and passed down explicitly rather than imported as globals.
 */
export interface AppDeps {
  env: Env;
  db: Db;
  logger: Logger;
  /** Key for encrypting stored third-party tokens (APP_SECRET or the generated one). */
  appSecret: string;
  /** The Twitch client, or null when TWITCH_CLIENT_ID/SECRET are not configured. */
  twitch: TwitchClient | null;
  /** The TikTok client, or null when TIKTOK_CLIENT_KEY/SECRET are not configured. */
  tiktok: TikTokClient | null;
  /** The YouTube client, or null when YOUTUBE_CLIENT_ID/SECRET are not configured. */
  youtube: YouTubeClient | null;
  /** The Instagram client, or null when INSTAGRAM_CLIENT_ID/SECRET are not configured. */
  instagram: InstagramClient | null;
  /** The Facebook client, or null when FACEBOOK_APP_ID/SECRET are not configured. */
  facebook: FacebookClient | null;
  /** Where finished clip files live (STORAGE: local disk or an S3-compatible bucket). */
  storage: MediaStorage;
  /** ffmpeg and ffprobe (from npm, or FFMPEG_PATH/FFPROBE_PATH). */
  media: MediaBinaries;
  /** Speech-to-text for subtitles, or null with the reason when the configuration cannot make one. */
  transcriber: Transcriber | null;
  transcriberProblem?: string;
  /** Whether this process runs the job worker (reported by /api/health). */
  workerRunning: () => boolean;
  /** Aborts when the process starts shutting down: calls held open on a job answer 503 at once. */
  stopping?: AbortSignal;
  /** How long a call held open on a job waits for it (default HELD_CALL_LIMIT_MS; tests pass less). */
  heldCallLimitMs?: number;
}
