import { sql } from 'kysely';
import type { AppDeps } from '../../deps.ts';
import { REFRESH_STATS_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob } from '../../../platform/queue/define.ts';
import { refreshDueStats, type StatsRefreshReport } from '../stats.ts';

/** The session lock that keeps refreshes to one at a time across every worker. */
const LOCK_KEY = 'publishing/refresh-stats';

/**
 * Reads due statistics, at most one refresh at a time across all workers: the run holds a session
 * advisory lock on a connection of its own (released when it ends, or when a dead worker's
 * connection closes); a refresh that finds it taken returns at once — the running one reads
 * everything that is due. null when it did not run.
 */
export async function refreshStatsOnce(deps: AppDeps, now?: Date, signal?: AbortSignal): Promise<StatsRefreshReport | null> {
  return deps.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(${LOCK_KEY})) as locked`.execute(connection);
    if (!rows[0]?.locked) return null;
    try {
      return await refreshDueStats(deps, now, signal);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${LOCK_KEY}))`.execute(connection);
    }
  });
}

/** `publishing/refresh-stats` (cron, every 10 minutes). */
export function refreshStatsJob(deps: AppDeps) {
  return defineJob({ ...REFRESH_STATS_JOB, run: async (_payload, ctx) => void (await refreshStatsOnce(deps, undefined, ctx.signal)) });
}
