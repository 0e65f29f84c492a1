import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { exponentialBackoff } from '../http/retry.ts';
import { describeNetworkError, discardBody, joinUrl, transferTimeoutMs, withTimeout } from '../http/runtime.ts';
import { abortedError, extractGraphError, isMetaError, MetaError, ownError, scrubSecrets } from '../meta/errors.ts';
import { graphRequest, pause, readMetaJson, type MetaRuntime } from '../meta/graph.ts';
import { reelStatus } from './api.ts';
import { reelSizeProblem } from './rules.ts';
import { reelStartSchema, successSchema, type ReadChunk, type ReelMetadata, type ReelUpload, type UploadBytesOptions } from './types.ts';

/*
 * A Page Reel: POST /{page-id}/video_reels upload_phase=start opens an upload (a video id and its
 * upload URL on rupload.facebook.com), the bytes go there in one POST with `Authorization: OAuth
 * <page token>`, `offset` and `file_size`, and upload_phase=finish publishes it. After a broken
 * connection or a 5xx the upload host may hold part of what was sent: the video's status
 * (uploading_phase.bytes_transferred) says how much, and the upload goes on from there.
 * The Page token goes to the upload URL only when it is on FACEBOOK_RUPLOAD_URL's origin.
 */

export interface UploadConfig {
  /** FACEBOOK_GRAPH_URL, with its version */
  graphUrl: string;
  /** FACEBOOK_RUPLOAD_URL */
  ruploadUrl: string;
}

const WHAT = 'Facebook Reel upload';
/** Failed attempts in a row, without the upload host gaining a byte, before the upload gives up. */
const MAX_FAILURES_WITHOUT_PROGRESS = 5;
const failureBackoff = exponentialBackoff(1000, 30_000);

/** The Graph API version in FACEBOOK_GRAPH_URL ("v21.0"), which the upload path repeats. */
function graphVersion(graphUrl: string): string {
  return /\/(v\d+\.\d+)\/?$/.exec(new URL(graphUrl).pathname)?.[1] ?? 'v21.0';
}

/** Opens the upload; save the result before sending bytes so a retried job resumes it instead of starting another. */
export async function startReel(config: UploadConfig, runtime: MetaRuntime, pageToken: string, pageId: string, signal?: AbortSignal): Promise<ReelUpload> {
  const body = await graphRequest(
    runtime,
    {
      platform: 'facebook',
      what: 'Facebook POST /{page-id}/video_reels (start)',
      method: 'POST',
      base: config.graphUrl,
      path: `/${encodeURIComponent(pageId)}/video_reels`,
      json: { upload_phase: 'start' },
      token: pageToken,
      signal,
    },
    reelStartSchema,
  );
  const uploadUrl = body.upload_url ?? joinUrl(config.ruploadUrl, `/video-upload/${graphVersion(config.graphUrl)}/${encodeURIComponent(body.video_id)}`);
  runtime.logger.info({ videoId: body.video_id }, 'Facebook Reel upload opened');
  return { videoId: body.video_id, uploadUrl };
}

/** Publishes an uploaded Reel with its description. Not retried unseen: reelStatus tells whether a lost finish landed. */
export async function finishReel(config: UploadConfig, runtime: MetaRuntime, pageToken: string, pageId: string, videoId: string, metadata: ReelMetadata, signal?: AbortSignal): Promise<void> {
  const body = await graphRequest(
    runtime,
    {
      platform: 'facebook',
      what: 'Facebook POST /{page-id}/video_reels (finish)',
      method: 'POST',
      base: config.graphUrl,
      path: `/${encodeURIComponent(pageId)}/video_reels`,
      json: { upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED', description: metadata.description },
      token: pageToken,
      once: true,
      signal,
    },
    successSchema,
  );
  if (!body.success) throw ownError('facebook', 'upstream', 'upstream', `finish of video ${videoId} answered success: false`);
  runtime.logger.info({ videoId }, 'Facebook Reel published');
}

type Attempt = { done: true } | { received: number } | { failure: string };

/**
 * Sends the video from `startAt` and returns once the upload host holds all of it. A broken
 * connection or a 5xx is waited out (1 s, 2 s, 4 s…), then the video's status says how many bytes
 * arrived and the upload goes on from there; it gives up after five failures in a row without
 * progress. Other refusals throw at once.
 */
export async function uploadBytes(
  config: UploadConfig,
  runtime: MetaRuntime,
  pageToken: string,
  upload: ReelUpload,
  source: string | ReadChunk,
  size: number,
  options: UploadBytesOptions = {},
): Promise<void> {
  if (!Number.isSafeInteger(size) || size <= 0) throw ownError('facebook', 'file', 'video_empty', `size ${size}`);
  const tooBig = reelSizeProblem(size);
  if (tooBig) throw new MetaError('facebook', 'file', tooBig, { code: 'video_too_large', detail: `${size} bytes` });
  let offset = options.startAt ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= size) throw new RangeError(`startAt must be a byte offset below ${size}, got ${offset}`);
  assertTrustedUploadUrl(config, upload.uploadUrl);
  if (typeof source === 'string') await assertFileSize(source, size);
  const { signal } = options;
  let failures = 0;
  let mustAsk = false;
  for (;;) {
    if (signal?.aborted) throw abortedError('facebook', WHAT, signal.reason);
    const attempt = mustAsk ? await askProgress(config, runtime, pageToken, upload.videoId, size, signal) : await sendFrom(runtime, pageToken, upload.uploadUrl, source, offset, size, signal);
    if ('done' in attempt) {
      options.onProgress?.(size, size);
      runtime.logger.info({ videoId: upload.videoId, bytes: size }, 'Video uploaded to Facebook');
      return;
    }
    if ('received' in attempt) {
      // Only a failure leads here, and it has been counted: what arrived decides whether it was progress.
      mustAsk = false;
      options.onProgress?.(attempt.received, size);
      if (attempt.received > offset) failures = 0;
      offset = attempt.received;
      continue;
    }
    if (++failures >= MAX_FAILURES_WITHOUT_PROGRESS) throw gaveUp(failures, attempt.failure);
    const waitMs = failureBackoff(failures);
    runtime.logger.warn({ videoId: upload.videoId, offset, failure: attempt.failure, attempt: failures, waitMs }, 'Facebook upload broke off; asking how much arrived');
    await pause(runtime, 'facebook', waitMs, signal, WHAT);
    mustAsk = true;
  }
}

/** How much of the video the upload host holds, from the video's status. */
async function askProgress(config: UploadConfig, runtime: MetaRuntime, pageToken: string, videoId: string, size: number, signal: AbortSignal | undefined): Promise<Attempt> {
  try {
    const status = await reelStatus(config, runtime, pageToken, videoId, signal);
    const received = status.uploading.bytesTransferred ?? 0;
    if (status.uploading.status === 'complete' || received >= size) return { done: true };
    return { received };
  } catch (error) {
    // Still unreachable after the status call's own retries: one more failure, then ask again.
    if (isMetaError(error, 'upstream')) return { failure: `status: ${error.detail}` };
    throw error;
  }
}

/** One POST of bytes [offset, size); a 5xx, 429, a retriable refusal or a broken connection is a failure to recover from. */
async function sendFrom(runtime: MetaRuntime, pageToken: string, uploadUrl: string, source: string | ReadChunk, offset: number, size: number, signal: AbortSignal | undefined): Promise<Attempt> {
  const body = await bodyFrom(source, offset, size);
  const timeout = AbortSignal.timeout(transferTimeoutMs(size - offset, runtime.transferBudget));
  // duplex: 'half' is required by fetch for a streamed request body (missing from the DOM typings).
  const init: RequestInit & { duplex: 'half' } = {
    method: 'POST',
    headers: { Authorization: `OAuth ${pageToken}`, offset: String(offset), file_size: String(size), 'Content-Type': 'application/octet-stream', 'Content-Length': String(size - offset) },
    body,
    duplex: 'half',
    signal: withTimeout(signal, timeout),
  };
  let response: Response;
  try {
    response = await fetch(uploadUrl, init);
  } catch (error) {
    if (signal?.aborted) throw abortedError('facebook', WHAT, error);
    return { failure: timeout.aborted ? 'timed out' : describeNetworkError(error) };
  }
  if (response.status >= 500 || response.status === 429) {
    await discardBody(response);
    return { failure: `HTTP ${response.status}` };
  }
  const answer = await readMetaJson(response);
  const parsed = successSchema.safeParse(answer);
  if (response.ok && parsed.success && parsed.data.success) return { done: true };
  const refusal = extractGraphError(answer);
  if (refusal?.transient) return { failure: `HTTP ${response.status} ${refusal.type ?? ''} (retriable)` };
  const detail = `${WHAT} → HTTP ${response.status} ${refusal?.type ?? ''}: ${refusal?.message ?? 'no reason given'}`;
  throw ownError('facebook', 'upload_failed', 'upload_rejected', scrubSecrets(detail, [pageToken]), { httpStatus: response.status });
}

async function bodyFrom(source: string | ReadChunk, offset: number, size: number): Promise<RequestInit['body']> {
  if (typeof source === 'string') {
    // A fresh read stream per attempt: a resend re-reads its byte range from disk, never from memory.
    // fetch (undici) streams any async iterable; the DOM typings only know web streams, hence the cast.
    return createReadStream(source, { start: offset }) as unknown as RequestInit['body'];
  }
  const bytes = await source(offset, size);
  if (bytes.byteLength !== size - offset) throw ownError('facebook', 'file', 'video_changed', `readChunk(${offset}, ${size}) gave ${bytes.byteLength} bytes`);
  // undici sends any Uint8Array; the DOM typings only accept one over a plain ArrayBuffer.
  return bytes as Uint8Array<ArrayBuffer>;
}

/** The Page token is a credential: it goes to FACEBOOK_RUPLOAD_URL's origin and nowhere else. */
function assertTrustedUploadUrl(config: UploadConfig, uploadUrl: string): void {
  let origin: string | null = null;
  try {
    origin = new URL(uploadUrl).origin;
  } catch {
    origin = null;
  }
  if (origin !== new URL(config.ruploadUrl).origin) {
    throw ownError('facebook', 'invalid_request', 'upload_untrusted', `upload URL on ${origin ?? 'no valid origin'}, expected ${new URL(config.ruploadUrl).origin}`);
  }
}

/** startReel announced nothing, but every attempt says file_size: a file that changed since would be cut wrong. */
async function assertFileSize(filePath: string, size: number): Promise<void> {
  const actual = await stat(filePath).then(
    (stats) => stats.size,
    (error: unknown) => {
      throw ownError('facebook', 'file', 'video_unreadable', describeNetworkError(error), { cause: error });
    },
  );
  if (actual !== size) throw ownError('facebook', 'file', 'video_changed', `file has ${actual} bytes, upload ${size}`);
}

function gaveUp(failures: number, reason: string): MetaError {
  return ownError('facebook', 'upload_failed', 'upload_server_error', `${WHAT}: ${failures} failures without progress (last: ${reason})`);
}
