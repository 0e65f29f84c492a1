import { callbackErrorOf, type MetaError } from '../meta/errors.ts';
import { graphRequest, type MetaRuntime } from '../meta/graph.ts';
import { INSTAGRAM_SCOPES, longTokenSchema, shortTokenSchema, type InstagramRefreshedToken, type InstagramTokens } from './types.ts';

/*
 * Business Login for Instagram: the consent URL, the code exchange at api.instagram.com (a
 * short-lived token, an hour), its exchange for a long-lived one (60 days) and the refresh of that.
 * There is no refresh token: the long-lived token refreshes itself while it is alive, and one that
 * has expired or was revoked answers code 190 (reconnect needed). Meta documents no PKCE for this
 * flow, so the state parameter alone binds the callback to the flow.
 */

export interface AuthorizeUrlParams {
  authUrl: string;
  clientId: string;
  redirectUri: string;
  /** The CSRF state, echoed back on the callback. */
  state: string;
  scopes?: readonly string[];
}

export function buildAuthorizeUrl(params: AuthorizeUrlParams): string {
  const url = new URL(params.authUrl);
  url.searchParams.set('client_id', params.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('response_type', 'code');
  // Comma-separated, as Instagram's consent page expects.
  url.searchParams.set('scope', (params.scopes ?? INSTAGRAM_SCOPES).join(','));
  url.searchParams.set('state', params.state);
  return url.toString();
}

/** The error a callback carries (`?error=access_denied&error_reason=user_denied`), or null when it carries a code. */
export function callbackError(query: URLSearchParams): MetaError | null {
  return callbackErrorOf('instagram', query);
}

/** Permissions from `required` that the person did not grant. */
export function missingScopes(granted: readonly string[], required: readonly string[] = INSTAGRAM_SCOPES): string[] {
  const have = new Set(granted);
  return required.filter((scope) => !have.has(scope));
}

export interface OAuthConfig {
  clientId: string;
  clientSecret: string;
  /** INSTAGRAM_TOKEN_URL */
  tokenUrl: string;
  /** INSTAGRAM_GRAPH_URL */
  graphUrl: string;
}

export interface CodeGrant {
  code: string;
  redirectUri: string;
}

/** The code for a short-lived token, then that for a long-lived one: what the account keeps. */
export async function exchangeCode(config: OAuthConfig, runtime: MetaRuntime, grant: CodeGrant, signal?: AbortSignal): Promise<InstagramTokens> {
  const short = await graphRequest(
    runtime,
    {
      platform: 'instagram',
      what: 'Instagram code exchange',
      method: 'POST',
      base: config.tokenUrl,
      path: '',
      form: { client_id: config.clientId, client_secret: config.clientSecret, grant_type: 'authorization_code', redirect_uri: grant.redirectUri, code: grant.code },
      secrets: [config.clientSecret, grant.code],
      oauth: true,
      // A code is single-use: a retry after a lost answer would be refused and hide what happened.
      retryNetworkErrors: false,
      signal,
    },
    shortTokenSchema,
  );
  const long = await exchangeForLongLived(config, runtime, short.access_token, signal);
  runtime.logger.info({ permissions: short.permissions }, 'Instagram account authorised');
  return { ...long, userId: short.user_id, permissions: short.permissions };
}

/** Meta documents the token as a query parameter of these two calls; it never reaches a log (redactUrl). */
async function exchangeForLongLived(config: OAuthConfig, runtime: MetaRuntime, shortToken: string, signal?: AbortSignal): Promise<InstagramRefreshedToken> {
  const sentAt = runtime.now();
  const body = await graphRequest(
    runtime,
    {
      platform: 'instagram',
      what: 'Instagram long-lived token exchange',
      method: 'GET',
      base: config.graphUrl,
      path: '/access_token',
      query: { grant_type: 'ig_exchange_token', client_secret: config.clientSecret, access_token: shortToken },
      secrets: [config.clientSecret, shortToken],
      oauth: true,
      signal,
    },
    longTokenSchema,
  );
  // From when the request left: the token's 60 days started at Meta before the answer arrived.
  return { accessToken: body.access_token, expiresAt: new Date(sentAt + body.expires_in * 1000) };
}

/** A long-lived token, alive and at least a day old, for a new one with 60 days ahead. */
export async function refreshToken(config: OAuthConfig, runtime: MetaRuntime, token: string, signal?: AbortSignal): Promise<InstagramRefreshedToken> {
  const sentAt = runtime.now();
  const body = await graphRequest(
    runtime,
    {
      platform: 'instagram',
      what: 'Instagram token refresh',
      method: 'GET',
      base: config.graphUrl,
      path: '/refresh_access_token',
      query: { grant_type: 'ig_refresh_token', access_token: token },
      secrets: [token],
      oauth: true,
      signal,
    },
    longTokenSchema,
  );
  const refreshed = { accessToken: body.access_token, expiresAt: new Date(sentAt + body.expires_in * 1000) };
  runtime.logger.debug({ expiresAt: refreshed.expiresAt.toISOString() }, 'Instagram token refreshed');
  return refreshed;
}
