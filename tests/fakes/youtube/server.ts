import { isObject, readBytes, readText, redirect, sendPage, sendText, takeFailure, type QueuedFailure } from '../http.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FakeYouTubeState,
  FULL_SCOPE,
  KNOWN_SCOPES,
  QUOTA_COST,
  READONLY_SCOPE,
  tagsLength,
  UPLOAD_BLOCK,
  UPLOAD_SCOPE,
  type AddGoogleUserInput,
  type CodeChallenge,
  type FakeChannel,
  type FakeGoogleUser,
  type FakeToken,
  type FakeUploadSession,
  type FakeVideo,
} from './state.ts';

/*
 * A local Google + YouTube speaking the real wire protocol: the OAuth consent page (which redirects
 * at once instead of showing a form), the token endpoint (code and refresh grants, invalid_grant,
 * invalid_client), channels.list mine=true, videos.list, resumable uploads (initiation with
 * Location, chunked PUTs answered 308 + Range, status queries, the 256 KiB rule) and the project's
 * daily quota (uploads in a bucket of their own, units for the rest). Tests can drop a connection
 * mid-chunk, fail a request, revoke a grant, finish processing, set statistics and keep every new
 * video private (an unaudited Google Cloud project). One HTTP server on 127.0.0.1: YOUTUBE_API_URL is its root.
 */

export type FakeYouTubeEndpoint = 'authorize' | 'token' | 'channels' | 'videos' | 'upload_init' | 'upload' | 'unknown';

/**
 * A scripted failure: an HTTP status (Google's error body for it), or a reason answered with its
 * usual status ('quotaExceeded' 403, 'rateLimitExceeded' 403, 'authError' 401, 'backendError' 500;
 * on the token endpoint an OAuth error code, 400). On upload the failure is for the next data PUT
 * (status queries are answered): a status is answered after reading the chunk, without keeping it;
 * 'forget' answers 308 without Range after throwing away everything the session held.
 */
export type FakeYouTubeFailure = number | string;

export interface DropChunk {
  /** Body bytes read before the connection is cut (default half the chunk). */
  afterBytes?: number;
  /** 'blocks' (default) keeps the whole 256 KiB blocks read, as Google's servers persist them; 'none' keeps nothing. */
  keep?: 'blocks' | 'none';
}

export interface RecordedYouTubeRequest {
  method: string;
  endpoint: FakeYouTubeEndpoint;
  path: string;
  query: Record<string, string>;
  headers: { authorization?: string; contentType?: string; contentLength?: string; contentRange?: string };
  /** Form fields of token requests. */
  form?: Record<string, string>;
  /** Parsed JSON body of the upload initiation. */
  json?: unknown;
  /** Response status, once sent; 0 for a connection the fake cut. */
  status: number;
  at: number;
}

export interface FakeYouTubeOptions {
  clientId?: string;
  clientSecret?: string;
  /** Registered redirect URIs; empty (default) accepts any absolute http(s) URI. */
  redirectUris?: string[];
  /** Also put YOUTUBE_REDIRECT_URI in `env`. */
  redirectUri?: string;
  /** Units a day (default 10,000). */
  dailyQuota?: number;
  /** Uploads a day (default 100). */
  dailyUploads?: number;
  now?: () => number;
}

export type ProcessingOutcome = 'succeeded' | { rejected: string } | { failed: string };

export interface FakeYouTube {
  /** Base of the server, e.g. http://127.0.0.1:43123 */
  url: string;
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** Environment variables pointing the app at this fake. */
  env: Record<string, string>;
  users: ReadonlyMap<string, FakeGoogleUser>;
  addUser(input: AddGoogleUserInput): FakeGoogleUser;
  /** Who "signs in" on the consent page (default: the last user added); grantScopes simulates unticked boxes. */
  setAuthorizingUser(sub: string, options?: { grantScopes?: string[] }): void;
  /** The consent page redirects with ?error=access_denied until called with false. */
  denyAuthorization(deny?: boolean): void;
  registerRedirectUri(uri: string): void;
  /** Tokens for a user without the OAuth dance (both YouTube scopes unless given). */
  issueTokens(sub: string, scopes?: string[]): { accessToken: string; refreshToken: string };
  /** The user removes the app from their Google account: every token dies (invalid_grant, 401). */
  revoke(sub: string): void;
  expireAccessTokens(sub?: string): void;
  /** Units left for the rest of today (Pacific); the daily quota returns at the next midnight there. */
  setQuota(units: number): void;
  quotaLeft(): number;
  /** Uploads (videos.insert) left for the rest of today (Pacific); their own bucket, apart from the units. */
  setUploadsLeft(uploads: number): void;
  uploadsLeft(): number;
  /**
   * As for a Google Cloud project that has not passed YouTube's API audit: every video uploaded from
   * now on is private, whatever privacy was asked (until called with false).
   */
  lockUploadsPrivate(lock?: boolean): void;
  failNext(endpoint: Exclude<FakeYouTubeEndpoint, 'unknown'>, failure: FakeYouTubeFailure, times?: number): void;
  /** Cuts the connection of the next data PUT after reading part of its body. */
  dropNextChunk(drop?: DropChunk): void;
  /** The session (one, or all) expires: its URL answers 404. */
  expireUploadSession(uploadId?: string): void;
  /** The session behind an upload URL. */
  sessionFor(uploadUrl: string): FakeUploadSession | undefined;
  sessions: ReadonlyMap<string, FakeUploadSession>;
  videos: ReadonlyMap<string, FakeVideo>;
  /** Ends processing: processed (succeeded), rejected or failed with the reason. */
  finishProcessing(videoId: string, outcome?: ProcessingOutcome): void;
  setStatistics(videoId: string, stats: { views?: number; likes?: number; comments?: number; favorites?: number }): void;
  /** Moves the fake's clock (token, code and session expiry, the quota day). */
  advanceTime(ms: number): void;
  now(): number;
  requests: RecordedYouTubeRequest[];
  requestsTo(endpoint: FakeYouTubeEndpoint): RecordedYouTubeRequest[];
  /**
   * Forgets what tests recorded and scripted (requests, failures, drops, denial, who authorizes, the
   * quota back to a full day of units and uploads, no private lock); users, tokens, sessions, videos,
   * registered URIs and the clock stay.
   */
  reset(): void;
  close(): Promise<void>;
}

interface Context {
  state: FakeYouTubeState;
  clientId: string;
  clientSecret: string;
  redirectUris: Set<string>;
  authorizing: { sub: string | null; grantScopes: string[] | null; deny: boolean };
  failures: Map<FakeYouTubeEndpoint, QueuedFailure<FakeYouTubeFailure>[]>;
  drops: DropChunk[];
  baseUrl: () => string;
  now: () => number;
}

const AUTHORIZE_PATH = '/o/oauth2/v2/auth';
const TOKEN_PATH = '/token';
const UPLOAD_PATH = '/upload/youtube/v3/videos';
const PRIVACY_STATUSES = ['private', 'unlisted', 'public'];
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};
const REASON_STATUS: Readonly<Record<string, number>> = {
  quotaExceeded: 403,
  rateLimitExceeded: 403,
  userRateLimitExceeded: 403,
  forbidden: 403,
  insufficientPermissions: 403,
  authError: 401,
  youtubeSignupRequired: 401,
  backendError: 500,
};
const QUOTA_MESSAGE = 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.';

export async function startFakeYouTube(options: FakeYouTubeOptions = {}): Promise<FakeYouTube> {
  let baseUrl = '';
  let offsetMs = 0;
  const clock = options.now ?? Date.now;
  const now = () => clock() + offsetMs;
  const state = new FakeYouTubeState(now);
  const dailyQuota = options.dailyQuota ?? state.dailyQuota;
  const dailyUploads = options.dailyUploads ?? state.dailyUploads;
  state.dailyQuota = dailyQuota;
  state.dailyUploads = dailyUploads;
  const context: Context = {
    state,
    clientId: options.clientId ?? '123456789012-fakeclientid0000000000000000.apps.googleusercontent.com',
    clientSecret: options.clientSecret ?? 'GOCSPX-fakeclientsecret0000001',
    redirectUris: new Set(options.redirectUris ?? []),
    authorizing: { sub: null, grantScopes: null, deny: false },
    failures: new Map(),
    drops: [],
    baseUrl: () => baseUrl,
    now,
  };
  const requests: RecordedYouTubeRequest[] = [];
  const server = createServer((req, res) => {
    handle(context, requests, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendGoogleError(res, 500, 'backendError', String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env: Record<string, string> = {
    YOUTUBE_CLIENT_ID: context.clientId,
    YOUTUBE_CLIENT_SECRET: context.clientSecret,
    YOUTUBE_AUTH_URL: `${baseUrl}${AUTHORIZE_PATH}`,
    YOUTUBE_TOKEN_URL: `${baseUrl}${TOKEN_PATH}`,
    YOUTUBE_API_URL: baseUrl,
  };
  if (options.redirectUri) env.YOUTUBE_REDIRECT_URI = options.redirectUri;
  const video = (videoId: string): FakeVideo => {
    const found = state.videos.get(videoId);
    if (!found) throw new Error(`fake YouTube: no video ${videoId}`);
    return found;
  };

  return {
    url: baseUrl,
    authUrl: `${baseUrl}${AUTHORIZE_PATH}`,
    tokenUrl: `${baseUrl}${TOKEN_PATH}`,
    apiUrl: baseUrl,
    clientId: context.clientId,
    clientSecret: context.clientSecret,
    env,
    users: state.users,
    addUser: (input) => state.addUser(input),
    setAuthorizingUser: (sub, authorizeOptions = {}) => {
      if (!state.users.has(sub)) throw new Error(`fake YouTube: no user ${sub}`);
      context.authorizing.sub = sub;
      context.authorizing.grantScopes = authorizeOptions.grantScopes ?? null;
    },
    denyAuthorization: (deny = true) => void (context.authorizing.deny = deny),
    registerRedirectUri: (uri) => void context.redirectUris.add(uri),
    issueTokens: (sub, scopes = [UPLOAD_SCOPE, READONLY_SCOPE]) => {
      const tokens = state.issueTokens(sub, [...scopes], true);
      return { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken ?? '' };
    },
    revoke: (sub) => state.revoke(sub),
    expireAccessTokens: (sub) => state.expireAccessTokens(sub),
    setQuota: (units) => state.setQuotaLeft(units),
    quotaLeft: () => state.quotaLeft(),
    setUploadsLeft: (uploads) => state.setUploadsLeft(uploads),
    uploadsLeft: () => state.uploadsLeft(),
    lockUploadsPrivate: (lock = true) => void (state.lockPrivate = lock),
    failNext: (endpoint, failure, times = 1) => {
      const queue = context.failures.get(endpoint) ?? [];
      queue.push({ failure, remaining: times });
      context.failures.set(endpoint, queue);
    },
    dropNextChunk: (drop = {}) => void context.drops.push(drop),
    expireUploadSession: (uploadId) => state.expireSession(uploadId),
    sessionFor: (uploadUrl) => state.sessions.get(new URL(uploadUrl).searchParams.get('upload_id') ?? ''),
    sessions: state.sessions,
    videos: state.videos,
    finishProcessing: (videoId, outcome = 'succeeded') => {
      const found = video(videoId);
      if (outcome === 'succeeded') {
        found.processingStatus = 'succeeded';
        found.uploadStatus = 'processed';
      } else if ('rejected' in outcome) {
        found.processingStatus = 'succeeded';
        found.uploadStatus = 'rejected';
        found.rejectionReason = outcome.rejected;
      } else {
        found.processingStatus = 'failed';
        found.uploadStatus = 'failed';
        found.failureReason = outcome.failed;
      }
    },
    setStatistics: (videoId, stats) => {
      const found = video(videoId);
      found.statistics = {
        viewCount: stats.views ?? found.statistics.viewCount,
        likeCount: stats.likes ?? found.statistics.likeCount,
        commentCount: stats.comments ?? found.statistics.commentCount,
        favoriteCount: stats.favorites ?? found.statistics.favoriteCount,
      };
    },
    advanceTime: (ms) => void (offsetMs += ms),
    now,
    requests,
    requestsTo: (endpoint) => requests.filter((request) => request.endpoint === endpoint),
    reset: () => {
      requests.length = 0;
      context.failures.clear();
      context.drops.length = 0;
      context.authorizing = { sub: null, grantScopes: null, deny: false };
      state.dailyQuota = dailyQuota;
      state.setQuotaLeft(dailyQuota);
      state.dailyUploads = dailyUploads;
      state.setUploadsLeft(dailyUploads);
      state.lockPrivate = false;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Routing

async function handle(context: Context, requests: RecordedYouTubeRequest[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const method = req.method ?? 'GET';
  const endpoint = endpointOf(method, url);
  const record: RecordedYouTubeRequest = {
    method,
    endpoint,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: {
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      contentLength: req.headers['content-length'],
      contentRange: req.headers['content-range'],
    },
    status: 0,
    at: context.now(),
  };
  requests.push(record);
  res.on('finish', () => {
    record.status = res.statusCode;
  });

  // An upload failure is for the next data PUT, taken once the request is known to be one.
  const failure = endpoint === 'upload' ? undefined : takeFailure(context.failures, endpoint);
  switch (endpoint) {
    case 'authorize':
      return handleAuthorize(context, res, url.searchParams, failure);
    case 'token':
      return handleToken(context, record, req, res, failure);
    case 'upload':
      return handleUpload(context, req, res, url.searchParams);
    case 'channels':
    case 'videos':
    case 'upload_init':
      return handleApi(context, endpoint, record, req, res, url.searchParams, failure);
    case 'unknown':
      await drain(req);
      return sendGoogleError(res, 404, 'notFound', `No route for ${method} ${url.pathname}`);
  }
}

function endpointOf(method: string, url: URL): FakeYouTubeEndpoint {
  const path = url.pathname;
  if (method === 'GET' && path === AUTHORIZE_PATH) return 'authorize';
  if (method === 'POST' && path === TOKEN_PATH) return 'token';
  if (method === 'GET' && path === '/youtube/v3/channels') return 'channels';
  if (method === 'GET' && path === '/youtube/v3/videos') return 'videos';
  if (method === 'POST' && path === UPLOAD_PATH) return 'upload_init';
  if (method === 'PUT' && path === UPLOAD_PATH && url.searchParams.has('upload_id')) return 'upload';
  return 'unknown';
}

// ---------------------------------------------------------------------------------------------
// Consent page

function handleAuthorize(context: Context, res: ServerResponse, params: URLSearchParams, failure: FakeYouTubeFailure | undefined): void {
  // Problems with the client or the redirect target cannot be redirected back: Google shows an error page.
  if (params.get('client_id') !== context.clientId) return sendPage(res, 401, 'Error 401: invalid_client. The OAuth client was not found.', 'Google');
  const redirectUri = params.get('redirect_uri') ?? '';
  const redirectProblem = redirectUriProblem(context, redirectUri);
  if (redirectProblem) return sendPage(res, 400, `Error 400: redirect_uri_mismatch. ${redirectProblem}`, 'Google');
  const state = params.get('state');
  const back = (query: Record<string, string>) => redirect(res, redirectUri, state === null ? query : { ...query, state });

  if (typeof failure === 'number') return sendPage(res, failure, `Fake failure ${failure}`, 'Google');
  if (typeof failure === 'string') return back({ error: failure });
  if (params.get('response_type') !== 'code') return back({ error: 'unsupported_response_type' });
  const requested = (params.get('scope') ?? '').split(' ').filter(Boolean);
  if (requested.length === 0 || requested.some((scope) => !KNOWN_SCOPES.includes(scope))) return back({ error: 'invalid_scope' });
  const accessType = params.get('access_type') ?? 'online';
  if (accessType !== 'online' && accessType !== 'offline') return back({ error: 'invalid_request' });
  if (context.authorizing.deny) return back({ error: 'access_denied' });
  const user = authorizingUser(context);
  if (!user) return sendPage(res, 400, 'fake YouTube: no user to authorise (addUser first)', 'Google');
  const pkce = codeChallengeOf(params);
  if (pkce === 'invalid') return back({ error: 'invalid_request' });
  const granted = context.authorizing.grantScopes === null ? requested : requested.filter((scope) => context.authorizing.grantScopes?.includes(scope));
  const code = context.state.issueCode(user.sub, granted, redirectUri, accessType === 'offline', pkce);
  back({ code, scope: granted.join(' ') });
}

/** The consent request's PKCE challenge (RFC 7636: method `plain` unless it says S256), none, or 'invalid'. */
function codeChallengeOf(params: URLSearchParams): CodeChallenge | null | 'invalid' {
  const challenge = params.get('code_challenge');
  if (challenge === null) return null;
  const method = params.get('code_challenge_method') ?? 'plain';
  if ((method !== 'S256' && method !== 'plain') || !/^[A-Za-z0-9._~-]{43,128}$/.test(challenge)) return 'invalid';
  return { challenge, method };
}

function authorizingUser(context: Context): FakeGoogleUser | null {
  const { sub } = context.authorizing;
  if (sub !== null) return context.state.users.get(sub) ?? null;
  return [...context.state.users.values()].at(-1) ?? null;
}

function redirectUriProblem(context: Context, uri: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return 'redirect_uri must be an absolute URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'redirect_uri must be http(s)';
  if (parsed.hash) return 'redirect_uri must not have a fragment';
  if (context.redirectUris.size > 0 && !context.redirectUris.has(uri)) return `redirect_uri ${uri} is not registered`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Token endpoint

async function handleToken(context: Context, record: RecordedYouTubeRequest, req: IncomingMessage, res: ServerResponse, failure: FakeYouTubeFailure | undefined): Promise<void> {
  const form = Object.fromEntries(new URLSearchParams(await readText(req)));
  record.form = form;
  if (typeof failure === 'number') return sendJson(res, failure, { error: 'internal_failure', error_description: `Fake failure ${failure}` });
  if (typeof failure === 'string') return sendJson(res, 400, { error: failure, error_description: `Fake failure: ${failure}` });
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return sendJson(res, 400, { error: 'invalid_request', error_description: 'Content-Type must be application/x-www-form-urlencoded' });
  }
  if (form.client_id !== context.clientId || form.client_secret !== context.clientSecret) {
    return sendJson(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
  }
  const { state } = context;
  if (form.grant_type === 'authorization_code') {
    if (!form.code || !form.redirect_uri) return sendJson(res, 400, { error: 'invalid_request', error_description: 'Missing required parameter: code or redirect_uri' });
    const grant = state.redeemCode(form.code, form.redirect_uri, form.code_verifier);
    if ('error' in grant) return sendJson(res, 400, { error: grant.error, error_description: grant.description });
    const tokens = state.issueTokens(grant.sub, grant.scopes, grant.offline);
    const body: Record<string, unknown> = {
      access_token: tokens.accessToken,
      expires_in: state.accessTokenLifetimeSeconds,
      scope: grant.scopes.join(' '),
      token_type: 'Bearer',
    };
    if (tokens.refreshToken) body.refresh_token = tokens.refreshToken;
    return sendJson(res, 200, body);
  }
  if (form.grant_type === 'refresh_token') {
    const stored = form.refresh_token ? state.liveRefreshToken(form.refresh_token) : null;
    if (!stored) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    // No refresh_token in the answer: Google keeps the old one valid.
    return sendJson(res, 200, {
      access_token: state.issueAccessToken(stored.sub, stored.scopes),
      expires_in: state.accessTokenLifetimeSeconds,
      scope: stored.scopes.join(' '),
      token_type: 'Bearer',
    });
  }
  return sendJson(res, 400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${form.grant_type ?? ''}` });
}

// ---------------------------------------------------------------------------------------------
// Data API

async function handleApi(
  context: Context,
  endpoint: 'channels' | 'videos' | 'upload_init',
  record: RecordedYouTubeRequest,
  req: IncomingMessage,
  res: ServerResponse,
  params: URLSearchParams,
  failure: FakeYouTubeFailure | undefined,
): Promise<void> {
  const text = endpoint === 'upload_init' ? await readText(req) : (await drain(req), '');
  if (failure !== undefined) return sendFailure(res, failure);
  const authorization = req.headers.authorization ?? '';
  const token = context.state.validAccessToken(/^Bearer (.+)$/.exec(authorization)?.[1]);
  if (!token) return sendGoogleError(res, 401, 'authError', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'global');
  const user = context.state.users.get(token.sub);
  if (!user) return sendGoogleError(res, 401, 'authError', 'Unknown user.', 'global');
  if (endpoint === 'upload_init') {
    const json = parseJson(text);
    record.json = json;
    return uploadInit(context, res, token, user, params, req, json);
  }
  if (!hasAnyScope(token, [READONLY_SCOPE, FULL_SCOPE, 'https://www.googleapis.com/auth/youtube.force-ssl'])) {
    return sendGoogleError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');
  }
  if (!context.state.spend(QUOTA_COST.list)) return sendGoogleError(res, 403, 'quotaExceeded', QUOTA_MESSAGE, 'youtube.quota');
  return endpoint === 'channels' ? channelsList(res, user, params) : videosList(context, res, user, params);
}

function hasAnyScope(token: FakeToken, scopes: string[]): boolean {
  return scopes.some((scope) => token.scopes.includes(scope));
}

function sendFailure(res: ServerResponse, failure: FakeYouTubeFailure): void {
  if (typeof failure === 'number') {
    const reason = failure === 401 ? 'authError' : failure >= 500 ? 'backendError' : failure === 403 ? 'forbidden' : 'badRequest';
    return sendGoogleError(res, failure, reason, `Fake failure: HTTP ${failure}`);
  }
  const domain = failure === 'quotaExceeded' ? 'youtube.quota' : 'youtube';
  return sendGoogleError(res, REASON_STATUS[failure] ?? 400, failure, failure === 'quotaExceeded' ? QUOTA_MESSAGE : `Fake failure: ${failure}`, domain);
}

function parts(params: URLSearchParams): string[] {
  return (params.get('part') ?? '').split(',').map((part) => part.trim()).filter(Boolean);
}

function channelsList(res: ServerResponse, user: FakeGoogleUser, params: URLSearchParams): void {
  const wanted = parts(params);
  if (wanted.length === 0) return sendGoogleError(res, 400, 'required', 'No filter selected. Expected one of: mine, id, forHandle, forUsername, categoryId, managedByMe', 'global');
  if (params.get('mine') !== 'true') return sendGoogleError(res, 400, 'missingRequiredParameter', 'The fake supports only mine=true.');
  const items = user.channel ? [channelResource(user.channel, wanted)] : [];
  sendJson(res, 200, { kind: 'youtube#channelListResponse', etag: etag(), pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items });
}

function channelResource(channel: FakeChannel, wanted: string[]): Record<string, unknown> {
  const resource: Record<string, unknown> = { kind: 'youtube#channel', etag: etag(), id: channel.id };
  if (wanted.includes('snippet')) {
    const thumbnail = (size: number) => ({ url: channel.avatarUrl.replace('s88', `s${size}`), width: size, height: size });
    resource.snippet = {
      title: channel.title,
      description: '',
      customUrl: channel.handle,
      publishedAt: '2021-03-04T05:06:07Z',
      thumbnails: { default: thumbnail(88), medium: thumbnail(240), high: thumbnail(800) },
      localized: { title: channel.title, description: '' },
    };
  }
  return resource;
}

function videosList(context: Context, res: ServerResponse, user: FakeGoogleUser, params: URLSearchParams): void {
  const wanted = parts(params);
  const ids = (params.get('id') ?? '').split(',').map((id) => id.trim()).filter(Boolean);
  if (wanted.length === 0 || ids.length === 0) return sendGoogleError(res, 400, 'missingRequiredParameter', 'part and id are required.');
  if (ids.length > 50) return sendGoogleError(res, 400, 'invalidValue', 'At most 50 ids may be given.');
  const items: Record<string, unknown>[] = [];
  for (const id of ids) {
    const video = context.state.videos.get(id);
    // A private video exists only for its owner; anyone else gets nothing, as for an unknown id.
    if (!video || (video.privacyStatus === 'private' && video.sub !== user.sub)) continue;
    items.push(videoResource(video, wanted));
  }
  sendJson(res, 200, { kind: 'youtube#videoListResponse', etag: etag(), pageInfo: { totalResults: items.length, resultsPerPage: items.length }, items });
}

function videoResource(video: FakeVideo, wanted: string[]): Record<string, unknown> {
  const resource: Record<string, unknown> = { kind: 'youtube#video', etag: etag(), id: video.id };
  if (wanted.includes('snippet')) resource.snippet = video.snippet;
  if (wanted.includes('status')) {
    const status: Record<string, unknown> = {
      uploadStatus: video.uploadStatus,
      privacyStatus: video.privacyStatus,
      license: 'youtube',
      embeddable: true,
      publicStatsViewable: true,
      madeForKids: video.selfDeclaredMadeForKids,
      selfDeclaredMadeForKids: video.selfDeclaredMadeForKids,
    };
    if (video.rejectionReason) status.rejectionReason = video.rejectionReason;
    if (video.failureReason) status.failureReason = video.failureReason;
    resource.status = status;
  }
  if (wanted.includes('processingDetails')) resource.processingDetails = { processingStatus: video.processingStatus };
  if (wanted.includes('statistics')) {
    // Counts are strings in the Data API, as they may exceed 32 bits.
    const { viewCount, likeCount, commentCount, favoriteCount } = video.statistics;
    resource.statistics = { viewCount: String(viewCount), likeCount: String(likeCount), favoriteCount: String(favoriteCount), commentCount: String(commentCount) };
  }
  return resource;
}

// ---------------------------------------------------------------------------------------------
// Resumable upload: initiation

function uploadInit(context: Context, res: ServerResponse, token: FakeToken, user: FakeGoogleUser, params: URLSearchParams, req: IncomingMessage, json: unknown): void {
  if (!hasAnyScope(token, [UPLOAD_SCOPE, FULL_SCOPE, 'https://www.googleapis.com/auth/youtube.force-ssl'])) {
    return sendGoogleError(res, 403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', 'global');
  }
  if (!user.channel) return sendGoogleError(res, 401, 'youtubeSignupRequired', 'Unauthorized', 'youtube.header');
  if (params.get('uploadType') !== 'resumable') return sendGoogleError(res, 400, 'badRequest', 'The fake supports only uploadType=resumable.');
  const wanted = parts(params);
  if (!wanted.includes('snippet') || !wanted.includes('status')) return sendGoogleError(res, 400, 'unexpectedPart', 'part must include snippet and status.');
  const notify = params.get('notifySubscribers');
  if (notify !== null && notify !== 'true' && notify !== 'false') return sendGoogleError(res, 400, 'invalidValue', 'notifySubscribers must be true or false.');
  // videos.insert has a daily bucket of its own: it spends no units.
  if (!context.state.spendUpload()) return sendGoogleError(res, 403, 'quotaExceeded', QUOTA_MESSAGE, 'youtube.quota');
  const size = Number(req.headers['x-upload-content-length']);
  if (!Number.isSafeInteger(size) || size <= 0) return sendGoogleError(res, 400, 'badRequest', 'X-Upload-Content-Length must be the size of the video in bytes.', 'global');
  if (!/^video\//.test(String(req.headers['x-upload-content-type'] ?? ''))) {
    return sendGoogleError(res, 400, 'badContent', 'X-Upload-Content-Type must be a video type.', 'global');
  }
  const resource = readVideoResource(json);
  if (typeof resource === 'string') return sendGoogleError(res, 400, resource.split(':')[0] ?? 'invalidVideoMetadata', resource);
  const session = context.state.createSession({ ...user, channel: user.channel }, size, resource, notify !== 'false');
  const location = `${context.baseUrl()}${UPLOAD_PATH}?uploadType=resumable&upload_id=${session.uploadId}`;
  res.writeHead(200, { Location: location, 'X-GUploader-UploadID': session.uploadId, 'Content-Length': '0' });
  res.end();
}

/** The snippet and status of a video insert, or "reason: message" for what YouTube would refuse. */
function readVideoResource(json: unknown): FakeUploadSession['resource'] | string {
  if (!isObject(json) || !isObject(json.snippet) || !isObject(json.status)) return 'invalidVideoMetadata: snippet and status are required.';
  const { snippet, status } = json;
  const title = snippet.title;
  if (typeof title !== 'string' || !title.trim()) return 'invalidTitle: The request metadata does not specify a video title.';
  // Characters as YouTube counts them (code points); the client is stricter.
  if ([...title].length > 100 || /[<>]/.test(title)) return 'invalidTitle: The video title is too long or contains < or >.';
  const description = snippet.description ?? '';
  if (typeof description !== 'string' || Buffer.byteLength(description, 'utf8') > 5000 || /[<>]/.test(description)) {
    return 'invalidDescription: The video description is longer than 5000 bytes or contains < or >.';
  }
  const tags = snippet.tags ?? [];
  if (!Array.isArray(tags) || !tags.every((tag): tag is string => typeof tag === 'string') || tagsLength(tags) > 500) {
    return 'invalidTags: The tags must be strings totalling at most 500 characters.';
  }
  if (snippet.categoryId !== undefined && (typeof snippet.categoryId !== 'string' || !/^\d+$/.test(snippet.categoryId))) return 'invalidCategoryId: The category id is invalid.';
  if (typeof status.privacyStatus !== 'string' || !PRIVACY_STATUSES.includes(status.privacyStatus)) return 'invalidVideoMetadata: status.privacyStatus is invalid.';
  if (typeof status.selfDeclaredMadeForKids !== 'boolean') return 'invalidVideoMetadata: status.selfDeclaredMadeForKids is required (the audience declaration).';
  return { snippet, status };
}

// ---------------------------------------------------------------------------------------------
// Resumable upload: bytes

async function handleUpload(context: Context, req: IncomingMessage, res: ServerResponse, params: URLSearchParams): Promise<void> {
  const session = context.state.liveSession(params.get('upload_id'));
  if (!session) return finish(req, res, 404, 'Not Found');
  const contentRange = req.headers['content-range'] ?? '';
  const declared = Number(req.headers['content-length'] ?? '0');
  const query = /^bytes \*\/(\d+)$/.exec(contentRange);
  if (query) {
    await drain(req);
    if (Number(query[1]) !== session.size || declared !== 0) return sendGoogleError(res, 400, 'badRequest', 'A status query is an empty PUT with Content-Range: bytes */TOTAL.');
    return answerProgress(context, res, session);
  }
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange);
  if (!range) return finish(req, res, 400, 'Content-Range must be bytes FIRST-LAST/TOTAL or bytes */TOTAL');
  const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
  if (total !== session.size || last < first || last >= total) return finish(req, res, 400, 'Content-Range does not fit the size announced at initiation');
  if (!Number.isSafeInteger(declared) || declared !== last - first + 1) return finish(req, res, 400, 'Content-Length must match Content-Range');
  if (session.videoId) return finish(req, res, 400, 'The upload is already complete');
  // Strict on purpose: a client that re-sends bytes the session holds, or skips some, is caught here.
  if (first !== session.received) return finish(req, res, 400, `Content-Range starts at ${first} but the session holds ${session.received} bytes`);
  const isFinal = last + 1 === total;
  if (!isFinal && declared % UPLOAD_BLOCK !== 0) return finish(req, res, 400, `Every chunk but the last must be a multiple of ${UPLOAD_BLOCK} bytes`);
  session.chunkRequests++;

  const drop = context.drops.shift();
  if (drop) return dropMidChunk(context, req, res, session, declared, drop);
  const failure = takeFailure(context.failures, 'upload');
  if (typeof failure === 'number') {
    session.bytesReceived += await drain(req);
    return sendGoogleError(res, failure, failure >= 500 ? 'backendError' : 'badRequest', `Fake failure: HTTP ${failure}`);
  }
  if (failure === 'forget') {
    session.bytesReceived += await drain(req);
    context.state.forget(session);
    return answerProgress(context, res, session);
  }
  const body = await readBytes(req, declared + 1);
  session.bytesReceived += body.length;
  if (body.length !== declared) return sendGoogleError(res, 400, 'badRequest', 'The body does not match Content-Length.');
  context.state.keep(session, body);
  if (session.received === session.size) context.state.finish(session);
  return answerProgress(context, res, session);
}

/** 308 with Range for what the session holds (none before the first byte), or the video once complete. */
function answerProgress(context: Context, res: ServerResponse, session: FakeUploadSession): void {
  if (session.videoId) {
    const video = context.state.videos.get(session.videoId);
    if (video) return sendJson(res, 200, videoResource(video, ['snippet', 'status']));
  }
  const headers: Record<string, string> = { 'Content-Length': '0', 'X-GUploader-UploadID': session.uploadId };
  if (session.received > 0) headers.Range = `bytes=0-${session.received - 1}`;
  res.writeHead(308, headers);
  res.end();
}

/** Reads part of the chunk, keeps whole 256 KiB blocks of it (or nothing), and cuts the connection. */
async function dropMidChunk(context: Context, req: IncomingMessage, res: ServerResponse, session: FakeUploadSession, declared: number, drop: DropChunk): Promise<void> {
  const afterBytes = Math.min(drop.afterBytes ?? Math.floor(declared / 2), declared - 1);
  const read: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    read.push(buffer);
    size += buffer.length;
    if (size >= afterBytes) break;
  }
  session.bytesReceived += size;
  const kept = drop.keep === 'none' ? 0 : Math.floor(Math.min(size, afterBytes) / UPLOAD_BLOCK) * UPLOAD_BLOCK;
  session.drops.push({ read: size, kept });
  const stored = context.state.liveSession(session.uploadId);
  if (stored && kept > 0) context.state.keep(stored, Buffer.concat(read).subarray(0, kept));
  res.socket?.destroy();
  req.socket.destroy();
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

function etag(): string {
  return `"${Math.random().toString(36).slice(2)}"`;
}

function sendGoogleError(res: ServerResponse, status: number, reason: string, message: string, domain = 'youtube'): void {
  sendJson(res, status, {
    error: { code: status, message, errors: [{ message, domain, reason }], status: STATUS_NAMES[status] ?? 'UNKNOWN' },
  });
}

async function finish(req: IncomingMessage, res: ServerResponse, status: number, message: string): Promise<void> {
  await drain(req);
  if (status === 404) return sendText(res, 404, 'Not Found', { 'Content-Type': 'text/plain; charset=utf-8' });
  sendGoogleError(res, status, 'badRequest', message);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body), { 'Content-Type': 'application/json; charset=UTF-8' });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads and discards the body; returns how many bytes it had. */
async function drain(req: IncomingMessage): Promise<number> {
  let size = 0;
  for await (const chunk of req) size += (chunk as Buffer).length;
  return size;
}
