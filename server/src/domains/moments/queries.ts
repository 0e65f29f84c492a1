import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { LiveWatchesTable, MomentsTable } from '../../platform/db/schema.ts';

/* SQL of the moments and live_watches tables, which the moments domain owns. */

export type MomentRow = Selectable<MomentsTable>;
export type LiveWatchRow = Selectable<LiveWatchesTable>;

export function selectMoments(db: DbOrTrx, userId: string, options: { streamerName?: string; limit: number }): Promise<MomentRow[]> {
  let query = db.selectFrom('moments').selectAll().where('user_id', '=', userId);
  if (options.streamerName) query = query.where(sql<string>`lower(streamer_name)`, '=', options.streamerName.toLowerCase());
  return query.orderBy('detected_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

export function selectMoment(db: DbOrTrx, id: string, options: { lock?: boolean } = {}): Promise<MomentRow | undefined> {
  let query = db.selectFrom('moments').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Saves a moment unless the same stream already has one closer than `mergeSeconds` (a reader that
 * took over from another saw the same burst): undefined then.
 */
export async function insertMoment(db: DbOrTrx, values: Insertable<MomentsTable>, mergeSeconds: number): Promise<MomentRow | undefined> {
  const { rows } = await sql<MomentRow>`
    insert into moments (user_id, streamer_id, streamer_name, broadcaster_id, stream_id, stream_started_at, stream_offset, score, reasons, status, error)
    select ${values.user_id}::uuid, ${values.streamer_id}::uuid, ${values.streamer_name}, ${values.broadcaster_id}, ${values.stream_id},
           ${values.stream_started_at}::timestamptz, ${values.stream_offset}::int, ${values.score}::real, ${values.reasons}::jsonb,
           ${values.status ?? 'found'}, ${values.error ?? null}::text
    where not exists (
      select 1 from moments m
      where m.streamer_id = ${values.streamer_id}::uuid and m.stream_id = ${values.stream_id}
        and abs(m.stream_offset - ${values.stream_offset}::int) < ${mergeSeconds}::int)
    on conflict (streamer_id, stream_id, stream_offset) do nothing
    returning *`.execute(db);
  return rows[0];
}

export async function updateMoment(db: DbOrTrx, id: string, values: Updateable<MomentsTable>): Promise<void> {
  await db.updateTable('moments').set({ ...values, updated_at: new Date() }).where('id', '=', id).execute();
}

/* live_watches: one row per watched streamer */

/** Adds a row for each watched streamer that has none, and drops the rows of streamers no longer watched. */
export async function syncWatchRows(db: DbOrTrx, watched: readonly { streamerId: string; userId: string; login: string; broadcasterId: string | null }[]): Promise<void> {
  const ids = watched.map((watch) => watch.streamerId);
  if (ids.length) {
    await db
      .insertInto('live_watches')
      .values(watched.map((watch) => ({ streamer_id: watch.streamerId, user_id: watch.userId, login: watch.login, broadcaster_id: watch.broadcasterId })))
      .onConflict((conflict) =>
        conflict.column('streamer_id').doUpdateSet((eb) => ({ login: eb.ref('excluded.login'), broadcaster_id: sql<string | null>`coalesce(excluded.broadcaster_id, live_watches.broadcaster_id)` })),
      )
      .execute();
  }
  let stale = db.deleteFrom('live_watches');
  if (ids.length) stale = stale.where('streamer_id', 'not in', ids);
  await stale.execute();
}

/** Takes the rows whose live state is due to be asked again (at most once per `everySeconds` each), marking them asked. */
export function claimDueChecks(db: DbOrTrx, everySeconds: number, now: Date): Promise<LiveWatchRow[]> {
  return db
    .updateTable('live_watches')
    .set({ checked_at: now })
    .where('streamer_id', 'in', (eb) =>
      eb
        .selectFrom('live_watches')
        .select('streamer_id')
        .where((w) => w.or([w('checked_at', 'is', null), w('checked_at', '<=', sql<Date>`${now}::timestamptz - make_interval(secs => ${everySeconds})`)]))
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

export async function setLiveState(db: DbOrTrx, streamerId: string, state: Pick<LiveWatchRow, 'live' | 'stream_id' | 'stream_started_at' | 'stream_title' | 'broadcaster_id'>): Promise<void> {
  await db.updateTable('live_watches').set(state).where('streamer_id', '=', streamerId).execute();
}

export function selectWatch(db: DbOrTrx, streamerId: string): Promise<LiveWatchRow | undefined> {
  return db.selectFrom('live_watches').selectAll().where('streamer_id', '=', streamerId).executeTakeFirst();
}

/** Takes up to `limit` live streams nobody reads (no reader, or its lease ran out) for this process. */
export function claimReaders(db: DbOrTrx, instance: string, limit: number, leaseSeconds: number): Promise<LiveWatchRow[]> {
  return db
    .updateTable('live_watches')
    .set({ reader_instance: instance, reader_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})` })
    .where('streamer_id', 'in', (eb) =>
      eb
        .selectFrom('live_watches')
        .select('streamer_id')
        .where('live', '=', true)
        .where('stream_id', 'is not', null)
        .where((w) => w.or([w('reader_until', 'is', null), w('reader_until', '<', sql<Date>`now()`)]))
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

/** Extends this process's leases; returns the rows it still holds (with their live state). */
export function renewReaders(db: DbOrTrx, instance: string, streamerIds: readonly string[], leaseSeconds: number): Promise<LiveWatchRow[]> {
  if (!streamerIds.length) return Promise.resolve([]);
  return db
    .updateTable('live_watches')
    .set({ reader_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})` })
    .where('reader_instance', '=', instance)
    .where('streamer_id', 'in', streamerIds)
    .returningAll()
    .execute();
}

export async function releaseReaders(db: DbOrTrx, instance: string, streamerIds: readonly string[]): Promise<void> {
  if (!streamerIds.length) return;
  await db.updateTable('live_watches').set({ reader_instance: null, reader_until: null }).where('reader_instance', '=', instance).where('streamer_id', 'in', streamerIds).execute();
}
