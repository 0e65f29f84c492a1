import { formatInviteCode, type GeneratedInvite, type InviteCode } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { generateInviteCode } from './codes.ts';
import { deleteUsedOrExpired, insertInvite, lockUsable, markUsed, newestInvites } from './queries.ts';

export { generateInviteCode };

export async function createInvite(db: DbOrTrx, createdBy: string, daysValid: number): Promise<GeneratedInvite> {
  const row = await insertInvite(db, { code: generateInviteCode(), createdBy, daysValid });
  return {
    id: row.id,
    code: formatInviteCode(row.code),
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    days_valid: daysValid,
  };
}

/** An invite as the API lists it, but for who used it: the users table is auth's (see http/routers/invites.ts). */
type ListedInvite = Omit<InviteCode, 'used_by_username'>;

export async function listInvites(db: DbOrTrx, limit: number): Promise<ListedInvite[]> {
  const rows = await newestInvites(db, limit);
  return rows.map((row) => ({
    id: row.id,
    code: formatInviteCode(row.code),
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    is_used: row.used_at !== null,
    used_by_user_id: row.used_by_user_id,
    used_at: row.used_at ? row.used_at.toISOString() : null,
  }));
}

/** Removes used and expired codes; returns how many went. */
export function cleanupInvites(db: DbOrTrx): Promise<number> {
  return deleteUsedOrExpired(db);
}

/**
 * Whether the code exists, is unused and unexpired; the row stays locked until the transaction
 * ends, so the consumption that follows in that transaction cannot lose it to another registration.
 */
export function lockUsableInvite(db: DbOrTrx, normalizedCode: string): Promise<boolean> {
  return lockUsable(db, normalizedCode);
}

/**
 * Marks the code used by `userId` if it is unused and unexpired. The conditional update takes the
 * row lock, so of two registrations racing with one code exactly one sees a row come back.
 */
export function consumeInvite(db: DbOrTrx, normalizedCode: string, userId: string): Promise<boolean> {
  return markUsed(db, normalizedCode, userId);
}
