import { EMPTY_PROFILE, performanceProfile, PLATFORM_LABELS, STATS_TOP_POSTS, type AccountStats, type PerformanceProfile } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { clipLabelsOf } from '../clips/service.ts';
import { recordLog } from '../logs/service.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { DAY_MS } from '../../platform/zoned-time.ts';
import { publicReason } from '../../platform/public-reason.ts';
import type { AccountPlatform, PostStats } from '../../platform/db/schema.ts';
import { findAccount } from './accounts.ts';
import { platformOf } from './platforms/index.ts';
import { accountToken, ReconnectRequired } from './tokens.ts';
import { selectLinkedAccountIds } from './queries.ts';
import {
  clearUnreadableStats,
  saveStatsReadings,
  selectAccountPostStats,
  selectDailyViews,
  selectDueStats,
  selectPerformancePosts,
  setStatsDue,
} from './stats-queries.ts';
import { nextStatsDue } from './stats-schedule.ts';

export { firstStatsDue, nextStatsDue } from './stats-schedule.ts';

/** Posts read per refresh run at most; the rest stay due for the next run. */
const MAX_DUE_PER_RUN = 2000;
/** Posts the performance profile learns from: the newest of the linked accounts'. */
const PROFILE_POSTS = 300;

type DueUpload = Awaited<ReturnType<typeof selectDueStats>>[number];

/** What one refresh did, for logs and tests. */
export interface StatsRefreshReport {
  /** Posts whose counts were read and saved. */
  read: number;
  /** Posts the platform no longer returns: no longer read. */
  gone: number;
  /** Accounts whose reading failed (their posts stay due, or wait a day for the user); accounts that need reconnecting are not even selected. */
  skippedAccounts: number;
}

class SkipAccount extends Error {}

/**
 * Reads the statistics of every published post that is due (stats_due_at ≤ now), account by
 * account: one fresh token and a few batched queries per account (TikTok 20 ids a call, YouTube
 * 50, Instagram and Facebook one post a call). Each post gets its counts, a history row and its next reading (stats-schedule.ts); a post
 * the platform no longer returns (deleted) is no longer read. Accounts that need reconnecting are
 * skipped, and one account's failure never stops the others: its posts stay due for the next run.
 */
export async function refreshDueStats(deps: AppDeps, now = new Date(), signal?: AbortSignal): Promise<StatsRefreshReport> {
  await clearUnreadableStats(deps.db, now);
  const due = await selectDueStats(deps.db, now, MAX_DUE_PER_RUN);
  const byAccount = new Map<string, DueUpload[]>();
  for (const upload of due) {
    if (!upload.account_id) continue;
    const list = byAccount.get(upload.account_id);
    if (list) list.push(upload);
    else byAccount.set(upload.account_id, [upload]);
  }
  const report: StatsRefreshReport = { read: 0, gone: 0, skippedAccounts: 0 };
  for (const [accountId, uploads] of byAccount) {
    signal?.throwIfAborted();
    const first = uploads[0]!;
    try {
      const found = await readCounts(deps, first.platform, accountId, uploads.map((upload) => upload.external_id!), signal);
      const readings = uploads.flatMap((upload) => {
        const stats = found.get(upload.external_id!);
        return stats ? [{ uploadId: upload.id, stats, nextDue: nextStatsDue(upload.published_at ?? upload.updated_at, now) }] : [];
      });
      const gone = uploads.filter((upload) => !found.has(upload.external_id!));
      await saveStatsReadings(deps.db, readings, now);
      await setStatsDue(deps.db, gone.map((upload) => upload.id), null);
      report.read += readings.length;
      report.gone += gone.length;
      for (const upload of gone) {
        await recordLog(deps.db, deps.logger, {
          level: 'INFO',
          logger: 'stats',
          message: `${PLATFORM_LABELS[upload.platform]} no longer returns the post ${upload.external_id} of ${upload.account_name} (deleted or made private): its statistics are no longer read`,
          userId: upload.user_id,
        });
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      report.skippedAccounts += 1;
      await accountFailed(deps, first, uploads, now, error);
    }
  }
  if (report.read || report.gone) deps.logger.info({ ...report }, 'post statistics refreshed');
  return report;
}

/**
 * An account whose reading failed. A refused grant (reconnect) or a missing permission waits for
 * the user: the posts move to their next reading rather than being asked every run, and the user
 * is told in words, at most once a day. Anything else (the platform down, a network error) is retried at the
 * next run.
 */
async function accountFailed(deps: AppDeps, first: DueUpload, uploads: readonly DueUpload[], now: Date, error: unknown): Promise<void> {
  if (error instanceof SkipAccount) return;
  const waitsForUser = error instanceof ReconnectRequired || platformOf(first.platform).waitsForUser(error);
  if (waitsForUser) {
    // Asked again in a day (told again then, if nothing changed), and never past the 30 days.
    const stillRead = (upload: DueUpload) => nextStatsDue(upload.published_at ?? upload.updated_at, now) !== null;
    await setStatsDue(deps.db, uploads.filter(stillRead).map((upload) => upload.id), new Date(now.getTime() + DAY_MS));
    await setStatsDue(deps.db, uploads.filter((upload) => !stillRead(upload)).map((upload) => upload.id), null);
    await recordLog(deps.db, deps.logger, {
      level: 'WARNING',
      logger: 'stats',
      message: `Statistics of ${first.account_name} could not be read: ${publicReason(error)}`,
      userId: first.user_id,
      error,
    });
    return;
  }
  deps.logger.warn({ err: error, accountId: first.account_id, platform: first.platform }, 'reading post statistics failed; retried at the next run');
}

/** The counts of the account's posts by the platform's post id (one token, refreshed once if refused). */
async function readCounts(deps: AppDeps, platform: AccountPlatform, accountId: string, externalIds: readonly string[], signal?: AbortSignal): Promise<Map<string, PostStats>> {
  const adapter = platformOf(platform);
  const problem = adapter.configurationProblem(deps);
  if (problem) throw new SkipAccount(problem);
  const token = await accountToken(deps, adapter, accountId, signal);
  return adapter.readCounts(deps, token, externalIds, signal);
}

const utcDate = (date: Date) => date.toISOString().slice(0, 10);

/**
 * GET /api/accounts/{id}/stats: totals of the account's published posts' latest counts, its views
 * per day over the last `days` days (UTC, ending today) and its most-viewed posts.
 */
export async function accountStats(db: DbOrTrx, userId: string, accountId: string | null, days: number, now = new Date()): Promise<AccountStats> {
  const account = await findAccount(db, userId, accountId);
  const posts = await selectAccountPostStats(db, account.id);
  const first = utcDate(new Date(now.getTime() - (days - 1) * DAY_MS));
  const series = await selectDailyViews(db, account.id, first, utcDate(now));
  const totals = { views: 0, likes: 0, comments: 0, shares: account.platform === 'youtube' ? null : 0, posts: posts.length } as AccountStats['totals'];
  for (const post of posts) {
    const stats = post.stats!;
    totals.views += stats.views;
    totals.likes += stats.likes;
    totals.comments += stats.comments;
    if (totals.shares !== null) totals.shares += stats.shares ?? 0;
  }
  const best = posts.slice(0, STATS_TOP_POSTS);
  const labels = await clipLabelsOf(db, best.map((post) => post.clip_row_id));
  const top = best.map((post) => {
    const clip = labels.get(post.clip_row_id);
    const stats = post.stats!;
    return {
      upload_id: post.id,
      clip_id: clip?.clip_id ?? '',
      title: post.title ?? clip?.title ?? post.description,
      views: stats.views,
      likes: stats.likes,
      comments: stats.comments,
      shares: stats.shares,
      published_at: (post.published_at ?? post.updated_at).toISOString(),
    };
  });
  return { account_id: account.id, platform: account.platform, totals, series, top };
}

/**
 * How the posts of the streamer's linked accounts performed (shared/ranking.ts), for ranking a new
 * clip's description suggestions; the empty profile (order unchanged) without linked accounts or
 * statistics.
 */
export async function performanceProfileFor(db: DbOrTrx, userId: string, streamerId: string | null): Promise<PerformanceProfile> {
  if (!streamerId) return EMPTY_PROFILE;
  const accountIds = await selectLinkedAccountIds(db, streamerId);
  if (!accountIds.length) return EMPTY_PROFILE;
  const posts = await selectPerformancePosts(db, userId, accountIds, PROFILE_POSTS);
  return performanceProfile(posts.map((post) => ({ account_id: post.account_id ?? '', description: post.description, views: post.stats?.views ?? 0 })));
}
