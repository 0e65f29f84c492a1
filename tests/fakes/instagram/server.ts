import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isObject, sendPage, takeFailure, type QueuedFailure } from '../http.ts';
import { booleanParam, fieldNames, listParam, readParams, sendGraphError, sendJson, sendScriptedFailure, tokenOf, type FakeGraphFailure, type GraphParams } from '../meta.ts';
import {
  BASIC_SCOPE,
  FakeInstagramState,
  KNOWN_SCOPES,
  LONG_TOKEN_SECONDS,
  PUBLISH_SCOPE,
  QUOTA_WINDOW_SECONDS,
  type AddInstagramUserInput,
  type FakeContainer,
  type FakeInstagramUser,
  type FakeMedia,
  type FakeToken,
  type VideoFetch,
} from './state.ts';

/*
 * A local Instagram (API with Instagram Login) speaking the real wire protocol: the consent page
 * (which redirects at once, with Instagram's "#_" tail), api.instagram.com's code exchange (its own
 * error shape, the user_id as a bare number above 2^53), graph.instagram.com's long-lived token
 * exchange and refresh, /me, Reel containers that really download their video_url over HTTP (an
 * answer that is not a video, or no answer, ends in ERROR), media_publish (once per container), the
 * content publishing limit in a moving 24-hour window, media insights with refusable metrics, and
 * Graph's error envelope. One HTTP server on 127.0.0.1; the Graph API lives under /v21.0.
 */

export type FakeInstagramEndpoint =
  | 'authorize'
  | 'token'
  | 'exchange'
  | 'refresh'
  | 'me'
  | 'create_container'
  | 'publish'
  | 'publishing_limit'
  | 'insights'
  | 'node'
  | 'unknown';

export interface RecordedInstagramRequest {
  method: string;
  endpoint: FakeInstagramEndpoint;
  path: string;
  query: Record<string, string>;
  /** Query and body together, as Graph reads them. */
  params: GraphParams;
  authorization: string | undefined;
  /** Response status once sent. */
  status: number;
  at: number;
}

export interface FakeInstagramOptions {
  clientId?: string;
  clientSecret?: string;
  /** Registered redirect URIs; empty (default) accepts any absolute http(s) URI. */
  redirectUris?: string[];
  /** Status reads a container answers IN_PROGRESS after its download, before FINISHED (default 2). */
  pollsToFinish?: number;
  /** Posts per account in 24 hours (default 100). */
  publishQuota?: number;
  now?: () => number;
}

/** A published Reel as a demo or a browser test shows it. */
export interface PublishedInstagramPost {
  mediaId: string;
  username: string;
  caption: string;
  collaborators: string[];
  trial: boolean;
  bytes: number;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  publishedAt: number;
}

export interface FakeInstagram {
  url: string;
  authUrl: string;
  tokenUrl: string;
  graphUrl: string;
  clientId: string;
  clientSecret: string;
  /** Environment variables pointing the app at this fake. */
  env: Record<string, string>;
  users: ReadonlyMap<string, FakeInstagramUser>;
  addUser(input: AddInstagramUserInput): FakeInstagramUser;
  /** Who signs in on the consent page (default: the last user added); grantScopes simulates refused permissions. */
  setAuthorizingUser(userId: string, options?: { grantScopes?: string[] }): void;
  /** The consent page redirects with ?error=access_denied until called with false. */
  denyAuthorization(deny?: boolean): void;
  /** A long-lived token without the OAuth dance (both scopes unless given). */
  issueToken(userId: string, scopes?: string[]): string;
  /** The person removes the app: every token of theirs answers 190/458. */
  revoke(userId: string): void;
  /** Tokens (one account's, or all) expire: 190/463. */
  expireTokens(userId?: string): void;
  /** Status reads after the download before FINISHED. */
  setPollsToFinish(polls: number): void;
  setPublishQuota(total: number): void;
  publishesInWindow(userId: string): number;
  /** The container expires (as after 24 hours unpublished). */
  expireContainer(containerId: string): void;
  containers: ReadonlyMap<string, FakeContainer>;
  media: ReadonlyMap<string, FakeMedia>;
  /** Insights requests naming this metric are refused with #100, as Instagram does for retired metrics. */
  refuseMetric(metric: string): void;
  setCounts(mediaId: string, counts: { views?: number; likes?: number; comments?: number; shares?: number }): void;
  publishedPosts(): PublishedInstagramPost[];
  failNext(endpoint: Exclude<FakeInstagramEndpoint, 'unknown'>, failure: FakeGraphFailure, times?: number): void;
  advanceTime(ms: number): void;
  now(): number;
  requests: RecordedInstagramRequest[];
  requestsTo(endpoint: FakeInstagramEndpoint): RecordedInstagramRequest[];
  /**
   * Forgets what tests recorded and scripted (requests, failures, denial, who authorizes, refused
   * metrics, polls and quota back to their defaults, the publishing window); users, tokens,
   * containers and media stay.
   */
  reset(): void;
  close(): Promise<void>;
}

interface Context {
  state: FakeInstagramState;
  clientId: string;
  clientSecret: string;
  redirectUris: Set<string>;
  authorizing: { userId: string | null; grantScopes: string[] | null; deny: boolean };
  failures: Map<FakeInstagramEndpoint, QueuedFailure<FakeGraphFailure>[]>;
  refusedMetrics: Set<string>;
  pollsToFinish: number;
  /** Downloads in flight, by container id: a status read waits for its container's. */
  downloads: Map<string, Promise<void>>;
  now: () => number;
}

const AUTHORIZE_PATH = '/oauth/authorize';
const TOKEN_PATH = '/oauth/access_token';
const GRAPH = '/v21.0';
const SUPPORTED_METRICS = new Set(['views', 'likes', 'comments', 'shares', 'saved', 'reach', 'total_interactions']);
const DOWNLOAD_TIMEOUT_MS = 30_000;

export async function startFakeInstagram(options: FakeInstagramOptions = {}): Promise<FakeInstagram> {
  let offsetMs = 0;
  const clock = options.now ?? Date.now;
  const now = () => clock() + offsetMs;
  const state = new FakeInstagramState(now);
  const defaultPolls = options.pollsToFinish ?? 2;
  const defaultQuota = options.publishQuota ?? state.publishQuota;
  state.publishQuota = defaultQuota;
  const context: Context = {
    state,
    clientId: options.clientId ?? '990602627938098',
    clientSecret: options.clientSecret ?? 'eb8c7fakeinstagramsecret0000001',
    redirectUris: new Set(options.redirectUris ?? []),
    authorizing: { userId: null, grantScopes: null, deny: false },
    failures: new Map(),
    refusedMetrics: new Set(),
    pollsToFinish: defaultPolls,
    downloads: new Map(),
    now,
  };
  const requests: RecordedInstagramRequest[] = [];
  const server = createServer((req, res) => {
    handle(context, requests, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendGraphError(res, 500, 2, `fake Instagram: ${String(error)}`, { transient: true });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env: Record<string, string> = {
    INSTAGRAM_CLIENT_ID: context.clientId,
    INSTAGRAM_CLIENT_SECRET: context.clientSecret,
    INSTAGRAM_AUTH_URL: `${baseUrl}${AUTHORIZE_PATH}`,
    INSTAGRAM_TOKEN_URL: `${baseUrl}${TOKEN_PATH}`,
    INSTAGRAM_GRAPH_URL: `${baseUrl}${GRAPH}`,
  };
  const mediaOf = (mediaId: string): FakeMedia => {
    const found = state.media.get(mediaId);
    if (!found) throw new Error(`fake Instagram: no media ${mediaId}`);
    return found;
  };

  return {
    url: baseUrl,
    authUrl: env.INSTAGRAM_AUTH_URL ?? '',
    tokenUrl: env.INSTAGRAM_TOKEN_URL ?? '',
    graphUrl: env.INSTAGRAM_GRAPH_URL ?? '',
    clientId: context.clientId,
    clientSecret: context.clientSecret,
    env,
    users: state.users,
    addUser: (input) => state.addUser(input),
    setAuthorizingUser: (userId, authorizeOptions = {}) => {
      if (!state.users.has(userId)) throw new Error(`fake Instagram: no user ${userId}`);
      context.authorizing.userId = userId;
      context.authorizing.grantScopes = authorizeOptions.grantScopes ?? null;
    },
    denyAuthorization: (deny = true) => void (context.authorizing.deny = deny),
    issueToken: (userId, scopes = [BASIC_SCOPE, PUBLISH_SCOPE]) => state.issueToken(userId, [...scopes], 'long').token,
    revoke: (userId) => state.revoke(userId),
    expireTokens: (userId) => state.expireTokens(userId),
    setPollsToFinish: (polls) => void (context.pollsToFinish = polls),
    setPublishQuota: (total) => void (state.publishQuota = total),
    publishesInWindow: (userId) => state.publishesInWindow(userId),
    expireContainer: (containerId) => {
      const container = state.containers.get(containerId);
      if (!container) throw new Error(`fake Instagram: no container ${containerId}`);
      container.expiresAt = 0;
      state.refresh(container);
    },
    containers: state.containers,
    media: state.media,
    refuseMetric: (metric) => void context.refusedMetrics.add(metric),
    setCounts: (mediaId, counts) => Object.assign(mediaOf(mediaId), counts),
    publishedPosts: () =>
      [...state.media.values()].map((media) => ({
        mediaId: media.id,
        username: state.users.get(media.userId)?.username ?? '',
        caption: media.caption,
        collaborators: media.collaborators,
        trial: media.trial,
        bytes: media.videoBytes.length,
        views: media.views,
        likes: media.likes,
        comments: media.comments,
        shares: media.shares,
        publishedAt: media.publishedAt,
      })),
    failNext: (endpoint, failure, times = 1) => {
      const queue = context.failures.get(endpoint) ?? [];
      queue.push({ failure, remaining: times });
      context.failures.set(endpoint, queue);
    },
    advanceTime: (ms) => void (offsetMs += ms),
    now,
    requests,
    requestsTo: (endpoint) => requests.filter((request) => request.endpoint === endpoint),
    reset: () => {
      requests.length = 0;
      context.failures.clear();
      context.refusedMetrics.clear();
      context.authorizing = { userId: null, grantScopes: null, deny: false };
      context.pollsToFinish = defaultPolls;
      state.publishQuota = defaultQuota;
      state.forgetPublishes();
    },
    close: async () => {
      await Promise.allSettled(context.downloads.values());
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Routing

function endpointOf(method: string, path: string): { endpoint: FakeInstagramEndpoint; id: string | null } {
  if (method === 'GET' && path === AUTHORIZE_PATH) return { endpoint: 'authorize', id: null };
  if (method === 'POST' && path === TOKEN_PATH) return { endpoint: 'token', id: null };
  if (!path.startsWith(`${GRAPH}/`)) return { endpoint: 'unknown', id: null };
  const [first, edge, ...rest] = path.slice(GRAPH.length + 1).split('/');
  if (!first || rest.length > 0) return { endpoint: 'unknown', id: null };
  if (method === 'GET' && first === 'access_token' && !edge) return { endpoint: 'exchange', id: null };
  if (method === 'GET' && first === 'refresh_access_token' && !edge) return { endpoint: 'refresh', id: null };
  if (method === 'GET' && first === 'me' && !edge) return { endpoint: 'me', id: null };
  if (method === 'POST' && edge === 'media') return { endpoint: 'create_container', id: first };
  if (method === 'POST' && edge === 'media_publish') return { endpoint: 'publish', id: first };
  if (method === 'GET' && edge === 'content_publishing_limit') return { endpoint: 'publishing_limit', id: first };
  if (method === 'GET' && edge === 'insights') return { endpoint: 'insights', id: first };
  if (method === 'GET' && !edge) return { endpoint: 'node', id: first };
  return { endpoint: 'unknown', id: null };
}

async function handle(context: Context, requests: RecordedInstagramRequest[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const method = req.method ?? 'GET';
  const { endpoint, id } = endpointOf(method, url.pathname);
  const params = await readParams(req, url);
  const record: RecordedInstagramRequest = {
    method,
    endpoint,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    params,
    authorization: req.headers.authorization,
    status: 0,
    at: context.now(),
  };
  requests.push(record);
  res.on('finish', () => {
    record.status = res.statusCode;
  });
  const failure = takeFailure(context.failures, endpoint);
  if (failure !== undefined) {
    if (endpoint === 'token') return sendTokenEndpointFailure(res, failure);
    if (endpoint !== 'authorize') return sendScriptedFailure(res, failure);
  }
  switch (endpoint) {
    case 'authorize':
      return handleAuthorize(context, res, url.searchParams, failure);
    case 'token':
      return handleCodeExchange(context, res, params);
    case 'exchange':
      return handleLongLivedExchange(context, res, params);
    case 'refresh':
      return handleRefresh(context, res, params);
    case 'unknown':
      return sendGraphError(res, 400, 100, `Unsupported ${method} request. Object with ID '${url.pathname}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33, type: 'GraphMethodException' });
    case 'me':
    case 'create_container':
    case 'publish':
    case 'publishing_limit':
    case 'insights':
    case 'node':
      return handleGraph(context, endpoint, id ?? '', req, res, params);
  }
}

// ---------------------------------------------------------------------------------------------
// Consent page and tokens

function handleAuthorize(context: Context, res: ServerResponse, params: URLSearchParams, failure: FakeGraphFailure | undefined): void {
  // Problems with the app or the redirect target cannot be redirected back: Instagram shows a page.
  if (params.get('client_id') !== context.clientId) return sendPage(res, 400, 'Invalid platform app', 'Instagram');
  const redirectUri = params.get('redirect_uri') ?? '';
  if (!isHttpUrl(redirectUri) || (context.redirectUris.size > 0 && !context.redirectUris.has(redirectUri))) {
    return sendPage(res, 400, 'Invalid redirect_uri: it must match one of the app’s valid OAuth redirect URIs.', 'Instagram');
  }
  const state = params.get('state');
  const back = (query: Record<string, string>) => redirectWithTail(res, redirectUri, state === null ? query : { ...query, state });
  if (failure !== undefined) return sendPage(res, typeof failure === 'number' ? failure : 500, 'Fake failure', 'Instagram');
  if (params.get('response_type') !== 'code') return back({ error: 'invalid_request', error_reason: 'invalid_response_type', error_description: 'response_type must be code' });
  const requested = (params.get('scope') ?? '').split(',').map((scope) => scope.trim()).filter(Boolean);
  if (!requested.includes(BASIC_SCOPE) || requested.some((scope) => !KNOWN_SCOPES.includes(scope))) {
    return back({ error: 'invalid_scope', error_reason: 'invalid_scope', error_description: 'Invalid Scopes: the scope must include instagram_business_basic' });
  }
  if (context.authorizing.deny) return back({ error: 'access_denied', error_reason: 'user_denied', error_description: 'The user denied your request.' });
  const user = context.authorizing.userId === null ? [...context.state.users.values()].at(-1) : context.state.users.get(context.authorizing.userId);
  if (!user) return sendPage(res, 400, 'fake Instagram: no user to authorise (addUser first)', 'Instagram');
  const granted = context.authorizing.grantScopes === null ? requested : requested.filter((scope) => context.authorizing.grantScopes?.includes(scope));
  back({ code: context.state.issueCode(user.userId, granted, redirectUri) });
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.hash;
  } catch {
    return false;
  }
}

/** Instagram's redirect back ends in "#_"; a callback reads only the query. */
function redirectWithTail(res: ServerResponse, target: string, query: Record<string, string>): void {
  const location = new URL(target);
  for (const [key, value] of Object.entries(query)) location.searchParams.set(key, value);
  location.hash = '_';
  res.writeHead(302, { Location: location.toString(), 'Content-Length': '0' });
  res.end();
}

/** api.instagram.com's own error shape. */
function sendTokenError(res: ServerResponse, message: string, status = 400): void {
  sendJson(res, status, { error_type: 'OAuthException', code: status, error_message: message });
}

function sendTokenEndpointFailure(res: ServerResponse, failure: FakeGraphFailure): void {
  if (typeof failure === 'number') return sendTokenError(res, `Fake failure: HTTP ${failure}`, failure);
  sendTokenError(res, failure.message ?? `Fake failure (#${failure.code})`, failure.status ?? 400);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function handleCodeExchange(context: Context, res: ServerResponse, params: GraphParams): void {
  if (text(params.client_id) !== context.clientId) return sendTokenError(res, 'Invalid platform app');
  if (text(params.client_secret) !== context.clientSecret) return sendTokenError(res, 'Error validating client secret.');
  if (text(params.grant_type) !== 'authorization_code') return sendTokenError(res, 'Unsupported grant_type');
  const code = text(params.code);
  const redirectUri = text(params.redirect_uri);
  if (!code || !redirectUri) return sendTokenError(res, 'Missing required parameter: code or redirect_uri');
  const grant = context.state.redeemCode(code, redirectUri);
  if ('error' in grant) return sendTokenError(res, grant.error);
  const user = context.state.users.get(grant.userId);
  if (!user) return sendTokenError(res, 'Invalid user');
  const { token } = context.state.issueToken(user.userId, grant.scopes, 'short');
  // user_id is a bare JSON number above 2^53, as Instagram sends it: JSON.parse alone would round it.
  const body = `{"data":[{"access_token":${JSON.stringify(token)},"user_id":${user.scopedId},"permissions":${JSON.stringify(grant.scopes.join(','))}}]}`;
  res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
}

function refuseToken(res: ServerResponse, refusal: { subcode: number | null; message: string }): void {
  sendGraphError(res, 400, 190, refusal.message, refusal.subcode === null ? {} : { subcode: refusal.subcode });
}

function handleLongLivedExchange(context: Context, res: ServerResponse, params: GraphParams): void {
  if (text(params.grant_type) !== 'ig_exchange_token') return sendGraphError(res, 400, 100, 'Unsupported grant type');
  if (text(params.client_secret) !== context.clientSecret) return sendGraphError(res, 400, 1, 'Error validating client secret.');
  const checked = context.state.checkToken(text(params.access_token));
  if (!('userId' in checked)) return refuseToken(res, checked);
  if (checked.kind !== 'short') return sendGraphError(res, 400, 100, 'Only a short-lived token can be exchanged for a long-lived one.');
  const long = context.state.issueToken(checked.userId, checked.scopes, 'long');
  sendJson(res, 200, { access_token: long.token, token_type: 'bearer', expires_in: long.expiresIn });
}

function handleRefresh(context: Context, res: ServerResponse, params: GraphParams): void {
  if (text(params.grant_type) !== 'ig_refresh_token') return sendGraphError(res, 400, 100, 'Unsupported grant type');
  const checked = context.state.checkToken(text(params.access_token));
  if (!('userId' in checked)) return refuseToken(res, checked);
  if (checked.kind !== 'long') return sendGraphError(res, 400, 100, 'Only a long-lived token can be refreshed.');
  const long = context.state.issueToken(checked.userId, checked.scopes, 'long');
  sendJson(res, 200, { access_token: long.token, token_type: 'bearer', expires_in: LONG_TOKEN_SECONDS });
}

// ---------------------------------------------------------------------------------------------
// Graph

async function handleGraph(
  context: Context,
  endpoint: 'me' | 'create_container' | 'publish' | 'publishing_limit' | 'insights' | 'node',
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
  params: GraphParams,
): Promise<void> {
  const checked = context.state.checkToken(tokenOf(req, params));
  if (!('userId' in checked)) return refuseToken(res, checked);
  const user = context.state.users.get(checked.userId);
  if (!user) return refuseToken(res, { subcode: null, message: 'Invalid user' });
  if (!checked.scopes.includes(BASIC_SCOPE)) return sendGraphError(res, 400, 10, '(#10) Application does not have permission for this action');
  switch (endpoint) {
    case 'me':
      return sendMe(res, user, params);
    case 'create_container':
    case 'publish':
    case 'publishing_limit':
      if (!ownAccount(user, id)) return sendGraphError(res, 400, 100, `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33, type: 'GraphMethodException' });
      if (endpoint === 'publishing_limit') return sendPublishingLimit(context, res, user, params);
      if (!checked.scopes.includes(PUBLISH_SCOPE)) return sendGraphError(res, 400, 10, '(#10) Application does not have permission for this action');
      return endpoint === 'create_container' ? createContainer(context, res, user, params) : publish(context, res, user, params);
    case 'insights':
      return sendInsights(context, res, checked, id, params);
    case 'node':
      return sendNode(context, res, checked, id, params);
  }
}

function ownAccount(user: FakeInstagramUser, id: string): boolean {
  return id === user.userId || id === user.scopedId || id === 'me';
}

function sendMe(res: ServerResponse, user: FakeInstagramUser, params: GraphParams): void {
  const fields = fieldNames(params.fields);
  const all: Record<string, unknown> = { id: user.scopedId, user_id: user.userId, username: user.username, name: user.name, profile_picture_url: user.avatarUrl, account_type: 'BUSINESS' };
  const body: Record<string, unknown> = { id: user.scopedId };
  for (const field of fields.length > 0 ? fields : ['id', 'username']) if (field in all) body[field] = all[field];
  sendJson(res, 200, body);
}

function createContainer(context: Context, res: ServerResponse, user: FakeInstagramUser, params: GraphParams): void {
  if (params.__invalid_json) return sendGraphError(res, 400, 100, 'Invalid JSON in the request body');
  if (params.media_type !== 'REELS') return sendGraphError(res, 400, 100, 'The parameter media_type must be REELS for a video (VIDEO is no longer supported).');
  const videoUrl = text(params.video_url);
  if (!videoUrl) return sendGraphError(res, 400, 100, 'The parameter video_url is required');
  const caption = text(params.caption) ?? '';
  if (caption.length > 2200) return sendGraphError(res, 400, 100, 'The caption is longer than 2200 characters', { subcode: 2207010 });
  if ((caption.match(/(?<![\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu)?.length ?? 0) > 30) return sendGraphError(res, 400, 100, 'The caption has more than 30 hashtags', { subcode: 2207010 });
  const shareToFeed = booleanParam(params.share_to_feed, true);
  if (shareToFeed === 'invalid') return sendGraphError(res, 400, 100, 'share_to_feed must be a boolean');
  const collaborators = listParam(params.collaborators);
  if (collaborators === 'invalid' || collaborators.length > 3) return sendGraphError(res, 400, 100, 'collaborators must be a list of at most 3 usernames');
  const trial = params.trial_params;
  if (trial !== undefined && (!isObject(trial) || !['MANUAL', 'SS_PERFORMANCE'].includes(String(trial.graduation_strategy)))) {
    return sendGraphError(res, 400, 100, 'trial_params.graduation_strategy must be MANUAL or SS_PERFORMANCE');
  }
  const container = context.state.createContainer({ userId: user.userId, videoUrl, caption, shareToFeed, collaborators, trialParams: isObject(trial) ? trial : null });
  const download = downloadVideo(container).finally(() => context.downloads.delete(container.id));
  context.downloads.set(container.id, download);
  sendJson(res, 200, { id: container.id });
}

/** Instagram's crawler: a GET of the video URL; the answer must be an MP4/MOV (an ISO BMFF "ftyp" box first). */
async function downloadVideo(container: FakeContainer): Promise<void> {
  const fetched: VideoFetch = { url: container.videoUrl, status: null, contentType: null, bytes: Buffer.alloc(0), error: null };
  try {
    const response = await fetch(container.videoUrl, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), headers: { 'User-Agent': 'facebookexternalhit/1.1' } });
    fetched.status = response.status;
    fetched.contentType = response.headers.get('content-type');
    fetched.bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    fetched.error = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
  }
  container.fetch = fetched;
  if (fetched.status === null || fetched.status < 200 || fetched.status > 299) {
    container.statusCode = 'ERROR';
    container.errorSubcode = 2207052;
  } else if (fetched.bytes.length < 12 || fetched.bytes.subarray(4, 8).toString('latin1') !== 'ftyp') {
    container.statusCode = 'ERROR';
    container.errorSubcode = 2207026;
  }
}

const ERROR_WORDS: Readonly<Record<number, string>> = {
  2207052: 'Media download has failed. The media URI doesn’t meet our requirements.',
  2207026: 'The video format is not supported.',
};

/** A container's status: IN_PROGRESS until its download is done and pollsToFinish reads have passed. */
async function containerFields(context: Context, container: FakeContainer, fields: string[]): Promise<Record<string, unknown>> {
  await context.downloads.get(container.id);
  context.state.refresh(container);
  if (container.statusCode === 'IN_PROGRESS' && container.fetch) {
    container.polls++;
    if (container.polls > context.pollsToFinish) container.statusCode = 'FINISHED';
  }
  const status =
    container.statusCode === 'ERROR' && container.errorSubcode !== null
      ? `Error: ${ERROR_WORDS[container.errorSubcode] ?? 'Unknown error'} (${container.errorSubcode})`
      : container.statusCode === 'IN_PROGRESS'
        ? 'In Progress: Media is still being processed.'
        : container.statusCode === 'FINISHED'
          ? 'Finished: Media has been uploaded and it is ready to be published.'
          : container.statusCode === 'PUBLISHED'
            ? 'Published: Media has been successfully published.'
            : 'Expired: Media was not published within 24 hours.';
  const all: Record<string, unknown> = { id: container.id, status_code: container.statusCode, status };
  const body: Record<string, unknown> = { id: container.id };
  for (const field of fields.length > 0 ? fields : ['id']) if (field in all) body[field] = all[field];
  return body;
}

function publish(context: Context, res: ServerResponse, user: FakeInstagramUser, params: GraphParams): void {
  const creationId = params.creation_id === undefined ? undefined : String(params.creation_id);
  if (!creationId) return sendGraphError(res, 400, 100, 'The parameter creation_id is required');
  const container = context.state.containers.get(creationId);
  if (!container || container.userId !== user.userId) {
    return sendGraphError(res, 400, 24, 'The media with id ' + creationId + ' cannot be found', { subcode: 2207006, userTitle: 'Media not found' });
  }
  context.state.refresh(container);
  if (container.statusCode === 'EXPIRED') {
    return sendGraphError(res, 400, -2, 'The media you are trying to access has expired. Please try to upload again.', { subcode: 2207020, userTitle: 'Media expired' });
  }
  // Only a FINISHED container publishes: one still processing, failed or already published is "not available".
  if (container.statusCode !== 'FINISHED') {
    return sendGraphError(res, 400, 9007, 'Media ID is not available', { subcode: 2207027, userTitle: 'Media Not Ready For Publishing', userMessage: 'The media is not ready for publishing, please wait for a moment' });
  }
  if (context.state.publishesInWindow(user.userId) >= context.state.publishQuota) {
    return sendGraphError(res, 400, 9, 'Application request limit reached', {
      subcode: 2207042,
      userTitle: 'Publishing limit reached',
      userMessage: 'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
    });
  }
  const media = context.state.publish(container);
  sendJson(res, 200, { id: media.id });
}

function sendPublishingLimit(context: Context, res: ServerResponse, user: FakeInstagramUser, params: GraphParams): void {
  const fields = fieldNames(params.fields);
  const entry: Record<string, unknown> = {};
  if (fields.length === 0 || fields.includes('quota_usage')) entry.quota_usage = context.state.publishesInWindow(user.userId);
  if (fields.includes('config')) entry.config = { quota_total: context.state.publishQuota, quota_duration: QUOTA_WINDOW_SECONDS };
  sendJson(res, 200, { data: [entry] });
}

function sendInsights(context: Context, res: ServerResponse, token: FakeToken, id: string, params: GraphParams): void {
  const media = context.state.media.get(id);
  if (!media || media.userId !== token.userId) return sendGraphError(res, 400, 100, `Unsupported get request. Object with ID '${id}' does not exist`, { subcode: 33, type: 'GraphMethodException' });
  const metrics = typeof params.metric === 'string' ? params.metric.split(',').map((metric) => metric.trim()).filter(Boolean) : [];
  if (metrics.length === 0) return sendGraphError(res, 400, 100, '(#100) The parameter metric is required');
  const refused = metrics.find((metric) => !SUPPORTED_METRICS.has(metric) || context.refusedMetrics.has(metric));
  if (refused) return sendGraphError(res, 400, 100, `(#100) The Media Insights API does not support the ${refused} metric for this media product type.`, { type: 'IGApiException' });
  const value = (metric: string): number =>
    metric === 'views' ? media.views : metric === 'likes' ? media.likes : metric === 'comments' ? media.comments : metric === 'shares' ? media.shares : metric === 'total_interactions' ? media.likes + media.comments + media.shares : 0;
  sendJson(res, 200, {
    data: metrics.map((metric) => ({
      name: metric,
      period: 'lifetime',
      values: [{ value: value(metric) }],
      title: metric[0]?.toUpperCase() + metric.slice(1),
      description: `Lifetime ${metric}`,
      id: `${media.id}/insights/${metric}/lifetime`,
    })),
  });
}

async function sendNode(context: Context, res: ServerResponse, token: FakeToken, id: string, params: GraphParams): Promise<void> {
  const fields = fieldNames(params.fields);
  const container = context.state.containers.get(id);
  if (container && container.userId === token.userId) return sendJson(res, 200, await containerFields(context, container, fields));
  const media = context.state.media.get(id);
  if (media && media.userId === token.userId) {
    const all: Record<string, unknown> = {
      id: media.id,
      media_type: 'VIDEO',
      media_product_type: 'REELS',
      caption: media.caption,
      like_count: media.likes,
      comments_count: media.comments,
      permalink: `https://www.instagram.com/reel/${media.id}/`,
      timestamp: new Date(media.publishedAt).toISOString().replace(/\.\d{3}Z$/, '+0000'),
    };
    const body: Record<string, unknown> = { id: media.id };
    for (const field of fields.length > 0 ? fields : ['id']) if (field in all) body[field] = all[field];
    return sendJson(res, 200, body);
  }
  sendGraphError(res, 400, 100, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33, type: 'GraphMethodException' });
}
