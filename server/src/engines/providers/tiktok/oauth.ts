import { errorFromCode, TikTokError } from './errors.ts';
import { sendWithRetries } from '../http/retry.ts';
import { s256Challenge } from '../../../platform/pkce.ts';
import { joinUrl } from '../http/runtime.ts';
import { errorFromBody, extractError, parseWith, readJson } from './responses.ts';
import { TIKTOK_RETRIES, type TikTokRuntime } from './runtime.ts';
import { tokenResponseSchema, type TikTokTokens } from './types.ts';

/*
 * Login Kit for Web and the token endpoints (external-apis.md B1, B2). Codes, tokens and the client
 * secret travel only in request bodies and are never logged.
 */

export const DEFAULT_AUTH_URL = 'https://www.tiktok.com/v2/auth/authorize/';

/**
 * Profile (display name, username, avatar), both posting modes (Direct Post and inbox drafts), and
 * reading the account's own videos' counts for post statistics (video.list).
 */
export const DEFAULT_SCOPES: readonly string[] = ['user.info.basic', 'user.info.profile', 'video.publish', 'video.upload', 'video.list'];

export interface AuthorizeUrlParams {
  /** TIKTOK_AUTH_URL (default production). */
  authUrl?: string;
  clientKey: string;
  redirectUri: string;
  /** The CSRF state, echoed back on the callback. */
  state: string;
  /** The flow's PKCE verifier: its challenge goes into the URL, the verifier itself into the code exchange. */
  codeVerifier: string;
  scopes?: readonly string[];
  /** true shows the consent page even for a user with a valid TikTok session (e.g. to switch accounts). */
  disableAutoAuth?: boolean;
}

export function buildAuthorizeUrl(params: AuthorizeUrlParams): string {
  const url = new URL(params.authUrl ?? DEFAULT_AUTH_URL);
  url.searchParams.set('client_key', params.clientKey);
  // TikTok wants the scopes comma-separated, not space-separated like most OAuth servers.
  url.searchParams.set('scope', (params.scopes ?? DEFAULT_SCOPES).join(','));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('state', params.state);
  url.searchParams.set('code_challenge', s256Challenge(params.codeVerifier, 'hex'));
  url.searchParams.set('code_challenge_method', 'S256');
  if (params.disableAutoAuth !== undefined) url.searchParams.set('disable_auto_auth', params.disableAutoAuth ? '1' : '0');
  return url.toString();
}

/**
 * The error a callback carries (`?error=access_denied&error_description=…`), or null when it
 * carries a code. The caller reads code and state itself (URLSearchParams already URL-decodes the code, as B1 requires).
 */
export function callbackError(query: URLSearchParams): TikTokError | null {
  const error = query.get('error');
  if (!error) return null;
  const description = query.get('error_description');
  return errorFromCode(error, { detail: `TikTok authorize callback: ${error}${description ? ` (${description})` : ''}` });
}

/** Scopes from `required` that the user did not grant (the consent page allows granting a subset). */
export function missingScopes(granted: string, required: readonly string[] = DEFAULT_SCOPES): string[] {
  const have = new Set(granted.split(/[,\s]+/).filter(Boolean));
  return required.filter((scope) => !have.has(scope));
}

export interface OAuthConfig {
  clientKey: string;
  clientSecret: string;
  /** TIKTOK_API_URL: the token endpoints are {apiUrl}/v2/oauth/token/ and /v2/oauth/revoke/. */
  apiUrl: string;
}

/** What the code exchange sends: the code, the flow's PKCE verifier and the redirect URI of the authorize request. */
export interface CodeGrant {
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

export async function exchangeCode(config: OAuthConfig, runtime: TikTokRuntime, grant: CodeGrant, signal?: AbortSignal): Promise<TikTokTokens> {
  const fields = { code: grant.code, grant_type: 'authorization_code', redirect_uri: grant.redirectUri, code_verifier: grant.codeVerifier };
  const body = await postOAuthForm(config, runtime, '/v2/oauth/token/', fields, signal);
  const tokens = toTokens(parseWith('TikTok code exchange', 200, body, tokenResponseSchema));
  runtime.logger.info({ openId: tokens.openId, scope: tokens.scope, expiresIn: tokens.expiresIn }, 'TikTok account authorised');
  return tokens;
}

/** A new access token; the answer's refresh token replaces the old one, which may stop working at once. */
export async function refreshToken(config: OAuthConfig, runtime: TikTokRuntime, token: string, signal?: AbortSignal): Promise<TikTokTokens> {
  const body = await postOAuthForm(config, runtime, '/v2/oauth/token/', { grant_type: 'refresh_token', refresh_token: token }, signal);
  const tokens = toTokens(parseWith('TikTok token refresh', 200, body, tokenResponseSchema));
  runtime.logger.debug({ openId: tokens.openId, expiresIn: tokens.expiresIn }, 'TikTok access token refreshed');
  return tokens;
}

/** Ends the app's access to the account at TikTok; the answer is an empty body or `{}` on success. */
export async function revokeToken(config: OAuthConfig, runtime: TikTokRuntime, accessToken: string, signal?: AbortSignal): Promise<void> {
  await postOAuthForm(config, runtime, '/v2/oauth/revoke/', { token: accessToken }, signal);
  runtime.logger.info('TikTok access revoked');
}

function toTokens(body: ReturnType<typeof tokenResponseSchema.parse>): TikTokTokens {
  return {
    accessToken: body.access_token,
    expiresIn: body.expires_in,
    refreshToken: body.refresh_token,
    refreshExpiresIn: body.refresh_expires_in,
    openId: body.open_id,
    scope: body.scope,
  };
}

/** POSTs a form with the client credentials and returns the flat JSON answer (undefined when empty). */
async function postOAuthForm(config: OAuthConfig, runtime: TikTokRuntime, path: string, fields: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
  assertConfigured(config);
  const what = `TikTok POST ${path}`;
  const url = joinUrl(config.apiUrl, path);
  const form = new URLSearchParams({ client_key: config.clientKey, client_secret: config.clientSecret, ...fields });
  const response = await sendWithRetries(runtime, {
    what,
    signal,
    retryNetworkErrors: false,
    send: (requestSignal) =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', 'Cache-Control': 'no-cache' },
        body: form,
        signal: requestSignal,
      }),
  }, TIKTOK_RETRIES);
  const body = await readJson(response);
  // TikTok's OAuth errors carry `error` whatever the status (B2), so check the body first.
  if (extractError(body) || !response.ok) {
    const error = errorFromBody(what, response.status, body);
    runtime.logger.warn({ what, status: response.status, errorCode: error.code, logId: error.logId }, 'TikTok refused the OAuth request');
    throw error;
  }
  return body;
}

function assertConfigured(config: OAuthConfig): void {
  if (!config.clientKey || !config.clientSecret) {
    throw new TikTokError('config', 'TikTok is not configured: set TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET.', { code: 'not_configured' });
  }
}
