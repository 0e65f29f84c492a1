import { hashSecret } from '../../platform/crypto.ts';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import type { PublicUser } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';

/**
 * Sessions as the Lucia guide builds them: the cookie holds `<id>.<secret>`; the database keeps the
 * id and the SHA-256 of the secret only, compared in constant time. Expiry slides forward while the
 * session is used.
 */
export const SESSION_COOKIE = 'clipshift_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Extend the expiry when less than half the lifetime is left, so busy sessions cost one write a fortnight. */
const SESSION_RENEW_BELOW_MS = SESSION_TTL_MS / 2;

function randomToken(bytes: number): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));
}

export interface CreatedSession {
  token: string;
  expiresAt: Date;
}

export async function createSession(db: DbOrTrx, userId: string, now = new Date()): Promise<CreatedSession> {
  const id = randomToken(15); // 120 bits
  const secret = randomToken(20); // 160 bits
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insertInto('sessions').values({ id, secret_hash: hashSecret(secret), user_id: userId, expires_at: expiresAt }).execute();
  return { token: `${id}.${secret}`, expiresAt };
}

export interface ValidSession {
  sessionId: string;
  user: PublicUser;
  expiresAt: Date;
  /** Set when the expiry moved forward and the cookie should be sent again. */
  renewed: boolean;
}

export async function validateSessionToken(db: DbOrTrx, token: string, now = new Date()): Promise<ValidSession | null> {
  const [id, secret] = token.split('.');
  if (!id || !secret || id.length > 64 || secret.length > 64) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id', 'sessions.secret_hash', 'sessions.expires_at', 'users.id as user_id', 'users.username', 'users.is_admin'])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  if (!constantTimeEqual(new Uint8Array(row.secret_hash), new Uint8Array(hashSecret(secret)))) return null;
  if (row.expires_at.getTime() <= now.getTime()) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return null;
  }
  let expiresAt = row.expires_at;
  let renewed = false;
  if (expiresAt.getTime() - now.getTime() < SESSION_RENEW_BELOW_MS) {
    expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    renewed = true;
    await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
  }
  return {
    sessionId: row.id,
    user: { id: row.user_id, username: row.username, is_admin: row.is_admin },
    expiresAt,
    renewed,
  };
}

export async function invalidateSession(db: DbOrTrx, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

export async function deleteExpiredSessions(db: DbOrTrx, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
