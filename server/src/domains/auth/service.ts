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
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password.ts';
import { deleteExpiredSessions } from './sessions.ts';
import { deleteStaleLoginLocks } from './throttle.ts';
import { findPublicUser, findUserByPasskey, findUserByUsername, hasUsers, insertUser, isUsernameTaken, lockRegistrations, readPasskey, setPasskeyIfNone, usernamesByIds } from './queries.ts';

export { findPublicUser, hasUsers, usernamesByIds };
/** Passkeys live on the users row; guests/service.ts owns what they mean. */
export const passkeys = { read: readPasskey, setIfNone: setPasskeyIfNone, findOwner: findUserByPasskey };

export const INVALID_CREDENTIALS = 'Invalid username or password';
const USERNAME_TAKEN = 'Username is already taken';
const REGISTRATION_CLOSED = 'Registration is closed';

export async function getRegistrationStatus(db: DbOrTrx, mode: RegistrationMode): Promise<RegistrationStatus> {
  return registrationStatusFor(mode, await hasUsers(db));
}

interface RegisteredUser {
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
      await lockRegistrations(trx);
      const first = !(await hasUsers(trx));
      if (!first) {
        if (mode === 'closed') throw forbidden(REGISTRATION_CLOSED);
        if (mode === 'invite') {
          if (!inviteCode) throw badRequest(INVITE_REQUIRED);
          // Before the username: without a valid code nobody learns which names are taken.
          if (!(await lockUsableInvite(trx, inviteCode))) throw badRequest(INVALID_INVITE);
        }
      }
      if (await isUsernameTaken(trx, input.username)) throw conflict(USERNAME_TAKEN);
      const user = await insertUser(trx, { username: input.username, passwordHash, isAdmin: first });
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

type LoginResult = { ok: true; user: PublicUser } | { ok: false; userId: string | null; username: string | null };

/** Checks credentials; the time taken is the same whether or not the username exists. */
export async function checkCredentials(db: DbOrTrx, input: LoginInput): Promise<LoginResult> {
  const row = await findUserByUsername(db, input.username);
  const valid = await verifyPassword(row?.password_hash ?? (await decoyPasswordHash()), input.password);
  if (!row || !valid) return { ok: false, userId: row?.id ?? null, username: row?.username ?? null };
  return { ok: true, user: { id: row.id, username: row.username, is_admin: row.is_admin } };
}


export { SESSION_COOKIE, SESSION_TTL_MS, createSession, invalidateSession, validateSessionToken, type CreatedSession, type ValidSession } from './sessions.ts';
export { guardLogin, type LoginGuard, type LoginRequest } from './throttle.ts';
export { DEVICE_COOKIE, DEVICE_COOKIE_TTL_MS, deviceEntryFor, guestVisitKey, issueDeviceCookie, keepOrIssueDeviceEntry } from './device-cookie.ts';

/** Housekeeping of the auth tables: expired sessions, and sign-in locks nobody has touched for a day. Returns the sessions removed. */
export async function cleanUpAuth(db: DbOrTrx): Promise<number> {
  const sessions = await deleteExpiredSessions(db);
  await deleteStaleLoginLocks(db);
  return sessions;
}
