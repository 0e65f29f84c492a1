import { PLATFORM_LABELS } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { raiseEvent } from '../notifications/service.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import type { AccountToken, PlatformAdapter } from './platforms/adapter.ts';
import { selectAccountForUpdate, updateAccount } from './queries.ts';

/** Refresh this long before the access token expires, so a long upload never starts on a dying token. */
const REFRESH_AHEAD_MS = 5 * 60_000;

export class ReconnectRequired extends Error {
  override name = 'ReconnectRequired';
}

interface TokenOptions {
  force?: boolean;
  signal?: AbortSignal;
}

/**
 * A valid access token for the account, refreshed ahead of expiry. The row lock makes two
 * concurrent refreshes impossible: a platform that rotates refresh tokens (TikTok) would lock the loser out.
 * A refused refresh marks the account as needing reconnection and tells the user once.
 */
export async function refreshedToken(deps: AppDeps, adapter: PlatformAdapter, accountId: string, options: TokenOptions = {}): Promise<string> {
  const { db, appSecret } = deps;
  const outcome = await db.transaction().execute(async (trx) => {
    const account = await selectAccountForUpdate(trx, accountId);
    if (!account) throw new Error(adapter.removedBefore);
    const refused = { reconnect: account.display_name, platform: account.platform, token: undefined, userId: account.user_id };
    if (account.needs_reconnect) return { ...refused, newly: false };
    const now = Date.now();
    if (!options.force && account.access_expires_at.getTime() - now > REFRESH_AHEAD_MS) return { token: decryptSecret(account.access_token_enc, appSecret), reconnect: undefined };
    try {
      const refreshed = await adapter.refresh(deps, decryptSecret(account.refresh_token_enc, appSecret), now, options.signal);
      await updateAccount(trx, accountId, { ...refreshed.columns, updated_at: new Date(now) });
      return { token: refreshed.token, reconnect: undefined };
    } catch (error) {
      if (adapter.grantDead(error)) return { ...refused, newly: true };
      throw error;
    }
  });
  if (outcome.token !== undefined) return outcome.token;
  await db.transaction().execute(async (trx) => {
    await updateAccount(trx, accountId, { needs_reconnect: true, updated_at: new Date() });
    // Told once, when the platform first refuses the account, not at every post that finds it still refused.
    if (outcome.newly) await raiseEvent(trx, outcome.userId, 'account.reconnect', { account_id: accountId, account: outcome.reconnect, platform: outcome.platform });
  });
  throw new ReconnectRequired(`The ${PLATFORM_LABELS[outcome.platform]} connection of ${outcome.reconnect} has expired: reconnect the account in Settings`);
}

/** The account's access token for a run of steps: fetched (refreshed if due) now, refreshed once more if the platform refuses it. */
export async function accountToken(deps: AppDeps, adapter: PlatformAdapter, accountId: string, signal?: AbortSignal): Promise<AccountToken> {
  let token = await refreshedToken(deps, adapter, accountId, { signal });
  return {
    async use(step) {
      try {
        return await step(token);
      } catch (error) {
        if (!adapter.tokenRefused(error)) throw error;
        token = await refreshedToken(deps, adapter, accountId, { force: true, signal });
        return step(token);
      }
    },
  };
}
