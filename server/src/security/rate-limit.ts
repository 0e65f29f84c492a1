import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.ts';
import { tooManyRequests } from '../trpc/errors.ts';

export interface RateLimitRule {
  /** Attempts allowed per window. */
  max: number;
  windowSeconds: number;
}

/** The throttles of the security baseline, per client address. */
export const RATE_LIMITS = {
  login: { max: 10, windowSeconds: 60 },
  register: { max: 5, windowSeconds: 60 },
  // 10 guesses per 10 minutes from one client: walking 36^6 codes would take about 4,000 years.
  passkey: { max: 10, windowSeconds: 600 },
} satisfies Record<string, RateLimitRule>;

/**
 * Counts one attempt in a fixed window kept in Postgres, so every process sharing the database
 * shares the limit. Returns the attempts of the current window, this one included.
 */
export async function countAttempt(db: DbOrTrx, key: string, rule: RateLimitRule): Promise<number> {
  const row = await sql<{ hits: number }>`
    insert into rate_limits as r (key, window_started_at, hits)
    values (${key}, now(), 1)
    on conflict (key) do update set
      hits = case when r.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds}) then 1 else r.hits + 1 end,
      window_started_at = case when r.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds}) then now() else r.window_started_at end
    returning hits`.execute(db);
  return row.rows[0]?.hits ?? 1;
}

/** Counts one attempt; throws TOO_MANY_REQUESTS once the window is full. */
export async function consumeRateLimit(db: DbOrTrx, key: string, rule: RateLimitRule): Promise<void> {
  if ((await countAttempt(db, key, rule)) > rule.max) throw tooManyRequests();
}

export async function deleteStaleRateLimits(db: DbOrTrx, olderThanSeconds = 24 * 60 * 60): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_started_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
    .execute();
}
