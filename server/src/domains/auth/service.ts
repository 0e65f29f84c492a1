import { sql } from 'kysely';
import {
  INVALID_INVITE,
  INVITE_REQUIRED,
  normalizeInviteCode,
  registrationStatusFor,
  type LoginInput,
  type PublicUser,
  type RegisterInput,
  type RegistrationMode,
  type RegistrationStatus,
} from '@clipshift/shared';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import { consumeInvite, lockUsableInvite } from '../invites/service.ts';
import { badRequest, conflict, forbidden } from '../../platform/errors.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const USERNAME_TAKEN = 'Username is already taken';
export const REGISTRATION_CLOSED = 'Registration is closed';

/** Serialises registrations so that exactly one first account becomes the administrator. */
const REGISTRATION_LOCK_ID = 0x72656769; // "regi"

export async function hasUsers(db: DbOrTrx): Promise<boolean> {
  const row = await db.selectFrom('users').select(sql<number>`1`.as('one')).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function getRegistrationStatus(db: DbOrTrx, mode: RegistrationMode): Promise<RegistrationStatus> {
  return registrationStatusFor(mode, await hasUsers(db));
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export interface RegisteredUser {
  user: PublicUser;
  /** True for the first account, which becomes the administrator. */
  first: boolean;
}

export async function registerUser(db: Db, mode: RegistrationMode, input: RegisterInput): Promise<RegisteredUser> {
  const inviteCode = normalizeInviteCode(input.invite_code ?? '');
  // Hashing is the slow part (tens of ms); do it before taking any lock.
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${REGISTRATION_LOCK_ID})`.execute(trx);
      const first = !(await hasUsers(trx));
      if (!first) {
        if (mode === 'closed') throw forbidden(REGISTRATION_CLOSED);
        if (mode === 'invite') {
          if (!inviteCode) throw badRequest(INVITE_REQUIRED);
          // Before the username: without a valid code nobody learns which names are taken.
          if (!(await lockUsableInvite(trx, inviteCode))) throw badRequest(INVALID_INVITE);
        }
      }
      const taken = await trx
        .selectFrom('users')
        .select('id')
        .where(sql<string>`lower(username)`, '=', input.username.toLowerCase())
        .executeTakeFirst();
      if (taken) throw conflict(USERNAME_TAKEN);
      const user = await trx
        .insertInto('users')
        .values({ username: input.username, password_hash: passwordHash, is_admin: first })
        .returning(['id', 'username', 'is_admin'])
        .executeTakeFirstOrThrow();
      if (!first && mode === 'invite' && !(await consumeInvite(trx, inviteCode, user.id))) {
        throw badRequest(INVALID_INVITE);
      }
      return { user, first };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(USERNAME_TAKEN);
    throw error;
  }
}

export type LoginResult = { ok: true; user: PublicUser } | { ok: false; userId: string | null; username: string | null };

/** Checks credentials; the time taken is the same whether or not the username exists. */
export async function checkCredentials(db: DbOrTrx, input: LoginInput): Promise<LoginResult> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'username', 'is_admin', 'password_hash'])
    .where(sql<string>`lower(username)`, '=', input.username.toLowerCase())
    .executeTakeFirst();
  const valid = await verifyPassword(row?.password_hash ?? (await decoyPasswordHash()), input.password);
  if (!row || !valid) return { ok: false, userId: row?.id ?? null, username: row?.username ?? null };
  return { ok: true, user: { id: row.id, username: row.username, is_admin: row.is_admin } };
}

