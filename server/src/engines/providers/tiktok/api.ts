import type { z } from 'zod';
import type { ChunkPlan } from './chunks.ts';
import { explainTikTokError, publishFailedError, TikTokError } from './errors.ts';
import { sendWithRetries } from '../http/retry.ts';
import { joinUrl } from '../http/runtime.ts';
import { extractError, errorFromBody, logIdOf, parseWith, readJsonAndText } from './responses.ts';
import { pause, TIKTOK_RETRIES, type TikTokRuntime } from './runtime.ts';
import {
  creatorInfoResponseSchema,
  PRIVACY_LEVELS,
  publishInitResponseSchema,
  statusResponseSchema,
  userInfoResponseSchema,
  videoQueryResponseSchema,
  type CreatorInfo,
  type DirectPostInfo,
  type PostStatus,
  type PrivacyLevel,
  type PublishTarget,
  type TikTokUserInfo,
  type TikTokVideoStats,
  type WaitForPublishOptions,
} from './types.ts';

/*
 * The v2 API calls (external-apis.md B3–B5): Bearer user token, the `{data, error}` envelope,
 * errors recognised by error.code whatever the HTTP status, 429 waited out, 5xx retried.
 */

export interface ApiConfig {
  /** TIKTOK_API_URL, e.g. https://open.tiktokapis.com */
  apiUrl: string;
}

const USER_FIELDS = ['open_id', 'union_id', 'avatar_url', 'display_name', 'username'] as const;
/** TikTok counts the title in UTF-16 code units, which is what String#length counts. */
export const MAX_TITLE_LENGTH = 2200;
/** Status fetch allows 30 requests a minute per token: never poll faster than every 2 s. */
const MIN_POLL_MS = 2_000;
const DEFAULT_POLL_MS = 5_000;
const DEFAULT_PUBLISH_TIMEOUT_MS = 15 * 60_000;

interface V2Request {
  method: 'GET' | 'POST';
  path: string;
  accessToken: string;
  query?: Record<string, string>;
  /** JSON body; undefined sends none (creator_info takes no body). */
  json?: unknown;
  signal?: AbortSignal;
}

interface V2Answer<T> {
  data: T;
  logId: string | null;
  /** The raw body, for fields whose int64 numbers JSON.parse would round. */
  text: string;
}

async function callV2<S extends z.ZodType>(config: ApiConfig, runtime: TikTokRuntime, request: V2Request, schema: S): Promise<V2Answer<z.output<S>>> {
  const what = `TikTok ${request.method} ${request.path}`;
  const url = new URL(joinUrl(config.apiUrl, request.path));
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);
  const headers: Record<string, string> = { Authorization: `Bearer ${request.accessToken}`, Accept: 'application/json' };
  if (request.method === 'POST') headers['Content-Type'] = 'application/json; charset=UTF-8';
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  const response = await sendWithRetries(
    runtime,
    { what, signal: request.signal, send: (signal) => fetch(url, { method: request.method, headers, body, signal }) },
    TIKTOK_RETRIES,
  );
  const { json, text } = await readJsonAndText(response);
  if (extractError(json) || !response.ok) {
    const error = errorFromBody(what, response.status, json);
    runtime.logger.warn({ what, status: response.status, errorCode: error.code, logId: error.logId }, 'TikTok refused the request');
    throw error;
  }
  return { data: parseWith(what, response.status, json, schema), logId: logIdOf(json), text };
}

export async function getUserInfo(config: ApiConfig, runtime: TikTokRuntime, accessToken: string, signal?: AbortSignal): Promise<TikTokUserInfo> {
  const { data } = await callV2(
    config,
    runtime,
    { method: 'GET', path: '/v2/user/info/', accessToken, query: { fields: USER_FIELDS.join(',') }, signal },
    userInfoResponseSchema,
  );
  const { user } = data.data;
  return {
    openId: user.open_id,
    unionId: user.union_id,
    avatarUrl: user.avatar_url,
    displayName: user.display_name ?? user.username ?? '',
    username: user.username,
  };
}

/**
 * What this account may post right now. spam_risk_* and reached_active_user_cap arrive with HTTP
 * 200 (B5) and still throw, via the envelope check.
 */
export async function queryCreatorInfo(config: ApiConfig, runtime: TikTokRuntime, accessToken: string, signal?: AbortSignal): Promise<CreatorInfo> {
  const { data } = await callV2(config, runtime, { method: 'POST', path: '/v2/post/publish/creator_info/query/', accessToken, signal }, creatorInfoResponseSchema);
  const info = data.data;
  return {
    privacyLevelOptions: info.privacy_level_options.filter(isPrivacyLevel),
    commentDisabled: info.comment_disabled,
    duetDisabled: info.duet_disabled,
    stitchDisabled: info.stitch_disabled,
    maxVideoPostDurationSec: info.max_video_post_duration_sec,
    username: info.creator_username,
    nickname: info.creator_nickname,
    avatarUrl: info.creator_avatar_url,
  };
}

/** A level we cannot name to the user cannot be offered in the dropdown, so unknown ones are dropped. */
function isPrivacyLevel(value: string): value is PrivacyLevel {
  return (PRIVACY_LEVELS as readonly string[]).includes(value);
}

function sourceInfo(plan: ChunkPlan): Record<string, unknown> {
  return { source: 'FILE_UPLOAD', video_size: plan.videoSize, chunk_size: plan.chunkSize, total_chunk_count: plan.totalChunkCount };
}

function assertTitle(title: string): void {
  if (title.length > MAX_TITLE_LENGTH) {
    throw new TikTokError('invalid_request', explainTikTokError('title_too_long'), {
      code: 'title_too_long',
      detail: `title has ${title.length} UTF-16 code units`,
    });
  }
}

function postInfo(post: DirectPostInfo): Record<string, unknown> {
  const info: Record<string, unknown> = {
    title: post.title,
    privacy_level: post.privacyLevel,
    disable_comment: post.disableComment,
    disable_duet: post.disableDuet,
    disable_stitch: post.disableStitch,
    // The reference table marks brand_content_toggle as required although its examples omit it: always send all three.
    brand_content_toggle: post.brandContentToggle ?? false,
    brand_organic_toggle: post.brandOrganicToggle ?? false,
    is_aigc: post.isAigc ?? false,
  };
  if (post.videoCoverTimestampMs !== undefined) info.video_cover_timestamp_ms = Math.max(0, Math.round(post.videoCoverTimestampMs));
  return info;
}

/** Starts a Direct Post; the video then goes to the returned upload_url in the plan's chunks. */
export async function initDirectPost(config: ApiConfig, runtime: TikTokRuntime, accessToken: string, post: DirectPostInfo, plan: ChunkPlan, signal?: AbortSignal): Promise<PublishTarget> {
  assertTitle(post.title);
  const json = { post_info: postInfo(post), source_info: sourceInfo(plan) };
  return initUpload(config, runtime, { method: 'POST', path: '/v2/post/publish/video/init/', accessToken, json, signal });
}

/** Starts an inbox (draft) upload: only source_info; the user adds the caption in the TikTok app. */
export async function initInboxUpload(config: ApiConfig, runtime: TikTokRuntime, accessToken: string, plan: ChunkPlan, signal?: AbortSignal): Promise<PublishTarget> {
  const json = { source_info: sourceInfo(plan) };
  return initUpload(config, runtime, { method: 'POST', path: '/v2/post/publish/inbox/video/init/', accessToken, json, signal });
}

async function initUpload(config: ApiConfig, runtime: TikTokRuntime, request: V2Request): Promise<PublishTarget> {
  const { data, logId } = await callV2(config, runtime, request, publishInitResponseSchema);
  const { publish_id: publishId, upload_url: uploadUrl } = data.data;
  runtime.logger.info({ what: `TikTok POST ${request.path}`, publishId, logId }, 'TikTok upload started');
  return { publishId, uploadUrl };
}

export async function fetchPostStatus(config: ApiConfig, runtime: TikTokRuntime, accessToken: string, publishId: string, signal?: AbortSignal): Promise<PostStatus> {
  const { data, text } = await callV2(
    config,
    runtime,
    { method: 'POST', path: '/v2/post/publish/status/fetch/', accessToken, json: { publish_id: publishId }, signal },
    statusResponseSchema,
  );
  return {
    status: data.data.status,
    failReason: data.data.fail_reason,
    publicPostIds: publicPostIds(text),
    uploadedBytes: data.data.uploaded_bytes ?? null,
  };
}

/**
 * `publicaly_available_post_id` (sic, B5) holds int64 ids, which JSON.parse would round: read them
 * as digit strings from the raw text. The correct spelling is accepted too, in case TikTok fixes it.
 */
export function publicPostIds(text: string): string[] {
  const match = /"publi(?:caly|cly)_available_post_id"\s*:\s*\[([^\]]*)\]/.exec(text);
  if (!match?.[1]) return [];
  return match[1]
    .split(',')
    .map((item) => item.trim().replace(/^"|"$/g, ''))
    .filter((item) => /^\d+$/.test(item));
}

/**
 * Polls the status until TikTok has published (PUBLISH_COMPLETE) or sent the draft to the inbox
 * (SEND_TO_USER_INBOX). FAILED throws publish_failed with the fail_reason's plain words; running out
 * of time throws timeout. Polls every pollMs (≥ 2 s), within status fetch's 30 requests a minute.
 */
export async function waitForPublish(config: ApiConfig, runtime: TikTokRuntime, accessToken: string, publishId: string, options: WaitForPublishOptions = {}): Promise<PostStatus> {
  const pollMs = Math.max(MIN_POLL_MS, options.pollMs ?? DEFAULT_POLL_MS);
  const timeoutMs = options.timeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
  const deadline = runtime.now() + timeoutMs;
  // A cap on polls too, so a clock that does not move (an injected one) cannot poll forever.
  const maxPolls = Math.ceil(timeoutMs / pollMs) + 1;
  for (let poll = 1; ; poll++) {
    const status = await fetchPostStatus(config, runtime, accessToken, publishId, options.signal);
    options.onStatus?.(status);
    if (status.status === 'PUBLISH_COMPLETE' || status.status === 'SEND_TO_USER_INBOX') {
      runtime.logger.info({ publishId, status: status.status, polls: poll }, 'TikTok finished processing the video');
      return status;
    }
    if (status.status === 'FAILED') {
      const error = publishFailedError(status.failReason, publishId);
      runtime.logger.warn({ publishId, failReason: error.code }, 'TikTok failed the post');
      throw error;
    }
    if (poll >= maxPolls || runtime.now() + pollMs > deadline) throw publishTimeout(publishId, status, timeoutMs);
    await pause(runtime, pollMs, options.signal, 'Waiting for TikTok');
  }
}

function publishTimeout(publishId: string, last: PostStatus, timeoutMs: number): TikTokError {
  return new TikTokError('timeout', explainTikTokError('publish_timeout'), {
    code: 'publish_timeout',
    detail: `${publishId} still ${last.status} after ${Math.round(timeoutMs / 1000)} s`,
  });
}

/** The video query takes at most 20 ids per request. */
export const MAX_VIDEO_IDS_PER_QUERY = 20;
const VIDEO_FIELDS = ['id', 'view_count', 'like_count', 'comment_count', 'share_count', 'create_time'] as const;
const VIDEO_LIST_MISSING =
  'The TikTok account did not grant Clipshift permission to read its videos (video.list), which statistics need: reconnect the account in Settings and allow it.';

/**
 * Counts of the account's own posts by their public post ids (video.list scope), in batches of 20.
 * Ids TikTok does not return (deleted, private, not this account's) are simply absent. A token
 * without video.list throws reconnect_required with words that name the missing permission.
 */
export async function queryVideos(config: ApiConfig, runtime: TikTokRuntime, accessToken: string, videoIds: readonly string[], signal?: AbortSignal): Promise<TikTokVideoStats[]> {
  const unique = [...new Set(videoIds)];
  const found: TikTokVideoStats[] = [];
  for (let start = 0; start < unique.length; start += MAX_VIDEO_IDS_PER_QUERY) {
    const batch = unique.slice(start, start + MAX_VIDEO_IDS_PER_QUERY);
    let answer: V2Answer<z.output<typeof videoQueryResponseSchema>>;
    try {
      answer = await callV2(
        config,
        runtime,
        { method: 'POST', path: '/v2/video/query/', accessToken, query: { fields: VIDEO_FIELDS.join(',') }, json: { filters: { video_ids: batch } }, signal },
        videoQueryResponseSchema,
      );
    } catch (error) {
      if (error instanceof TikTokError && (error.code === 'scope_not_authorized' || error.code === 'scope_permission_missed')) {
        throw new TikTokError('reconnect_required', VIDEO_LIST_MISSING, { code: error.code, httpStatus: error.httpStatus, logId: error.logId, detail: error.detail, cause: error });
      }
      throw error;
    }
    const rawIds = videoIdsOf(answer.text);
    answer.data.data.videos.forEach((video, index) => {
      const id = typeof video.id === 'string' ? video.id : (rawIds[index] ?? String(video.id));
      found.push({
        id,
        views: video.view_count ?? 0,
        likes: video.like_count ?? 0,
        comments: video.comment_count ?? 0,
        shares: video.share_count ?? 0,
        createTime: video.create_time ?? null,
      });
    });
  }
  return found;
}

/** The videos' ids in answer order, as written in the raw text: an int64 id as a bare number would round in JSON.parse. */
function videoIdsOf(text: string): string[] {
  const videos = /"videos"\s*:\s*\[([\s\S]*)\]/.exec(text)?.[1] ?? '';
  return [...videos.matchAll(/"id"\s*:\s*"?(\d+)"?/g)].map((match) => match[1] ?? '');
}
