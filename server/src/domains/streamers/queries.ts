import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { StreamersTable } from '../../platform/db/schema.ts';

/** SQL of the streamers table, which the streamers domain owns; other domains use service.ts. */

export type StreamerRow = Selectable<StreamersTable>;

/** The user's streamers, by name ignoring case. */
export function selectStreamers(db: DbOrTrx, userId: string): Promise<StreamerRow[]> {
  return db.selectFrom('streamers').selectAll().where('user_id', '=', userId).orderBy(sql`lower(name)`).execute();
}

/** Names of the streamers with these row ids, by name ignoring case. */
export function selectStreamerNames(db: DbOrTrx, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('streamers').select(['id', 'name']).where('id', 'in', ids).orderBy(sql`lower(name)`).execute();
}

/** The user's streamer whose name matches ignoring case; optionally row-locked. */
export function selectStreamerByName(db: DbOrTrx, userId: string, name: string, options: { lock?: boolean } = {}): Promise<StreamerRow | undefined> {
  let query = db
    .selectFrom('streamers')
    .selectAll()
    .where('user_id', '=', userId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Every user's streamers with watch_live on (the moments watcher's list). */
export function selectWatchedStreamers(db: DbOrTrx): Promise<StreamerRow[]> {
  return db.selectFrom('streamers').selectAll().where('watch_live', '=', true).execute();
}

export function selectStreamerById(db: DbOrTrx, id: string, options: { lock?: boolean } = {}): Promise<StreamerRow | undefined> {
  let query = db.selectFrom('streamers').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export function insertStreamer(db: DbOrTrx, values: Insertable<StreamersTable>): Promise<StreamerRow> {
  return db.insertInto('streamers').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateStreamerRow(db: DbOrTrx, id: string, values: Updateable<StreamersTable>): Promise<StreamerRow> {
  return db.updateTable('streamers').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The same change where the row may be gone (a job's streamer deleted meanwhile): nothing happens then. */
export async function setStreamerColumns(db: DbOrTrx, id: string, values: Updateable<StreamersTable>): Promise<void> {
  await db.updateTable('streamers').set(values).where('id', '=', id).execute();
}

export async function deleteStreamerRow(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('streamers').where('id', '=', id).execute();
}
