import { isObject, readBytes, readText, redirect, sendPage, sendText, takeFailure, type QueuedFailure } from '../http.ts';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chunkRuleViolation,
  expectedChunkSize,
  FakeTikTokState,
  KNOWN_SCOPES,
  PRIVACY_LEVELS,
  SCOPES_BY_FIELD,
  type AddTikTokUserInput,
  type FakeAccessToken,
  type FakePost,
  type FakeTikTokUser,
  type FakeUpload,
  type FakeVideoStats,
  type SourceInfo,
} from './state.ts';

/*
 * A local TikTok that behaves like external-apis.md part B: the Login Kit authorize page (which
 * redirects at once instead of showing a login form), the OAuth token/revoke endpoints with flat
 * JSON and rotation, user info and the Content Posting API with the v2 envelope, an upload_url
 * enforcing the Media Transfer Guide, status fetch moving through processing, and every
 * documented error on demand. One HTTP server on 127.0.0.1; TIKTOK_API_URL is its root.
 */

export type FakeTikTokEndpoint =
  | 'authorize'
  | 'token'
  | 'revoke'
  | 'user_info'
  | 'creator_info'
  | 'video_init'
  | 'inbox_init'
  | 'upload'
  | 'status'
  | 'video_query'
  | 'unknown';

/**
 * A TikTok error code (answered with its documented status and the endpoint's body shape:
 * flat OAuth JSON for token/revoke, the v2 envelope elsewhere, a redirect with ?error= for authorize;
 * creator_info's spam_risk_* and reached_active_user_cap come with HTTP 200 as in production),
 * or an HTTP status (a generic body). For upload, 'lost_response' accepts the chunk and then
 * answers 500, as when TikTok got the bytes but its answer was lost; 'stall' reads the chunk and
 * never answers (a transfer that hangs until the client gives up).
 */
export type FakeFailure = string | number;

export interface RecordedTikTokRequest {
  method: string;
  endpoint: FakeTikTokEndpoint;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: { authorization?: string; contentType?: string; contentLength?: string; contentRange?: string };
  /** Form fields of token/revoke requests. */
  form?: Record<string, string>;
  /** Parsed JSON body of API requests (undefined when none). */
  json?: unknown;
  /** Response status, filled in when the response is sent. */
  status: number;
  at: number;
}

export interface FakeTikTokOptions {
  clientKey?: string;
  clientSecret?: string;
  /** Registered redirect URIs; empty (default) accepts any absolute http(s) URI without query or fragment. */
  redirectUris?: string[];
  /** Also put TIKTOK_REDIRECT_URI in `env`. */
  redirectUri?: string;
  accessTokenLifetimeSeconds?: number;
  refreshTokenLifetimeSeconds?: number;
  /** Unaudited client: direct posts only SELF_ONLY to private accounts, 5 posting users per 24 h. */
  unaudited?: boolean;
  /** Status fetches after the upload completes before processing ends (default 2: one PROCESSING_UPLOAD, then done). */
  pollsUntilDone?: number;
  /** Enforce the per-token per-minute limits (user info 600, creator_info 20, inits 6, status 30) by the fake's clock. */
  enforceRateLimits?: boolean;
  /** Keep every uploaded byte for `uploads.get(id).bytes()` (default true). */
  keepUploadBytes?: boolean;
  now?: () => number;
}

export interface FakeTikTok {
  /** Base of the server, e.g. http://127.0.0.1:43123 */
  url: string;
  /** TIKTOK_AUTH_URL: the authorize page. */
  authUrl: string;
  /** TIKTOK_API_URL */
  apiUrl: string;
  clientKey: string;
  clientSecret: string;
  /** Environment variables pointing the app at this fake. */
  env: Record<string, string>;
  users: ReadonlyMap<string, FakeTikTokUser>;
  addUser(input: AddTikTokUserInput): FakeTikTokUser;
  /** Who "logs in" on the authorize page (default: the last user added); grantScopes simulates unticked boxes. */
  setAuthorizingUser(openId: string, options?: { grantScopes?: string[] }): void;
  /** Makes the authorize page redirect with ?error= (default access_denied) until called with false. */
  refuseAuthorization(refusal?: { error?: string; description?: string } | false): void;
  registerRedirectUri(uri: string): void;
  /** Tokens for a user without the OAuth dance (all scopes unless given). */
  issueTokens(openId: string, scopes?: string[]): { accessToken: string; refreshToken: string };
  setAccessTokenLifetime(seconds: number): void;
  setRefreshTokenLifetime(seconds: number): void;
  /** Every access token (of one user, or all) expires now: the next call gets 401 access_token_invalid. */
  expireAccessTokens(openId?: string): void;
  setUnaudited(unaudited: boolean): void;
  setDailyPostCap(posts: number): void;
  setPendingShareCap(shares: number): void;
  setActiveUserCap(users: number): void;
  setPollsUntilDone(polls: number): void;
  /** The next `times` publishes (counted at init) end FAILED with this fail_reason. */
  failNextPublish(failReason: string, times?: number): void;
  /** The user posts an inbox draft from the app: its status becomes PUBLISH_COMPLETE. */
  publishFromInbox(publishId: string): void;
  failNext(endpoint: Exclude<FakeTikTokEndpoint, 'unknown'>, failure: FakeFailure, times?: number): void;
  clearFailures(): void;
  /** Holds the answer to every chunk TikTok accepts (a slow transfer), until releaseChunk(). */
  holdChunks(): void;
  /** Answers the oldest held chunk. */
  releaseChunk(): void;
  /** Chunks received and accepted, not answered yet. */
  heldChunks(): number;
  /** Moves the fake's clock (token, code and upload_url expiry, caps, rate limits). */
  advanceTime(ms: number): void;
  now(): number;
  requests: RecordedTikTokRequest[];
  requestsTo(endpoint: FakeTikTokEndpoint): RecordedTikTokRequest[];
  /** publish_id → what arrived at its upload_url. */
  uploads: ReadonlyMap<string, FakeUpload>;
  /** publish_id → the post and its status. */
  posts: ReadonlyMap<string, FakePost>;
  /** Public post id → the counts the video query answers (every public direct post gets one, at 0). */
  videos: ReadonlyMap<string, FakeVideoStats & { openId: string }>;
  /** Sets a published post's counts (by its public post id); unset counts keep their value. */
  setVideoStats(postId: string, stats: Partial<Omit<FakeVideoStats, 'deleted' | 'createTime'>>): void;
  /** The creator deletes the post: the video query stops returning it. */
  deleteVideo(postId: string): void;
  /**
   * Forgets what tests recorded and scripted (requests, failures, refusals, who authorizes, caps,
   * lifetimes, audit status, polls, rate windows, held chunks — answered) back to the options it started with; the users,
   * their tokens, uploads and posts, the registered redirect URIs and the clock stay, as suites set
   * them up once. Tests call it in beforeEach so none depends on what an earlier one scripted.
   */
  reset(): void;
  close(): Promise<void>;
}

interface Authorizing {
  openId: string | null;
  grantScopes: string[] | null;
  refusal: { error: string; description: string } | null;
}

interface Context {
  state: FakeTikTokState;
  clientKey: string;
  clientSecret: string;
  redirectUris: Set<string>;
  authorizing: Authorizing;
  failures: Map<FakeTikTokEndpoint, QueuedFailure<FakeFailure>[]>;
  enforceRateLimits: boolean;
  keepUploadBytes: boolean;
  rateWindows: Map<string, number[]>;
  chunkGate: ChunkGate;
  now: () => number;
}

/** Accepted chunks waiting for their answer while the test holds them. */
interface ChunkGate {
  holding: boolean;
  held: (() => void)[];
}

function openChunkGate(gate: ChunkGate): void {
  gate.holding = false;
  for (const answer of gate.held.splice(0)) answer();
}

const AUTHORIZE_PATH = '/v2/auth/authorize/';
/** Documented HTTP status of each v2 error code (B4, B5). */
const V2_STATUS: Readonly<Record<string, number>> = {
  access_token_invalid: 401,
  scope_not_authorized: 401,
  scope_permission_missed: 400,
  invalid_params: 400,
  invalid_param: 400,
  invalid_file_upload: 400,
  rate_limit_exceeded: 429,
  internal_error: 500,
  spam_risk_too_many_posts: 403,
  spam_risk_user_banned_from_posting: 403,
  reached_active_user_cap: 403,
  unaudited_client_can_only_post_to_private_accounts: 403,
  url_ownership_unverified: 403,
  privacy_level_option_mismatch: 403,
  spam_risk_too_many_pending_share: 403,
  invalid_publish_id: 400,
  token_not_authorized_for_specified_publish_id: 400,
};
/** creator_info answers these with HTTP 200, on purpose (B5). */
const CREATOR_INFO_200 = new Set(['spam_risk_too_many_posts', 'spam_risk_user_banned_from_posting', 'reached_active_user_cap']);
const RATE_LIMITS: Partial<Record<FakeTikTokEndpoint, number>> = { user_info: 600, creator_info: 20, video_init: 6, inbox_init: 6, status: 30 };
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm']);

/** The settings tests may change on the fake, as the options (or TikTok's defaults) have them. */
function scriptedDefaults(options: FakeTikTokOptions): Pick<
  FakeTikTokState,
  'accessTokenLifetimeSeconds' | 'refreshTokenLifetimeSeconds' | 'unaudited' | 'pollsUntilDone' | 'dailyPostCap' | 'pendingShareCap' | 'activeUserCap'
> {
  return {
    accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds ?? 86_400,
    refreshTokenLifetimeSeconds: options.refreshTokenLifetimeSeconds ?? 31_536_000,
    unaudited: options.unaudited ?? false,
    pollsUntilDone: options.pollsUntilDone ?? 2,
    dailyPostCap: 15,
    pendingShareCap: 5,
    activeUserCap: 5,
  };
}

/** The last user added logs in, and accepts. */
function nobodyAuthorizing(): Authorizing {
  return { openId: null, grantScopes: null, refusal: null };
}

export async function startFakeTikTok(options: FakeTikTokOptions = {}): Promise<FakeTikTok> {
  let baseUrl = '';
  let offsetMs = 0;
  const clock = options.now ?? Date.now;
  const now = () => clock() + offsetMs;
  const state = new FakeTikTokState(now, () => baseUrl);
  Object.assign(state, scriptedDefaults(options));
  const context: Context = {
    state,
    clientKey: options.clientKey ?? 'awfakeclientkey0001',
    clientSecret: options.clientSecret ?? 'fakeclientsecret0000000000000001',
    redirectUris: new Set(options.redirectUris ?? []),
    authorizing: nobodyAuthorizing(),
    failures: new Map(),
    enforceRateLimits: options.enforceRateLimits ?? false,
    keepUploadBytes: options.keepUploadBytes ?? true,
    rateWindows: new Map(),
    chunkGate: { holding: false, held: [] },
    now,
  };
  const requests: RecordedTikTokRequest[] = [];

  const server = createServer((req, res) => {
    handle(context, requests, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendEnvelopeError(res, 500, 'internal_error', String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env: Record<string, string> = {
    TIKTOK_CLIENT_KEY: context.clientKey,
    TIKTOK_CLIENT_SECRET: context.clientSecret,
    TIKTOK_AUTH_URL: `${baseUrl}${AUTHORIZE_PATH}`,
    TIKTOK_API_URL: baseUrl,
  };
  if (options.redirectUri) env.TIKTOK_REDIRECT_URI = options.redirectUri;

  return {
    url: baseUrl,
    authUrl: `${baseUrl}${AUTHORIZE_PATH}`,
    apiUrl: baseUrl,
    clientKey: context.clientKey,
    clientSecret: context.clientSecret,
    env,
    users: state.users,
    addUser: (input) => state.addUser(input),
    setAuthorizingUser: (openId, authorizeOptions = {}) => {
      if (!state.users.has(openId)) throw new Error(`fake TikTok: no user ${openId}`);
      context.authorizing.openId = openId;
      context.authorizing.grantScopes = authorizeOptions.grantScopes ?? null;
    },
    refuseAuthorization: (refusal = {}) => {
      context.authorizing.refusal =
        refusal === false ? null : { error: refusal.error ?? 'access_denied', description: refusal.description ?? 'The user denied the authorization request.' };
    },
    registerRedirectUri: (uri) => void context.redirectUris.add(uri),
    issueTokens: (openId, scopes = KNOWN_SCOPES) => state.issueTokens(openId, [...scopes]),
    setAccessTokenLifetime: (seconds) => void (state.accessTokenLifetimeSeconds = seconds),
    setRefreshTokenLifetime: (seconds) => void (state.refreshTokenLifetimeSeconds = seconds),
    expireAccessTokens: (openId) => state.expireAccessTokens(openId),
    setUnaudited: (unaudited) => void (state.unaudited = unaudited),
    setDailyPostCap: (posts) => void (state.dailyPostCap = posts),
    setPendingShareCap: (shares) => void (state.pendingShareCap = shares),
    setActiveUserCap: (users) => void (state.activeUserCap = users),
    setPollsUntilDone: (polls) => void (state.pollsUntilDone = polls),
    failNextPublish: (failReason, times = 1) => {
      for (let i = 0; i < times; i++) state.publishFailures.push(failReason);
    },
    publishFromInbox: (publishId) => state.publishFromInbox(publishId),
    failNext: (endpoint, failure, times = 1) => {
      const queue = context.failures.get(endpoint) ?? [];
      queue.push({ failure, remaining: times });
      context.failures.set(endpoint, queue);
    },
    clearFailures: () => {
      context.failures.clear();
      state.publishFailures.length = 0;
    },
    holdChunks: () => void (context.chunkGate.holding = true),
    releaseChunk: () => context.chunkGate.held.shift()?.(),
    heldChunks: () => context.chunkGate.held.length,
    advanceTime: (ms) => void (offsetMs += ms),
    now,
    requests,
    requestsTo: (endpoint) => requests.filter((request) => request.endpoint === endpoint),
    uploads: state.uploads,
    posts: state.posts,
    videos: state.videos,
    setVideoStats: (postId, stats) => {
      const video = state.videos.get(postId);
      if (!video) throw new Error(`fake TikTok: no public post ${postId}`);
      Object.assign(video, Object.fromEntries(Object.entries(stats).filter(([, value]) => value !== undefined)));
    },
    deleteVideo: (postId) => {
      const video = state.videos.get(postId);
      if (!video) throw new Error(`fake TikTok: no public post ${postId}`);
      video.deleted = true;
    },
    reset: () => {
      requests.length = 0;
      context.failures.clear();
      state.publishFailures.length = 0;
      context.authorizing = nobodyAuthorizing();
      context.rateWindows.clear();
      openChunkGate(context.chunkGate);
      Object.assign(state, scriptedDefaults(options));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        openChunkGate(context.chunkGate);
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Routing

async function handle(context: Context, requests: RecordedTikTokRequest[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const method = req.method ?? 'GET';
  const endpoint = endpointOf(method, url.pathname);
  const record: RecordedTikTokRequest = {
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
  res.on('close', () => {
    record.status ||= res.statusCode;
  });

  const failure = takeFailure(context.failures, endpoint);
  switch (endpoint) {
    case 'authorize':
      return handleAuthorize(context, res, url.searchParams, failure);
    case 'token':
    case 'revoke':
      return handleOAuth(context, endpoint, record, req, res, failure);
    case 'upload':
      return handleUpload(context, req, res, url.searchParams, failure);
    case 'user_info':
    case 'creator_info':
    case 'video_init':
    case 'inbox_init':
    case 'status':
    case 'video_query':
      return handleV2(context, endpoint, record, req, res, url.searchParams, failure);
    case 'unknown':
      await drain(req);
      return sendEnvelopeError(res, 404, 'invalid_params', `No route for ${method} ${url.pathname}`);
  }
}

function endpointOf(method: string, path: string): FakeTikTokEndpoint {
  if (method === 'GET' && path === AUTHORIZE_PATH) return 'authorize';
  if (method === 'POST' && path === '/v2/oauth/token/') return 'token';
  if (method === 'POST' && path === '/v2/oauth/revoke/') return 'revoke';
  if (method === 'GET' && path === '/v2/user/info/') return 'user_info';
  if (method === 'POST' && path === '/v2/post/publish/creator_info/query/') return 'creator_info';
  if (method === 'POST' && path === '/v2/post/publish/video/init/') return 'video_init';
  if (method === 'POST' && path === '/v2/post/publish/inbox/video/init/') return 'inbox_init';
  if (method === 'POST' && path === '/v2/post/publish/status/fetch/') return 'status';
  if (method === 'POST' && path === '/v2/video/query/') return 'video_query';
  if (method === 'PUT' && path === '/upload/') return 'upload';
  return 'unknown';
}

// ---------------------------------------------------------------------------------------------
// Authorize page (B1)

function handleAuthorize(context: Context, res: ServerResponse, params: URLSearchParams, failure: FakeFailure | undefined): void {
  // Problems with the client or the redirect target cannot be redirected back: TikTok shows an error page.
  if (params.get('client_key') !== context.clientKey) return sendPage(res, 400, 'client_key is invalid or missing', 'TikTok');
  const redirectUri = params.get('redirect_uri') ?? '';
  const redirectProblem = redirectUriProblem(context, redirectUri);
  if (redirectProblem) return sendPage(res, 400, redirectProblem, 'TikTok');
  const state = params.get('state');
  if (!state) return sendPage(res, 400, 'state is required', 'TikTok');
  const back = (query: Record<string, string>) => redirect(res, redirectUri, { ...query, state });

  if (typeof failure === 'number') return sendPage(res, failure, `Fake failure ${failure}`, 'TikTok');
  if (typeof failure === 'string') return back({ error: failure, error_description: `Fake failure: ${failure}` });
  if (params.get('response_type') !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response_type must be code' });
  const requested = (params.get('scope') ?? '').split(',').map((scope) => scope.trim()).filter(Boolean);
  if (requested.length === 0 || requested.some((scope) => !KNOWN_SCOPES.includes(scope))) {
    return back({ error: 'invalid_scope', error_description: `Scope list is invalid: ${params.get('scope') ?? ''}` });
  }
  const refusal = context.authorizing.refusal;
  if (refusal) return back({ error: refusal.error, error_description: refusal.description });
  const user = authorizingUser(context);
  if (!user) return sendPage(res, 400, 'fake TikTok: no user to authorise (addUser first)', 'TikTok');
  const codeChallenge = params.get('code_challenge');
  if (codeChallenge !== null && params.get('code_challenge_method') !== 'S256') {
    return back({ error: 'invalid_request', error_description: 'code_challenge_method must be S256.' });
  }
  const grantable = context.authorizing.grantScopes ?? user.grantScopes ?? requested;
  const granted = requested.filter((scope) => grantable.includes(scope));
  // disable_auto_auth is accepted and ignored (B1); a PKCE challenge is kept for the code exchange.
  const code = context.state.issueCode(user.openId, granted, redirectUri, codeChallenge);
  return back({ code, scopes: granted.join(',') });
}

function redirectUriProblem(context: Context, redirectUri: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(redirectUri);
  } catch {
    return 'redirect_uri must be an absolute URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'redirect_uri must be http(s)';
  if (parsed.search || parsed.hash || redirectUri.includes('#')) return 'redirect_uri must be static (no query, no fragment)';
  if (redirectUri.length >= 512) return 'redirect_uri must be shorter than 512 characters';
  if (context.redirectUris.size > 0 && !context.redirectUris.has(redirectUri)) return 'redirect_uri is not registered for this app';
  return null;
}

function authorizingUser(context: Context): FakeTikTokUser | undefined {
  const { users } = context.state;
  if (context.authorizing.openId) return users.get(context.authorizing.openId);
  return [...users.values()].at(-1);
}

// ---------------------------------------------------------------------------------------------
// OAuth token and revoke (B2): flat JSON, errors with HTTP 400

async function handleOAuth(context: Context, endpoint: 'token' | 'revoke', record: RecordedTikTokRequest, req: IncomingMessage, res: ServerResponse, failure: FakeFailure | undefined): Promise<void> {
  const form = Object.fromEntries(new URLSearchParams(await readText(req)));
  record.form = form;
  if (failure !== undefined) return sendOAuthFailure(res, failure);
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return sendOAuthError(res, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
  }
  if (form.client_key !== context.clientKey || form.client_secret !== context.clientSecret) {
    return sendOAuthError(res, 'invalid_client', 'Client key or secret is invalid.');
  }
  if (endpoint === 'revoke') return revoke(context, res, form);
  switch (form.grant_type) {
    case 'authorization_code':
      return exchangeCode(context, res, form);
    case 'refresh_token':
      return refresh(context, res, form);
    case 'client_credentials':
      return sendJson(res, 200, { access_token: `clt.${randomBytes(24).toString('base64url')}`, expires_in: 7200, token_type: 'Bearer' });
    case undefined:
    default:
      return sendOAuthError(res, 'unsupported_grant_type', 'The grant type is not supported.');
  }
}

function exchangeCode(context: Context, res: ServerResponse, form: Record<string, string>): void {
  if (!form.code || !form.redirect_uri) return sendOAuthError(res, 'invalid_request', 'code and redirect_uri are required.');
  const grant = context.state.redeemCode(form.code, form.redirect_uri, form.code_verifier);
  if ('error' in grant) return sendOAuthError(res, grant.error, grant.description);
  return sendTokens(context, res, grant.openId, grant.scopes, context.state.issueTokens(grant.openId, grant.scopes));
}

function refresh(context: Context, res: ServerResponse, form: Record<string, string>): void {
  if (!form.refresh_token) return sendOAuthError(res, 'invalid_request', 'refresh_token is required.');
  const rotated = context.state.rotate(form.refresh_token);
  if (!rotated) return sendOAuthError(res, 'invalid_grant', 'Refresh token is invalid or expired.');
  return sendTokens(context, res, rotated.openId, rotated.scopes, rotated);
}

function sendTokens(context: Context, res: ServerResponse, openId: string, scopes: string[], tokens: { accessToken: string; refreshToken: string }): void {
  sendJson(res, 200, {
    access_token: tokens.accessToken,
    expires_in: context.state.accessTokenLifetimeSeconds,
    open_id: openId,
    refresh_expires_in: context.state.refreshTokenLifetimeSeconds,
    refresh_token: tokens.refreshToken,
    scope: scopes.join(','),
    token_type: 'Bearer',
  });
}

/** 200 with an empty body, the older docs' answer (B2); the client must not expect `{}`. */
function revoke(context: Context, res: ServerResponse, form: Record<string, string>): void {
  if (!form.token) return sendOAuthError(res, 'invalid_request', 'token is required.');
  context.state.revoke(form.token);
  res.writeHead(200, { 'Content-Length': '0' });
  res.end();
}

function sendOAuthFailure(res: ServerResponse, failure: FakeFailure): void {
  if (typeof failure === 'string') {
    const status = failure === 'rate_limit_exceeded' ? 429 : failure === 'server_error' ? 500 : failure === 'temporarily_unavailable' ? 503 : 400;
    return sendOAuthError(res, failure, `Fake failure: ${failure}`, status);
  }
  const code = failure === 429 ? 'rate_limit_exceeded' : failure >= 500 ? 'server_error' : 'invalid_request';
  return sendOAuthError(res, code, `Fake failure: HTTP ${failure}`, failure);
}

function sendOAuthError(res: ServerResponse, error: string, description: string, status = 400): void {
  sendJson(res, status, { error, error_description: description, log_id: logId() });
}

// ---------------------------------------------------------------------------------------------
// v2 API: user info (B3), Content Posting (B5)

type V2Endpoint = 'user_info' | 'creator_info' | 'video_init' | 'inbox_init' | 'status' | 'video_query';

async function handleV2(context: Context, endpoint: V2Endpoint, record: RecordedTikTokRequest, req: IncomingMessage, res: ServerResponse, params: URLSearchParams, failure: FakeFailure | undefined): Promise<void> {
  const text = await readText(req);
  const json = parseJson(text);
  record.json = json.ok ? json.value : undefined;
  if (failure !== undefined) return sendV2Failure(res, endpoint, failure);
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const token = context.state.validAccessToken(bearer);
  if (!bearer || !token) return sendEnvelopeError(res, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
  if (rateLimited(context, bearer, endpoint)) return sendEnvelopeError(res, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
  const user = context.state.users.get(token.openId);
  if (!user) return sendEnvelopeError(res, 401, 'access_token_invalid', 'The user of this token no longer exists.');
  if (endpoint === 'user_info') return userInfo(res, token, user, params);
  if (endpoint !== 'creator_info') {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return sendEnvelopeError(res, 400, 'invalid_param', 'Content-Type must be application/json.');
    if (!json.ok || !isObject(json.value)) return sendEnvelopeError(res, 400, 'invalid_param', 'The request body is not a JSON object.');
  }
  const body = json.ok && isObject(json.value) ? json.value : {};
  switch (endpoint) {
    case 'creator_info':
      return creatorInfo(context, res, token, user);
    case 'video_init':
      return directPostInit(context, res, token, user, body);
    case 'inbox_init':
      return inboxInit(context, res, token, user, body);
    case 'status':
      return statusFetch(context, res, token, body);
    case 'video_query':
      return videoQuery(context, res, token, body, params);
  }
}

function userInfo(res: ServerResponse, token: FakeAccessToken, user: FakeTikTokUser, params: URLSearchParams): void {
  const fields = (params.get('fields') ?? '').split(',').map((field) => field.trim()).filter(Boolean);
  if (fields.length === 0 || fields.some((field) => !(field in SCOPES_BY_FIELD))) {
    return sendEnvelopeError(res, 400, 'invalid_params', `fields is missing or has an unknown field: ${params.get('fields') ?? ''}`);
  }
  const missing = fields.filter((field) => !token.scopes.includes(SCOPES_BY_FIELD[field] ?? ''));
  if (missing.length > 0) return sendEnvelopeError(res, 400, 'scope_permission_missed', `The token lacks the scope for: ${missing.join(',')}`);
  const values: Record<string, unknown> = {
    open_id: user.openId,
    union_id: user.unionId,
    avatar_url: user.avatarUrl,
    avatar_url_100: user.avatarUrl,
    avatar_large_url: user.avatarUrl,
    display_name: user.displayName,
    bio_description: '',
    profile_deep_link: `https://vm.tiktok.com/${user.username}`,
    is_verified: false,
    username: user.username,
    follower_count: 0,
    following_count: 0,
    likes_count: 0,
    video_count: 0,
  };
  // Only the requested fields come back (B3).
  sendEnvelope(res, 200, { user: Object.fromEntries(fields.map((field) => [field, values[field]])) });
}

/** Why this user cannot post right now (ban, daily cap, app's active-user cap), or null. */
function postingBlock(context: Context, user: FakeTikTokUser): string | null {
  if (user.bannedFromPosting) return 'spam_risk_user_banned_from_posting';
  if (context.state.directPostsToday(user.openId) >= context.state.dailyPostCap) return 'spam_risk_too_many_posts';
  if (context.state.overActiveUserCap(user.openId)) return 'reached_active_user_cap';
  return null;
}

function creatorInfo(context: Context, res: ServerResponse, token: FakeAccessToken, user: FakeTikTokUser): void {
  if (!token.scopes.includes('video.publish')) return sendEnvelopeError(res, 401, 'scope_not_authorized', 'The token is not authorized for video.publish.');
  // These come with HTTP 200 on purpose (B5).
  const block = postingBlock(context, user);
  if (block) return sendEnvelopeError(res, 200, block, `Fake TikTok: ${block}`);
  sendEnvelope(res, 200, {
    creator_avatar_url: user.avatarUrl,
    creator_username: user.username,
    creator_nickname: user.displayName,
    privacy_level_options: user.privacyLevelOptions,
    comment_disabled: user.commentDisabled,
    duet_disabled: user.duetDisabled,
    stitch_disabled: user.stitchDisabled,
    max_video_post_duration_sec: user.maxVideoPostDurationSec,
  });
}

/** A refusal found while reading a request body, answered with the v2 envelope. */
class Problem {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
  ) {}
}

const invalid = (message: string): Problem => new Problem(400, 'invalid_param', message);
const forbidden = (code: string, message: string): Problem => new Problem(403, code, message);

/** source_info of a FILE_UPLOAD, checked against the Media Transfer Guide. */
function readSourceInfo(body: Record<string, unknown>): SourceInfo | Problem {
  const source = body.source_info;
  if (!isObject(source)) return invalid('source_info is required.');
  if (source.source === 'PULL_FROM_URL') return forbidden('url_ownership_unverified', 'The video_url domain is not verified for this app.');
  if (source.source !== 'FILE_UPLOAD') return invalid('source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
  const info = { videoSize: source.video_size, chunkSize: source.chunk_size, totalChunkCount: source.total_chunk_count };
  if (typeof info.videoSize !== 'number' || typeof info.chunkSize !== 'number' || typeof info.totalChunkCount !== 'number') {
    return invalid('video_size, chunk_size and total_chunk_count are required numbers.');
  }
  const parsed: SourceInfo = { videoSize: info.videoSize, chunkSize: info.chunkSize, totalChunkCount: info.totalChunkCount };
  const violation = chunkRuleViolation(parsed);
  return violation ? invalid(violation) : parsed;
}

function readPostInfo(user: FakeTikTokUser, body: Record<string, unknown>): Record<string, unknown> | Problem {
  const info = body.post_info;
  if (!isObject(info)) return invalid('post_info is required.');
  const level = info.privacy_level;
  if (typeof level !== 'string' || !PRIVACY_LEVELS.includes(level)) return invalid('post_info.privacy_level is required.');
  if (!user.privacyLevelOptions.includes(level)) return forbidden('privacy_level_option_mismatch', 'privacy_level is not one of the creator’s privacy_level_options.');
  if (info.title !== undefined && typeof info.title !== 'string') return invalid('post_info.title must be a string.');
  // UTF-16 code units, which is what String#length counts.
  if (typeof info.title === 'string' && info.title.length > 2200) return invalid('post_info.title exceeds 2200 characters.');
  for (const flag of ['disable_duet', 'disable_comment', 'disable_stitch', 'brand_content_toggle', 'brand_organic_toggle', 'is_aigc']) {
    if (info[flag] !== undefined && typeof info[flag] !== 'boolean') return invalid(`post_info.${flag} must be a boolean.`);
  }
  if (info.video_cover_timestamp_ms !== undefined && !Number.isInteger(info.video_cover_timestamp_ms)) return invalid('post_info.video_cover_timestamp_ms must be an int32.');
  // TikTok's branded content policy: a paid partnership is never private.
  if (info.brand_content_toggle === true && level === 'SELF_ONLY') return invalid('Branded content visibility cannot be set to private.');
  return info;
}

function directPostInit(context: Context, res: ServerResponse, token: FakeAccessToken, user: FakeTikTokUser, body: Record<string, unknown>): void {
  if (!token.scopes.includes('video.publish')) return sendEnvelopeError(res, 401, 'scope_not_authorized', 'The token is not authorized for video.publish.');
  const postInfo = readPostInfo(user, body);
  if (isProblem(postInfo)) return sendProblem(res, postInfo);
  const source = readSourceInfo(body);
  if (isProblem(source)) return sendProblem(res, source);
  if (context.state.unaudited && (postInfo.privacy_level !== 'SELF_ONLY' || !user.isPrivate)) {
    return sendEnvelopeError(res, 403, 'unaudited_client_can_only_post_to_private_accounts', 'Unaudited clients can only post to private accounts with SELF_ONLY.');
  }
  const block = postingBlock(context, user);
  if (block) return sendEnvelopeError(res, 403, block, `Fake TikTok: ${block}`);
  sendEnvelope(res, 200, publishData(context.state.createPost(user.openId, 'direct', postInfo, source)));
}

function inboxInit(context: Context, res: ServerResponse, token: FakeAccessToken, user: FakeTikTokUser, body: Record<string, unknown>): void {
  if (!token.scopes.includes('video.upload')) return sendEnvelopeError(res, 401, 'scope_not_authorized', 'The token is not authorized for video.upload.');
  // Inbox uploads take only source_info (B5): a caption belongs to the user, in the app.
  if ('post_info' in body) return sendEnvelopeError(res, 400, 'invalid_param', 'post_info is not accepted by inbox upload.');
  const source = readSourceInfo(body);
  if (isProblem(source)) return sendProblem(res, source);
  if (user.bannedFromPosting) return sendEnvelopeError(res, 403, 'spam_risk_user_banned_from_posting', 'Fake TikTok: banned.');
  if (context.state.pendingShares(user.openId) >= context.state.pendingShareCap) {
    return sendEnvelopeError(res, 403, 'spam_risk_too_many_pending_share', 'Too many pending shares in the last 24 hours.');
  }
  if (context.state.overActiveUserCap(user.openId)) return sendEnvelopeError(res, 403, 'reached_active_user_cap', 'Fake TikTok: active user cap.');
  sendEnvelope(res, 200, publishData(context.state.createPost(user.openId, 'inbox', null, source)));
}

function publishData(created: { publishId: string; uploadUrl: string }): Record<string, unknown> {
  return { publish_id: created.publishId, upload_url: created.uploadUrl };
}

function statusFetch(context: Context, res: ServerResponse, token: FakeAccessToken, body: Record<string, unknown>): void {
  if (!token.scopes.includes('video.upload') && !token.scopes.includes('video.publish')) {
    return sendEnvelopeError(res, 401, 'scope_not_authorized', 'The token is not authorized for video.upload or video.publish.');
  }
  const publishId = body.publish_id;
  const post = typeof publishId === 'string' ? context.state.posts.get(publishId) : undefined;
  if (!post) return sendEnvelopeError(res, 400, 'invalid_publish_id', 'The publish_id is invalid.');
  if (post.openId !== token.openId) return sendEnvelopeError(res, 400, 'token_not_authorized_for_specified_publish_id', 'The token does not own this publish_id.');
  context.state.poll(post);
  const upload = context.state.uploads.get(post.publishId);
  const data: Record<string, unknown> = {
    status: post.status,
    publicaly_available_post_id: '__POST_IDS__',
    uploaded_bytes: upload?.receivedBytes ?? 0,
  };
  if (post.status === 'FAILED') data.fail_reason = post.failReason;
  // int64 post ids as bare JSON numbers, as TikTok sends them (JSON.stringify cannot write them).
  const text = JSON.stringify({ data, error: { code: 'ok', message: '', log_id: logId() } }).replace('"__POST_IDS__"', `[${post.publicPostIds.join(',')}]`);
  sendText(res, 200, text);
}

/** Fields the video query may return (Display API video object), and the ones this fake knows. */
const VIDEO_FIELDS = new Set(['id', 'create_time', 'cover_image_url', 'share_url', 'video_description', 'duration', 'height', 'width', 'title', 'embed_html', 'embed_link', 'like_count', 'comment_count', 'share_count', 'view_count']);
const MAX_VIDEO_IDS = 20;

/**
 * Display API video query (scope video.list): the token's own posts among filters.video_ids (at
 * most 20), with the requested fields only; ids it does not know, of another creator, or deleted
 * are left out. Ids come back as strings, as TikTok's reference types them.
 */
function videoQuery(context: Context, res: ServerResponse, token: FakeAccessToken, body: Record<string, unknown>, params: URLSearchParams): void {
  if (!token.scopes.includes('video.list')) return sendEnvelopeError(res, 401, 'scope_not_authorized', 'The token is not authorized for video.list.');
  const fields = (params.get('fields') ?? '').split(',').map((field) => field.trim()).filter(Boolean);
  if (fields.length === 0 || fields.some((field) => !VIDEO_FIELDS.has(field))) {
    return sendEnvelopeError(res, 400, 'invalid_params', `fields is missing or has an unknown field: ${params.get('fields') ?? ''}`);
  }
  const filters = body.filters;
  const ids = isObject(filters) ? filters.video_ids : undefined;
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => typeof id !== 'string')) {
    return sendEnvelopeError(res, 400, 'invalid_params', 'filters.video_ids must be a non-empty list of strings.');
  }
  if (ids.length > MAX_VIDEO_IDS) return sendEnvelopeError(res, 400, 'invalid_params', `filters.video_ids takes at most ${MAX_VIDEO_IDS} ids.`);
  const videos = (ids as string[]).flatMap((id) => {
    const video = context.state.videos.get(id);
    if (!video || video.deleted || video.openId !== token.openId) return [];
    const values: Record<string, unknown> = {
      id,
      create_time: video.createTime,
      title: '',
      view_count: video.views,
      like_count: video.likes,
      comment_count: video.comments,
      share_count: video.shares,
    };
    return [Object.fromEntries(fields.filter((field) => field in values).map((field) => [field, values[field]]))];
  });
  sendEnvelope(res, 200, { videos, cursor: 0, has_more: false });
}

/** Sliding one-minute windows per token and endpoint, only when enforceRateLimits is on. */
function rateLimited(context: Context, token: string, endpoint: FakeTikTokEndpoint): boolean {
  const limit = RATE_LIMITS[endpoint];
  if (!context.enforceRateLimits || limit === undefined) return false;
  const key = `${endpoint} ${token}`;
  const now = context.now();
  const window = (context.rateWindows.get(key) ?? []).filter((at) => at > now - 60_000);
  context.rateWindows.set(key, window);
  if (window.length >= limit) return true;
  window.push(now);
  return false;
}

function sendV2Failure(res: ServerResponse, endpoint: V2Endpoint, failure: FakeFailure): void {
  if (typeof failure === 'string') {
    const status = endpoint === 'creator_info' && CREATOR_INFO_200.has(failure) ? 200 : (V2_STATUS[failure] ?? 400);
    return sendEnvelopeError(res, status, failure, `Fake failure: ${failure}`);
  }
  const code = failure === 401 ? 'access_token_invalid' : failure === 429 ? 'rate_limit_exceeded' : failure >= 500 ? 'internal_error' : 'invalid_params';
  return sendEnvelopeError(res, failure, code, `Fake failure: HTTP ${failure}`);
}

// ---------------------------------------------------------------------------------------------
// upload_url (B5 chunk upload)

async function handleUpload(context: Context, req: IncomingMessage, res: ServerResponse, params: URLSearchParams, failure: FakeFailure | undefined): Promise<void> {
  const upload = context.state.findUpload(params.get('upload_id'), params.get('upload_token'));
  if (failure === 'stall') return void (await drain(req));
  if (typeof failure === 'number' || (typeof failure === 'string' && failure !== 'lost_response')) {
    await drain(req);
    const status = typeof failure === 'number' ? failure : (V2_STATUS[failure] ?? 400);
    return sendText(res, status, '', {});
  }
  if (!upload) return finishUpload(req, res, 404, 'no such upload task');
  if (context.state.uploadExpired(upload)) return finishUpload(req, res, 403, 'upload_url expired');
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
  if (!VIDEO_TYPES.has(contentType)) return finishUpload(req, res, 400, 'Content-Type must be video/mp4, video/quicktime or video/webm');
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.headers['content-range'] ?? '');
  if (!range) return finishUpload(req, res, 400, 'Content-Range must be bytes {first}-{last}/{total}');
  const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
  if (total !== upload.videoSize || last < first || last >= total) return finishUpload(req, res, 400, 'Content-Range does not fit video_size');
  const declared = Number(req.headers['content-length']);
  if (!Number.isSafeInteger(declared) || declared !== last - first + 1) return finishUpload(req, res, 400, 'Content-Length must match Content-Range');
  if (upload.complete || first !== upload.receivedBytes) {
    return finishUpload(req, res, 416, 'Content-Range does not match the upload progress', { 'Content-Range': progressRange(upload) });
  }
  const index = first / upload.chunkSize;
  if (declared !== expectedChunkSize(upload, index)) return finishUpload(req, res, 400, `chunk ${index} must be ${expectedChunkSize(upload, index)} bytes`);
  const body = await readBytes(req, declared + 1);
  if (body.length !== declared) return sendText(res, 400, 'Content-Length does not match the body', {});
  context.state.acceptChunk(upload, first, context.keepUploadBytes ? body : Buffer.alloc(0));
  if (context.chunkGate.holding) await new Promise<void>((resolve) => context.chunkGate.held.push(resolve));
  if (failure === 'lost_response') return sendText(res, 500, '', {});
  if (upload.complete) return sendText(res, 201, '', { 'Content-Range': progressRange(upload) });
  return sendText(res, 206, '', { 'Content-Range': progressRange(upload) });
}

/** What the server holds, inclusive as in HTTP; `bytes *` + `/total` before the first chunk. */
function progressRange(upload: FakeUpload): string {
  return upload.receivedBytes === 0 ? `bytes */${upload.videoSize}` : `bytes 0-${upload.receivedBytes - 1}/${upload.videoSize}`;
}

async function finishUpload(req: IncomingMessage, res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): Promise<void> {
  await drain(req);
  sendText(res, status, message, headers);
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

function logId(): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  return `${stamp}${randomBytes(10).toString('hex').toUpperCase()}`;
}

function sendEnvelope(res: ServerResponse, status: number, data: Record<string, unknown>): void {
  sendJson(res, status, { data, error: { code: 'ok', message: '', log_id: logId() } });
}

function sendEnvelopeError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { data: {}, error: { code, message, log_id: logId() } });
}

function sendProblem(res: ServerResponse, problem: Problem): void {
  sendEnvelopeError(res, problem.status, problem.code, problem.message);
}

function isProblem(value: unknown): value is Problem {
  return value instanceof Problem;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body));
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!text.trim()) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

async function drain(req: IncomingMessage): Promise<void> {
  for await (const chunk of req) void chunk;
}
