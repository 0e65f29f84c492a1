import { callbackErrorOf, type MetaError } from '../meta/errors.ts';
import { graphRequest, type MetaRuntime } from '../meta/graph.ts';
import { FACEBOOK_SCOPES, userTokenSchema, type FacebookUserToken } from './types.ts';

/*
 * Facebook Login (the manually built flow): the consent dialog, the code for a short-lived user
 * token, and that for a long-lived one (about 60 days), whose Page tokens (GET /me/accounts) do not
 * expire. Meta wants the app secret, the code and the token to exchange as query parameters of
 * these calls; they never reach a log (redactUrl, scrubbed errors). The state parameter binds the
 * callback to the flow.
 */

export interface AuthorizeUrlParams {
  authUrl: string;
  appId: string;
  redirectUri: string;
  state: string;
  scopes?: readonly string[];
}

export function buildAuthorizeUrl(params: AuthorizeUrlParams): string {
  const url = new URL(params.authUrl);
  url.searchParams.set('client_id', params.appId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', (params.scopes ?? FACEBOOK_SCOPES).join(','));
  url.searchParams.set('state', params.state);
  return url.toString();
}

/** The error a callback carries (`?error=access_denied&error_reason=user_denied`), or null when it carries a code. */
export function callbackError(query: URLSearchParams): MetaError | null {
  return callbackErrorOf('facebook', query);
}

/** Permissions from `required` that the person did not grant (the dialog lets them untick some). */
export function missingPermissions(granted: readonly string[], required: readonly string[] = FACEBOOK_SCOPES): string[] {
  const have = new Set(granted);
  return required.filter((scope) => !have.has(scope));
}

export interface OAuthConfig {
  appId: string;
  appSecret: string;
  /** FACEBOOK_GRAPH_URL, with its version */
  graphUrl: string;
}

export interface CodeGrant {
  code: string;
  redirectUri: string;
}

function tokenFrom(body: { access_token: string; expires_in?: number }, sentAt: number): FacebookUserToken {
  return { accessToken: body.access_token, expiresAt: body.expires_in ? new Date(sentAt + body.expires_in * 1000) : null };
}

export async function exchangeCode(config: OAuthConfig, runtime: MetaRuntime, grant: CodeGrant, signal?: AbortSignal): Promise<FacebookUserToken> {
  const short = await graphRequest(
    runtime,
    {
      platform: 'facebook',
      what: 'Facebook code exchange',
      method: 'GET',
      base: config.graphUrl,
      path: '/oauth/access_token',
      query: { client_id: config.appId, redirect_uri: grant.redirectUri, client_secret: config.appSecret, code: grant.code },
      secrets: [config.appSecret, grant.code],
      oauth: true,
      // A code is single-use: a retry after a lost answer would be refused and hide what happened.
      retryNetworkErrors: false,
      signal,
    },
    userTokenSchema,
  );
  const long = await exchangeForLongLived(config, runtime, short.access_token, signal);
  runtime.logger.info({ expiresAt: long.expiresAt?.toISOString() ?? null }, 'Facebook account authorised');
  return long;
}

async function exchangeForLongLived(config: OAuthConfig, runtime: MetaRuntime, shortToken: string, signal?: AbortSignal): Promise<FacebookUserToken> {
  const sentAt = runtime.now();
  const body = await graphRequest(
    runtime,
    {
      platform: 'facebook',
      what: 'Facebook long-lived token exchange',
      method: 'GET',
      base: config.graphUrl,
      path: '/oauth/access_token',
      query: { grant_type: 'fb_exchange_token', client_id: config.appId, client_secret: config.appSecret, fb_exchange_token: shortToken },
      secrets: [config.appSecret, shortToken],
      oauth: true,
      signal,
    },
    userTokenSchema,
  );
  return tokenFrom(body, sentAt);
}
