import { sql } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { chargeRateLimits, consumeRateLimit, RATE_LIMITS, RateLimited, refundRateLimits, waitInWords, type KeyedRule } from '../../platform/rate-limit.ts';
import { accountKeyFor, deviceEntryFor, type DeviceEntry } from './device-cookie.ts';

/**
 * The account lock: 10 failed sign-ins within 15 minutes lock the account for 15 minutes, from any
 * address; each further lockout doubles that, up to a day. Lockouts are forgotten a day after the
 * last one ended.
 */
const ACCOUNT_LOCK = {
  maxFailures: 10,
  windowSeconds: 15 * 60,
  firstLockSeconds: 15 * 60,
  maxLockSeconds: 24 * 60 * 60,
  forgetLockoutsAfterSeconds: 24 * 60 * 60,
} as const;

const accountLockedMessage = (secondsLeft: number) =>
  `Too many failed sign-in attempts for this account. Try again in ${waitInWords(secondsLeft)}, or sign in from a browser that has signed in to it before.`;
const deviceLimitedMessage = (secondsLeft: number) =>
  `Too many failed sign-in attempts from this browser. Try again in ${waitInWords(secondsLeft)}.`;
const signInsLimitedMessage = (secondsLeft: number) =>
  `Too many sign-ins to this account in a short time. Try again in ${waitInWords(secondsLeft)}.`;

export interface LoginRequest {
  ip: string;
  /** The clipshift_device cookie as the browser sent it. */
  deviceCookie: string | undefined;
}

export interface LoginGuard {
  accountKey: string;
  /** The browser's valid device entry for this account: exempt from the account lock and the address limit. */
  device: DeviceEntry | null;
  succeeded(): Promise<void>;
  /** Records the failure; returns the seconds of a lock it started, if it did. */
  failed(): Promise<number | null>;
}

/**
 * Counts the attempt before the password is checked (so simultaneous guesses cannot overshoot the
 * limit) and refuses it with 429 when the account is locked.
 */
async function reserveAccountAttempt(db: DbOrTrx, accountKey: string): Promise<void> {
  const window = ACCOUNT_LOCK.windowSeconds;
  const { rows } = await sql<{ failures: number; locked_seconds: number | null; window_seconds: number }>`
    insert into login_account_locks as l (account_key, failures, window_started_at)
    values (${accountKey}, 1, now())
    on conflict (account_key) do update set
      failures = case
        when l.locked_until > now() then l.failures
        when l.window_started_at <= now() - make_interval(secs => ${window}) then 1
        else l.failures + 1 end,
      window_started_at = case
        when l.locked_until > now() then l.window_started_at
        when l.window_started_at <= now() - make_interval(secs => ${window}) then now()
        else l.window_started_at end,
      updated_at = now()
    returning failures,
      case when locked_until > now() then extract(epoch from (locked_until - now()))::float8 end as locked_seconds,
      extract(epoch from (window_started_at + make_interval(secs => ${window}) - now()))::float8 as window_seconds`.execute(db);
  const row = rows[0]!;
  if (row.locked_seconds !== null) throw new RateLimited(accountLockedMessage(row.locked_seconds), row.locked_seconds);
  // More attempts in flight than the account has left: refused without a password check.
  if (row.failures > ACCOUNT_LOCK.maxFailures) throw new RateLimited(accountLockedMessage(row.window_seconds), row.window_seconds);
}

/** Locks the account once its failures reach the limit; the cooling-off doubles with each lockout in a row. */
async function lockIfExhausted(db: DbOrTrx, accountKey: string): Promise<number | null> {
  const { firstLockSeconds, maxLockSeconds, forgetLockoutsAfterSeconds, maxFailures } = ACCOUNT_LOCK;
  const { rows } = await sql<{ locked_seconds: number }>`
    with previous as (
      select case when locked_until > now() - make_interval(secs => ${forgetLockoutsAfterSeconds}) then least(lockouts, 16) else 0 end as lockouts
      from login_account_locks where account_key = ${accountKey}
    )
    update login_account_locks l set
      lockouts = previous.lockouts + 1,
      locked_until = now() + least(make_interval(secs => ${firstLockSeconds} * power(2, previous.lockouts)), make_interval(secs => ${maxLockSeconds})),
      failures = 0,
      window_started_at = now(),
      updated_at = now()
    from previous
    where l.account_key = ${accountKey} and l.failures >= ${maxFailures} and (l.locked_until is null or l.locked_until <= now())
    returning extract(epoch from (l.locked_until - now()))::float8 as locked_seconds`.execute(db);
  return rows[0]?.locked_seconds ?? null;
}

/** A successful sign-in resets the failures (a running lock stays: only device-cookie holders got past it). */
async function resetAccountFailures(db: DbOrTrx, accountKey: string): Promise<void> {
  await db.updateTable('login_account_locks').set({ failures: 0, updated_at: new Date() }).where('account_key', '=', accountKey).execute();
}

/**
 * A browser with a valid device entry for the account: its failures are limited per entry, and so
 * are its successes, per entry (a script replaying one cookie) and per account (one following the
 * fresh entry each success brings). Every budget is charged up front; a success gives back its
 * failure, a failure its successes, so a stolen cookie without the password cannot spend the
 * owner's sign-ins.
 */
async function guardDeviceLogin(db: DbOrTrx, accountKey: string, device: DeviceEntry): Promise<LoginGuard> {
  const failures: KeyedRule = { key: `login-device:${device.nonce}`, rule: RATE_LIMITS.loginDevice, message: deviceLimitedMessage };
  const successes: KeyedRule[] = [
    { key: `login-device-ok:${device.nonce}`, rule: RATE_LIMITS.loginDeviceSuccess, message: signInsLimitedMessage },
    { key: `login-account-ok:${accountKey}`, rule: RATE_LIMITS.loginAccountSuccess, message: signInsLimitedMessage },
  ];
  await chargeRateLimits(db, [failures, ...successes]);
  return {
    accountKey,
    device,
    succeeded: () => refundRateLimits(db, [failures.key]),
    failed: async () => {
      await refundRateLimits(db, successes.map((limit) => limit.key));
      return null;
    },
  };
}

/**
 * Applies the sign-in limits of the contract before a password is checked: a browser holding a
 * valid device cookie for the account is limited per device only; every other request per client
 * address and by the account's lock.
 */
export async function guardLogin(db: DbOrTrx, appSecret: string, request: LoginRequest, username: string): Promise<LoginGuard> {
  const accountKey = accountKeyFor(appSecret, username);
  const device = deviceEntryFor(appSecret, request.deviceCookie, accountKey);
  if (device) return guardDeviceLogin(db, accountKey, device);
  await consumeRateLimit(db, `login:${request.ip}`, RATE_LIMITS.login);
  await reserveAccountAttempt(db, accountKey);
  return {
    accountKey,
    device: null,
    succeeded: () => resetAccountFailures(db, accountKey),
    failed: () => lockIfExhausted(db, accountKey),
  };
}

/** Housekeeping: rows of accounts with no recent attempt and no lock to remember. */
export async function deleteStaleLoginLocks(db: DbOrTrx, olderThanSeconds = ACCOUNT_LOCK.forgetLockoutsAfterSeconds): Promise<void> {
  await db
    .deleteFrom('login_account_locks')
    .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)]))
    .execute();
}
