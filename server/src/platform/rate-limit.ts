import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import type { DbOrTrx } from './db/database.ts';
import { AppError } from './errors.ts';

interface RateLimitRule {
  /** Attempts allowed per window. */
  max: number;
  windowSeconds: number;
}

/** The throttles of the security baseline. */
export const RATE_LIMITS = {
  /** Every sign-in attempt from one client address (a browser with a device cookie for the account is limited per device instead). */
  login: { max: 10, windowSeconds: 60 },
  /** Failed sign-ins from one browser holding a device cookie for the account. */
  loginDevice: { max: 10, windowSeconds: 15 * 60 },
  /** Successful sign-ins presenting one device-cookie entry (a script replaying the same cookie). */
  loginDeviceSuccess: { max: 10, windowSeconds: 15 * 60 },
  /** Successful sign-ins to one account with device cookies, from all its browsers together. */
  loginAccountSuccess: { max: 30, windowSeconds: 15 * 60 },
  register: { max: 5, windowSeconds: 60 },
  // 10 wrong guesses per 10 minutes from one client: walking 36^6 codes would take about 4,000 years.
  passkey: { max: 10, windowSeconds: 600 },
  /** Wrong guesses at one code, from any address. */
  passkeyCode: { max: 20, windowSeconds: 60 * 60 },
  /**
   * Wrong guesses from one address, all its browsers together: what a client that keeps starting
   * new guest visits (each with `passkey`'s budget) can spend at most.
   */
  passkeyAddress: { max: 30, windowSeconds: 600 },
  /** Right codes of one owner from one address: enough for anyone connecting accounts, not a flood of OAuth states. */
  passkeyOwner: { max: 60, windowSeconds: 600 },
  /**
   * Failed look-ups of approval links (unknown, used, expired) from one address: the tokens are
   * unguessable, so this only keeps a script from hammering the table; someone holding a good
   * link spends nothing.
   */
  approvalLink: { max: 20, windowSeconds: 600 },
} satisfies Record<string, RateLimitRule>;

const TOO_MANY_ATTEMPTS = 'Too many attempts. Please wait a moment and try again.';

/** A refused attempt, with how long until the caller may try again (the Retry-After header). */
export class RateLimited extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super('TOO_MANY_REQUESTS', message, { details: { retryAfterSeconds: seconds } });
    this.retryAfterSeconds = seconds;
  }
}

/**
 * A throttle key naming a secret (a typed username, a passkey) without storing it: an HMAC under
 * a key derived from the app secret, so the table never holds the value nor a guessable hash of it.
 */
export function secretThrottleKey(appSecret: string, purpose: string, value: string): string {
  const key = createHmac('sha256', `clipshift throttle key\0${appSecret}`).update(purpose).digest();
  return `${purpose}:${createHmac('sha256', key).update(value).digest('base64url')}`;
}

/**
 * Counts one attempt in a fixed window kept in Postgres, so every process sharing the database
 * shares the limit. Returns the attempts of the current window (this one included) and the seconds
 * until it ends.
 */
export async function countAttempt(db: DbOrTrx, key: string, rule: RateLimitRule): Promise<{ hits: number; secondsLeft: number }> {
  const row = await sql<{ hits: number; seconds_left: number }>`
    insert into rate_limits as r (key, window_started_at, hits)
    values (${key}, now(), 1)
    on conflict (key) do update set
      hits = case when r.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds}) then 1 else r.hits + 1 end,
      window_started_at = case when r.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds}) then now() else r.window_started_at end
    returning hits, extract(epoch from (window_started_at + make_interval(secs => ${rule.windowSeconds}) - now()))::float8 as seconds_left`.execute(db);
  return { hits: row.rows[0]?.hits ?? 1, secondsLeft: row.rows[0]?.seconds_left ?? rule.windowSeconds };
}

/** Counts one attempt; throws RateLimited once the window is full. */
export async function consumeRateLimit(db: DbOrTrx, key: string, rule: RateLimitRule, message: (secondsLeft: number) => string = () => TOO_MANY_ATTEMPTS): Promise<void> {
  const { hits, secondsLeft } = await countAttempt(db, key, rule);
  if (hits > rule.max) throw new RateLimited(message(secondsLeft), secondsLeft);
}

/** Gives back an attempt counted by consumeRateLimit (one that turned out not to be a failure). */
export async function refundRateLimit(db: DbOrTrx, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set((eb) => ({ hits: sql<number>`greatest(${eb.ref('hits')} - 1, 0)` }))
    .where('key', '=', key)
    .execute();
}

export interface KeyedRule {
  key: string;
  rule: RateLimitRule;
  /** The refusal's words (default: "Too many attempts…"). */
  message?: (secondsLeft: number) => string;
}

/** Gives back one attempt to each budget named. */
export async function refundRateLimits(db: DbOrTrx, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => refundRateLimit(db, key)));
}

/**
 * Counts one attempt in every budget, up front, so that simultaneous attempts cannot overshoot
 * any; a refusal by one budget gives back what the others were charged.
 */
export async function chargeRateLimits(db: DbOrTrx, limits: readonly KeyedRule[]): Promise<void> {
  const charged: string[] = [];
  try {
    for (const { key, rule, message } of limits) {
      charged.push(key);
      await consumeRateLimit(db, key, rule, message);
    }
  } catch (error) {
    await refundRateLimits(db, charged);
    throw error;
  }
}

/**
 * Runs an attempt that only spends the budgets when it fails: each is charged up front
 * (chargeRateLimits) and given back when the attempt succeeds.
 */
export async function failuresWithinLimits<T>(db: DbOrTrx, limits: readonly KeyedRule[], attempt: () => Promise<T>): Promise<T> {
  await chargeRateLimits(db, limits);
  const result = await attempt();
  await refundRateLimits(db, limits.map((limit) => limit.key));
  return result;
}

/** "15 minutes", "2 hours": a wait in words, rounded up. */
export function waitInWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes === 1) return '1 minute';
  if (minutes < 120) return `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}

export async function deleteStaleRateLimits(db: DbOrTrx, olderThanSeconds = 24 * 60 * 60): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_started_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
    .execute();
}
