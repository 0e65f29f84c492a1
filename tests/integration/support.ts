import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import type { AppDeps } from '../../server/src/domains/deps.ts';
import { callerFor } from '../helpers/app.ts';

let ipCounter = 0;

/**
 * A client address no other call of this file has used, so that the per-address throttles
 * (register: 5 a minute) only bite in the tests about them.
 */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** Registers through the procedure, from a fresh address. */
export async function register(
  deps: AppDeps,
  username: string,
  password = 'correct horse battery',
  inviteCode?: string,
): Promise<PublicUser> {
  const { api } = callerFor(deps, { ip: nextIp() });
  const { user } = await api.auth.register({ username, password, invite_code: inviteCode });
  return user;
}

/** A fresh invite code made by `admin`, as the API shows it (dashed). */
export async function inviteFrom(deps: AppDeps, admin: PublicUser, days_valid = 7): Promise<string> {
  const { api } = callerFor(deps, { user: admin });
  return (await api.invites.generate({ days_valid })).code;
}

/** Awaits a call that must fail with exactly this tRPC code and message. */
export async function expectError(promise: Promise<unknown>, code: TRPCError['code'], message: string): Promise<TRPCError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `expected ${code} '${message}' but the call succeeded`).toBeInstanceOf(TRPCError);
  const trpcError = error as TRPCError;
  expect({ code: trpcError.code, message: trpcError.message }).toEqual({ code, message });
  return trpcError;
}

export async function countRows(deps: AppDeps, table: 'users' | 'sessions' | 'invite_codes' | 'logs'): Promise<number> {
  const { rows } = await sql<{ count: string }>`select count(*)::text as count from ${sql.table(table)}`.execute(deps.db);
  return Number(rows[0]!.count);
}

export interface StoredLog {
  level: string;
  logger: string;
  message: string;
  exception: string | null;
  user_id: string | null;
}

/** Every row of the logs table, oldest first. */
export async function storedLogs(deps: AppDeps): Promise<StoredLog[]> {
  return deps.db
    .selectFrom('logs')
    .select(['level', 'logger', 'message', 'exception', 'user_id'])
    .orderBy('id', 'asc')
    .execute();
}

/** The stored account, in the shape procedures put in their context. */
export async function findUser(deps: AppDeps, username: string): Promise<PublicUser> {
  return deps.db.selectFrom('users').select(['id', 'username', 'is_admin']).where('username', '=', username).executeTakeFirstOrThrow();
}
