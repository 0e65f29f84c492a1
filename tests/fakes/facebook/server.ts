import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBytes, redirect, sendPage, takeFailure, type QueuedFailure } from '../http.ts';
import { fieldNames, readParams, sendGraphError, sendJson, sendScriptedFailure, tokenOf, type FakeGraphFailure, type GraphParams } from '../meta.ts';
import { FakeFacebookState, KNOWN_SCOPES, PAGE_SCOPES, type FakeFacebookUser, type FakePage, type FakeReel, type FakeToken } from './state.ts';

/*
 * A local Facebook speaking the real wire protocol: the Login dialog (which redirects at once), the
 * code and fb_exchange_token grants of /oauth/access_token, /me/permissions, /me/accounts with Page
 * tokens and cursor paging, Page Reels (video_reels start and finish), the upload host
 * (rupload: `Authorization: OAuth`, `offset`, `file_size`, the bytes stored at their offset, a
 * connection that can be cut after K bytes), a video's status with uploading_phase.bytes_transferred,
 * Reel insights and like/comment summaries, and Graph's error envelope. Two HTTP servers on
 * 127.0.0.1, as Graph and the upload host are two origins; the Graph API lives under /v21.0.
 */

export type FakeFacebookEndpoint = 'authorize' | 'token' | 'permissions' | 'accounts' | 'reels_start' | 'reels_finish' | 'video' | 'video_insights' | 'rupload' | 'unknown';

export interface RecordedFacebookRequest {
  method: string;
  endpoint: FakeFacebookEndpoint;
  path: string;
  query: Record<string, string>;
  /** Query and body together, as Graph reads them (not for rupload, whose body is the video). */
  params: GraphParams;
  authorization: string | undefined;
  /** rupload's offset and file_size headers. */
  offset?: string;
  fileSize?: string;
  /** Response status once sent; 0 for a connection the fake cut. */
  status: number;
  at: number;
}

export interface FakeFacebookOptions {
  appId?: string;
  appSecret?: string;
  /** Registered redirect URIs; empty (default) accepts any absolute http(s) URI. */
  redirectUris?: string[];
  /** Status reads a finished Reel answers "processing" before it is published (default 0: published at finish). */
  pollsToProcess?: number;
  /** The most Pages one /me/accounts answer holds, whatever `limit` asks (Graph's: 100). */
  maxPageSize?: number;
  now?: () => number;
}

export interface BreakUpload {
  /** Body bytes read, and kept, before the connection is cut. */
  afterBytes: number;
}

/** A published Reel as a demo or a browser test shows it. */
export interface PublishedFacebookReel {
  videoId: string;
  postId: string;
  pageId: string;
  pageName: string;
  description: string;
  bytes: number;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  publishedAt: number;
}

export interface FakeFacebook {
  url: string;
  authUrl: string;
  graphUrl: string;
  ruploadUrl: string;
  appId: string;
  appSecret: string;
  /** Environment variables pointing the app at this fake. */
  env: Record<string, string>;
  users: ReadonlyMap<string, FakeFacebookUser>;
  pages: ReadonlyMap<string, FakePage>;
  /** A person managing these Pages. */
  addUser(name: string, pageNames?: string[], ids?: { userId?: string; pageIds?: readonly string[] }): { user: FakeFacebookUser; pages: FakePage[] };
  addPage(userId: string, name: string, tasks?: string[]): FakePage;
  /** Who logs in on the dialog (default: the last user added); grantScopes simulates unticked permissions. */
  setAuthorizingUser(userId: string, options?: { grantScopes?: string[] }): void;
  /** The dialog redirects with ?error=access_denied until called with false. */
  denyAuthorization(deny?: boolean): void;
  /** A long-lived user token without the OAuth dance (every Page permission unless given). */
  issueUserToken(userId: string, scopes?: string[]): string;
  /** The Page token /me/accounts would hand out. */
  pageToken(userId: string, pageId: string): string;
  /** The person removes the app: every token of theirs, Page tokens included, answers 190/458. */
  revoke(userId: string): void;
  /** User tokens expire (190/463); Page tokens do not. */
  expireUserTokens(userId?: string): void;
  setPollsToProcess(polls: number): void;
  /** The most Pages one /me/accounts answer holds, so that paging shows with a few Pages. */
  setMaxPageSize(size: number): void;
  /** Cuts the next upload's connection after reading (and keeping) afterBytes of its body. */
  breakNextUpload(cut: BreakUpload): void;
  /** Processing fails with this message: the status says error. */
  failProcessing(videoId: string, message?: string): void;
  /** video_insights requests are refused with this (default #100) until reset. */
  refuseInsights(failure?: FakeGraphFailure): void;
  reels: ReadonlyMap<string, FakeReel>;
  setCounts(videoId: string, counts: { views?: number; likes?: number; comments?: number; shares?: number }): void;
  publishedReels(): PublishedFacebookReel[];
  failNext(endpoint: Exclude<FakeFacebookEndpoint, 'unknown'>, failure: FakeGraphFailure, times?: number): void;
  advanceTime(ms: number): void;
  now(): number;
  requests: RecordedFacebookRequest[];
  requestsTo(endpoint: FakeFacebookEndpoint): RecordedFacebookRequest[];
  /**
   * Forgets what tests recorded and scripted (requests, failures, cuts, denial, who authorizes,
   * refused insights, processing polls, page size); people, Pages, tokens and Reels stay.
   */
  reset(): void;
  close(): Promise<void>;
}

interface Context {
  state: FakeFacebookState;
  appId: string;
  appSecret: string;
  redirectUris: Set<string>;
  authorizing: { userId: string | null; grantScopes: string[] | null; deny: boolean };
  failures: Map<FakeFacebookEndpoint, QueuedFailure<FakeGraphFailure>[]>;
  breaks: BreakUpload[];
  refusedInsights: FakeGraphFailure | null;
  pollsToProcess: number;
  maxPageSize: number;
  graphUrl: () => string;
  ruploadUrl: () => string;
  now: () => number;
}

const VERSION = 'v21.0';
const GRAPH = `/${VERSION}`;
const DIALOG_PATH = `${GRAPH}/dialog/oauth`;
const UPLOAD_PREFIX = `/video-upload/${VERSION}/`;

export async function startFakeFacebook(options: FakeFacebookOptions = {}): Promise<FakeFacebook> {
  let offsetMs = 0;
  const clock = options.now ?? Date.now;
  const now = () => clock() + offsetMs;
  const state = new FakeFacebookState(now);
  let graphBase = '';
  let ruploadBase = '';
  const defaultPolls = options.pollsToProcess ?? 0;
  const context: Context = {
    state,
    appId: options.appId ?? '1234567890123456',
    appSecret: options.appSecret ?? 'fakefacebookappsecret0123456789ab',
    redirectUris: new Set(options.redirectUris ?? []),
    authorizing: { userId: null, grantScopes: null, deny: false },
    failures: new Map(),
    breaks: [],
    refusedInsights: null,
    pollsToProcess: defaultPolls,
    maxPageSize: options.maxPageSize ?? 100,
    graphUrl: () => graphBase,
    ruploadUrl: () => ruploadBase,
    now,
  };
  const requests: RecordedFacebookRequest[] = [];
  const onError = (res: ServerResponse) => (error: unknown) => {
    if (!res.headersSent) sendGraphError(res, 500, 2, `fake Facebook: ${String(error)}`, { transient: true });
    else res.destroy();
  };
  const graph = createServer((req, res) => void handleGraph(context, requests, req, res).catch(onError(res)));
  const rupload = createServer((req, res) => void handleRupload(context, requests, req, res).catch(onError(res)));
  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const url = await listen(graph);
  ruploadBase = await listen(rupload);
  graphBase = `${url}${GRAPH}`;
  const env: Record<string, string> = {
    FACEBOOK_APP_ID: context.appId,
    FACEBOOK_APP_SECRET: context.appSecret,
    FACEBOOK_AUTH_URL: `${url}${DIALOG_PATH}`,
    FACEBOOK_GRAPH_URL: graphBase,
    FACEBOOK_RUPLOAD_URL: ruploadBase,
  };
  const reelOf = (videoId: string): FakeReel => {
    const found = state.reels.get(videoId);
    if (!found) throw new Error(`fake Facebook: no Reel ${videoId}`);
    return found;
  };
  const close = (server: Server) =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });

  return {
    url,
    authUrl: `${url}${DIALOG_PATH}`,
    graphUrl: graphBase,
    ruploadUrl: ruploadBase,
    appId: context.appId,
    appSecret: context.appSecret,
    env,
    users: state.users,
    pages: state.pages,
    addUser: (name, pageNames = [], ids = {}) => state.addUser(name, pageNames, ids),
    addPage: (userId, name, tasks) => state.addPage(userId, name, tasks),
    setAuthorizingUser: (userId, authorizeOptions = {}) => {
      if (!state.users.has(userId)) throw new Error(`fake Facebook: no user ${userId}`);
      context.authorizing.userId = userId;
      context.authorizing.grantScopes = authorizeOptions.grantScopes ?? null;
    },
    denyAuthorization: (deny = true) => void (context.authorizing.deny = deny),
    issueUserToken: (userId, scopes = PAGE_SCOPES) => state.issueUserToken(userId, [...scopes], 'long').token,
    pageToken: (userId, pageId) => state.pageToken(userId, pageId, PAGE_SCOPES),
    revoke: (userId) => state.revoke(userId),
    expireUserTokens: (userId) => state.expireUserTokens(userId),
    setPollsToProcess: (polls) => void (context.pollsToProcess = polls),
    setMaxPageSize: (size) => void (context.maxPageSize = size),
    breakNextUpload: (cut) => void context.breaks.push(cut),
    failProcessing: (videoId, message = 'The video could not be processed.') => {
      const reel = reelOf(videoId);
      reel.phase = 'error';
      reel.processingError = message;
    },
    refuseInsights: (failure = { code: 100, message: '(#100) The value must be a valid insights metric' }) => void (context.refusedInsights = failure),
    reels: state.reels,
    setCounts: (videoId, counts) => Object.assign(reelOf(videoId), counts),
    publishedReels: () =>
      [...state.reels.values()]
        .filter((reel) => reel.phase === 'published')
        .map((reel) => ({
          videoId: reel.videoId,
          postId: reel.postId ?? '',
          pageId: reel.pageId,
          pageName: state.pages.get(reel.pageId)?.name ?? '',
          description: reel.description ?? '',
          bytes: reel.received,
          views: reel.views,
          likes: reel.likes,
          comments: reel.comments,
          shares: reel.shares,
          publishedAt: reel.publishedAt ?? 0,
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
      context.breaks.length = 0;
      context.refusedInsights = null;
      context.authorizing = { userId: null, grantScopes: null, deny: false };
      context.pollsToProcess = defaultPolls;
      context.maxPageSize = options.maxPageSize ?? 100;
    },
    close: async () => {
      await Promise.all([close(graph), close(rupload)]);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Graph routing

function endpointOf(method: string, path: string, params: GraphParams): { endpoint: FakeFacebookEndpoint; id: string | null } {
  if (method === 'GET' && path === DIALOG_PATH) return { endpoint: 'authorize', id: null };
  if (!path.startsWith(`${GRAPH}/`)) return { endpoint: 'unknown', id: null };
  const [first, edge, ...rest] = path.slice(GRAPH.length + 1).split('/');
  if (!first || rest.length > 0) return { endpoint: 'unknown', id: null };
  if (method === 'GET' && first === 'oauth' && edge === 'access_token') return { endpoint: 'token', id: null };
  if (method === 'GET' && first === 'me' && edge === 'permissions') return { endpoint: 'permissions', id: null };
  if (method === 'GET' && first === 'me' && edge === 'accounts') return { endpoint: 'accounts', id: null };
  if (method === 'POST' && edge === 'video_reels') return { endpoint: params.upload_phase === 'finish' ? 'reels_finish' : 'reels_start', id: first };
  if (method === 'GET' && edge === 'video_insights') return { endpoint: 'video_insights', id: first };
  if (method === 'GET' && !edge) return { endpoint: 'video', id: first };
  return { endpoint: 'unknown', id: null };
}

async function handleGraph(context: Context, requests: RecordedFacebookRequest[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const method = req.method ?? 'GET';
  const params = await readParams(req, url);
  const { endpoint, id } = endpointOf(method, url.pathname, params);
  const record: RecordedFacebookRequest = { method, endpoint, path: url.pathname, query: Object.fromEntries(url.searchParams), params, authorization: req.headers.authorization, status: 0, at: context.now() };
  requests.push(record);
  res.on('finish', () => {
    record.status = res.statusCode;
  });
  const failure = takeFailure(context.failures, endpoint);
  if (failure !== undefined && endpoint !== 'authorize') return sendScriptedFailure(res, failure);
  switch (endpoint) {
    case 'authorize':
      return handleDialog(context, res, url.searchParams, failure);
    case 'token':
      return handleToken(context, res, params);
    case 'unknown':
      return sendGraphError(res, 400, 100, `Unsupported ${method} request. Object with ID '${url.pathname}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33, type: 'GraphMethodException' });
    case 'permissions':
    case 'accounts':
    case 'reels_start':
    case 'reels_finish':
    case 'video':
    case 'video_insights':
      return handleApi(context, endpoint, id ?? '', req, res, params);
    case 'rupload':
      return sendGraphError(res, 404, 100, 'Uploads go to the upload host');
  }
}

// ---------------------------------------------------------------------------------------------
// Login dialog and tokens

function handleDialog(context: Context, res: ServerResponse, params: URLSearchParams, failure: FakeGraphFailure | undefined): void {
  if (params.get('client_id') !== context.appId) return sendPage(res, 400, 'Invalid App ID: The provided app ID does not look like a valid app ID.', 'Facebook');
  const redirectUri = params.get('redirect_uri') ?? '';
  if (!isHttpUrl(redirectUri) || (context.redirectUris.size > 0 && !context.redirectUris.has(redirectUri))) {
    return sendPage(res, 400, "URL blocked: This redirect failed because the redirect URI is not whitelisted in the app's client OAuth settings.", 'Facebook');
  }
  const state = params.get('state');
  const back = (query: Record<string, string>) => redirect(res, redirectUri, state === null ? query : { ...query, state });
  if (failure !== undefined) return sendPage(res, typeof failure === 'number' ? failure : 500, 'Fake failure', 'Facebook');
  if ((params.get('response_type') ?? 'code') !== 'code') return back({ error: 'invalid_request', error_description: 'response_type must be code' });
  const requested = (params.get('scope') ?? '').split(',').map((scope) => scope.trim()).filter(Boolean);
  const unknown = requested.find((scope) => !KNOWN_SCOPES.includes(scope));
  if (unknown) return sendPage(res, 400, `Invalid Scopes: ${unknown}.`, 'Facebook');
  if (context.authorizing.deny) return back({ error: 'access_denied', error_code: '200', error_description: 'Permissions error', error_reason: 'user_denied' });
  const user = context.authorizing.userId === null ? [...context.state.users.values()].at(-1) : context.state.users.get(context.authorizing.userId);
  if (!user) return sendPage(res, 400, 'fake Facebook: no user to log in (addUser first)', 'Facebook');
  const granted = context.authorizing.grantScopes === null ? requested : requested.filter((scope) => context.authorizing.grantScopes?.includes(scope));
  back({ code: context.state.issueCode(user.userId, ['public_profile', ...granted], redirectUri) });
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.hash;
  } catch {
    return false;
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function handleToken(context: Context, res: ServerResponse, params: GraphParams): void {
  if (text(params.client_id) !== context.appId) return sendGraphError(res, 400, 101, 'Error validating application. Invalid application ID.');
  if (text(params.client_secret) !== context.appSecret) return sendGraphError(res, 400, 1, 'Error validating client secret.');
  if (params.grant_type === 'fb_exchange_token') {
    const checked = context.state.checkToken(text(params.fb_exchange_token));
    if (!('userId' in checked)) return sendGraphError(res, 400, 190, checked.message, checked.subcode === null ? {} : { subcode: checked.subcode });
    if (checked.kind === 'page') return sendGraphError(res, 400, 100, 'A Page token cannot be exchanged.');
    const long = context.state.issueUserToken(checked.userId, checked.scopes, 'long');
    return sendJson(res, 200, { access_token: long.token, token_type: 'bearer', expires_in: long.expiresIn });
  }
  const code = text(params.code);
  const redirectUri = text(params.redirect_uri);
  if (!code || redirectUri === undefined) return sendGraphError(res, 400, 100, 'Missing redirect_uri or code parameter.');
  const grant = context.state.redeemCode(code, redirectUri);
  if ('message' in grant) return sendGraphError(res, 400, 100, grant.message, grant.subcode === undefined ? {} : { subcode: grant.subcode });
  const short = context.state.issueUserToken(grant.userId, grant.scopes, 'short');
  sendJson(res, 200, { access_token: short.token, token_type: 'bearer', expires_in: short.expiresIn });
}

// ---------------------------------------------------------------------------------------------
// Graph API

function refuse(res: ServerResponse, refusal: { subcode: number | null; message: string }): void {
  sendGraphError(res, 400, 190, refusal.message, refusal.subcode === null ? {} : { subcode: refusal.subcode });
}

function notFound(res: ServerResponse, id: string): void {
  sendGraphError(res, 400, 100, `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, { subcode: 33, type: 'GraphMethodException' });
}

async function handleApi(
  context: Context,
  endpoint: 'permissions' | 'accounts' | 'reels_start' | 'reels_finish' | 'video' | 'video_insights',
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
  params: GraphParams,
): Promise<void> {
  const raw = tokenOf(req, params);
  const checked = context.state.checkToken(raw);
  if (!('userId' in checked)) return refuse(res, checked);
  switch (endpoint) {
    case 'permissions':
      return sendPermissions(res, checked);
    case 'accounts':
      return sendAccounts(context, res, checked, raw ?? '', params);
    case 'reels_start':
    case 'reels_finish':
      return handleReels(context, endpoint, res, checked, id, params);
    case 'video':
      return sendVideo(context, res, checked, id, params);
    case 'video_insights':
      return sendInsights(context, res, checked, id, params);
  }
}

function sendPermissions(res: ServerResponse, token: FakeToken): void {
  if (token.kind === 'page') return sendGraphError(res, 400, 100, '(#100) Tried accessing nonexisting field (permissions) on node type (Page)');
  const data = KNOWN_SCOPES.filter((scope) => token.scopes.includes(scope)).map((permission) => ({ permission, status: 'granted' }));
  const declined = ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_video'].filter((scope) => !token.scopes.includes(scope));
  sendJson(res, 200, { data: [...data, ...declined.map((permission) => ({ permission, status: 'declined' }))] });
}

function sendAccounts(context: Context, res: ServerResponse, token: FakeToken, raw: string, params: GraphParams): void {
  if (token.kind === 'page') return sendGraphError(res, 400, 100, '(#100) Tried accessing nonexisting field (accounts) on node type (Page)');
  // Without pages_show_list Graph lists nothing rather than refusing.
  const pages = token.scopes.includes('pages_show_list') ? context.state.pagesOf(token.userId) : [];
  const limit = Math.max(1, Math.min(context.maxPageSize, Number(text(params.limit) ?? 25) || 25));
  const start = params.after === undefined ? 0 : Number(Buffer.from(String(params.after), 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(start) || start < 0) return sendGraphError(res, 400, 100, 'Invalid cursor');
  const slice = pages.slice(start, start + limit);
  const fields = fieldNames(params.fields);
  const wanted = fields.length > 0 ? fields : ['name', 'id', 'access_token', 'category', 'tasks'];
  const data = slice.map((page) => {
    const all: Record<string, unknown> = {
      id: page.pageId,
      name: page.name,
      access_token: context.state.pageToken(token.userId, page.pageId, token.scopes),
      category: 'Gaming Video Creator',
      tasks: page.tasks,
      picture: { data: { height: 50, is_silhouette: false, url: page.pictureUrl, width: 50 } },
    };
    return Object.fromEntries(wanted.filter((field) => field in all).map((field) => [field, all[field]]));
  });
  const cursor = (index: number) => Buffer.from(String(index)).toString('base64url');
  const body: Record<string, unknown> = { data };
  if (slice.length > 0) {
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + slice.length) } };
    if (start + slice.length < pages.length) {
      // As Graph does: the next link carries the token in its query.
      const next = new URL(`${context.graphUrl()}/me/accounts`);
      next.searchParams.set('access_token', raw);
      if (fields.length > 0) next.searchParams.set('fields', String(params.fields));
      next.searchParams.set('limit', String(limit));
      next.searchParams.set('after', cursor(start + slice.length));
      paging.next = next.toString();
    }
    body.paging = paging;
  }
  sendJson(res, 200, body);
}

/** A Page token of this Page with the permissions posting needs, or the refusal to send. */
function pagePermission(token: FakeToken, pageId: string): { code: number; message: string } | null {
  if (token.kind !== 'page') return { code: 200, message: '(#200) This endpoint requires a Page access token' };
  if (token.pageId !== pageId) return { code: 200, message: '(#200) The Page token does not belong to this Page' };
  if (!token.scopes.includes('pages_manage_posts')) return { code: 200, message: '(#200) Requires the pages_manage_posts permission' };
  return null;
}

function handleReels(context: Context, endpoint: 'reels_start' | 'reels_finish', res: ServerResponse, token: FakeToken, pageId: string, params: GraphParams): void {
  if (!context.state.pages.has(pageId)) return notFound(res, pageId);
  const denied = pagePermission(token, pageId);
  if (denied) return sendGraphError(res, 400, denied.code, denied.message);
  if (endpoint === 'reels_start') {
    if (params.upload_phase !== 'start') return sendGraphError(res, 400, 100, '(#100) upload_phase must be start or finish');
    const reel = context.state.startReel(pageId);
    return sendJson(res, 200, { video_id: reel.videoId, upload_url: `${context.ruploadUrl()}${UPLOAD_PREFIX}${reel.videoId}` });
  }
  const videoId = params.video_id === undefined ? '' : String(params.video_id);
  const reel = context.state.reels.get(videoId);
  if (!reel || reel.pageId !== pageId) return notFound(res, videoId);
  const videoState = text(params.video_state);
  if (!videoState || !['PUBLISHED', 'DRAFT', 'SCHEDULED'].includes(videoState)) return sendGraphError(res, 400, 100, '(#100) video_state must be PUBLISHED, DRAFT or SCHEDULED');
  if (reel.phase === 'uploading') return sendGraphError(res, 400, 6000, 'There was a problem uploading your video file. Please try again.', { userTitle: 'Video upload is incomplete' });
  if (reel.phase !== 'uploaded') return sendGraphError(res, 400, 100, '(#100) This video has already been finished');
  reel.description = text(params.description) ?? '';
  reel.videoState = videoState;
  reel.phase = 'processing';
  if (videoState === 'PUBLISHED' && context.pollsToProcess === 0) context.state.publish(reel);
  sendJson(res, 200, { success: true });
}

function phases(context: Context, reel: FakeReel): Record<string, unknown> {
  if (reel.phase === 'processing') {
    reel.processingPolls++;
    if (reel.videoState === 'PUBLISHED' && reel.processingPolls > context.pollsToProcess) context.state.publish(reel);
  }
  const uploading = { status: reel.received === 0 ? 'not_started' : reel.phase === 'uploading' ? 'in_progress' : 'complete', bytes_transferred: reel.received };
  const processing =
    reel.phase === 'error'
      ? { status: 'error', errors: [{ code: 1363008, message: reel.processingError ?? 'The video could not be processed.' }] }
      : { status: reel.phase === 'processing' ? 'in_progress' : reel.phase === 'published' ? 'complete' : 'not_started' };
  const publishing =
    reel.phase === 'published'
      ? { status: 'complete', publish_status: 'published', publish_time: Math.floor((reel.publishedAt ?? 0) / 1000) }
      : { status: 'not_started', publish_status: 'not_published' };
  const videoStatus = { uploading: 'uploading', uploaded: 'upload_complete', processing: 'processing', published: 'ready', error: 'error' }[reel.phase];
  return { video_status: videoStatus, uploading_phase: uploading, processing_phase: processing, publishing_phase: publishing };
}

/** The Reel, when this token's Page owns it. */
function ownReel(context: Context, token: FakeToken, videoId: string): FakeReel | null {
  const reel = context.state.reels.get(videoId);
  if (!reel) return null;
  if (token.kind === 'page' ? token.pageId !== reel.pageId : context.state.pages.get(reel.pageId)?.ownerUserId !== token.userId) return null;
  return reel;
}

function sendVideo(context: Context, res: ServerResponse, token: FakeToken, videoId: string, params: GraphParams): void {
  const reel = ownReel(context, token, videoId);
  if (!reel) return notFound(res, videoId);
  const fields = fieldNames(params.fields);
  const body: Record<string, unknown> = { id: reel.videoId };
  for (const field of fields) {
    if (field === 'status') body.status = phases(context, reel);
    else if (field === 'likes') body.likes = { data: [], summary: { total_count: reel.likes, can_like: true, has_liked: false } };
    else if (field === 'comments') body.comments = { data: [], summary: { order: 'ranked', total_count: reel.comments, can_comment: true } };
    else if (field === 'description') body.description = reel.description ?? '';
    else if (field === 'post_id' && reel.postId) body.post_id = reel.postId;
  }
  sendJson(res, 200, body);
}

function sendInsights(context: Context, res: ServerResponse, token: FakeToken, videoId: string, params: GraphParams): void {
  const reel = ownReel(context, token, videoId);
  if (!reel) return notFound(res, videoId);
  if (context.refusedInsights) return sendScriptedFailure(res, context.refusedInsights);
  if (!token.scopes.includes('pages_read_engagement')) return sendGraphError(res, 400, 10, '(#10) Requires the pages_read_engagement permission');
  const values: Record<string, unknown> = {
    blue_reels_play_count: reel.views,
    fb_reels_total_plays: reel.views,
    post_impressions_unique: reel.views,
    // By-type metrics leave out the types nobody used, as Graph does.
    post_video_likes_by_reaction_type: reel.likes > 0 ? { REACTION_LIKE: reel.likes } : {},
    post_video_social_actions: Object.fromEntries(
      [
        ['COMMENT', reel.comments],
        ['SHARE', reel.shares],
      ].filter(([, count]) => Number(count) > 0),
    ),
  };
  const asked = typeof params.metric === 'string' ? params.metric.split(',').map((metric) => metric.trim()).filter(Boolean) : Object.keys(values);
  const unknown = asked.find((metric) => !(metric in values));
  if (unknown) return sendGraphError(res, 400, 100, `(#100) The value must be a valid insights metric (${unknown})`);
  sendJson(res, 200, {
    data: asked.map((name) => ({ name, period: 'lifetime', values: [{ value: values[name] }], title: name, description: `Lifetime ${name}`, id: `${videoId}/video_insights/${name}/lifetime` })),
  });
}

// ---------------------------------------------------------------------------------------------
// Upload host

function sendDebug(res: ServerResponse, status: number, type: string, message: string, retriable: boolean): void {
  sendJson(res, status, { debug_info: { retriable, type, message } });
}

async function drain(req: IncomingMessage): Promise<number> {
  let size = 0;
  for await (const chunk of req) size += (chunk as Buffer).length;
  return size;
}

async function handleRupload(context: Context, requests: RecordedFacebookRequest[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const method = req.method ?? 'GET';
  const record: RecordedFacebookRequest = {
    method,
    endpoint: 'rupload',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    params: {},
    authorization: req.headers.authorization,
    offset: header(req, 'offset'),
    fileSize: header(req, 'file_size'),
    status: 0,
    at: context.now(),
  };
  requests.push(record);
  res.on('finish', () => {
    record.status = res.statusCode;
  });
  if (method !== 'POST' || !url.pathname.startsWith(UPLOAD_PREFIX)) {
    await drain(req);
    return sendDebug(res, 404, 'NotFoundError', 'No such upload', false);
  }
  const reel = context.state.storedReel(url.pathname.slice(UPLOAD_PREFIX.length));
  if (!reel) {
    await drain(req);
    return sendDebug(res, 404, 'NotFoundError', 'The upload session does not exist', false);
  }
  const authorization = /^OAuth (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const checked = context.state.checkToken(authorization);
  if (!('userId' in checked) || checked.kind !== 'page' || checked.pageId !== reel.pageId) {
    await drain(req);
    return sendDebug(res, 401, 'AuthError', 'Invalid OAuth access token', false);
  }
  const offset = Number(record.offset);
  const fileSize = Number(record.fileSize);
  if (record.offset === undefined || !Number.isSafeInteger(offset) || offset < 0) {
    await drain(req);
    return sendDebug(res, 400, 'ParameterValidationError', 'HeaderValuePredicate: Header Offset not convertable to unsigned long', false);
  }
  if (record.fileSize === undefined || !Number.isSafeInteger(fileSize) || fileSize <= 0) {
    await drain(req);
    return sendDebug(res, 400, 'ParameterValidationError', 'HeaderValuePredicate: Header file_size not convertable to unsigned long', false);
  }
  reel.uploadRequests++;
  const failure = takeFailure(context.failures, 'rupload');
  if (failure !== undefined) {
    reel.bytesReceived += await drain(req);
    const status = typeof failure === 'number' ? failure : (failure.status ?? 400);
    return sendDebug(res, status, status >= 500 ? 'ServerError' : 'ProcessingFailedError', typeof failure === 'number' ? `Fake failure: HTTP ${failure}` : (failure.message ?? 'Fake failure'), status >= 500);
  }
  if (reel.fileSize !== null && fileSize !== reel.fileSize) {
    reel.bytesReceived += await drain(req);
    return sendDebug(res, 400, 'ParameterValidationError', `file_size ${fileSize} differs from the ${reel.fileSize} bytes announced`, false);
  }
  // Strict on purpose: a client that re-sends bytes the upload holds, or skips some, is caught here.
  if (offset !== reel.received) {
    reel.bytesReceived += await drain(req);
    return sendDebug(res, 400, 'OffsetMismatchError', `offset ${offset} differs from the ${reel.received} bytes received`, false);
  }
  reel.fileSize = fileSize;
  const cut = context.breaks.shift();
  if (cut) return cutUpload(context, req, res, reel, cut);
  const body = await readBytes(req, fileSize - offset + 1);
  reel.bytesReceived += body.length;
  if (offset + body.length !== fileSize) return sendDebug(res, 400, 'ParameterValidationError', `the body has ${body.length} bytes; ${fileSize - offset} were expected from offset ${offset}`, false);
  context.state.keep(reel, body);
  sendJson(res, 200, { success: true });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads afterBytes of the body, keeps exactly those at their offset, and cuts the connection. */
async function cutUpload(context: Context, req: IncomingMessage, res: ServerResponse, reel: NonNullable<ReturnType<FakeFacebookState['storedReel']>>, cut: BreakUpload): Promise<void> {
  const read: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    read.push(buffer);
    size += buffer.length;
    if (size >= cut.afterBytes) break;
  }
  const kept = Math.min(size, cut.afterBytes);
  reel.bytesReceived += size;
  reel.breaks.push({ offset: reel.received, read: size, kept });
  context.state.keep(reel, Buffer.concat(read).subarray(0, kept));
  res.socket?.destroy();
  req.socket.destroy();
}
