import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { TwitchConnectionsTable } from '../../platform/db/schema.ts';

/** SQL of the tables the twitch domain owns: twitch_connections and twitch_oauth_states. */

export type TwitchConnectionRow = Selectable<TwitchConnectionsTable>;

export function selectConnection(db: DbOrTrx, userId: string): Promise<TwitchConnectionRow | undefined> {
  return db.selectFrom('twitch_connections').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The row locked for a refresh: Twitch may rotate refresh tokens, so two refreshes at once must not race. */
export function selectConnectionForUpdate(db: DbOrTrx, userId: string): Promise<TwitchConnectionRow | undefined> {
  return db.selectFrom('twitch_connections').selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirst();
}

/** One connection per user: connecting again replaces the account and its tokens. */
export async function upsertConnection(db: DbOrTrx, values: Insertable<TwitchConnectionsTable>): Promise<void> {
  const { user_id: _userId, ...changes } = values;
  await db
    .insertInto('twitch_connections')
    .values(values)
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ ...changes, needs_reconnect: false, updated_at: sql<Date>`now()` }))
    .execute();
}

export async function updateConnection(db: DbOrTrx, userId: string, changes: Updateable<TwitchConnectionsTable>): Promise<void> {
  await db.updateTable('twitch_connections').set({ ...changes, updated_at: sql<Date>`now()` }).where('user_id', '=', userId).execute();
}

export function deleteConnection(db: DbOrTrx, userId: string): Promise<TwitchConnectionRow | undefined> {
  return db.deleteFrom('twitch_connections').where('user_id', '=', userId).returningAll().executeTakeFirst();
}

export async function insertState(db: DbOrTrx, values: { state_hash: string; user_id: string; expires_at: Date }): Promise<void> {
  await db.insertInto('twitch_oauth_states').values(values).execute();
}

/** Marks the state used if it is unused and unexpired; whom it belongs to, or undefined. */
export function consumeState(db: DbOrTrx, stateHash: string) {
  return db
    .updateTable('twitch_oauth_states')
    .set({ used_at: sql<Date>`now()` })
    .where('state_hash', '=', stateHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['user_id'])
    .executeTakeFirst();
}

/** States a day past their expiry are of no use, not even to explain a late callback. */
export async function deleteOldStates(db: DbOrTrx): Promise<void> {
  await db.deleteFrom('twitch_oauth_states').where('expires_at', '<', sql<Date>`now() - interval '1 day'`).execute();
}
