import type { z } from 'zod';
import { sendWithRetries } from '../http/retry.ts';
import { discardBody, joinUrl } from '../http/runtime.ts';
import { YouTubeError } from './errors.ts';
import { MAX_IDS_PER_LIST } from './quota.ts';
import { GAMING_CATEGORY_ID, metadataProblems } from './rules.ts';
import { errorFromAnswer, extractGoogleError, parseWith, readJson, YOUTUBE_RETRIES, type YouTubeRuntime } from './runtime.ts';
import {
  channelListSchema,
  videoListSchema,
  type YouTubeChannel,
  type YouTubeVideoMetadata,
  type YouTubeVideoState,
} from './types.ts';

/*
 * Data API v3 calls: Bearer user token, Google's error envelope, 5xx and 429 retried. Every call
 * spends quota (a list 1 unit of 10,000 a day, an upload 1 of 100 uploads a day; see quota.ts), so
 * nothing here polls.
 */

export interface ApiConfig {
  /** YOUTUBE_API_URL, e.g. https://www.googleapis.com (Data API under /youtube/v3). */
  apiUrl: string;
}

async function getJson<S extends z.ZodType>(
  config: ApiConfig,
  runtime: YouTubeRuntime,
  path: string,
  query: Record<string, string>,
  accessToken: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.output<S>> {
  const what = `YouTube GET ${path}`;
  const url = new URL(joinUrl(config.apiUrl, path));
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const headers = { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' };
  const response = await sendWithRetries(runtime, { what, signal, send: (requestSignal) => fetch(url, { headers, signal: requestSignal }) }, YOUTUBE_RETRIES);
  const body = await readJson(response);
  if (!response.ok || extractGoogleError(body)) throw refused(runtime, what, response.status, body);
  return parseWith(what, response.status, body, schema);
}

function refused(runtime: YouTubeRuntime, what: string, status: number, body: unknown): YouTubeError {
  const error = errorFromAnswer(runtime, what, status, body);
  runtime.logger.warn({ what, status, errorCode: error.code }, 'YouTube refused the request');
  return error;
}

/** The channel of the token's Google account; no_channel when the account has none (it can still sign in). */
export async function getMyChannel(config: ApiConfig, runtime: YouTubeRuntime, accessToken: string, signal?: AbortSignal): Promise<YouTubeChannel> {
  const body = await getJson(config, runtime, '/youtube/v3/channels', { part: 'snippet', mine: 'true' }, accessToken, channelListSchema, signal);
  const channel = body.items[0];
  if (!channel) {
    throw new YouTubeError('no_channel', 'This Google account has no YouTube channel yet: create one on YouTube, then connect again.', {
      code: 'no_channel',
      httpStatus: 200,
      detail: 'channels.list mine=true returned no items',
    });
  }
  const { thumbnails } = channel.snippet;
  return {
    channelId: channel.id,
    title: channel.snippet.title,
    handle: channel.snippet.customUrl ?? null,
    avatarUrl: thumbnails.default?.url ?? thumbnails.medium?.url ?? thumbnails.high?.url ?? null,
  };
}

/** Status, processing and statistics of the given videos; ids YouTube does not know (deleted) are absent. */
export async function getVideos(config: ApiConfig, runtime: YouTubeRuntime, accessToken: string, ids: readonly string[], signal?: AbortSignal): Promise<YouTubeVideoState[]> {
  const unique = [...new Set(ids)];
  const states: YouTubeVideoState[] = [];
  for (let start = 0; start < unique.length; start += MAX_IDS_PER_LIST) {
    const batch = unique.slice(start, start + MAX_IDS_PER_LIST);
    const body = await getJson(
      config,
      runtime,
      '/youtube/v3/videos',
      { part: 'status,processingDetails,statistics', id: batch.join(','), maxResults: String(MAX_IDS_PER_LIST) },
      accessToken,
      videoListSchema,
      signal,
    );
    for (const item of body.items) {
      const statistics = item.statistics;
      states.push({
        videoId: item.id,
        uploadStatus: item.status?.uploadStatus ?? null,
        privacyStatus: item.status?.privacyStatus ?? null,
        rejectionReason: item.status?.rejectionReason ?? item.status?.failureReason ?? null,
        processingStatus: item.processingDetails?.processingStatus ?? null,
        stats: { views: toCount(statistics?.viewCount), likes: toCount(statistics?.likeCount), comments: toCount(statistics?.commentCount), shares: null },
      });
    }
  }
  return states;
}

/** A count string as a number; a hidden count (likes can be hidden) stays null rather than 0. */
function toCount(value: string | undefined): number | null {
  return value === undefined ? null : Number(value);
}

/**
 * Opens a resumable upload session and returns its URL, which the caller saves before sending any
 * byte: a retried job resumes that session instead of creating a second video. Costs one call of
 * the project's daily uploads. notifySubscribers is always sent: YouTube's own default is true.
 */
export async function startUpload(
  config: ApiConfig,
  runtime: YouTubeRuntime,
  accessToken: string,
  metadata: YouTubeVideoMetadata,
  size: number,
  signal?: AbortSignal,
): Promise<string> {
  const what = 'YouTube POST /upload/youtube/v3/videos';
  assertUploadable(metadata, size);
  const url = new URL(joinUrl(config.apiUrl, '/upload/youtube/v3/videos'));
  url.searchParams.set('uploadType', 'resumable');
  url.searchParams.set('part', 'snippet,status');
  url.searchParams.set('notifySubscribers', String(metadata.notifySubscribers ?? false));
  const body = JSON.stringify({
    snippet: {
      title: metadata.title,
      description: metadata.description,
      tags: metadata.tags,
      categoryId: metadata.categoryId ?? GAMING_CATEGORY_ID,
    },
    status: { privacyStatus: metadata.privacyStatus, selfDeclaredMadeForKids: metadata.madeForKids },
  });
  const headers = {
    Authorization: `Bearer ${accessToken}`,
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Upload-Content-Length': String(size),
    'X-Upload-Content-Type': 'video/mp4',
  };
  // A retried initiation whose first answer was lost leaves an empty session behind, which YouTube
  // drops: no video exists until bytes arrive, so a retry cannot post twice.
  const response = await sendWithRetries(
    runtime,
    { what, signal, send: (requestSignal) => fetch(url, { method: 'POST', headers, body, signal: requestSignal }) },
    YOUTUBE_RETRIES,
  );
  if (!response.ok) throw refused(runtime, what, response.status, await readJson(response));
  const location = response.headers.get('location');
  await discardBody(response);
  if (!location) {
    throw new YouTubeError('upstream', 'YouTube did not open an upload session. Try again later.', {
      code: 'bad_response',
      httpStatus: response.status,
      detail: `${what} answered ${response.status} without a Location header`,
    });
  }
  runtime.logger.info({ size, privacyStatus: metadata.privacyStatus }, 'YouTube upload session opened');
  return location;
}

function assertUploadable(metadata: YouTubeVideoMetadata, size: number): void {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`video size must be a whole number of bytes, got ${size}`);
  if (size === 0) throw new YouTubeError('file', 'The video file is empty.', { code: 'video_empty' });
  const problems = metadataProblems(metadata);
  if (problems.length > 0) throw new YouTubeError('invalid_request', problems.join(' '), { code: 'invalid_metadata', detail: problems.join(' ') });
}
