import type { AppDeps } from '../deps.ts';
import { DAY_MS } from '../../platform/zoned-time.ts';
import { platformOf } from './platforms/index.ts';
import { selectAccountsEndingBefore } from './queries.ts';
import { ReconnectRequired, refreshedToken } from './tokens.ts';

/** A grant that ends within this long is refreshed by the daily upkeep: a week of daily tries before it ends. */
export const REFRESH_ENDING_WITHIN_MS = 7 * DAY_MS;

/** What one upkeep run did, for logs and tests. */
export interface TokenUpkeepReport {
  refreshed: number;
  /** The platform refused the grant: the account now needs reconnecting (and its user was told). */
  reconnect: number;
  /** Failed otherwise (the platform down): tried again at the next run. */
  failed: number;
}

/**
 * Refreshes every grant that ends within 7 days (refresh_expires_at), whether or not its account
 * posts: an Instagram long-lived token lives 60 days and can only be refreshed while it is alive,
 * so an account that posts nothing for two months would otherwise be lost. Each refresh takes the
 * account's row lock like any other (tokens.ts); a refused one marks the account for reconnecting
 * and tells the user once. One account's failure never stops the others.
 */
export async function refreshEndingGrants(deps: AppDeps, now = new Date(), signal?: AbortSignal): Promise<TokenUpkeepReport> {
  const report: TokenUpkeepReport = { refreshed: 0, reconnect: 0, failed: 0 };
  for (const account of await selectAccountsEndingBefore(deps.db, new Date(now.getTime() + REFRESH_ENDING_WITHIN_MS))) {
    signal?.throwIfAborted();
    const adapter = platformOf(account.platform);
    if (adapter.configurationProblem(deps)) continue;
    try {
      await refreshedToken(deps, adapter, account.id, { force: true, signal });
      report.refreshed += 1;
    } catch (error) {
      if (signal?.aborted) throw error;
      if (error instanceof ReconnectRequired) {
        report.reconnect += 1;
        continue;
      }
      report.failed += 1;
      deps.logger.warn({ err: error, accountId: account.id, platform: account.platform }, 'refreshing a token that ends soon failed; tried again at the next run');
    }
  }
  if (report.refreshed || report.reconnect || report.failed) deps.logger.info({ ...report }, 'tokens that end soon refreshed');
  return report;
}
