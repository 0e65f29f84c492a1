import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { formatAccountHandle } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { anonymousLogBudget, recordLog } from '../logs/service.ts';
import { callbackError } from '../../engines/providers/tiktok/index.ts';
import { databaseAnswers } from '../../platform/db/database.ts';
import { isDatabaseUnavailable } from '../../platform/db/errors.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../platform/errors.ts';
import { requireTikTok, upsertAccount } from './accounts.ts';
import { consumeOAuthState, insertOAuthState } from './queries.ts';

const STATE_TTL_MS = 10 * 60_000;

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/** TikTok's authorize URL with a fresh single-use state bound to the user (ten minutes). */
export async function authorizeUrlFor(deps: AppDeps, userId: string, via: 'owner' | 'guest'): Promise<string> {
  const tiktok = requireTikTok(deps);
  const state = randomBytes(32).toString('base64url');
  await insertOAuthState(deps.db, { state_hash: hashState(state), user_id: userId, via, expires_at: new Date(Date.now() + STATE_TTL_MS) });
  return tiktok.buildAuthorizeUrl({ state });
}

export interface CallbackResult {
  success: boolean;
  error?: string;
  /** The database could not be reached: the connection is to be started again once it is back. */
  unavailable?: boolean;
}

/** Marks the state used and returns whom it belongs to; unknown, reused or expired states are refused. */
async function consumeState(deps: AppDeps, state: string): Promise<{ userId: string; via: 'owner' | 'guest' }> {
  const row = await consumeOAuthState(deps.db, hashState(state));
  if (!row) throw new Error('This sign-in link is unknown, already used or expired. Please start the connection again.');
  return { userId: row.user_id, via: row.via };
}

/**
 * The OAuth callback: state checked (single use, bound to a user, and — for an owner's flow — to
 * the same signed-in user when the browser has a session), code exchanged, profile fetched, account
 * stored for its owner.
 */
export async function completeAuthorization(
  deps: AppDeps,
  query: Record<string, unknown>,
  sessionUserId: string | null,
): Promise<CallbackResult> {
  const state = typeof query.state === 'string' ? query.state : '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (typeof value === 'string') params.set(key, value);
  const refused = callbackError(params);
  try {
    if (!state) throw new Error('The answer from TikTok has no state. Please start the connection again.');
    const owner = await consumeState(deps, state);
    if (owner.via === 'owner' && sessionUserId && sessionUserId !== owner.userId) {
      throw new Error('This connection was started by another Clipshift account.');
    }
    if (refused) throw new Error(refused.message);
    const code = typeof query.code === 'string' ? query.code : '';
    if (!code) throw new Error('TikTok sent no authorization code.');
    const tiktok = requireTikTok(deps);
    const tokens = await tiktok.exchangeCode(code);
    const info = await tiktok.getUserInfo(tokens.accessToken);
    const account = await upsertAccount(deps.db, deps.appSecret, { userId: owner.userId, via: owner.via, tokens, info });
    await recordLog(deps.db, deps.logger, {
      level: 'INFO',
      logger: 'tiktok',
      message: `Connected TikTok account ${formatAccountHandle(account)}${owner.via === 'guest' ? ' (by a guest with your passkey)' : ''}`,
      userId: owner.userId,
      budget: sessionUserId ? undefined : anonymousLogBudget(owner.userId),
    });
    return { success: true };
  } catch (error) {
    // An outage is no failed connection of the user's, and its text is the driver's, not theirs to
    // read. A network error of TikTok's looks alike, hence the database is asked too.
    if (isDatabaseUnavailable(error) && !(await databaseAnswers(deps.db))) {
      deps.logger.warn({ err: error }, 'TikTok callback while the database is unavailable');
      return { success: false, error: DATABASE_UNAVAILABLE_MESSAGE, unavailable: true };
    }
    const message = (error as Error).message;
    await recordLog(deps.db, deps.logger, {
      level: 'WARNING',
      logger: 'tiktok',
      message: `TikTok connection failed: ${message}`,
      userId: sessionUserId,
      // Anyone can call the callback: without a session, what it may write is bounded.
      budget: sessionUserId ? undefined : anonymousLogBudget(null),
    });
    return { success: false, error: message };
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/**
 * The popup's last page: tells the opener (our own origin only) how it went, then closes. The
 * inline script runs under a per-response nonce; nothing else may run.
 */
export function callbackPage(result: CallbackResult, appOrigin: string): { html: string; csp: string } {
  const nonce = randomUUID().replace(/-/g, '');
  const message = { type: 'tiktok-auth', success: result.success, ...(result.success ? {} : { error: result.error }) };
  const text = result.success ? 'TikTok account connected. You can close this window.' : `Could not connect TikTok: ${result.error ?? 'unknown error'}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Clipshift · TikTok</title>
<style>body{font:16px system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;color:#0f172a}</style></head>
<body><p>${escapeHtml(text)}</p>
<script nonce="${nonce}">
  (function () {
    var message = ${JSON.stringify(message).replace(/</g, '\\u003c')};
    if (window.opener) { window.opener.postMessage(message, ${JSON.stringify(appOrigin)}); window.close(); }
  })();
</script></body></html>`;
  return { html, csp: `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'` };
}
