import { sql } from 'kysely';
import type { PublicUser } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';

/** SQL of the users table; the auth domain owns it (guests reach passkeys through auth/service.ts). */

/** Serialises registrations so that exactly one first account becomes the administrator. */
const REGISTRATION_LOCK_ID = 0x72656769; // "regi"

export async function lockRegistrations(trx: DbOrTrx): Promise<void> {
  await sql`select pg_advisory_xact_lock(${REGISTRATION_LOCK_ID})`.execute(trx);
}

export async function hasUsers(db: DbOrTrx): Promise<boolean> {
  const row = await db.selectFrom('users').select(sql<number>`1`.as('one')).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function isUsernameTaken(db: DbOrTrx, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where(sql<string>`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

export function insertUser(db: DbOrTrx, values: { username: string; passwordHash: string; isAdmin: boolean }): Promise<PublicUser> {
  return db
    .insertInto('users')
    .values({ username: values.username, password_hash: values.passwordHash, is_admin: values.isAdmin })
    .returning(['id', 'username', 'is_admin'])
    .executeTakeFirstOrThrow();
}

export function findUserByUsername(db: DbOrTrx, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'is_admin', 'password_hash'])
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

/** The user an API token belongs to (the tokens domain names only the id). */
export function findPublicUser(db: DbOrTrx, id: string): Promise<PublicUser | undefined> {
  return db.selectFrom('users').select(['id', 'username', 'is_admin']).where('id', '=', id).executeTakeFirst();
}

export async function readPasskey(db: DbOrTrx, userId: string): Promise<string | null> {
  return (await db.selectFrom('users').select('passkey').where('id', '=', userId).executeTakeFirstOrThrow()).passkey;
}

/** Sets the passkey unless the user has one already; undefined when it had. */
export async function setPasskeyIfNone(db: DbOrTrx, userId: string, passkey: string): Promise<string | undefined> {
  const updated = await db.updateTable('users').set({ passkey }).where('id', '=', userId).where('passkey', 'is', null).returning('passkey').executeTakeFirst();
  return updated?.passkey ?? undefined;
}

export function findUserByPasskey(db: DbOrTrx, passkey: string): Promise<{ id: string; username: string } | undefined> {
  return db.selectFrom('users').select(['id', 'username']).where('passkey', '=', passkey).executeTakeFirst();
}

export async function usernamesByIds(db: DbOrTrx, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.username]));
}
