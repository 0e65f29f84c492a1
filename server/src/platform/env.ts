import path from 'node:path';
import { z } from 'zod';
import { REGISTRATION_MODES } from '@clipshift/shared';

/** "true"/"false"/"1"/"0"/"yes"/"no"; anything else is a configuration error naming the variable. */
const booleanFlag = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      if (['true', '1', 'yes', 'on'].includes(value)) return true;
      if (['false', '0', 'no', 'off'].includes(value)) return false;
      ctx.addIssue({ code: 'custom', message: `expected true or false, got "${value}"` });
      return z.NEVER;
    });

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const url = (fallback: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : fallback))
    .pipe(z.url({ error: 'expected an absolute URL' }));

const optionalUrl = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(z.url({ error: 'expected an absolute URL' }).optional());

/** A whole number in min..max, or undefined when unset or blank. */
const optionalInteger = (min: number, max: number) =>
  optionalText.transform((value) => (value === undefined ? undefined : Number(value))).pipe(z.number().int('expected a whole number').min(min).max(max).optional());

const integer = (fallback: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? Number(value) : fallback))
    .pipe(z.number().int(`expected a whole number`).min(min).max(max));

/** Current hash first, then the legacy one (external-apis.md A6b). */
const DEFAULT_GQL_HASHES = [
  '4f35f1ac933d76b1da008c806cd5546a7534dfaff83e033a422a81f24e5991b3',
  '36b89d2507fce29e5ca551df756d27c1cfe079e2609642b4390aa4c35796eb11',
].join(',');

const rawEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  PORT: integer(3000, 0, 65535),
  HOST: z.string().trim().default('0.0.0.0'),
  PUBLIC_URL: optionalUrl(),
  TRUST_PROXY: booleanFlag(false),
  DATABASE_URL: optionalText.pipe(z.string().regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL').optional()),
  DATA_DIR: z.string().trim().default('./data'),
  APP_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  REGISTRATION_MODE: z.enum(REGISTRATION_MODES).default('invite'),
  RUN_WORKER: booleanFlag(true),
  RUN_WEB: booleanFlag(true),
  WORKER_CONCURRENCY: integer(5, 1, 100),
  TWITCH_CLIENT_ID: optionalText,
  TWITCH_CLIENT_SECRET: optionalText,
  TWITCH_AUTH_URL: url('https://id.twitch.tv'),
  TWITCH_API_URL: url('https://api.twitch.tv/helix'),
  TWITCH_GQL_URL: url('https://gql.twitch.tv/gql'),
  /** Twitch's IRC over WebSocket, read anonymously for moments. */
  TWITCH_CHAT_URL: url('wss://irc-ws.chat.twitch.tv:443'),
  TWITCH_GQL_CLIENT_ID: z.string().trim().default('kimne78kx3ncx6brgo4mv6wki5h1ko'),
  TWITCH_GQL_CLIP_HASHES: z
    .string()
    .trim()
    .default(DEFAULT_GQL_HASHES)
    .transform((value) => value.split(',').map((hash) => hash.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[0-9a-f]{64}$/, 'expected 64-character hex hashes')).min(1)),
  TIKTOK_CLIENT_KEY: optionalText,
  TIKTOK_CLIENT_SECRET: optionalText,
  TIKTOK_AUTH_URL: url('https://www.tiktok.com/v2/auth/authorize/'),
  TIKTOK_API_URL: url('https://open.tiktokapis.com'),
  TIKTOK_REDIRECT_URI: optionalUrl(),
  /** Where Twitch sends the user back after connecting their account (default {PUBLIC_URL}/api/twitch/callback). */
  TWITCH_REDIRECT_URI: optionalUrl(),
  TIKTOK_POST_MODE: z.enum(['direct', 'inbox']).default('direct'),
  YOUTUBE_CLIENT_ID: optionalText,
  YOUTUBE_CLIENT_SECRET: optionalText,
  YOUTUBE_AUTH_URL: url('https://accounts.google.com/o/oauth2/v2/auth'),
  YOUTUBE_TOKEN_URL: url('https://oauth2.googleapis.com/token'),
  /** The Data API lives under /youtube/v3 and uploads under /upload/youtube/v3 of this base. */
  YOUTUBE_API_URL: url('https://www.googleapis.com'),
  YOUTUBE_REDIRECT_URI: optionalUrl(),
  /** The Google project's daily quota: uploads (videos.insert) have their own bucket; every other call spends units. */
  YOUTUBE_DAILY_UPLOADS: integer(100, 1, 1_000_000),
  YOUTUBE_DAILY_UNITS: integer(10_000, 1, 1_000_000_000),
  /** Instagram API with Instagram Login (Reels); unset turns Instagram off. */
  INSTAGRAM_CLIENT_ID: optionalText,
  INSTAGRAM_CLIENT_SECRET: optionalText,
  INSTAGRAM_AUTH_URL: url('https://www.instagram.com/oauth/authorize'),
  INSTAGRAM_TOKEN_URL: url('https://api.instagram.com/oauth/access_token'),
  INSTAGRAM_GRAPH_URL: url('https://graph.instagram.com'),
  INSTAGRAM_REDIRECT_URI: optionalUrl(),
  /** Facebook Login and Page Reels; unset turns Facebook off. */
  FACEBOOK_APP_ID: optionalText,
  FACEBOOK_APP_SECRET: optionalText,
  FACEBOOK_AUTH_URL: url('https://www.facebook.com/v21.0/dialog/oauth'),
  /** The Graph API with its version, e.g. https://graph.facebook.com/v21.0. */
  FACEBOOK_GRAPH_URL: url('https://graph.facebook.com/v21.0'),
  /** Where Reels' bytes go: the only host that is sent a Page token outside the Graph API. */
  FACEBOOK_RUPLOAD_URL: url('https://rupload.facebook.com'),
  FACEBOOK_REDIRECT_URI: optionalUrl(),
  TRANSCRIBE_ENGINE: z.enum(['local', 'openai']).default('local'),
  /** Unset: large-v3-turbo for the local engine, whisper-1 for an OpenAI-compatible server. */
  WHISPER_MODEL: optionalText,
  WHISPER_MODELS_DIR: optionalText,
  TRANSCRIBE_API_URL: optionalUrl(),
  TRANSCRIBE_API_KEY: optionalText,
  LLM_API_URL: optionalUrl(),
  LLM_API_KEY: optionalText,
  LLM_MODEL: optionalText,
  FFMPEG_PATH: optionalText,
  FFPROBE_PATH: optionalText,
  /** auto: the first hardware H.264 encoder whose test encode works, else libx264 (engines/media/encoders.ts). */
  FFMPEG_ENCODER: z.enum(['auto', 'libx264', 'h264_nvenc', 'h264_vaapi', 'h264_qsv']).default('auto'),
  /** Full renders at once per process; unset: one per core, at most WORKER_CONCURRENCY (engines/media/planner.ts). */
  FFMPEG_MAX_PARALLEL: optionalInteger(1, 256),
  /** Threads per ffmpeg; unset: the cores shared among the parallel renders. */
  FFMPEG_THREADS: optionalInteger(1, 1024),
  /** Bearer token of GET /api/metrics; unset turns the route off (404). */
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** New download runs are refused while DATA_DIR has less free space than this (MB). */
  MIN_FREE_DISK_MB: integer(1024, 0, 100_000_000),
  /** Lets webhooks reach loopback and private addresses (a receiver on the same machine or network). */
  WEBHOOK_ALLOW_PRIVATE: booleanFlag(false),
  /** Where clip files live: local disk under DATA_DIR/media, or an S3-compatible bucket. */
  STORAGE: z.enum(['local', 's3']).default('local'),
  /** Unset: AWS S3 itself (the SDK's endpoint for S3_REGION). */
  S3_ENDPOINT: optionalUrl(),
  S3_REGION: z.string().trim().default('us-east-1'),
  S3_BUCKET: optionalText,
  /** Unset: the SDK's own credential chain (environment, profile, instance or task role). */
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: booleanFlag(false),
  /** Days after a clip's last successful post when its video files are deleted; unset keeps them. */
  MEDIA_RETENTION_DAYS: optionalText.transform((value) => (value === undefined ? undefined : Number(value))).pipe(z.number().int('expected a whole number of days').min(1).max(36_500).optional()),
}).superRefine((env, ctx) => {
  if (env.STORAGE !== 's3') return;
  if (!env.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required with STORAGE=s3' });
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({ code: 'custom', path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'], message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together' });
  }
});

type RawEnv = z.infer<typeof rawEnv>;

export interface Env extends RawEnv {
  /** PUBLIC_URL with its default applied, without a trailing slash. */
  publicUrl: string;
  /** Its origin, for the cross-site check. */
  publicOrigin: string;
  dataDir: string;
  whisperModelsDir: string;
  tiktokRedirectUri: string;
  twitchRedirectUri: string;
  youtubeRedirectUri: string;
  instagramRedirectUri: string;
  facebookRedirectUri: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates every configuration variable once; a bad value names its variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = rawEnv.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    dataDir,
    whisperModelsDir: path.resolve(env.WHISPER_MODELS_DIR ?? path.join(dataDir, 'models')),
    tiktokRedirectUri: env.TIKTOK_REDIRECT_URI ?? `${publicUrl}/api/tiktok/callback`,
    twitchRedirectUri: env.TWITCH_REDIRECT_URI ?? `${publicUrl}/api/twitch/callback`,
    youtubeRedirectUri: env.YOUTUBE_REDIRECT_URI ?? `${publicUrl}/api/youtube/callback`,
    instagramRedirectUri: env.INSTAGRAM_REDIRECT_URI ?? `${publicUrl}/api/instagram/callback`,
    facebookRedirectUri: env.FACEBOOK_REDIRECT_URI ?? `${publicUrl}/api/facebook/callback`,
  };
}
