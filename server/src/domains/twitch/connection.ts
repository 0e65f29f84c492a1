import { createHash, randomBytes } from 'node:crypto';
import { CONNECT_TWITCH_FOR_MOMENTS, type TwitchConnection } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { anonymousLogBudget, recordLog } from '../logs/service.ts';
import { isTwitchError, TWITCH_USER_SCOPES, type TwitchClient, type UserTokens } from '../../engines/providers/twitch/index.ts';
import { decryptSecret, encryptSecret } from '../../platform/crypto.ts';
import { databaseAnswers } from '../../platform/db/database.ts';
import { isDatabaseUnavailable } from '../../platform/db/errors.ts';
import { AppError, DATABASE_UNAVAILABLE_MESSAGE } from '../../platform/errors.ts';
import { consumeState, deleteConnection, deleteOldStates, insertState, selectConnection, selectConnectionForUpdate, updateConnection, upsertConnection, type TwitchConnectionRow } from './queries.ts';

/*
 * The user's own Twitch account (decision 0047): the authorization code flow with a single-use
 * state bound to the user, tokens encrypted at rest, refreshed ahead of expiry and on a 401, and
 * "Reconnect needed" once Twitch refuses the refresh token.
 */

const STATE_TTL_MS = 10 * 60_000;
/** Refresh this long before the access token expires, so a clip request never starts on a dying token. */
const REFRESH_AHEAD_MS = 5 * 60_000;

export const TWITCH_NOT_CONFIGURED = 'Twitch is not configured on this server (TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET)';
export const TWITCH_RECONNECT_NEEDED = 'Reconnect needed';

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/** The Twitch client; 503 when TWITCH_CLIENT_ID/SECRET are not set. */
export function configuredTwitch(deps: Pick<AppDeps, 'twitch'>): TwitchClient {
  if (!deps.twitch) throw new AppError('SERVICE_UNAVAILABLE', TWITCH_NOT_CONFIGURED);
  return deps.twitch;
}

/** Twitch's authorize URL with a fresh single-use state bound to the user (ten minutes). */
export async function twitchAuthorizeUrl(deps: AppDeps, userId: string): Promise<string> {
  const twitch = configuredTwitch(deps);
  const state = randomBytes(32).toString('base64url');
  const url = twitch.authorizeUrl({ redirectUri: deps.env.twitchRedirectUri, state, scopes: TWITCH_USER_SCOPES });
  await deleteOldStates(deps.db);
  await insertState(deps.db, { state_hash: hashState(state), user_id: userId, expires_at: new Date(Date.now() + STATE_TTL_MS) });
  return url;
}

export interface TwitchCallbackResult {
  success: boolean;
  error?: string;
  /** The database could not be reached: the connection is to be started again once it is back. */
  unavailable?: boolean;
}

function callbackParams(query: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (typeof value === 'string') params.set(key, value);
  return params;
}

/**
 * GET /api/twitch/callback: the state is spent (unknown, reused, expired or another signed-in
 * user's is refused), the code exchanged, the token's user and scopes read from /oauth2/validate,
 * and the connection stored with its tokens encrypted.
 */
export async function completeTwitchAuthorization(deps: AppDeps, query: Record<string, unknown>, sessionUserId: string | null): Promise<TwitchCallbackResult> {
  const params = callbackParams(query);
  const state = params.get('state') ?? '';
  try {
    if (!state) throw new Error('The answer from Twitch has no state. Please start the connection again.');
    const owner = await consumeState(deps.db, hashState(state));
    if (!owner) throw new Error('This sign-in link is unknown, already used or expired. Please start the connection again.');
    if (sessionUserId && sessionUserId !== owner.user_id) throw new Error('This connection was started by another Clipshift account.');
    const refused = params.get('error');
    if (refused) throw new Error(refused === 'access_denied' ? 'You did not allow Clipshift to use your Twitch account.' : `Twitch refused the connection (${params.get('error_description') ?? refused}).`);
    const code = params.get('code');
    if (!code) throw new Error('Twitch sent no authorization code.');
    const twitch = configuredTwitch(deps);
    const tokens = await twitch.exchangeCode(code, deps.env.twitchRedirectUri);
    const who = await twitch.validateUserToken(tokens.accessToken);
    await upsertConnection(deps.db, {
      user_id: owner.user_id,
      twitch_user_id: who.userId,
      login: who.login,
      scopes: JSON.stringify(who.scopes.length ? who.scopes : tokens.scopes),
      ...tokenColumns(deps, tokens),
    });
    await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'twitch', message: `Connected Twitch account ${who.login}`, userId: owner.user_id, budget: anonymousLogBudget(owner.user_id) });
    return { success: true };
  } catch (error) {
    if (isDatabaseUnavailable(error) && !(await databaseAnswers(deps.db))) {
      deps.logger.warn({ err: error }, 'Twitch callback while the database is unavailable');
      return { success: false, error: DATABASE_UNAVAILABLE_MESSAGE, unavailable: true };
    }
    const message = error instanceof AppError || !isTwitchError(error) ? (error as Error).message : 'Twitch did not accept the connection. Please start it again.';
    await recordLog(deps.db, deps.logger, {
      level: 'WARNING',
      logger: 'twitch',
      message: `Twitch connection failed: ${message}`,
      userId: sessionUserId,
      budget: anonymousLogBudget(sessionUserId),
      error: isTwitchError(error) ? error : undefined,
    });
    return { success: false, error: message };
  }
}

function tokenColumns(deps: Pick<AppDeps, 'appSecret'>, tokens: UserTokens) {
  return {
    access_token_enc: encryptSecret(tokens.accessToken, deps.appSecret),
    refresh_token_enc: encryptSecret(tokens.refreshToken, deps.appSecret),
    access_expires_at: tokens.expiresAt,
  };
}

/** GET /api/twitch/connection. */
export async function twitchConnection(deps: AppDeps, userId: string): Promise<TwitchConnection> {
  const row = await selectConnection(deps.db, userId);
  if (!row) return { connected: false, login: null, scopes: [], status: null };
  return { connected: true, login: row.login, scopes: row.scopes, status: row.needs_reconnect ? 'reconnect' : 'ok' };
}

/** DELETE /api/twitch/connection: forgotten here, and revoked at Twitch as best it can. */
export async function disconnectTwitch(deps: AppDeps, userId: string): Promise<void> {
  const row = await deleteConnection(deps.db, userId);
  if (!row) return;
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'twitch', message: `Disconnected Twitch account ${row.login}`, userId });
  if (!deps.twitch) return;
  await deps.twitch.revokeUserToken(decryptSecret(row.refresh_token_enc, deps.appSecret));
  await deps.twitch.revokeUserToken(decryptSecret(row.access_token_enc, deps.appSecret));
}

/** The connected account and a valid access token; the errors say what the user must do. */
export interface TwitchSession {
  twitchUserId: string;
  login: string;
  scopes: string[];
  token: string;
}

/** Twitch refused the connection's refresh token: the user must connect again. */
export class TwitchReconnectNeeded extends AppError {
  constructor() {
    super('CONFLICT', TWITCH_RECONNECT_NEEDED, { details: { twitch: 'reconnect' } });
  }
}

export class TwitchNotConnected extends AppError {
  constructor() {
    super('CONFLICT', CONNECT_TWITCH_FOR_MOMENTS, { details: { twitch: 'not_connected' } });
  }
}

/**
 * The user's session with Twitch: the stored token, refreshed when it is about to expire or
 * (`force`) when Twitch has just refused it. A refused refresh marks the connection; it stays
 * marked (no more refreshes) until the user connects again.
 */
export async function twitchSession(deps: AppDeps, userId: string, options: { force?: boolean; signal?: AbortSignal } = {}): Promise<TwitchSession> {
  const twitch = configuredTwitch(deps);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const row = await selectConnectionForUpdate(trx, userId);
    if (!row) throw new TwitchNotConnected();
    if (row.needs_reconnect) return { row, token: null, newly: false };
    if (!options.force && row.access_expires_at.getTime() - Date.now() > REFRESH_AHEAD_MS) {
      return { row, token: decryptSecret(row.access_token_enc, deps.appSecret), newly: false };
    }
    try {
      const tokens = await twitch.refreshUserToken(decryptSecret(row.refresh_token_enc, deps.appSecret), options.signal);
      await updateConnection(trx, userId, { ...tokenColumns(deps, tokens), ...(tokens.scopes.length ? { scopes: JSON.stringify(tokens.scopes) } : {}) });
      return { row: tokens.scopes.length ? { ...row, scopes: tokens.scopes } : row, token: tokens.accessToken, newly: false };
    } catch (error) {
      if (isTwitchError(error, 'grant_refused')) return { row, token: null, newly: true };
      throw error;
    }
  });
  if (outcome.token !== null) return sessionOf(outcome.row, outcome.token);
  if (outcome.newly) await markReconnect(deps, userId, outcome.row.login);
  throw new TwitchReconnectNeeded();
}

function sessionOf(row: TwitchConnectionRow, token: string): TwitchSession {
  return { twitchUserId: row.twitch_user_id, login: row.login, scopes: row.scopes, token };
}

/** Marked once, and the user told once, when Twitch first refuses the connection. */
async function markReconnect(deps: AppDeps, userId: string, login: string): Promise<void> {
  await updateConnection(deps.db, userId, { needs_reconnect: true });
  await recordLog(deps.db, deps.logger, {
    level: 'WARNING',
    logger: 'twitch',
    message: `Twitch refused the connection of ${login}: reconnect the account in Settings`,
    userId,
  });
}

/**
 * Runs `step` with the user's token; when Twitch refuses it (401) the token is refreshed and the
 * step tried once more. A second refusal means the grant no longer works: Reconnect needed —
 * unless `refusalMayBeScope`: Get Clips Download also answers 401 for a missing scope (A6a), which
 * says nothing about the grant, so that refusal goes back to the caller as it is.
 */
export async function withTwitchSession<T>(
  deps: AppDeps,
  userId: string,
  step: (session: TwitchSession) => Promise<T>,
  options: { signal?: AbortSignal | undefined; refusalMayBeScope?: boolean } = {},
): Promise<T> {
  const { signal } = options;
  const session = await twitchSession(deps, userId, { signal });
  try {
    return await step(session);
  } catch (error) {
    if (!isTwitchError(error, 'token_refused')) throw error;
  }
  const refreshed = await twitchSession(deps, userId, { force: true, signal });
  try {
    return await step(refreshed);
  } catch (error) {
    if (!isTwitchError(error, 'token_refused') || options.refusalMayBeScope) throw error;
    await markReconnect(deps, userId, refreshed.login);
    throw new TwitchReconnectNeeded();
  }
}
