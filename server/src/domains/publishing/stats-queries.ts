import { sql } from 'kysely';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import type { PostStats } from '../../platform/db/schema.ts';

/*
 * SQL of post statistics: the stats columns of uploads and post_stats_history, both publishing's
 * own tables (queries.ts holds the rest of them).
 */

/** Published posts whose statistics are due, of accounts that need no reconnecting, oldest due first. */
export function selectDueStats(db: DbOrTrx, now: Date, limit: number) {
  return db
    .selectFrom('uploads as u')
    .leftJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id', 'u.user_id', 'u.account_id', 'u.platform', 'u.external_id', 'u.account_name', 'u.published_at', 'u.updated_at'])
    .where('u.stats_due_at', '<=', now)
    .where('u.status', '=', 'published')
    .where('u.external_id', 'is not', null)
    // An account that needs reconnecting is skipped: its posts wait, due, until it is connected again.
    .where((eb) => eb.or([eb('a.needs_reconnect', '=', false), eb('a.id', 'is', null)]))
    .orderBy('u.stats_due_at')
    .limit(limit)
    .execute();
}

/** Due uploads that will never be read: no longer published, no post id, or their account removed. */
export async function clearUnreadableStats(db: DbOrTrx, now: Date): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ stats_due_at: null })
    .where('stats_due_at', '<=', now)
    .where((eb) => eb.or([eb('status', '!=', 'published'), eb('external_id', 'is', null), eb('account_id', 'is', null)]))
    .execute();
}

/**
 * One reading: the latest counts on the upload and a row of history. updated_at is left alone: it
 * tells when the post's status last changed (retention counts from it).
 */
export interface StatsReading {
  uploadId: string;
  stats: PostStats;
  nextDue: Date | null;
}

/** One account's readings made at `fetchedAt`: each post's latest counts and next reading, and one history insert for all. */
export async function saveStatsReadings(db: Db, readings: readonly StatsReading[], fetchedAt: Date): Promise<void> {
  if (!readings.length) return;
  await db.transaction().execute(async (trx) => {
    for (const { uploadId, stats, nextDue } of readings) {
      await trx.updateTable('uploads').set({ stats: JSON.stringify(stats), stats_fetched_at: fetchedAt, stats_due_at: nextDue }).where('id', '=', uploadId).execute();
    }
    await trx
      .insertInto('post_stats_history')
      .values(readings.map(({ uploadId, stats }) => ({ upload_id: uploadId, fetched_at: fetchedAt, views: stats.views, likes: stats.likes, comments: stats.comments, shares: stats.shares })))
      .onConflict((conflict) => conflict.columns(['upload_id', 'fetched_at']).doNothing())
      .execute();
  });
}

export async function setStatsDue(db: DbOrTrx, uploadIds: readonly string[], due: Date | null): Promise<void> {
  if (!uploadIds.length) return;
  await db.updateTable('uploads').set({ stats_due_at: due }).where('id', 'in', uploadIds).execute();
}

/** The account's published posts with statistics, most-viewed first. */
export function selectAccountPostStats(db: DbOrTrx, accountId: string) {
  return db
    .selectFrom('uploads')
    .select(['id', 'clip_row_id', 'title', 'description', 'stats', 'published_at', 'updated_at'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'published')
    .where('stats', 'is not', null)
    .orderBy(sql`(stats->>'views')::bigint`, 'desc')
    .orderBy('id')
    .execute();
}

/**
 * Views of the account's posts per UTC day from `first` to `last` (dates 'YYYY-MM-DD'): each post's
 * last reading by the end of the day (earlier days' readings carry forward), summed.
 */
export async function selectDailyViews(db: DbOrTrx, accountId: string, first: string, last: string): Promise<{ date: string; views: number }[]> {
  const { rows } = await sql<{ date: string; views: string }>`
    with days as (
      select generate_series(${first}::date, ${last}::date, interval '1 day')::date as day
    ),
    daily as (
      select distinct on (h.upload_id, (h.fetched_at at time zone 'UTC')::date)
        h.upload_id, (h.fetched_at at time zone 'UTC')::date as day, h.views
      from post_stats_history h
      join uploads u on u.id = h.upload_id
      where u.account_id = ${accountId} and h.fetched_at < (${last}::date + 1)::timestamp at time zone 'UTC'
      order by h.upload_id, (h.fetched_at at time zone 'UTC')::date, h.fetched_at desc
    )
    select to_char(d.day, 'YYYY-MM-DD') as date, coalesce(sum(latest.views), 0)::text as views
    from days d
    left join lateral (
      select distinct on (daily.upload_id) daily.views
      from daily
      where daily.day <= d.day
      order by daily.upload_id, daily.day desc
    ) latest on true
    group by d.day
    order by d.day
  `.execute(db);
  return rows.map((row) => ({ date: row.date, views: Number(row.views) }));
}

/** Published posts with statistics on any of these accounts, newest first, for the performance profile. */
export function selectPerformancePosts(db: DbOrTrx, userId: string, accountIds: readonly string[], limit: number) {
  return db
    .selectFrom('uploads')
    .select(['account_id', 'description', 'stats'])
    .where('user_id', '=', userId)
    .where('account_id', 'in', accountIds)
    .where('status', '=', 'published')
    .where('stats', 'is not', null)
    .orderBy(sql`coalesce(published_at, updated_at)`, 'desc')
    .limit(limit)
    .execute();
}
