import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clipMedia, DEFAULT_MEDIA, thumbnailMedia, type ClipMediaSpec } from './media.ts';
import { FakeTwitchAccounts, type AuthorizingUser, type UserGrant } from './accounts.ts';
import { FakeTwitchState, type AddBroadcasterInput, type AddClipInput, type AddGameInput, type ClipRecord, type FakeClip, type FakeGame, type FakeUser } from './state.ts';

/*
 * A local Twitch that behaves like external-apis.md part A: id.twitch.tv token endpoint, Helix
 * users/clips/games with its envelope, error bodies and Ratelimit-* headers, gql.twitch.tv's
 * VideoAccessToken_Clip persisted query, and a clip CDN that only serves with a valid sig/token.
 * A user's own account too (decision 0047): the authorization code flow (authorize redirect, code
 * and refresh grants, validate, revoke) and the user-token endpoints Create Clip, Create Clip From
 * VOD and Get Clips Download, with their scope and editor checks; official files under /cdn/official.
 * One HTTP server on 127.0.0.1, the parts under path prefixes (/id, /helix, /gql, /cdn).
 */

/** The persisted-query hashes seen in the wild (A6b), so the app's defaults work against the fake. */
export const CLIP_HASHES = {
  current: '4f35f1ac933d76b1da008c806cd5546a7534dfaff83e033a422a81f24e5991b3',
  legacy: '36b89d2507fce29e5ca551df756d27c1cfe079e2609642b4390aa4c35796eb11',
} as const;

/** GQL knows both hashes unless a test says otherwise (setAcceptedHashes). */
const everyKnownHash = (): Set<string> => new Set([CLIP_HASHES.current, CLIP_HASHES.legacy]);

export type FakeEndpoint =
  | 'token'
  | 'validate'
  | 'authorize'
  | 'revoke'
  | 'users'
  | 'clips'
  | 'games'
  | 'streams'
  | 'videos'
  | 'create_clip'
  | 'vod_clip'
  | 'clip_downloads'
  | 'gql'
  | 'cdn'
  | 'official'
  | 'thumbnail'
  | 'unknown';

/**
 * rate_limit: 429 with Ratelimit-Remaining 0 and Ratelimit-Reset a second or two ahead (or `resetAt`)
 * unauthorized: the presented token is revoked and the request answered 401 (the client must mint a new one)
 * server_error: 500
 * broken_transfer (cdn): full Content-Length, half the bytes, then the socket is destroyed
 * short_transfer (cdn): full Content-Length, half the bytes, then the socket is closed cleanly
 * stalled_transfer (cdn): full Content-Length, half the bytes, then silence with the connection left open
 * corrupt_transfer (cdn): the whole transfer as announced, but of bytes that are no video (a damaged file)
 */
export type FailureKind = 'rate_limit' | 'unauthorized' | 'server_error' | 'broken_transfer' | 'short_transfer' | 'stalled_transfer' | 'corrupt_transfer';

export interface FailureOptions {
  /** How many consecutive responses of the endpoint fail (default 1). */
  times?: number;
  /** rate_limit only: the Ratelimit-Reset epoch second to announce (default now + 2 s). */
  resetAt?: number;
}

export interface RecordedRequest {
  method: string;
  endpoint: FakeEndpoint;
  /** Path without the query string, percent-escapes left as received. */
  path: string;
  query: Record<string, string[]>;
  /** Response status, filled in when the response is sent. */
  status: number;
  /** gql only: the persisted-query hashes asked for. */
  hashes?: string[];
  /** token only: the form fields, secrets included (tests check what was sent). */
  form?: Record<string, string>;
}

/**
 * Helix clip paging as it misbehaves in production when view counts change while a client pages
 * (twitchdev/issues #48, #1045). Neither loses a clip for a client that narrows its windows.
 */
export interface ClipPagingQuirks {
  /** From page n+1 of a query on, the previous page comes again with the same cursor (the cursor loops). */
  repeatCursorAfterPages?: number;
  /** Every page after the first starts one clip early: the last clip of the previous page shows up twice. */
  shiftPages?: boolean;
}

export interface FakeTwitchOptions {
  clientId?: string;
  clientSecret?: string;
  gqlClientId?: string;
  /** expires_in of minted app tokens (default 5011271 s, the documented example). */
  tokenLifetimeSeconds?: number;
  media?: ClipMediaSpec;
  /** A file every clip serves instead of generated media (a benchmark's own source); wins over `media`. */
  mediaFile?: string;
  now?: () => number;
}

export interface FakeTwitch {
  /** Base of the server, e.g. http://127.0.0.1:43123 */
  url: string;
  /** TWITCH_AUTH_URL (token endpoint at {authUrl}/oauth2/token) */
  authUrl: string;
  /** TWITCH_API_URL */
  apiUrl: string;
  /** TWITCH_GQL_URL */
  gqlUrl: string;
  clientId: string;
  clientSecret: string;
  gqlClientId: string;
  hashes: { current: string; legacy: string };
  /** Environment variables pointing the app at this fake. */
  env: Record<string, string>;
  /** The MP4 every clip serves, unless setClipMedia gave it one of its own. */
  mediaPath: string;
  /** Makes one clip serve other media (a longer source, so its render lasts while a test acts on it). */
  setClipMedia(slug: string, spec: ClipMediaSpec): Promise<void>;
  addBroadcaster(input: AddBroadcasterInput): FakeUser;
  addGame(input: AddGameInput): FakeGame;
  addClip(input: AddClipInput): FakeClip;
  clip(slug: string): FakeClip | undefined;
  requests: RecordedRequest[];
  requestsTo(endpoint: FakeEndpoint): RecordedRequest[];
  /** App tokens minted so far. */
  tokensIssued(): number;
  /** Makes every issued token invalid (as if Twitch revoked them). */
  revokeTokens(): void;
  /** How Helix clip paging misbehaves (none by default; reset() clears it). */
  setClipPaging(quirks: ClipPagingQuirks): void;
  /** Which VideoAccessToken_Clip hashes GQL knows (default both); the others answer PersistedQueryNotFound. */
  setAcceptedHashes(hashes: readonly string[]): void;
  /** Clip transfers (CDN GETs) after the next `after` (default 0) wait until releaseTransfers(). */
  holdTransfers(options?: { after?: number }): void;
  releaseTransfers(): void;
  /** Transfers waiting on the hold now. */
  heldTransfers(): number;
  failures: {
    next(endpoint: Exclude<FakeEndpoint, 'unknown'>, kind: FailureKind, options?: FailureOptions): void;
    clear(): void;
  };
  /* A user's own account (decision 0047). */
  /** Who signs in at the authorize page next (null: nobody; the page answers 400). */
  setAuthorizingUser(user: AuthorizingUser | null): void;
  /** `editor` may edit `broadcaster`'s channel (both logins; added as users when unknown). */
  addEditor(broadcaster: string, editor: string): void;
  /** Starts (or ends) the broadcaster's stream: Get Streams lists it with a new stream id; its id. */
  setLive(login: string, live: boolean, stream?: { startedAt?: Date; title?: string }): string | null;
  /** A VOD of the broadcaster (of `streamId`, the stream it recorded); its id. */
  addVideo(login: string, streamId?: string): string;
  /** Every token the user holds stops working, refresh tokens included (Reconnect needed). */
  revokeUserGrants(login: string): void;
  /** The user's access tokens expire; the refresh token still works. */
  expireUserTokens(login: string): void;
  /** A clip made by Create Clip is missing from Get Clips for this many lookups by id (default 1). */
  setClipDelay(lookups: number): void;
  /** Refresh tokens now valid for the user. */
  refreshTokensOf(login: string): string[];
  /** Tokens revoked through /oauth2/revoke. */
  revoked: string[];
  /**
   * Forgets what tests recorded and scripted (requests, failures, accepted hashes, a transfer hold,
   * the rate-limit window); the catalogue (broadcasters, games, clips) and issued tokens stay, as
   * suites seed them once. Tests call it in beforeEach so none depends on what an earlier one scripted.
   */
  reset(): void;
  close(): Promise<void>;
}

interface QueuedFailure {
  kind: FailureKind;
  remaining: number;
  resetAt: number | undefined;
}

interface Context {
  state: FakeTwitchState;
  options: Required<Omit<FakeTwitchOptions, 'media' | 'mediaFile'>>;
  mediaPath: string;
  /** slug → media of its own (setClipMedia). */
  clipMedia: Map<string, string>;
  thumbnailPath: string;
  acceptedHashes: Set<string>;
  paging: ClipPagingQuirks;
  failures: Map<FakeEndpoint, QueuedFailure[]>;
  rateLimit: { windowStart: number; used: number };
  /** While set, clip transfers (past the first `passes`) wait for it (holdTransfers / releaseTransfers). */
  hold: { promise: Promise<void>; release: () => void; passes: number } | null;
  /** Transfers waiting on the hold. */
  held: number;
  accounts: FakeTwitchAccounts;
  portraitPath: string;
  /** Clips made by Create Clip: how many more lookups by id miss them. */
  pending: Map<string, number>;
  clipDelay: number;
  revoked: string[];
}

const RATE_LIMIT = 800;
/** The streamer's own vertical edit, served as the portrait version of clips that have one. */
export const PORTRAIT_MEDIA: ClipMediaSpec = { width: 360, height: 640, fps: 15, seconds: 3 };
const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error' };

export async function startFakeTwitch(options: FakeTwitchOptions = {}): Promise<FakeTwitch> {
  const [mediaPath, thumbnailPath, portraitPath] = await Promise.all([
    options.mediaFile ?? clipMedia(options.media ?? DEFAULT_MEDIA),
    thumbnailMedia(),
    clipMedia(PORTRAIT_MEDIA),
  ]);
  let baseUrl = '';
  const now = options.now ?? Date.now;
  const state = new FakeTwitchState(() => baseUrl, now);
  const context: Context = {
    state,
    options: {
      clientId: options.clientId ?? 'fakeclientid0000000000000000001',
      clientSecret: options.clientSecret ?? 'fakeclientsecret00000000000001',
      gqlClientId: options.gqlClientId ?? 'kimne78kx3ncx6brgo4mv6wki5h1ko',
      tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 5_011_271,
      now,
    },
    mediaPath,
    clipMedia: new Map(),
    thumbnailPath,
    acceptedHashes: everyKnownHash(),
    paging: {},
    failures: new Map(),
    rateLimit: { windowStart: 0, used: 0 },
    hold: null,
    held: 0,
    accounts: new FakeTwitchAccounts(),
    portraitPath,
    pending: new Map(),
    clipDelay: 1,
    revoked: [],
  };
  const userByLogin = (login: string) => state.users.get(login.toLowerCase()) ?? state.addBroadcaster({ login });
  const requests: RecordedRequest[] = [];

  const server = createServer((req, res) => {
    handle(context, requests, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal Server Error', status: 500, message: String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { clientId, clientSecret, gqlClientId } = context.options;

  return {
    url: baseUrl,
    authUrl: `${baseUrl}/id`,
    apiUrl: `${baseUrl}/helix`,
    gqlUrl: `${baseUrl}/gql`,
    clientId,
    clientSecret,
    gqlClientId,
    hashes: { ...CLIP_HASHES },
    env: {
      TWITCH_CLIENT_ID: clientId,
      TWITCH_CLIENT_SECRET: clientSecret,
      TWITCH_AUTH_URL: `${baseUrl}/id`,
      TWITCH_API_URL: `${baseUrl}/helix`,
      TWITCH_GQL_URL: `${baseUrl}/gql`,
      TWITCH_GQL_CLIENT_ID: gqlClientId,
      TWITCH_GQL_CLIP_HASHES: `${CLIP_HASHES.current},${CLIP_HASHES.legacy}`,
    },
    mediaPath,
    setClipMedia: async (slug, spec) => {
      context.clipMedia.set(slug, await clipMedia(spec));
    },
    addBroadcaster: (input) => state.addBroadcaster(input),
    addGame: (input) => state.addGame(input),
    addClip: (input) => state.addClip(input),
    clip: (slug) => state.clips.get(slug)?.clip,
    requests,
    requestsTo: (endpoint) => requests.filter((request) => request.endpoint === endpoint),
    tokensIssued: () => state.tokens.size,
    revokeTokens: () => {
      for (const token of state.tokens.keys()) state.tokens.set(token, 0);
    },
    setClipPaging: (quirks) => {
      context.paging = { ...quirks };
    },
    setAcceptedHashes: (hashes) => {
      context.acceptedHashes = new Set(hashes);
    },
    holdTransfers: (holdOptions = {}) => {
      if (context.hold) return;
      let release = () => {};
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      context.hold = { promise, release, passes: holdOptions.after ?? 0 };
    },
    releaseTransfers: () => {
      context.hold?.release();
      context.hold = null;
    },
    heldTransfers: () => context.held,
    failures: {
      next: (endpoint, kind, failureOptions = {}) => {
        const queue = context.failures.get(endpoint) ?? [];
        queue.push({ kind, remaining: failureOptions.times ?? 1, resetAt: failureOptions.resetAt });
        context.failures.set(endpoint, queue);
      },
      clear: () => context.failures.clear(),
    },
    setAuthorizingUser: (user) => {
      context.accounts.authorizing = user;
    },
    addEditor: (broadcaster, editor) => {
      const channel = userByLogin(broadcaster).id;
      const editors = context.accounts.editors.get(channel) ?? new Set<string>();
      editors.add(userByLogin(editor).id);
      context.accounts.editors.set(channel, editors);
    },
    setLive: (login, live, stream = {}) => {
      const id = userByLogin(login).id;
      if (!live) {
        context.accounts.live.delete(id);
        context.accounts.streams.delete(id);
        return null;
      }
      context.accounts.live.add(id);
      const streamId = String(41_000_000_000 + context.accounts.streams.size + context.accounts.videos.size + 1);
      const startedAt = stream.startedAt ?? new Date(context.options.now());
      context.accounts.streams.set(id, { id: streamId, started_at: startedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'), title: stream.title ?? `${login} live` });
      return streamId;
    },
    addVideo: (login, streamId) => {
      const id = String(2_187_654_321 + context.accounts.videos.size + 1);
      context.accounts.videos.set(id, userByLogin(login).id);
      if (streamId) context.accounts.videoStreams.set(id, streamId);
      return id;
    },
    revokeUserGrants: (login) => context.accounts.revokeUser(userByLogin(login).id, (token) => state.tokens.set(token, 0)),
    expireUserTokens: (login) => {
      const id = userByLogin(login).id;
      for (const [token, grant] of context.accounts.accessTokens) if (grant.userId === id) state.tokens.set(token, 0);
    },
    setClipDelay: (lookups) => {
      context.clipDelay = lookups;
    },
    refreshTokensOf: (login) => {
      const id = userByLogin(login).id;
      return [...context.accounts.refreshTokens].filter(([, grant]) => grant.userId === id).map(([token]) => token);
    },
    revoked: context.revoked,
    reset: () => {
      requests.length = 0;
      context.failures.clear();
      context.acceptedHashes = everyKnownHash();
      context.paging = {};
      context.hold?.release();
      context.hold = null;
      context.rateLimit = { windowStart: 0, used: 0 };
      context.clipDelay = 1;
      context.revoked.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        context.hold?.release();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Routing

async function handle(context: Context, requests: RecordedRequest[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const rawUrl = req.url ?? '/';
  const questionMark = rawUrl.indexOf('?');
  const path = questionMark === -1 ? rawUrl : rawUrl.slice(0, questionMark);
  const params = new URLSearchParams(questionMark === -1 ? '' : rawUrl.slice(questionMark + 1));
  const method = req.method ?? 'GET';
  const endpoint = endpointOf(method, path);
  const record: RecordedRequest = { method, endpoint, path, query: queryRecord(params), status: 0 };
  requests.push(record);
  res.on('finish', () => {
    record.status = res.statusCode;
  });
  res.on('close', () => {
    record.status ||= res.statusCode;
  });

  const failure = takeFailure(context, endpoint);
  switch (endpoint) {
    case 'token':
      return handleToken(context, record, req, res, params, failure);
    case 'validate':
      return handleValidate(context, req, res);
    case 'authorize':
      return handleAuthorize(context, res, params);
    case 'revoke':
      return handleRevoke(context, req, res, params);
    case 'create_clip':
    case 'vod_clip':
    case 'clip_downloads':
      return handleUserHelix(context, endpoint, req, res, params, failure);
    case 'official':
      return handleOfficialFile(context, req, res, path);
    case 'users':
    case 'clips':
    case 'games':
    case 'streams':
    case 'videos':
      return handleHelix(context, endpoint, req, res, params, failure);
    case 'gql':
      return handleGql(context, record, req, res, failure);
    case 'cdn':
      return handleCdn(context, req, res, path, params, failure);
    case 'thumbnail':
      return handleThumbnail(context, req, res, path);
    case 'unknown':
      return sendJson(res, 404, { error: 'Not Found', status: 404, message: `No route for ${method} ${path}` });
  }
}

function endpointOf(method: string, path: string): FakeEndpoint {
  if (method === 'POST' && path === '/id/oauth2/token') return 'token';
  if (method === 'GET' && path === '/id/oauth2/validate') return 'validate';
  if (method === 'GET' && path === '/id/oauth2/authorize') return 'authorize';
  if (method === 'POST' && path === '/id/oauth2/revoke') return 'revoke';
  if (method === 'POST' && path === '/helix/clips') return 'create_clip';
  if (method === 'POST' && path === '/helix/videos/clips') return 'vod_clip';
  if (method === 'GET' && path === '/helix/clips/downloads') return 'clip_downloads';
  if ((method === 'GET' || method === 'HEAD') && path.startsWith('/cdn/official/')) return 'official';
  if (method === 'GET' && path === '/helix/users') return 'users';
  if (method === 'GET' && path === '/helix/clips') return 'clips';
  if (method === 'GET' && path === '/helix/games') return 'games';
  if (method === 'GET' && path === '/helix/streams') return 'streams';
  if (method === 'GET' && path === '/helix/videos') return 'videos';
  if (method === 'POST' && path === '/gql') return 'gql';
  if ((method === 'GET' || method === 'HEAD') && path.startsWith('/cdn/')) return 'cdn';
  if ((method === 'GET' || method === 'HEAD') && (path.startsWith('/clips-media-assets2/') || path.startsWith('/static-cdn/'))) return 'thumbnail';
  return 'unknown';
}

function queryRecord(params: URLSearchParams): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const [key, value] of params) (query[key] ??= []).push(value);
  return query;
}

function takeFailure(context: Context, endpoint: FakeEndpoint): QueuedFailure | undefined {
  const queue = context.failures.get(endpoint);
  const head = queue?.[0];
  if (!queue || !head) return undefined;
  head.remaining--;
  if (head.remaining <= 0) queue.shift();
  return head;
}

// ---------------------------------------------------------------------------------------------
// id.twitch.tv (A1)

async function handleToken(context: Context, record: RecordedRequest, req: IncomingMessage, res: ServerResponse, query: URLSearchParams, failure: QueuedFailure | undefined) {
  if (failure?.kind === 'server_error') return sendJson(res, 500, { status: 500, message: 'Internal Server Error' });
  if (failure?.kind === 'rate_limit') return sendJson(res, 429, { status: 429, message: 'Too Many Requests' });
  // Query parameters first, a form body overrides them (twitch-cli's behaviour, A1).
  const params = new Map(query);
  for (const [key, value] of new URLSearchParams(await readBody(req))) params.set(key, value);
  record.form = Object.fromEntries(params);
  const clientId = params.get('client_id');
  const clientSecret = params.get('client_secret');
  const grantType = params.get('grant_type');
  if (!clientId) return sendJson(res, 400, { status: 400, message: 'missing client id' });
  if (grantType !== 'client_credentials' && grantType !== 'authorization_code' && grantType !== 'refresh_token') return sendJson(res, 400, { status: 400, message: 'unsupported grant type' });
  if (clientId !== context.options.clientId) return sendJson(res, 400, { status: 400, message: 'invalid client' });
  if (clientSecret !== context.options.clientSecret) return sendJson(res, 403, { status: 403, message: 'invalid client secret' });
  if (grantType === 'authorization_code') return grantCode(context, res, params);
  if (grantType === 'refresh_token') return grantRefresh(context, res, params);
  const lifetime = context.options.tokenLifetimeSeconds;
  return sendJson(res, 200, { access_token: context.state.issueToken(lifetime), expires_in: lifetime, token_type: 'bearer' });
}

function handleValidate(context: Context, req: IncomingMessage, res: ServerResponse) {
  const token = /^OAuth (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const expiresAt = token ? context.state.tokens.get(token) : undefined;
  if (!token || !expiresAt || !context.state.tokenValid(token)) return sendJson(res, 401, { status: 401, message: 'invalid access token' });
  const expiresIn = Math.floor((expiresAt - context.options.now()) / 1000);
  const grant = context.accounts.accessTokens.get(token);
  // A user token names its user (A1); an app token does not.
  if (grant) return sendJson(res, 200, { client_id: context.options.clientId, login: grant.login, scopes: grant.scopes, user_id: grant.userId, expires_in: expiresIn });
  return sendJson(res, 200, { client_id: context.options.clientId, scopes: [], expires_in: expiresIn });
}

/** User access tokens live four hours, as Twitch's do. */
const USER_TOKEN_SECONDS = 14_400;

function userTokenAnswer(context: Context, res: ServerResponse, grant: UserGrant) {
  const accessToken = context.state.issueToken(USER_TOKEN_SECONDS);
  context.accounts.accessTokens.set(accessToken, grant);
  const refreshToken = context.accounts.issueRefreshToken(grant);
  return sendJson(res, 200, { access_token: accessToken, expires_in: USER_TOKEN_SECONDS, refresh_token: refreshToken, scope: grant.scopes, token_type: 'bearer' });
}

function grantCode(context: Context, res: ServerResponse, params: Map<string, string>) {
  const code = params.get('code') ?? '';
  const issued = context.accounts.codes.get(code);
  // Single use: a second exchange of the same code is refused.
  context.accounts.codes.delete(code);
  if (!issued) return sendJson(res, 400, { status: 400, message: 'Invalid authorization code' });
  if (issued.redirectUri !== params.get('redirect_uri')) return sendJson(res, 400, { status: 400, message: 'Parameter redirect_uri does not match registered URI' });
  const { redirectUri: _redirectUri, ...grant } = issued;
  return userTokenAnswer(context, res, grant);
}

/** Twitch answers a refresh with a new refresh token too; the fake retires the old one, the strictest reading. */
function grantRefresh(context: Context, res: ServerResponse, params: Map<string, string>) {
  const token = params.get('refresh_token') ?? '';
  const grant = context.accounts.refreshTokens.get(token);
  if (!grant) return sendJson(res, 400, { status: 400, message: 'Invalid refresh token' });
  context.accounts.refreshTokens.delete(token);
  return userTokenAnswer(context, res, grant);
}

/** The consent page, already agreed (or refused) by the user the test named: straight back to redirect_uri. */
function handleAuthorize(context: Context, res: ServerResponse, params: URLSearchParams) {
  if (params.get('client_id') !== context.options.clientId) return sendJson(res, 400, { status: 400, message: 'invalid client' });
  if (params.get('response_type') !== 'code') return sendJson(res, 400, { status: 400, message: 'unsupported response_type' });
  const redirectUri = params.get('redirect_uri');
  const user = context.accounts.authorizing;
  if (!redirectUri || !user) return sendJson(res, 400, { status: 400, message: 'nobody is signing in' });
  const back = new URL(redirectUri);
  const state = params.get('state');
  if (user.deny) {
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', 'The user denied you access');
  } else {
    const asked = (params.get('scope') ?? '').split(' ').filter(Boolean);
    const twitchUser = context.state.users.get(user.login.toLowerCase()) ?? context.state.addBroadcaster({ login: user.login });
    const scopes = user.scopes ?? asked;
    back.searchParams.set('code', context.accounts.issueCode({ userId: twitchUser.id, login: twitchUser.login, scopes }, redirectUri));
    back.searchParams.set('scope', scopes.join(' '));
  }
  if (state !== null) back.searchParams.set('state', state);
  res.writeHead(302, { Location: back.toString() });
  res.end();
}

/** POST /oauth2/revoke (form client_id, token): access or refresh token alike. */
async function handleRevoke(context: Context, req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
  const params = new Map(query);
  for (const [key, value] of new URLSearchParams(await readBody(req))) params.set(key, value);
  if (params.get('client_id') !== context.options.clientId) return sendJson(res, 404, { status: 404, message: 'client does not exist' });
  const token = params.get('token') ?? '';
  if (context.accounts.refreshTokens.delete(token)) {
    context.revoked.push(token);
  } else if (context.accounts.accessTokens.has(token) && context.state.tokenValid(token)) {
    context.state.tokens.set(token, 0);
    context.revoked.push(token);
  } else {
    return sendJson(res, 400, { status: 400, message: 'Invalid token' });
  }
  res.writeHead(200);
  res.end();
}

// ---------------------------------------------------------------------------------------------
// Helix (A2–A5)

function handleHelix(context: Context, endpoint: 'users' | 'clips' | 'games' | 'streams' | 'videos', req: IncomingMessage, res: ServerResponse, params: URLSearchParams, failure: QueuedFailure | undefined) {
  if (failure?.kind === 'rate_limit') {
    const resetAt = failure.resetAt ?? Math.floor(context.options.now() / 1000) + 2;
    return sendJson(res, 429, helixError(429, 'Too many requests, please slow down'), rateLimitHeaders(0, resetAt));
  }
  const headers = consumeRateLimit(context);
  if (failure?.kind === 'server_error') return sendJson(res, 500, helixError(500, 'Internal Server Error'), headers);
  const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (failure?.kind === 'unauthorized' && bearer) context.state.tokens.set(bearer, 0);
  if (!bearer) return sendJson(res, 401, helixError(401, 'OAuth token is missing'), headers);
  if (!context.state.tokenValid(bearer)) return sendJson(res, 401, helixError(401, 'Invalid OAuth token'), headers);
  const clientId = req.headers['client-id'];
  if (!clientId) return sendJson(res, 401, helixError(401, 'Client-Id header required'), headers);
  if (clientId !== context.options.clientId) return sendJson(res, 401, helixError(401, 'Client ID and OAuth token do not match'), headers);

  const result =
    endpoint === 'users'
      ? getUsers(context, params)
      : endpoint === 'games'
        ? getGames(context, params)
        : endpoint === 'streams'
          ? getStreams(context, params)
          : endpoint === 'videos'
            ? getVideos(context, params)
            : getClips(context, params);
  return sendJson(res, result.status, result.body, headers);
}

type HelixResult = { status: number; body: unknown };

const badRequest = (message: string): HelixResult => ({ status: 400, body: helixError(400, message) });

function getUsers(context: Context, params: URLSearchParams): HelixResult {
  const logins = params.getAll('login').map((login) => login.toLowerCase());
  const ids = params.getAll('id');
  if (logins.length + ids.length === 0) return badRequest('Must provide an ID, Login or OAuth Token.');
  if (logins.length + ids.length > 100) return badRequest('The maximum number of ids and logins you may specify is 100');
  const users = [
    ...ids.map((id) => context.state.userById(id)),
    ...logins.map((login) => context.state.users.get(login)),
  ].filter((user): user is FakeUser => user !== undefined);
  // Unknown logins are silently omitted; this endpoint has no pagination key (A3).
  return { status: 200, body: { data: users } };
}

/** Get Streams: the live ones of the user_id/user_login asked (offline ones are left out). */
function getStreams(context: Context, params: URLSearchParams): HelixResult {
  const ids = [...params.getAll('user_id'), ...params.getAll('user_login').map((login) => context.state.users.get(login.toLowerCase())?.id ?? '')];
  if (ids.length > 100) return badRequest('The maximum number of user_id and user_login you may specify is 100');
  const data = ids.flatMap((id) => {
    const stream = context.accounts.streams.get(id);
    const user = context.state.userById(id);
    if (!stream || !user) return [];
    return [{ id: stream.id, user_id: id, user_login: user.login, user_name: user.display_name, game_id: '', game_name: '', type: 'live', title: stream.title, viewer_count: 120, started_at: stream.started_at, language: 'en', thumbnail_url: '', tag_ids: [], tags: [], is_mature: false }];
  });
  return { status: 200, body: { data, pagination: {} } };
}

/** Get Videos of one user: its VODs, newest first, with the stream each recorded. */
function getVideos(context: Context, params: URLSearchParams): HelixResult {
  const userId = params.get('user_id');
  if (!userId) return badRequest('Missing required parameter "user_id"');
  const data = [...context.accounts.videos]
    .filter(([, owner]) => owner === userId)
    .reverse()
    .map(([id]) => ({ id, stream_id: context.accounts.videoStreams.get(id) ?? null, user_id: userId, type: 'archive', created_at: new Date(context.options.now()).toISOString(), duration: '1h2m3s' }));
  return { status: 200, body: { data, pagination: {} } };
}

function getGames(context: Context, params: URLSearchParams): HelixResult {
  const ids = params.getAll('id');
  const names = params.getAll('name');
  const total = ids.length + names.length + params.getAll('igdb_id').length;
  if (total === 0) return badRequest('Missing required parameter "id", "name" or "igdb_id"');
  if (total > 100) return badRequest('The maximum number of ids, names and igdb_ids you may specify is 100');
  const games = [...context.state.games.values()].filter((game) => ids.includes(game.id) || names.includes(game.name));
  return { status: 200, body: { data: games } };
}

function getClips(context: Context, params: URLSearchParams): HelixResult {
  const selectors = ['broadcaster_id', 'game_id', 'id'].filter((key) => params.has(key));
  if (selectors.length !== 1) return badRequest('Exactly one of "broadcaster_id", "game_id" or "id" must be specified');
  const first = params.has('first') ? Number(params.get('first')) : 20;
  if (!Number.isInteger(first) || first < 1 || first > 100) {
    return badRequest('The parameter "first" was malformed: the value must be greater than or equal to 1 and less than or equal to 100');
  }
  const all = [...context.state.clips.values()].map((record: ClipRecord) => record.clip);
  if (params.has('id')) {
    const ids = params.getAll('id');
    if (ids.length > 100) return badRequest('The maximum number of ids you may specify is 100');
    // Input order, unknown ids dropped, no pagination (A4).
    const byId = new Map(all.map((clip) => [clip.id, clip]));
    const clips = [...new Set(ids)].filter((id) => !stillBeingMade(context, id)).map((id) => byId.get(id)).filter((clip): clip is FakeClip => clip !== undefined);
    return { status: 200, body: { data: clips, pagination: {} } };
  }
  const window = clipWindow(params);
  if ('error' in window) return badRequest(window.error);
  const gameId = params.get('game_id');
  if (gameId !== null && !context.state.games.has(gameId)) return { status: 404, body: helixError(404, 'game not found') };
  const broadcasterId = params.get('broadcaster_id');
  const featured = params.get('is_featured');
  const matching = all
    .filter((clip) => !context.pending.has(clip.id))
    .filter((clip) => (broadcasterId !== null ? clip.broadcaster_id === broadcasterId : clip.game_id === gameId))
    .filter((clip) => featured === null || clip.is_featured === (featured === 'true'))
    .filter((clip) => inWindow(clip, window))
    .sort(byViewsDescending)
    // Twitch stops at roughly 1,000 clips per query, whatever the cursor says (A4).
    .slice(0, 1000);
  const offset = decodeCursor(params.get('after') ?? params.get('before'));
  if (offset === null) return badRequest('The parameter "after" was malformed');
  const { repeatCursorAfterPages, shiftPages } = context.paging;
  if (!params.has('before') && repeatCursorAfterPages !== undefined && offset > 0 && offset >= repeatCursorAfterPages * first) {
    const again = matching.slice(Math.max(0, offset - first), offset);
    return { status: 200, body: { data: again, pagination: { cursor: params.get('after') } } };
  }
  const start = params.has('before') ? Math.max(0, offset - 2 * first) : shiftPages && offset > 0 ? offset - 1 : offset;
  const page = matching.slice(start, start + first);
  const end = start + page.length;
  // `pagination` is an empty object on the last page (A4).
  const pagination = end < matching.length ? { cursor: encodeCursor(end) } : {};
  return { status: 200, body: { data: page, pagination } };
}

/** A clip Create Clip made is missing from the first lookups by id: Twitch makes it in the background. */
function stillBeingMade(context: Context, id: string): boolean {
  const left = context.pending.get(id);
  if (left === undefined) return false;
  if (left <= 1) context.pending.delete(id);
  else context.pending.set(id, left - 1);
  return true;
}

type Window = { from: number | null; to: number | null } | { error: string };

/** started_at/ended_at: ended_at defaults to started_at + 1 week and needs started_at (A4). */
function clipWindow(params: URLSearchParams): Window {
  const startedAt = params.get('started_at');
  const endedAt = params.get('ended_at');
  if (endedAt !== null && startedAt === null) return { error: 'started_at is required if ended_at is provided' };
  if (startedAt === null) return { from: null, to: null };
  const from = parseRfc3339(startedAt);
  if (from === null) return { error: 'The parameter "started_at" was malformed: the value must be in RFC3339 format' };
  const to = endedAt === null ? from + 7 * 86_400_000 : parseRfc3339(endedAt);
  if (to === null) return { error: 'The parameter "ended_at" was malformed: the value must be in RFC3339 format' };
  return { from, to };
}

function parseRfc3339(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : time;
}

function inWindow(clip: FakeClip, window: { from: number | null; to: number | null }): boolean {
  const created = Date.parse(clip.created_at);
  return (window.from === null || created >= window.from) && (window.to === null || created < window.to);
}

function byViewsDescending(a: FakeClip, b: FakeClip): number {
  return b.view_count - a.view_count || b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id);
}

/** Opaque like Twitch's (base64 JSON, e.g. eyJiIjpudWxsLCJhIjoiIn0); here it carries an offset. */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ b: null, a: { Offset: offset } })).toString('base64url');
}

function decodeCursor(cursor: string | null): number | null {
  if (!cursor) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { a?: { Offset?: unknown } };
    const offset = parsed.a?.Offset;
    return typeof offset === 'number' && Number.isInteger(offset) && offset >= 0 ? offset : null;
  } catch {
    return null;
  }
}

function helixError(status: number, message: string) {
  return { error: STATUS_TEXT[status] ?? 'Error', status, message };
}

/** A simple per-minute bucket: every Helix response carries Ratelimit-Limit/Remaining/Reset (A2). */
function consumeRateLimit(context: Context): Record<string, string> {
  const nowSeconds = Math.floor(context.options.now() / 1000);
  const windowStart = nowSeconds - (nowSeconds % 60);
  if (context.rateLimit.windowStart !== windowStart) context.rateLimit = { windowStart, used: 0 };
  context.rateLimit.used++;
  return rateLimitHeaders(Math.max(0, RATE_LIMIT - context.rateLimit.used), windowStart + 60);
}

function rateLimitHeaders(remaining: number, resetAt: number): Record<string, string> {
  return { 'Ratelimit-Limit': String(RATE_LIMIT), 'Ratelimit-Remaining': String(remaining), 'Ratelimit-Reset': String(resetAt) };
}

// ---------------------------------------------------------------------------------------------
// Helix with a user's token (decision 0047): Create Clip, Create Clip From VOD, Get Clips Download

const CLIP_SCOPE = 'clips:edit';
const MANAGE_SCOPES = ['editor:manage:clips', 'channel:manage:clips'];
const NOT_EDITOR = 'The user is not an editor for the specified broadcaster';

function handleUserHelix(
  context: Context,
  endpoint: 'create_clip' | 'vod_clip' | 'clip_downloads',
  req: IncomingMessage,
  res: ServerResponse,
  params: URLSearchParams,
  failure: QueuedFailure | undefined,
) {
  if (failure?.kind === 'rate_limit') {
    const resetAt = failure.resetAt ?? Math.floor(context.options.now() / 1000) + 2;
    return sendJson(res, 429, helixError(429, 'Too many requests, please slow down'), rateLimitHeaders(0, resetAt));
  }
  const headers = consumeRateLimit(context);
  if (failure?.kind === 'server_error') return sendJson(res, 500, helixError(500, 'Internal Server Error'), headers);
  const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!bearer) return sendJson(res, 401, helixError(401, 'OAuth token is missing'), headers);
  if (req.headers['client-id'] !== context.options.clientId) return sendJson(res, 401, helixError(401, 'Client ID and OAuth token do not match'), headers);
  const grant = context.accounts.accessTokens.get(bearer);
  if (!context.state.tokenValid(bearer)) return sendJson(res, 401, helixError(401, 'Invalid OAuth token'), headers);
  // An app token is no user's: these endpoints need one (an app token reads as a missing scope).
  const result = endpoint === 'create_clip' ? createClip(context, grant, params) : endpoint === 'vod_clip' ? createVodClip(context, grant, params) : clipDownloads(context, grant, params);
  return sendJson(res, result.status, result.body, headers);
}

const missingScope = (scopes: string): HelixResult => ({ status: 401, body: helixError(401, `Missing scope: ${scopes}`) });
const hasAny = (grant: UserGrant, scopes: readonly string[]) => scopes.some((scope) => grant.scopes.includes(scope));

function newClipOf(context: Context, broadcasterId: string, creator: UserGrant, extra: { title?: string; video_id?: string; vod_offset?: number | null; duration?: number }): HelixResult {
  const broadcaster = context.state.userById(broadcasterId);
  if (!broadcaster) return { status: 404, body: helixError(404, 'The ID in broadcaster_id was not found') };
  const clip = context.state.addClip({
    broadcaster: broadcaster.login,
    title: extra.title ?? `${broadcaster.display_name} live`,
    view_count: 0,
    created_at: new Date(context.options.now()),
    creator_name: creator.login,
    creator_id: creator.userId,
    duration: extra.duration ?? 30,
    video_id: extra.video_id ?? '',
    vod_offset: extra.vod_offset ?? null,
  });
  if (context.clipDelay > 0) context.pending.set(clip.id, context.clipDelay);
  return { status: 202, body: { data: [{ id: clip.id, edit_url: `https://clips.twitch.tv/${clip.id}/edit` }] } };
}

function createClip(context: Context, grant: UserGrant | undefined, params: URLSearchParams): HelixResult {
  if (!grant || !grant.scopes.includes(CLIP_SCOPE)) return missingScope(CLIP_SCOPE);
  const broadcasterId = params.get('broadcaster_id');
  if (!broadcasterId) return badRequest('Missing required parameter "broadcaster_id"');
  if (!context.state.userById(broadcasterId)) return { status: 404, body: helixError(404, 'The ID in broadcaster_id was not found') };
  if (!context.accounts.live.has(broadcasterId)) return { status: 404, body: helixError(404, 'Clipping is not possible for an offline channel.') };
  return newClipOf(context, broadcasterId, grant, {});
}

/** Every parameter in the query (twitch_api's Create Clip From VOD); vod_offset is where the clip ends. */
function createVodClip(context: Context, grant: UserGrant | undefined, params: URLSearchParams): HelixResult {
  if (!grant || !hasAny(grant, MANAGE_SCOPES)) return missingScope(MANAGE_SCOPES.join(' or '));
  const editorId = params.get('editor_id');
  const broadcasterId = params.get('broadcaster_id');
  const vodId = params.get('vod_id');
  const title = params.get('title');
  const vodOffset = Number(params.get('vod_offset'));
  const duration = params.has('duration') ? Number(params.get('duration')) : 30;
  if (!editorId || !broadcasterId || !vodId || !title || !params.has('vod_offset')) return badRequest('Missing required parameter: editor_id, broadcaster_id, vod_id, vod_offset and title are required');
  if (editorId !== grant.userId) return { status: 401, body: helixError(401, 'editor_id must match the user ID in the user access token') };
  if (!Number.isFinite(duration) || duration < 5 || duration > 60) return badRequest('The parameter "duration" must be from 5 to 60 seconds');
  if (!Number.isInteger(vodOffset) || vodOffset < duration) return badRequest('The parameter "vod_offset" must be at least the duration');
  if (!context.accounts.mayEdit(grant.userId, broadcasterId)) return { status: 403, body: helixError(403, NOT_EDITOR) };
  if (context.accounts.videos.get(vodId) !== broadcasterId) return { status: 404, body: helixError(404, 'The VOD was not found') };
  return newClipOf(context, broadcasterId, grant, { title, video_id: vodId, vod_offset: vodOffset - duration, duration });
}

/** Get Clips Download (A6a): one entry per known clip of the broadcaster; portrait only where the streamer made one. */
function clipDownloads(context: Context, grant: UserGrant | undefined, params: URLSearchParams): HelixResult {
  if (!grant || !hasAny(grant, MANAGE_SCOPES)) return missingScope(MANAGE_SCOPES.join(' or '));
  const editorId = params.get('editor_id');
  const broadcasterId = params.get('broadcaster_id');
  const clipIds = params.getAll('clip_id');
  if (!editorId || !broadcasterId || clipIds.length === 0) return badRequest('Missing required parameter: editor_id, broadcaster_id and clip_id are required');
  if (clipIds.length > 10) return badRequest('The maximum number of clip_id you may specify is 10');
  if (editorId !== grant.userId) return badRequest('Invalid editor_id');
  if (!context.accounts.mayEdit(grant.userId, broadcasterId)) return { status: 403, body: helixError(403, NOT_EDITOR) };
  const data = clipIds.flatMap((id) => {
    const record = context.state.clips.get(id);
    if (!record || record.clip.broadcaster_id !== broadcasterId) return [];
    return [{ clip_id: id, landscape_download_url: officialUrl(context, id, 'landscape'), portrait_download_url: record.portrait ? officialUrl(context, id, 'portrait') : null }];
  });
  return { status: 200, body: { data } };
}

/** Twitch's official file URLs are signed and short-lived; the fake signs them with an expiry too. */
function officialUrl(context: Context, slug: string, kind: 'landscape' | 'portrait'): string {
  const expires = Math.floor(context.options.now() / 1000) + 3600;
  return `${context.state.baseUrlOf()}/cdn/official/${slug}/${kind}.mp4?expires=${expires}&sig=${context.state.signOfficial(slug, kind, expires)}`;
}

async function handleOfficialFile(context: Context, req: IncomingMessage, res: ServerResponse, path: string) {
  const match = /^\/cdn\/official\/([^/]+)\/(landscape|portrait)\.mp4$/.exec(path);
  const url = new URL(req.url ?? '/', 'http://fake');
  const record = match ? context.state.clips.get(match[1]!) : undefined;
  const kind = match?.[2] as 'landscape' | 'portrait' | undefined;
  const expires = Number(url.searchParams.get('expires'));
  const signed = record && kind && context.state.signOfficial(record.clip.id, kind, expires) === url.searchParams.get('sig') && expires * 1000 > context.options.now();
  if (!record || !kind || !signed || (kind === 'portrait' && !record.portrait)) {
    res.writeHead(403, { 'Content-Type': 'application/xml' });
    res.end('<Error><Code>AccessDenied</Code></Error>');
    return;
  }
  const media = kind === 'portrait' ? context.portraitPath : (context.clipMedia.get(record.clip.id) ?? context.mediaPath);
  const { size } = await stat(media);
  res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': String(size) });
  if (req.method === 'HEAD') res.end();
  else createReadStream(media).pipe(res);
}

// ---------------------------------------------------------------------------------------------
// gql.twitch.tv VideoAccessToken_Clip (A6b)

interface GqlOperation {
  operationName?: unknown;
  variables?: { slug?: unknown } | null;
  extensions?: { persistedQuery?: { sha256Hash?: unknown } | null } | null;
}

async function handleGql(context: Context, record: RecordedRequest, req: IncomingMessage, res: ServerResponse, failure: QueuedFailure | undefined) {
  if (failure?.kind === 'server_error') return sendJson(res, 500, { error: 'Internal Server Error', status: 500, message: 'service error' });
  if (failure?.kind === 'rate_limit') return sendJson(res, 429, { error: 'Too Many Requests', status: 429, message: 'too many requests' });
  const clientId = req.headers['client-id'];
  if (!clientId) return sendJson(res, 400, { error: 'Bad Request', status: 400, message: 'The "Client-ID" header is missing from the request.' });
  if (clientId !== context.options.gqlClientId) return sendJson(res, 400, { error: 'Bad Request', status: 400, message: 'The "Client-ID" header is invalid.' });
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch {
    return sendJson(res, 400, { error: 'Bad Request', status: 400, message: 'The request body is not valid JSON.' });
  }
  // An array body gets an array answer, an object body an object (A6b).
  const operations = (Array.isArray(body) ? body : [body]) as GqlOperation[];
  record.hashes = operations.map((operation) => String(operation?.extensions?.persistedQuery?.sha256Hash ?? ''));
  const answers = operations.map((operation) => answerClipQuery(context, operation));
  return sendJson(res, 200, Array.isArray(body) ? answers : answers[0]);
}

function answerClipQuery(context: Context, operation: GqlOperation): unknown {
  const hash = operation?.extensions?.persistedQuery?.sha256Hash;
  if (typeof hash !== 'string' || !context.acceptedHashes.has(hash)) return { errors: [{ message: 'PersistedQueryNotFound' }] };
  if (operation.operationName !== 'VideoAccessToken_Clip') return { errors: [{ message: 'operation name does not match the persisted query' }] };
  const extensions = { durationMilliseconds: 42, operationName: 'VideoAccessToken_Clip', requestID: 'FAKE01KM07AFEX9EWTM0TC93AMVV' };
  const slug = operation.variables?.slug;
  const record = typeof slug === 'string' ? context.state.clips.get(slug) : undefined;
  if (!record) return { data: { clip: null }, extensions };
  const current = hash === CLIP_HASHES.current;
  const qualities = videoQualities(context, record);
  const clip: Record<string, unknown> = {
    id: record.numericId,
    playbackAccessToken: { ...context.state.playbackToken(record, current ? 3 : 2), __typename: 'PlaybackAccessToken' },
    videoQualities: qualities,
    __typename: 'Clip',
  };
  // The current hash also returns assets; the legacy one does not (A6b).
  if (current) {
    clip.assets = [{ id: `AT-cm|${record.numericId}`, aspectRatio: 16 / 9, creationState: 'CREATED', videoQualities: qualities, portraitMetadata: null, __typename: 'ClipAsset' }];
  }
  return { data: { clip }, extensions };
}

/** Working qualities plus the empty-sourceURL ones, in a scrambled order (Twitch's order is not reliable). */
function videoQualities(context: Context, record: ClipRecord): unknown[] | null {
  if (record.qualities === null) return null;
  const entries = [
    ...record.qualities.map((quality) => ({ quality, sourceURL: context.state.sourceUrl(record, quality) })),
    ...record.emptyQualities.map((quality) => ({ quality, sourceURL: '' })),
  ].map((entry) => ({ frameRate: record.frameRate, quality: entry.quality, sourceURL: entry.sourceURL, __typename: 'ClipVideoQuality' }));
  return scramble(entries);
}

/** Ascending by quality with the first moved to the end: never the descending order a naive client expects. */
function scramble<T extends { quality: string }>(entries: T[]): T[] {
  const sorted = [...entries].sort((a, b) => Number.parseInt(a.quality, 10) - Number.parseInt(b.quality, 10));
  return sorted.length > 2 ? [...sorted.slice(1), sorted[0] as T] : sorted;
}

// ---------------------------------------------------------------------------------------------
// Clip CDN and thumbnails (A6b, A4)

async function handleCdn(context: Context, req: IncomingMessage, res: ServerResponse, path: string, params: URLSearchParams, failure: QueuedFailure | undefined) {
  const source = context.state.sourcePaths.get(path);
  // Like production.assets.clips.twitchcdn.net: a missing or wrong sig/token is a plain 404 (A6b).
  if (!source || !context.state.playbackTokenAllows(source.slug, params.get('sig'), params.get('token'))) {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('Not Found');
    return;
  }
  if (failure?.kind === 'server_error') {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end('Internal Server Error');
    return;
  }
  const media = context.clipMedia.get(source.slug) ?? context.mediaPath;
  const { size } = await stat(media);
  const headers = { 'Content-Type': 'video/mp4', 'Content-Length': String(size), 'Accept-Ranges': 'bytes', 'Cache-Control': 'max-age=86400' };
  if (req.method === 'HEAD') {
    res.writeHead(200, headers);
    res.end();
    return;
  }
  if (failure?.kind === 'broken_transfer' || failure?.kind === 'short_transfer' || failure?.kind === 'stalled_transfer') {
    return sendTruncated(res, headers, await readFile(media), failure.kind);
  }
  if (failure?.kind === 'corrupt_transfer') {
    res.writeHead(200, headers);
    res.end(Buffer.alloc(size, 0x5a));
    return;
  }
  if (context.hold && context.hold.passes > 0) context.hold.passes -= 1;
  else if (context.hold) {
    context.held += 1;
    await context.hold.promise;
    context.held -= 1;
  }
  res.writeHead(200, headers);
  createReadStream(media).pipe(res);
}

/** Announces the whole file, sends half of it, then drops (destroy), closes (end) or just stops (stall). */
function sendTruncated(res: ServerResponse, headers: Record<string, string>, file: Buffer, kind: 'broken_transfer' | 'short_transfer' | 'stalled_transfer') {
  res.writeHead(200, headers);
  res.write(file.subarray(0, Math.floor(file.length / 2)), () => {
    if (kind === 'broken_transfer') res.socket?.destroy();
    else if (kind === 'short_transfer') res.socket?.end();
    // stalled: nothing more is sent; close() tears the connection down.
  });
}

async function handleThumbnail(context: Context, req: IncomingMessage, res: ServerResponse, path: string) {
  if (!context.state.thumbnailPaths.has(path)) {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('Not Found');
    return;
  }
  const { size } = await stat(context.thumbnailPath);
  res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': String(size) });
  if (req.method === 'HEAD') res.end();
  else createReadStream(context.thumbnailPath).pipe(res);
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > 1_000_000) throw new Error('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
