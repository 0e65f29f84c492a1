import type { Logger } from '../../../platform/logger.ts';
import { createAppTokenSource } from './auth.ts';
import { downloadClip } from './download.ts';
import { createClipSourceResolver } from './gql.ts';
import { createHelix, type Helix, type QueryParams } from './helix.ts';
import { getArchiveVideos, getClipsByIds, getLiveStreams, idBatches, type TwitchStream, type TwitchVideo } from './streams.ts';
import { defaultSleep, type Sleep } from '../http/runtime.ts';
import type { TwitchRuntime } from './runtime.ts';
import { createUserAuth, type AuthorizeParams, type VodClipRequest } from './user.ts';
import {
  clipsResponseSchema,
  gamesResponseSchema,
  usersResponseSchema,
  type ClipSource,
  type DownloadOptions,
  type DownloadResult,
  type TopClipsOptions,
  type TwitchClip,
  type TwitchUser,
  type ClipDownload,
  type CreatedClip,
  type TokenInfo,
  type UserTokens,
} from './types.ts';

export interface TwitchClientConfig {
  clientId: string;
  clientSecret: string;
  /** e.g. https://id.twitch.tv (the token endpoint is {authUrl}/oauth2/token) */
  authUrl: string;
  /** e.g. https://api.twitch.tv/helix */
  apiUrl: string;
  /** e.g. https://gql.twitch.tv/gql */
  gqlUrl: string;
  gqlClientId: string;
  /** VideoAccessToken_Clip hashes, tried in order. */
  clipHashes: string[];
  logger: Logger;
  /** Injected in tests so rate-limit waits and backoff do not really wait. */
  sleep?: Sleep;
  now?: () => number;
}

export interface TwitchClient {
  getUserByLogin(login: string, signal?: AbortSignal): Promise<TwitchUser | null>;
  getTopClips(broadcasterId: string, options: TopClipsOptions): Promise<TwitchClip[]>;
  getGames(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, string>>;
  resolveClipSource(slug: string, signal?: AbortSignal): Promise<ClipSource>;
  downloadClip(url: string, destinationPath: string, options?: DownloadOptions): Promise<DownloadResult>;
  /* A user's own account (user.ts): the code flow and the calls that need the user's token. */
  authorizeUrl(params: AuthorizeParams): string;
  exchangeCode(code: string, redirectUri: string, signal?: AbortSignal): Promise<UserTokens>;
  refreshUserToken(refreshToken: string, signal?: AbortSignal): Promise<UserTokens>;
  validateUserToken(accessToken: string, signal?: AbortSignal): Promise<TokenInfo>;
  revokeUserToken(token: string): Promise<void>;
  createLiveClip(token: string, broadcasterId: string, signal?: AbortSignal): Promise<CreatedClip>;
  createVodClip(token: string, request: VodClipRequest, signal?: AbortSignal): Promise<CreatedClip>;
  getClipDownloads(token: string, editorId: string, broadcasterId: string, clipIds: readonly string[], signal?: AbortSignal): Promise<ClipDownload[]>;
  getLiveStreams(userIds: readonly string[], signal?: AbortSignal): Promise<Map<string, TwitchStream>>;
  getArchiveVideos(userId: string, signal?: AbortSignal): Promise<TwitchVideo[]>;
  getClipsByIds(ids: readonly string[], signal?: AbortSignal): Promise<TwitchClip[]>;
}

const DAY_MS = 86_400_000;
const DEFAULT_WINDOW_DAYS = 7;
const DEFAULT_MAX_WINDOWS = 12;
/** Helix's page size limit (A4) and its id/login batch limit (A3, A5). */
const MAX_PAGE = 100;
/** Twitch returns about 1,000 clips over all pages of one query (A4); 20 full pages is already well past that. */
const MAX_PAGES_PER_WINDOW = 20;
/**
 * A query that returned this many clips may have been cut at Twitch's ~1,000 (the cap is only
 * "approximately" documented), so its window is split to reach the clips below the cut.
 */
const FULL_WINDOW = 900;
/** Windows are whole seconds (RFC3339 without fractions); one this short is not split further. */
const MIN_WINDOW_MS = 2_000;
/** Requests one listing may make at most, whatever the windows do: a guard against a Twitch that never ends. */
const MAX_REQUESTS = 300;
/** Twitch logins: letters, digits and underscores, at most 25 characters. */
const LOGIN_PATTERN = /^[a-z0-9_]{1,25}$/;

export function createTwitchClient(config: TwitchClientConfig): TwitchClient {
  const runtime: TwitchRuntime = {
    logger: config.logger.child({ provider: 'twitch' }),
    sleep: config.sleep ?? defaultSleep,
    now: config.now ?? Date.now,
  };
  const tokens = createAppTokenSource(config, runtime);
  const helix = createHelix(config, tokens, runtime);
  const { resolveClipSource } = createClipSourceResolver(config, runtime);
  const user = createUserAuth(config, runtime);

  return {
    ...user,
    getUserByLogin: (login, signal) => getUserByLogin(helix, login, signal),
    getTopClips: (broadcasterId, options) => getTopClips(helix, runtime, broadcasterId, options),
    getGames: (ids, signal) => getGames(helix, ids, signal),
    resolveClipSource,
    downloadClip: (url, destinationPath, options) => downloadClip(runtime, url, destinationPath, options),
    getLiveStreams: (userIds, signal) => getLiveStreams(helix, userIds, signal),
    getArchiveVideos: (userId, signal) => getArchiveVideos(helix, userId, signal),
    getClipsByIds: (ids, signal) => getClipsByIds(helix, ids, signal),
  };
}

/** Unknown logins are simply missing from Helix's answer (A3). A malformed login cannot exist, so it is unknown without asking (Twitch would answer 400). */
async function getUserByLogin(helix: Helix, login: string, signal?: AbortSignal): Promise<TwitchUser | null> {
  const normalized = login.trim().toLowerCase();
  if (!LOGIN_PATTERN.test(normalized)) return null;
  const body = await helix.get('/users', [['login', normalized]], usersResponseSchema, signal);
  return body.data.find((user) => user.login.toLowerCase() === normalized) ?? body.data[0] ?? null;
}

/**
 * The most viewed clips, window by window back in time: the last `windowDays` first (Twitch sorts
 * each window by views, A4), then the window before it, until `limit` clips are collected. The
 * result keeps that order — the newest window's top clips first — rather than re-sorting globally,
 * so recent popular clips are not crowded out by all-time hits and no window is fetched in vain.
 * With `since`, one window from then to now instead. Either way a window Twitch cut at its ~1,000
 * clips is split in halves (newer half first) until every clip is reachable.
 */
async function getTopClips(helix: Helix, runtime: TwitchRuntime, broadcasterId: string, options: TopClipsOptions): Promise<TwitchClip[]> {
  const listing: Listing = {
    helix,
    runtime,
    broadcasterId,
    limit: Math.max(0, Math.floor(options.limit)),
    signal: options.signal,
    enough: options.enough,
    featuredOnly: options.featuredOnly ?? false,
    collected: new Map(),
    requests: 0,
    stopped: false,
  };
  if (listing.limit === 0) return [];
  // Up to the next whole second, so a clip made in the current second is inside the window.
  const now = Math.ceil(runtime.now() / 1000) * 1000;
  if (options.since !== undefined) {
    await collectWindow(listing, Math.floor(options.since / 1000) * 1000, now);
    return [...listing.collected.values()];
  }
  const windowMs = (options.windowDays ?? DEFAULT_WINDOW_DAYS) * DAY_MS;
  const maxWindows = options.maxWindows ?? DEFAULT_MAX_WINDOWS;
  let windowEnd = now;
  for (let window = 0; window < maxWindows && !finished(listing); window++) {
    const windowStart = windowEnd - windowMs;
    await collectWindow(listing, windowStart, windowEnd);
    windowEnd = windowStart;
  }
  return [...listing.collected.values()];
}

/** One getTopClips call: what it has collected and how much it has asked. */
interface Listing {
  helix: Helix;
  runtime: TwitchRuntime;
  broadcasterId: string;
  limit: number;
  signal: AbortSignal | undefined;
  enough: TopClipsOptions['enough'];
  featuredOnly: boolean;
  /** By clip id: a clip shows up again on a window boundary, in a split window, or on a shifted page. */
  collected: Map<string, TwitchClip>;
  requests: number;
  /** The caller has enough, or the request guard ran out. */
  stopped: boolean;
}

function finished(listing: Listing): boolean {
  return listing.stopped || listing.collected.size >= listing.limit;
}

/**
 * Pages through one started_at/ended_at window, adding unseen clips. Twitch's cursor can come back
 * again as view counts shift (twitchdev/issues #48, #1045): following it would loop, so the window
 * counts as cut short, like one that reached the ~1,000 cap, and its halves are listed instead.
 */
async function collectWindow(listing: Listing, start: number, end: number): Promise<void> {
  const { collected } = listing;
  const returned = new Set<string>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let cutShort = false;
  for (let page = 0; ; page++) {
    if (finished(listing)) return;
    if (page >= MAX_PAGES_PER_WINDOW) {
      cutShort = true;
      break;
    }
    if (listing.requests >= MAX_REQUESTS) {
      listing.runtime.logger.warn({ broadcasterId: listing.broadcasterId, requests: listing.requests }, 'Twitch clip listing stopped at its request limit');
      listing.stopped = true;
      return;
    }
    const query: [string, string][] = [
      ['broadcaster_id', listing.broadcasterId],
      ['started_at', rfc3339(start)],
      ['ended_at', rfc3339(end)],
      ['first', String(Math.min(MAX_PAGE, listing.limit - collected.size))],
    ];
    if (listing.featuredOnly) query.push(['is_featured', 'true']);
    if (cursor) query.push(['after', cursor]);
    listing.requests += 1;
    const body = await listing.helix.get('/clips', query, clipsResponseSchema, listing.signal);
    for (const clip of body.data) {
      returned.add(clip.id);
      if (collected.size < listing.limit && !collected.has(clip.id)) collected.set(clip.id, clip);
    }
    if (listing.enough?.([...collected.values()])) listing.stopped = true;
    if (body.data.length === 0 || !body.pagination) break;
    if (cursors.has(body.pagination)) {
      cutShort = true;
      break;
    }
    cursor = body.pagination;
    cursors.add(cursor);
  }
  // A cut window that returned less than a page cannot be hiding more clips than it showed.
  const maybeMore = returned.size >= FULL_WINDOW || (cutShort && returned.size >= MAX_PAGE);
  if (!maybeMore || finished(listing)) return;
  if (end - start <= MIN_WINDOW_MS) {
    listing.runtime.logger.warn({ broadcasterId: listing.broadcasterId, start: rfc3339(start), end: rfc3339(end) }, 'Twitch clip window cannot be split further; some clips may be out of reach');
    return;
  }
  const middle = start + Math.floor((end - start) / 2 / 1000) * 1000;
  listing.runtime.logger.debug({ broadcasterId: listing.broadcasterId, start: rfc3339(start), end: rfc3339(end), returned: returned.size, cutShort }, 'splitting a Twitch clip window');
  await collectWindow(listing, middle, end);
  await collectWindow(listing, start, middle);
}

/** Game id → name, asking Helix in batches of 100 ids (A5); unknown ids are simply absent. */
async function getGames(helix: Helix, ids: readonly string[], signal?: AbortSignal): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const batch of idBatches(ids)) {
    const query: QueryParams = batch.map((id) => ['id', id] as const);
    const body = await helix.get('/games', query, gamesResponseSchema, signal);
    for (const game of body.data) names.set(game.id, game.name);
  }
  return names;
}

/** RFC3339 without milliseconds, the form Twitch's own examples use. */
function rfc3339(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
