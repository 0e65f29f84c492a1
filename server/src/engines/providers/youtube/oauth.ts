import { s256Challenge } from '../../../platform/pkce.ts';
import { sendWithRetries } from '../http/retry.ts';
import { errorFromCode, YouTubeError } from './errors.ts';
import { errorFromAnswer, extractGoogleError, parseWith, readJson, YOUTUBE_RETRIES, type YouTubeRuntime } from './runtime.ts';
import { tokenResponseSchema, YOUTUBE_SCOPES, type YouTubeTokens } from './types.ts';

/*
 * Google OAuth 2.0 for web server apps: the consent URL, the code exchange and the refresh grant.
 * Google does not rotate refresh tokens: a refresh answers without one and the old one stays valid
 * until the user removes access (then invalid_grant, "Reconnect needed").
 */

export const DEFAULT_AUTH_URL = 'https://accounts.google.com/o/oauth2/v2/auth';

export interface AuthorizeUrlParams {
  authUrl: string;
  clientId: string;
  redirectUri: string;
  /** The CSRF state, echoed back on the callback. */
  state: string;
  /** The flow's PKCE verifier: its challenge goes into the URL, the verifier itself into the code exchange. */
  codeVerifier: string;
  scopes?: readonly string[];
}

export function buildAuthorizeUrl(params: AuthorizeUrlParams): string {
  const url = new URL(params.authUrl);
  url.searchParams.set('client_id', params.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', (params.scopes ?? YOUTUBE_SCOPES).join(' '));
  // offline: a refresh token, so posts scheduled for later can still get access tokens.
  url.searchParams.set('access_type', 'offline');
  // Google only hands out a refresh token on a consent; without prompt=consent a reconnect of an
  // account that once agreed would come back with none.
  url.searchParams.set('prompt', 'consent');
  url.searchParams.set('include_granted_scopes', 'true');
  url.searchParams.set('state', params.state);
  url.searchParams.set('code_challenge', s256Challenge(params.codeVerifier, 'base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** The error a callback carries (`?error=access_denied`), or null when it carries a code. */
export function callbackError(query: URLSearchParams): YouTubeError | null {
  const error = query.get('error');
  if (!error) return null;
  return errorFromCode(error, { detail: `Google authorize callback: ${error}` });
}

/** Scopes from `required` that the user did not grant (the consent page lets a user untick some). */
export function missingScopes(granted: string, required: readonly string[] = YOUTUBE_SCOPES): string[] {
  const have = new Set(granted.split(/\s+/).filter(Boolean));
  return required.filter((scope) => !have.has(scope));
}

export interface OAuthConfig {
  clientId: string;
  clientSecret: string;
  /** YOUTUBE_TOKEN_URL */
  tokenUrl: string;
}

/** What the code exchange sends: the code, the flow's PKCE verifier and the redirect URI of the authorize request. */
export interface CodeGrant {
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

export async function exchangeCode(config: OAuthConfig, runtime: YouTubeRuntime, grant: CodeGrant, signal?: AbortSignal): Promise<YouTubeTokens> {
  const fields = { grant_type: 'authorization_code', code: grant.code, redirect_uri: grant.redirectUri, code_verifier: grant.codeVerifier };
  // A code is single-use: had Google handled a first attempt whose answer was lost, a retry would
  // fail with invalid_grant and hide what happened, so network failures are not retried.
  const tokens = await postTokenForm(config, runtime, 'YouTube code exchange', fields, false, signal);
  if (!tokens.refreshToken) {
    runtime.logger.warn({ scope: tokens.scope }, 'Google sent no refresh token for a code exchange');
  }
  runtime.logger.info({ scope: tokens.scope }, 'YouTube account authorised');
  return tokens;
}

/** A new access token; refreshToken in the answer is null, as Google keeps the old one valid. */
export async function refreshToken(config: OAuthConfig, runtime: YouTubeRuntime, token: string, signal?: AbortSignal): Promise<YouTubeTokens> {
  // Unlike a code, a refresh grant can be repeated safely (nothing rotates), so it is retried.
  const tokens = await postTokenForm(config, runtime, 'YouTube token refresh', { grant_type: 'refresh_token', refresh_token: token }, true, signal);
  runtime.logger.debug({ expiresAt: tokens.expiresAt.toISOString() }, 'YouTube access token refreshed');
  return tokens;
}

async function postTokenForm(
  config: OAuthConfig,
  runtime: YouTubeRuntime,
  what: string,
  fields: Record<string, string>,
  retryNetworkErrors: boolean,
  signal?: AbortSignal,
): Promise<YouTubeTokens> {
  if (!config.clientId || !config.clientSecret) {
    throw new YouTubeError('config', 'YouTube is not configured: set YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET.', { code: 'not_configured' });
  }
  const form = new URLSearchParams({ client_id: config.clientId, client_secret: config.clientSecret, ...fields });
  const sentAt = runtime.now();
  const response = await sendWithRetries(
    runtime,
    {
      what,
      signal,
      retryNetworkErrors,
      send: (requestSignal) =>
        fetch(config.tokenUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body: form,
          signal: requestSignal,
        }),
    },
    YOUTUBE_RETRIES,
  );
  const body = await readJson(response);
  if (!response.ok || extractGoogleError(body)) {
    const error = errorFromAnswer(runtime, what, response.status, body);
    runtime.logger.warn({ what, status: response.status, errorCode: error.code }, 'Google refused the OAuth request');
    throw error;
  }
  const parsed = parseWith(what, response.status, body, tokenResponseSchema);
  return {
    accessToken: parsed.access_token,
    // From when the request left: the token's hour started at Google before the answer arrived.
    expiresAt: new Date(sentAt + parsed.expires_in * 1000),
    refreshToken: parsed.refresh_token ?? null,
    scope: parsed.scope,
  };
}
