import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { redactUrl } from '../../../platform/logger.ts';
import type { Chunk, ChunkPlan } from './chunks.ts';
import { explainTikTokError, TikTokError } from './errors.ts';
import { sendWithRetries, type RetryPolicy } from '../http/retry.ts';
import { describeNetworkError, discardBody, transferTimeoutMs } from '../http/runtime.ts';
import { RATE_LIMIT_WAITS_MS, TIKTOK_RETRIES, type TikTokRuntime } from './runtime.ts';
import type { UploadProgressOptions, UploadResult } from './types.ts';

/*
 * The chunk PUTs to upload_url (external-apis.md B5, Media Transfer Guide): sequential, each with
 * Content-Type, Content-Length and Content-Range `bytes {first}-{last}/{total}`, streamed from the
 * file so a 4 GB video never sits in memory. 206 = more expected, 201 = complete.
 * The upload_url carries upload_token: it only reaches logs through redactUrl.
 */

const WHAT = 'TikTok video upload';

type ChunkOutcome = 'accepted' | 'complete';

export async function uploadChunks(runtime: TikTokRuntime, uploadUrl: string, filePath: string, plan: ChunkPlan, options: UploadProgressOptions = {}): Promise<UploadResult> {
  await assertFileMatchesPlan(filePath, plan);
  const startAt = options.startAt ?? 0;
  if (!Number.isInteger(startAt) || startAt < 0 || startAt >= plan.chunks.length) {
    throw new RangeError(`startAt must be a chunk index between 0 and ${plan.chunks.length - 1}, got ${startAt}`);
  }
  const logger = runtime.logger.child({ uploadUrl: redactUrl(uploadUrl) });
  let chunksSent = 0;
  for (const chunk of plan.chunks.slice(startAt)) {
    const outcome = await putChunkWithRetries(runtime, uploadUrl, filePath, plan, chunk, options.signal);
    chunksSent++;
    options.onProgress?.(chunk.end + 1, plan.videoSize);
    logger.debug({ chunk: chunk.index, of: plan.totalChunkCount, outcome }, 'TikTok accepted a chunk');
    // A 416 that proves TikTok already holds everything also ends the upload early.
    if (outcome === 'complete') break;
  }
  logger.info({ bytes: plan.videoSize, chunks: plan.totalChunkCount, chunksSent }, 'Video uploaded to TikTok');
  return { uploadedBytes: plan.videoSize, chunksSent };
}

/** init announced this size to TikTok: a file that changed since would be refused chunk by chunk. */
async function assertFileMatchesPlan(filePath: string, plan: ChunkPlan): Promise<void> {
  const size = await stat(filePath).then(
    (stats) => stats.size,
    (error: unknown) => {
      throw new TikTokError('file', explainTikTokError('video_unreadable'), { code: 'video_unreadable', detail: describeNetworkError(error), cause: error });
    },
  );
  if (size !== plan.videoSize) {
    throw new TikTokError('file', explainTikTokError('video_changed'), { code: 'video_changed', detail: `file has ${size} bytes, plan ${plan.videoSize}` });
  }
}

/** Sends one chunk, again on 5xx, 429 or a broken connection (the same bytes, so a retry is safe). */
async function putChunkWithRetries(runtime: TikTokRuntime, uploadUrl: string, filePath: string, plan: ChunkPlan, chunk: Chunk, signal: AbortSignal | undefined): Promise<ChunkOutcome> {
  const send = (attemptSignal: AbortSignal) => putChunk(uploadUrl, filePath, plan, chunk, attemptSignal);
  const response = await sendWithRetries(runtime, { what: WHAT, signal, send }, chunkRetries(runtime, chunk));
  return interpretChunkResponse(response, plan, chunk);
}

/**
 * The API's policy with a chunk's timeout (its size at the slowest uplink waited for), log line and
 * errors; a 5xx that outlives the retries is the chunk's failure.
 */
function chunkRetries(runtime: TikTokRuntime, chunk: Chunk): RetryPolicy {
  return {
    ...TIKTOK_RETRIES,
    retryMessage: 'TikTok chunk upload failed; retrying',
    retryFields: ({ what, attempt, waitMs, failure }) => ({ what, chunk: chunk.index, attempt, waitMs, failure: failure.reason }),
    timeoutMs: transferTimeoutMs(chunk.size, runtime.transferBudget),
    returnLastAnswer: false,
    // 429 is not documented for uploads; if it comes, treat it like the API's: wait, do not hammer.
    tooManyRequests: {
      waitsMs: RATE_LIMIT_WAITS_MS,
      message: 'TikTok rate limit reached; waiting before retrying',
      exhausted: async (_what, response) => {
        await discardBody(response);
        return chunkFailed('rate_limit_exceeded', response.status, chunk, 'still rate limited');
      },
    },
    exhausted: (_what, attempts, failure) => chunkFailed('upload_server_error', null, chunk, `${failure.reason} after ${attempts} attempts`),
  };
}

async function putChunk(uploadUrl: string, filePath: string, plan: ChunkPlan, chunk: Chunk, signal: AbortSignal): Promise<Response> {
  // A fresh read stream per attempt: a retry re-reads the same byte range from disk.
  const stream = createReadStream(filePath, { start: chunk.start, end: chunk.end });
  // fetch (undici) streams any async iterable; the DOM typings the tests compile with only know web
  // streams, whose Node and DOM declarations do not line up, hence the cast.
  const body = stream as unknown as RequestInit['body'];
  // duplex: 'half' is required by fetch for a streamed request body (also missing from the DOM typings).
  const init: RequestInit & { duplex: 'half' } = {
    method: 'PUT',
    headers: {
      'Content-Type': 'video/mp4',
      'Content-Length': String(chunk.size),
      'Content-Range': `bytes ${chunk.start}-${chunk.end}/${plan.videoSize}`,
    },
    body,
    duplex: 'half',
    signal,
  };
  return fetch(uploadUrl, init);
}

/** What a chunk's answer means once the retries are over: accepted, complete, or a typed error. */
async function interpretChunkResponse(response: Response, plan: ChunkPlan, chunk: Chunk): Promise<ChunkOutcome> {
  const isLast = chunk.index === plan.chunks.length - 1;
  const { status } = response;
  const contentRange = response.headers.get('content-range');
  await discardBody(response);
  if (status === 206) {
    if (isLast) throw chunkFailed('upload_incomplete', status, chunk, 'TikTok still expects data after the last chunk');
    return 'accepted';
  }
  if (status === 201 || status === 200) {
    if (!isLast) throw chunkFailed('upload_incomplete', status, chunk, 'TikTok reported the upload complete before the last chunk');
    return 'complete';
  }
  if (status === 416) return rangeOutcome(contentRange, plan, chunk);
  if (status === 403) throw new TikTokError('upload_expired', explainTikTokError('upload_url_expired'), { code: 'upload_url_expired', httpStatus: 403, detail: `chunk ${chunk.index}: HTTP 403` });
  if (status === 404) throw chunkFailed('upload_not_found', status, chunk, 'no such upload task');
  throw chunkFailed('upload_rejected', status, chunk, 'bad headers or Content-Length mismatch');
}

/**
 * 416: TikTok's progress differs from ours. When its Content-Range shows it already holds this
 * chunk (our earlier attempt arrived but its answer was lost), carry on; otherwise report where it
 * stands so the caller can resume there (uploadChunks' startAt).
 */
function rangeOutcome(contentRange: string | null, plan: ChunkPlan, chunk: Chunk): ChunkOutcome {
  const resumeAt = resumeChunkIndex(contentRange, plan);
  if (resumeAt === chunk.index + 1) return resumeAt === plan.chunks.length ? 'complete' : 'accepted';
  throw new TikTokError('upload_range', explainTikTokError('upload_range_mismatch'), {
    code: 'upload_range_mismatch',
    httpStatus: 416,
    detail: `chunk ${chunk.index}: HTTP 416, server range ${contentRange ?? '(none)'}`,
    ...(resumeAt === null || resumeAt >= plan.chunks.length ? {} : { resumeAtChunk: resumeAt }),
  });
}

/**
 * The chunk index following the bytes TikTok says it holds. Its `Content-Range: bytes 0-{N}/{TOTAL}`
 * is documented without saying whether N is inclusive (B5): TikTok only keeps whole chunks, so the
 * reading that lands on a chunk boundary wins (inclusive first). `bytes *` + `/{TOTAL}` means nothing yet.
 * Returns plan.chunks.length when everything arrived, null when the header fits no boundary.
 */
export function resumeChunkIndex(contentRange: string | null, plan: ChunkPlan): number | null {
  if (!contentRange) return null;
  if (/^bytes \*\/\d+$/.test(contentRange.trim())) return 0;
  const match = /^bytes\s+0-(\d+)\/(\d+|\*)$/.exec(contentRange.trim());
  if (!match?.[1]) return null;
  const last = Number(match[1]);
  for (const received of [last + 1, last]) {
    if (received === plan.videoSize) return plan.chunks.length;
    const next = plan.chunks.findIndex((candidate) => candidate.start === received);
    if (next !== -1) return next;
  }
  return null;
}

function chunkFailed(code: string, httpStatus: number | null, chunk: Chunk, why: string): TikTokError {
  return new TikTokError(code === 'rate_limit_exceeded' ? 'rate_limited' : 'upload_failed', explainTikTokError(code), {
    code,
    httpStatus,
    detail: `chunk ${chunk.index} (bytes ${chunk.start}-${chunk.end}): ${why}`,
  });
}
