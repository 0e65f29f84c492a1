import type { AppDeps } from '../deps.ts';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import type { Env } from '../../platform/env.ts';
import {
  nextPacificMidnight,
  QUOTA_UNITS,
  quotaDay,
  videosListUnits,
  YouTubeQuotaExceededError,
  type YouTubeClient,
} from '../../engines/providers/youtube/index.ts';
import { selectQuotaDay, spendQuotaDay, type QuotaSpend } from './queries.ts';

/*
 * YouTube's daily quota belongs to the Google project (the OAuth client, YOUTUBE_CLIENT_ID), not to
 * a channel, and resets at midnight Pacific. Every worker of this app spends from it, so the count
 * lives in youtube_quota_days and a call is made only after its cost was booked there: a post whose
 * upload would pass the day's uploads waits for the reset (as after YouTube's own quotaExceeded)
 * without asking YouTube, and YouTube's refusal stays handled for quota spent elsewhere.
 */

export interface YouTubeQuota {
  /** The Google project the quota belongs to. */
  project: string;
  limits: QuotaSpend;
  now: () => number;
}

/** The quota of the configured project, or null without one (YouTube off). */
export function youtubeQuotaFromEnv(env: Pick<Env, 'YOUTUBE_CLIENT_ID' | 'YOUTUBE_DAILY_UPLOADS' | 'YOUTUBE_DAILY_UNITS'>, now: () => number = Date.now): YouTubeQuota | null {
  if (!env.YOUTUBE_CLIENT_ID) return null;
  return { project: env.YOUTUBE_CLIENT_ID, limits: { uploads: env.YOUTUBE_DAILY_UPLOADS, units: env.YOUTUBE_DAILY_UNITS }, now };
}

/** Books `spend` on today's count; false (nothing booked) when a bucket has too little left. */
export async function spendYouTubeQuota(db: DbOrTrx, quota: YouTubeQuota, spend: Partial<QuotaSpend>): Promise<boolean> {
  const cost = { uploads: spend.uploads ?? 0, units: spend.units ?? 0 };
  return (await spendQuotaDay(db, quota.project, quotaDay(quota.now()), cost, quota.limits)) !== undefined;
}

/** Uploads the project may still start today. */
async function uploadsLeftToday(db: DbOrTrx, quota: YouTubeQuota): Promise<number> {
  const spent = await selectQuotaDay(db, quota.project, quotaDay(quota.now()));
  return Math.max(0, quota.limits.uploads - spent.uploads);
}

/** Uploads the configured project may still start today; null while YouTube is not configured. */
export async function youtubeUploadsLeft(deps: Pick<AppDeps, 'db' | 'env' | 'youtube'>): Promise<number | null> {
  const quota = deps.youtube ? youtubeQuotaFromEnv(deps.env) : null;
  return quota ? uploadsLeftToday(deps.db, quota) : null;
}

/**
 * The client with each quota-spending call booked first; a call the day's quota cannot pay for
 * throws YouTubeQuotaExceededError for the next midnight Pacific, as YouTube's own refusal does.
 * Token calls and the bytes of an upload cost nothing and pass through.
 */
export function withYouTubeQuota(youtube: YouTubeClient, db: Db, quota: YouTubeQuota): YouTubeClient {
  const book = async (spend: Partial<QuotaSpend>, what: string) => {
    if (!spend.uploads && !spend.units) return;
    if (await spendYouTubeQuota(db, quota, spend)) return;
    const bucket = spend.uploads ? `${quota.limits.uploads} uploads` : `${quota.limits.units} units`;
    throw new YouTubeQuotaExceededError(nextPacificMidnight(quota.now()), { detail: `${what}: the project's ${bucket} of today are spent (counted by Clipshift)` });
  };
  return {
    ...youtube,
    getMyChannel: async (accessToken, signal) => {
      await book({ units: QUOTA_UNITS.channelsList }, 'channels.list');
      return youtube.getMyChannel(accessToken, signal);
    },
    getVideos: async (accessToken, ids, signal) => {
      await book({ units: videosListUnits(ids) }, 'videos.list');
      return youtube.getVideos(accessToken, ids, signal);
    },
    startUpload: async (accessToken, metadata, size, signal) => {
      await book({ uploads: 1 }, 'videos.insert');
      return youtube.startUpload(accessToken, metadata, size, signal);
    },
  };
}
