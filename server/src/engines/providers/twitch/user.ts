import type { z } from 'zod';
import { TwitchError } from './errors.ts';
import { rateLimitWaitMs, MAX_RATE_LIMIT_WAITS, toSearch, type QueryParams } from './helix.ts';
import { sendWithRetries } from '../http/retry.ts';
import { discardBody, joinUrl } from '../http/runtime.ts';
import { backoffMs, pause, readErrorMessage, TWITCH_RETRIES, type TwitchRuntime } from './runtime.ts';
import {
  clipDownloadsResponseSchema,
  createdClipResponseSchema,
  userTokenResponseSchema,
  validateResponseSchema,
  type ClipDownload,
  type CreatedClip,
  type TokenInfo,
  type UserTokens,
} from './types.ts';

/*
 * A user's own Twitch account (decision 0047): the authorization code flow at id.twitch.tv and the
 * Helix calls that need a user access token — Create Clip, Create Clip From VOD and Get Clips
 * Download. The caller keeps the tokens (encrypted) and refreshes them on `token_refused`.
 */

/** What the Moments feature asks of the account: make clips, and fetch the files of channels it edits. */
export const TWITCH_USER_SCOPES = ['clips:edit', 'editor:manage:clips', 'channel:manage:clips'] as const;

interface UserAuthConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  apiUrl: string;
}

export interface AuthorizeParams {
  redirectUri: string;
  state: string;
  scopes?: readonly string[];
}

export interface VodClipRequest {
  /** The connected user: Twitch requires it to match the token's user. */
  editorId: string;
  broadcasterId: string;
  videoId: string;
  /** Where the clip ENDS, in seconds into the VOD (Twitch's vod_offset): it starts `duration` before. */
  vodOffset: number;
  /** 5–60 seconds, 0.1 precision. */
  duration: number;
  title: string;
}

export function createUserAuth(config: UserAuthConfig, runtime: TwitchRuntime) {
  function authorizeUrl(params: AuthorizeParams): string {
    const url = new URL(joinUrl(config.authUrl, '/oauth2/authorize'));
    url.searchParams.set('client_id', config.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', (params.scopes ?? TWITCH_USER_SCOPES).join(' '));
    url.searchParams.set('state', params.state);
    // A reconnect after a refused grant must show the consent again, or Twitch may answer with the old, dead grant.
    url.searchParams.set('force_verify', 'true');
    return url.toString();
  }

  async function postToken(what: string, fields: Record<string, string>, signal?: AbortSignal): Promise<UserTokens> {
    const sentAt = runtime.now();
    // A code is single-use and a refresh may rotate the refresh token: a lost answer must not be asked again.
    const response = await sendWithRetries(runtime, {
      what,
      signal,
      retryNetworkErrors: false,
      send: (requestSignal) =>
        fetch(joinUrl(config.authUrl, '/oauth2/token'), {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body: new URLSearchParams({ client_id: config.clientId, client_secret: config.clientSecret, ...fields }),
          signal: requestSignal,
        }),
    }, TWITCH_RETRIES);
    if (!response.ok) {
      const message = await readErrorMessage(response);
      if (response.status === 400 || response.status === 401 || response.status === 403) {
        throw new TwitchError('grant_refused', `${what}: Twitch refused the grant (${message})`, { status: response.status });
      }
      throw new TwitchError(response.status === 429 ? 'rate_limited' : 'upstream', `${what} failed with HTTP ${response.status} (${message})`, { status: response.status });
    }
    const parsed = userTokenResponseSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new TwitchError('upstream', `${what}: the token response was not understood`);
    return {
      accessToken: parsed.data.access_token,
      refreshToken: parsed.data.refresh_token,
      expiresAt: new Date(sentAt + parsed.data.expires_in * 1000),
      scopes: parsed.data.scope,
    };
  }

  const exchangeCode = (code: string, redirectUri: string, signal?: AbortSignal) =>
    postToken('Twitch code exchange', { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, signal);

  const refreshUserToken = (refreshToken: string, signal?: AbortSignal) =>
    postToken('Twitch token refresh', { grant_type: 'refresh_token', refresh_token: refreshToken }, signal);

  /** The token's user and scopes (GET /oauth2/validate, `Authorization: OAuth`); a refused token is `token_refused`. */
  async function validateUserToken(accessToken: string, signal?: AbortSignal): Promise<TokenInfo> {
    const what = 'Twitch token validation';
    const response = await sendWithRetries(runtime, {
      what,
      signal,
      send: (requestSignal) => fetch(joinUrl(config.authUrl, '/oauth2/validate'), { headers: { Authorization: `OAuth ${accessToken}` }, signal: requestSignal }),
    }, TWITCH_RETRIES);
    if (response.status === 401) {
      await discardBody(response);
      throw new TwitchError('token_refused', `${what}: Twitch refused the token`, { status: 401 });
    }
    if (!response.ok) throw new TwitchError('upstream', `${what} failed with HTTP ${response.status} (${await readErrorMessage(response)})`, { status: response.status });
    const parsed = validateResponseSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success || !parsed.data.user_id || !parsed.data.login) throw new TwitchError('upstream', `${what}: the answer names no user`);
    return { userId: parsed.data.user_id, login: parsed.data.login, scopes: parsed.data.scopes };
  }

  /** Best effort: Twitch forgets the token; a failure is only logged (the connection is gone here either way). */
  async function revokeUserToken(token: string): Promise<void> {
    try {
      const response = await fetch(joinUrl(config.authUrl, '/oauth2/revoke'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: config.clientId, token }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) runtime.logger.warn({ status: response.status, reason: await readErrorMessage(response) }, 'Twitch did not revoke the token');
      else await discardBody(response);
    } catch (error) {
      runtime.logger.warn({ err: error }, 'Twitch token revocation failed');
    }
  }

  /**
   * One Helix call with the user's token: 429 waits for Ratelimit-Reset like the app's calls; 401
   * is `token_refused` (the caller refreshes and tries once more), 403 `forbidden`, 404 `not_found`.
   */
  async function userHelix<S extends z.ZodType>(method: 'GET' | 'POST', path: string, query: QueryParams, token: string, schema: S, signal?: AbortSignal): Promise<z.output<S>> {
    const url = `${joinUrl(config.apiUrl, path)}?${toSearch(query)}`;
    const what = `Helix ${method} ${path}`;
    for (let waits = 0; ; ) {
      const response = await sendWithRetries(runtime, {
        what,
        signal,
        // Creating a clip twice makes two clips: only a GET is repeated after a lost answer.
        retryNetworkErrors: method === 'GET',
        send: (requestSignal) =>
          fetch(url, { method, headers: { Authorization: `Bearer ${token}`, 'Client-Id': config.clientId, Accept: 'application/json' }, signal: requestSignal }),
      }, TWITCH_RETRIES);
      if (response.status === 429 && waits < MAX_RATE_LIMIT_WAITS) {
        waits++;
        const waitMs = rateLimitWaitMs(response, runtime.now()) ?? backoffMs(waits);
        runtime.logger.warn({ what, waitMs }, 'Twitch rate limit reached; waiting for the bucket to refill');
        await discardBody(response);
        await pause(runtime, waitMs, signal, what);
        continue;
      }
      if (!response.ok) throw await userHelixError(what, response);
      const parsed = schema.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) throw new TwitchError('upstream', `${what} returned a response we do not understand`, { status: response.status });
      return parsed.data;
    }
  }

  /** Create Clip while the broadcaster is live (202): the clip exists only a few seconds later. */
  async function createLiveClip(token: string, broadcasterId: string, signal?: AbortSignal): Promise<CreatedClip> {
    const body = await userHelix('POST', '/clips', [['broadcaster_id', broadcasterId]], token, createdClipResponseSchema, signal);
    return firstCreated(body.data, 'Create Clip');
  }

  /** Create Clip From VOD: every parameter in the query, no body (decision 0047). */
  async function createVodClip(token: string, request: VodClipRequest, signal?: AbortSignal): Promise<CreatedClip> {
    const query: QueryParams = [
      ['editor_id', request.editorId],
      ['broadcaster_id', request.broadcasterId],
      ['vod_id', request.videoId],
      ['vod_offset', String(Math.round(request.vodOffset))],
      ['duration', request.duration.toFixed(1)],
      ['title', request.title],
    ];
    const body = await userHelix('POST', '/videos/clips', query, token, createdClipResponseSchema, signal);
    return firstCreated(body.data, 'Create Clip From VOD');
  }

  /** Get Clips Download: the file URLs of up to 10 clips of a channel the token's user may edit. */
  async function getClipDownloads(token: string, editorId: string, broadcasterId: string, clipIds: readonly string[], signal?: AbortSignal): Promise<ClipDownload[]> {
    const query: QueryParams = [['editor_id', editorId], ['broadcaster_id', broadcasterId], ...clipIds.slice(0, 10).map((id) => ['clip_id', id] as const)];
    const body = await userHelix('GET', '/clips/downloads', query, token, clipDownloadsResponseSchema, signal);
    return body.data;
  }

  return { authorizeUrl, exchangeCode, refreshUserToken, validateUserToken, revokeUserToken, createLiveClip, createVodClip, getClipDownloads };
}

function firstCreated(data: readonly CreatedClip[], what: string): CreatedClip {
  const created = data[0];
  if (!created) throw new TwitchError('upstream', `${what}: Twitch answered without a clip`);
  return created;
}

async function userHelixError(what: string, response: Response): Promise<TwitchError> {
  const message = await readErrorMessage(response);
  const status = response.status;
  const text = `${what}: ${message}`;
  if (status === 401) return new TwitchError('token_refused', `Twitch refused the account's token (${text})`, { status });
  if (status === 403) return new TwitchError('forbidden', `Twitch refused the request for this account (${text})`, { status });
  if (status === 404) return new TwitchError('not_found', `Twitch found nothing (${text})`, { status });
  if (status === 400) return new TwitchError('bad_request', `Twitch refused the request (${text})`, { status });
  if (status === 429) return new TwitchError('rate_limited', `Twitch kept rate-limiting us (${text})`, { status });
  return new TwitchError('upstream', `Twitch answered HTTP ${status} (${text})`, { status });
}
