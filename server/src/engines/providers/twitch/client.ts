import type { Logger } from '../../../platform/logger.ts';
import { createAppTokenSource } from './auth.ts';
import { downloadClip } from './download.ts';
import { createClipSourceResolver } from './gql.ts';
import { createHelix, type Helix, type QueryParams } from './helix.ts';
import { defaultSleep, type Sleep } from '../http/runtime.ts';
import type { TwitchRuntime } from './runtime.ts';
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
}

const DAY_MS = 86_400_000;
const DEFAULT_WINDOW_DAYS = 7;
const DEFAULT_MAX_WINDOWS = 12;
/** Helix's page size limit (A4) and its id/login batch limit (A3, A5). */
const MAX_PAGE = 100;
/** Twitch returns about 1,000 clips over all pages of one query (A4); 20 full pages is already well past that. */
const MAX_PAGES_PER_WINDOW = 20;
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

  return {
    getUserByLogin: (login, signal) => getUserByLogin(helix, login, signal),
    getTopClips: (broadcasterId, options) => getTopClips(helix, runtime, broadcasterId, options),
    getGames: (ids, signal) => getGames(helix, ids, signal),
    resolveClipSource,
    downloadClip: (url, destinationPath, options) => downloadClip(runtime, url, destinationPath, options),
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
 */
async function getTopClips(helix: Helix, runtime: TwitchRuntime, broadcasterId: string, options: TopClipsOptions): Promise<TwitchClip[]> {
  const limit = Math.max(0, Math.floor(options.limit));
  const windowMs = (options.windowDays ?? DEFAULT_WINDOW_DAYS) * DAY_MS;
  const maxWindows = options.maxWindows ?? DEFAULT_MAX_WINDOWS;
  const collected = new Map<string, TwitchClip>();
  let windowEnd = runtime.now();
  for (let window = 0; window < maxWindows && collected.size < limit; window++) {
    const windowStart = windowEnd - windowMs;
    await collectWindow(helix, { broadcasterId, start: windowStart, end: windowEnd, limit, signal: options.signal }, collected);
    windowEnd = windowStart;
  }
  return [...collected.values()];
}

interface ClipWindow {
  broadcasterId: string;
  start: number;
  end: number;
  limit: number;
  signal: AbortSignal | undefined;
}

/** Pages through one started_at/ended_at window, adding unseen clips (a clip on a window boundary can show up twice). */
async function collectWindow(helix: Helix, window: ClipWindow, collected: Map<string, TwitchClip>): Promise<void> {
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES_PER_WINDOW && collected.size < window.limit; page++) {
    const query: [string, string][] = [
      ['broadcaster_id', window.broadcasterId],
      ['started_at', rfc3339(window.start)],
      ['ended_at', rfc3339(window.end)],
      ['first', String(Math.min(MAX_PAGE, window.limit - collected.size))],
    ];
    if (cursor) query.push(['after', cursor]);
    const body = await helix.get('/clips', query, clipsResponseSchema, window.signal);
    for (const clip of body.data) {
      if (collected.size >= window.limit) return;
      if (!collected.has(clip.id)) collected.set(clip.id, clip);
    }
    // An empty page or a cursor we already followed would only loop: the window is exhausted.
    if (body.data.length === 0 || !body.pagination || cursors.has(body.pagination)) return;
    cursor = body.pagination;
    cursors.add(cursor);
  }
}

/** Game id → name, asking Helix in batches of 100 ids (A5); unknown ids are simply absent. */
async function getGames(helix: Helix, ids: readonly string[], signal?: AbortSignal): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter((id) => id !== ''))];
  const names = new Map<string, string>();
  for (let offset = 0; offset < unique.length; offset += MAX_PAGE) {
    const query: QueryParams = unique.slice(offset, offset + MAX_PAGE).map((id) => ['id', id] as const);
    const body = await helix.get('/games', query, gamesResponseSchema, signal);
    for (const game of body.data) names.set(game.id, game.name);
  }
  return names;
}

/** RFC3339 without milliseconds, the form Twitch's own examples use. */
function rfc3339(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
