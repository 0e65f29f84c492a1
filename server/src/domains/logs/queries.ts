import { sql } from 'kysely';
import type { LogLevel } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { containsPattern } from '../../platform/db/like.ts';

/** SQL of the logs table, which the logs domain owns (and the only table it reads). */

export async function insertLog(db: DbOrTrx, row: { level: LogLevel; logger: string; message: string; exception: string | null; user_id: string | null }): Promise<void> {
  await db.insertInto('logs').values(row).execute();
}

interface LogQuery {
  userId: string | null;
  level?: LogLevel;
  search?: string;
  limit: number;
}

/** Newest first; only `userId`'s rows unless null. */
export function selectLogs(db: DbOrTrx, { userId, level, search, limit }: LogQuery) {
  let query = db
    .selectFrom('logs')
    .select(['id', 'timestamp', 'level', 'logger', 'message', 'exception'])
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (userId !== null) query = query.where('user_id', '=', userId);
  if (level) query = query.where('level', '=', level);
  if (search) {
    const pattern = containsPattern(search);
    query = query.where((eb) => eb.or([eb('message', 'ilike', pattern), eb('logger', 'ilike', pattern)]));
  }
  return query.execute();
}

export interface LogRetention {
  days: number;
  /** Newest rows kept per user. */
  rowsPerUser: number;
  /** Newest rows kept of those about no user. */
  systemRows: number;
}

/**
 * Deletes rows older than the days, and each user's and the system's rows beyond their caps; returns
 * how many went. Each cut-off is found by walking (user_id, timestamp, id) backwards in
 * logs_user_timestamp_idx, so the work grows with the rows kept, not with a sort of the whole table.
 */
export async function deleteLogsBeyond(db: DbOrTrx, limits: LogRetention): Promise<number> {
  const byAge = await db
    .deleteFrom('logs')
    .where('timestamp', '<', sql<Date>`now() - make_interval(days => ${limits.days})`)
    .executeTakeFirst();
  // The users with rows come from the index itself, one jump per user (a "loose index scan"), so
  // logs reads no other domain's table and the walk grows with users who have logs, not with rows.
  // The cut-off is the newest row beyond the cap; it and everything older go. The comparison runs in
  // SQL: timestamps have microseconds, which a JavaScript Date would round away.
  const perUser = await sql`
    with recursive owners as (
      (select user_id from logs where user_id is not null order by user_id limit 1)
      union all
      select (select x.user_id from logs as x where x.user_id > o.user_id order by x.user_id limit 1)
      from owners as o where o.user_id is not null
    )
    delete from logs as l
    using owners as o
    cross join lateral (
      select x.timestamp, x.id from logs as x
      where x.user_id = o.user_id
      order by x.timestamp desc, x.id desc
      offset ${limits.rowsPerUser} limit 1
    ) as cut
    where o.user_id is not null and l.user_id = o.user_id and (l.timestamp, l.id) <= (cut.timestamp, cut.id)`.execute(db);
  const system = await db
    .deleteFrom('logs')
    .where('user_id', 'is', null)
    .where(
      sql<boolean>`(timestamp, id) <= (
        select l.timestamp, l.id from logs as l where l.user_id is null
        order by l.timestamp desc, l.id desc offset ${limits.systemRows} limit 1
      )`,
    )
    .executeTakeFirst();
  return Number(byAge.numDeletedRows + system.numDeletedRows + (perUser.numAffectedRows ?? 0n));
}
