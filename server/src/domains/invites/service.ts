import { sql } from 'kysely';
import { formatInviteCode, type GeneratedInvite, type InviteCode } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { generateInviteCode } from './codes.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function createInvite(db: DbOrTrx, createdBy: string, daysValid: number, now = new Date()): Promise<GeneratedInvite> {
  const expiresAt = new Date(now.getTime() + daysValid * DAY_MS);
  const row = await db
    .insertInto('invite_codes')
    .values({ code: generateInviteCode(), created_by: createdBy, created_at: now, expires_at: expiresAt })
    .returning(['id', 'code', 'created_at', 'expires_at'])
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    code: formatInviteCode(row.code),
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    days_valid: daysValid,
  };
}

export async function listInvites(db: DbOrTrx, limit: number): Promise<InviteCode[]> {
  const rows = await db
    .selectFrom('invite_codes')
    .leftJoin('users', 'users.id', 'invite_codes.used_by_user_id')
    .select([
      'invite_codes.id',
      'invite_codes.code',
      'invite_codes.created_at',
      'invite_codes.expires_at',
      'invite_codes.used_by_user_id',
      'invite_codes.used_at',
      'users.username as used_by_username',
    ])
    .orderBy('invite_codes.created_at', 'desc')
    .orderBy('invite_codes.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    code: formatInviteCode(row.code),
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    is_used: row.used_at !== null,
    used_by_user_id: row.used_by_user_id,
    used_by_username: row.used_by_username ?? null,
    used_at: row.used_at ? row.used_at.toISOString() : null,
  }));
}

/** Removes used and expired codes; returns how many went. */
export async function cleanupInvites(db: DbOrTrx): Promise<number> {
  const result = await db
    .deleteFrom('invite_codes')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', sql<Date>`now()`)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Whether the code exists, is unused and unexpired; the row stays locked until the transaction
 * ends, so the consumption that follows in that transaction cannot lose it to another registration.
 */
export async function lockUsableInvite(db: DbOrTrx, normalizedCode: string): Promise<boolean> {
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

/**
 * Marks the code used by `userId` if it is unused and unexpired. The conditional update takes the
 * row lock, so of two registrations racing with one code exactly one sees a row come back.
 */
export async function consumeInvite(db: DbOrTrx, normalizedCode: string, userId: string): Promise<boolean> {
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
