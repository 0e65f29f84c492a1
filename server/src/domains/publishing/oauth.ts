import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { authMessageType, PLATFORM_LABELS, type AccountPlatform } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { anonymousLogBudget, recordLog } from '../logs/service.ts';
import { newCodeVerifier } from '../../platform/pkce.ts';
import { decryptSecret, encryptSecret } from '../../platform/crypto.ts';
import { databaseAnswers } from '../../platform/db/database.ts';
import { isDatabaseUnavailable } from '../../platform/db/errors.ts';
import { AppError, DATABASE_UNAVAILABLE_MESSAGE } from '../../platform/errors.ts';
import { platformOf, type Owner, type PlatformAdapter } from './platforms/index.ts';
import { consumeOAuthState, insertOAuthState } from './queries.ts';

const STATE_TTL_MS = 10 * 60_000;

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/** Null when accounts of the platform can be connected here, else what to set. */
export const configurationProblem = (deps: AppDeps, platform: AccountPlatform): string | null => platformOf(platform).configurationProblem(deps);

/** The platform's adapter; 503 naming the variables to set when it is not configured here. */
function configuredPlatform(deps: AppDeps, platform: AccountPlatform): PlatformAdapter {
  const adapter = platformOf(platform);
  const problem = adapter.configurationProblem(deps);
  if (problem) throw new AppError('SERVICE_UNAVAILABLE', problem);
  return adapter;
}

/**
 * The platform's authorize URL with a fresh single-use state bound to the user and to the platform
 * (ten minutes), and the PKCE challenge of a verifier kept (encrypted) with that state. For
 * YouTube: offline access and a consent prompt, so Google hands out a refresh token.
 */
export async function authorizeUrlFor(deps: AppDeps, userId: string, via: 'owner' | 'guest', platform: AccountPlatform = 'tiktok'): Promise<string> {
  const state = randomBytes(32).toString('base64url');
  const codeVerifier = newCodeVerifier();
  // Built before the state is stored: an unconfigured platform leaves nothing behind.
  const url = configuredPlatform(deps, platform).authorizeUrl(deps, { state, codeVerifier });
  await insertOAuthState(deps.db, {
    state_hash: hashState(state),
    user_id: userId,
    via,
    platform,
    code_verifier_enc: encryptSecret(codeVerifier, deps.appSecret),
    expires_at: new Date(Date.now() + STATE_TTL_MS),
  });
  return url;
}

/**
 * Every row a callback writes, whatever the platform: anyone can call it as often as they like,
 * with a session or without, so its rows are bounded like those of the other public routes
 * (decision 0008), per user they are about.
 */
const callbackLogBudget = (userId: string | null) => anonymousLogBudget(userId);

export interface CallbackResult {
  success: boolean;
  error?: string;
  /** The database could not be reached: the connection is to be started again once it is back. */
  unavailable?: boolean;
}

/**
 * Marks the state used and returns whom it belongs to and its flow's PKCE verifier; unknown,
 * reused, expired or other platforms' states are refused.
 */
async function consumeState(deps: AppDeps, state: string, platform: AccountPlatform): Promise<Owner & { codeVerifier: string }> {
  const row = await consumeOAuthState(deps.db, hashState(state), platform);
  if (!row) throw new Error('This sign-in link is unknown, already used or expired. Please start the connection again.');
  return { userId: row.user_id, via: row.via, codeVerifier: decryptSecret(row.code_verifier_enc, deps.appSecret) };
}

/** The callback's query as the platform sent it (repeated or nested parameters are not theirs). */
function callbackParams(query: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (typeof value === 'string') params.set(key, value);
  return params;
}

/**
 * The OAuth callback: state checked (single use, bound to a user, and — for an owner's flow — to
 * the same signed-in user when the browser has a session), code exchanged with the state's PKCE
 * verifier (so a code minted for another flow is refused by the platform), profile fetched,
 * account stored for its owner.
 */
export async function completeAuthorization(
  deps: AppDeps,
  query: Record<string, unknown>,
  sessionUserId: string | null,
  platform: AccountPlatform = 'tiktok',
): Promise<CallbackResult> {
  const flow = platformOf(platform);
  const params = callbackParams(query);
  const state = params.get('state') ?? '';
  try {
    if (!state) throw new Error(`The answer from ${flow.provider} has no state. Please start the connection again.`);
    const owner = await consumeState(deps, state, platform);
    if (owner.via === 'owner' && sessionUserId && sessionUserId !== owner.userId) {
      throw new Error('This connection was started by another Clipshift account.');
    }
    const refused = flow.refusal(params);
    if (refused) throw new Error(refused.message);
    const code = params.get('code') ?? '';
    if (!code) throw new Error(`${flow.provider} sent no authorization code.`);
    const accounts = await configuredPlatform(deps, platform).connect(deps, owner, { code, codeVerifier: owner.codeVerifier });
    if (!accounts.length) throw new Error(`${flow.provider} gave access to no account that can post.`);
    await recordLog(deps.db, deps.logger, {
      level: 'INFO',
      logger: platform,
      message: `Connected ${accounts.map((account) => flow.describe(account)).join(', ')}${owner.via === 'guest' ? ' (by a guest with your passkey)' : ''}`,
      userId: owner.userId,
      budget: callbackLogBudget(owner.userId),
    });
    return { success: true };
  } catch (error) {
    // An outage is no failed connection of the user's, and its text is the driver's, not theirs to
    // read. A network error of the platform's looks alike, hence the database is asked too.
    if (isDatabaseUnavailable(error) && !(await databaseAnswers(deps.db))) {
      deps.logger.warn({ err: error, platform }, 'OAuth callback while the database is unavailable');
      return { success: false, error: DATABASE_UNAVAILABLE_MESSAGE, unavailable: true };
    }
    const message = (error as Error).message;
    await recordLog(deps.db, deps.logger, {
      level: 'WARNING',
      logger: platform,
      message: `${PLATFORM_LABELS[platform]} connection failed: ${message}`,
      userId: sessionUserId,
      budget: callbackLogBudget(sessionUserId),
    });
    return { success: false, error: message };
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/**
 * The popup's last page: tells the opener (our own origin only) how it went, then closes. The
 * inline script runs under a per-response nonce; nothing else may run.
 */
export function callbackPage(result: CallbackResult, appOrigin: string, platform: AccountPlatform = 'tiktok'): { html: string; csp: string } {
  return openerMessagePage(result, appOrigin, { label: PLATFORM_LABELS[platform], type: authMessageType(platform) });
}

/** callbackPage for any service's popup (a Twitch connection too): `type` is the message the opener waits for. */
export function openerMessagePage(result: CallbackResult, appOrigin: string, service: { label: string; type: string }): { html: string; csp: string } {
  const nonce = randomUUID().replace(/-/g, '');
  const { label, type } = service;
  const message = { type, success: result.success, ...(result.success ? {} : { error: result.error }) };
  const text = result.success ? `${label} account connected. You can close this window.` : `Could not connect ${label}: ${result.error ?? 'unknown error'}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Clipshift · ${label}</title>
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
