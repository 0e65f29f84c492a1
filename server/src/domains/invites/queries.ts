import { sql } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';

/** SQL of the invite_codes table, which the invites domain owns. */

/**
 * Both times come from the database clock (microseconds): codes made back to back in one millisecond
 * still list in the order they were made.
 */
export function insertInvite(db: DbOrTrx, values: { code: string; createdBy: string; daysValid: number }) {
  return db
    .insertInto('invite_codes')
    .values({ code: values.code, created_by: values.createdBy, expires_at: sql<Date>`now() + make_interval(days => ${values.daysValid})` })
    .returning(['id', 'code', 'created_at', 'expires_at'])
    .executeTakeFirstOrThrow();
}

export function newestInvites(db: DbOrTrx, limit: number) {
  return db
    .selectFrom('invite_codes')
    .select(['id', 'code', 'created_at', 'expires_at', 'used_by_user_id', 'used_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function deleteUsedOrExpired(db: DbOrTrx): Promise<number> {
  const result = await db
    .deleteFrom('invite_codes')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', sql<Date>`now()`)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function lockUsable(db: DbOrTrx, normalizedCode: string): Promise<boolean> {
  const row = await db
    .selectFrom('invite_codes')
    .select('id')
    .where('code', '=', normalizedCode)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function markUsed(db: DbOrTrx, normalizedCode: string, userId: string): Promise<boolean> {
  const row = await db
    .updateTable('invite_codes')
    .set({ used_by_user_id: userId, used_at: sql<Date>`now()` })
    .where('code', '=', normalizedCode)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
