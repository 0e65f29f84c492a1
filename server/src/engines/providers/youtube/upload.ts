import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { redactUrl } from '../../../platform/logger.ts';
import { exponentialBackoff, sendWithRetries } from '../http/retry.ts';
import { describeNetworkError, discardBody, transferTimeoutMs, withTimeout } from '../http/runtime.ts';
import { abortedError, explainYouTubeError, YouTubeError } from './errors.ts';
import { errorFromAnswer, extractGoogleError, parseWith, pause, readJson, YOUTUBE_RETRIES, type YouTubeRuntime } from './runtime.ts';
import { videoResourceSchema, type ReadChunk, type UploadChunksOptions, type UploadState } from './types.ts';

/*
 * The bytes of a resumable upload: PUTs to the session URL with `Content-Range: bytes F-L/T`.
 * 308 means "more", with `Range: bytes=0-N` for what the server holds (no Range: nothing); 200/201
 * carries the video. Every chunk but the last is a multiple of 256 KiB. After a dropped connection
 * or a 5xx the server may hold part, all or none of the chunk, so the client asks (`bytes *\/T`)
 * before sending again, and never re-sends what the server already has.
 * The session URL is the credential of the upload: it only reaches logs through redactUrl.
 */

const WHAT = 'YouTube video upload';
export const UPLOAD_BLOCK = 256 * 1024;
export const DEFAULT_UPLOAD_CHUNK_SIZE = 32 * UPLOAD_BLOCK;
/** Failed attempts in a row, without the server gaining a byte, before the upload gives up. */
const MAX_FAILURES_WITHOUT_PROGRESS = 5;
const failureBackoff = exponentialBackoff(1000, 30_000);

/** Where the upload stands after a status query: done with a video id, or how many bytes YouTube holds. */
export async function queryUpload(runtime: YouTubeRuntime, uploadUrl: string, size: number, signal?: AbortSignal): Promise<UploadState> {
  const what = 'YouTube upload status query';
  // A query changes nothing at YouTube, so every failure of it may be retried.
  const response = await sendWithRetries(
    runtime,
    {
      what,
      signal,
      send: (requestSignal) => fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Length': '0', 'Content-Range': `bytes */${size}` }, signal: requestSignal }),
    },
    YOUTUBE_RETRIES,
  );
  return readUploadAnswer(runtime, what, response, size);
}

/** What a PUT's answer says: complete, or the bytes held; a typed error for a refusal. */
async function readUploadAnswer(runtime: YouTubeRuntime, what: string, response: Response, size: number): Promise<UploadState> {
  const { status } = response;
  if (status === 200 || status === 201) {
    const body = await readJson(response);
    return { complete: parseWith(what, status, body, videoResourceSchema).id };
  }
  if (status === 308) {
    await discardBody(response);
    return { received: receivedBytes(response.headers.get('range'), size, what) };
  }
  const body = await readJson(response);
  if (status === 404) {
    throw new YouTubeError('upload_expired', explainYouTubeError('upload_session_expired'), {
      code: 'upload_session_expired',
      httpStatus: 404,
      detail: `${what} → HTTP 404: the upload session is unknown or expired`,
    });
  }
  if (extractGoogleError(body)) throw errorFromAnswer(runtime, what, status, body);
  throw new YouTubeError(status >= 500 ? 'upstream' : 'upload_failed', explainYouTubeError(status >= 500 ? 'upload_server_error' : 'upload_rejected'), {
    code: status >= 500 ? 'upload_server_error' : 'upload_rejected',
    httpStatus: status,
    detail: `${what} → HTTP ${status}`,
  });
}

/** `Range: bytes=0-N` → N + 1 bytes held; no header → none (the server kept nothing yet). */
export function receivedBytes(range: string | null, size: number, what = WHAT): number {
  if (range === null) return 0;
  const match = /^bytes=0-(\d+)$/.exec(range.trim());
  const last = match?.[1] === undefined ? NaN : Number(match[1]);
  if (!Number.isSafeInteger(last) || last + 1 > size) {
    throw new YouTubeError('upstream', explainYouTubeError('bad_response'), { code: 'bad_response', httpStatus: 308, detail: `${what}: unreadable Range ${range}` });
  }
  return last + 1;
}

type Attempt = { state: UploadState } | { failure: string };

/**
 * Sends the video from `startAt` in chunks and returns the video id. A 5xx or a broken connection is
 * waited out (1 s, 2 s, 4 s…), then the server is asked what it holds and the upload continues from
 * there; it gives up after five failures in a row without progress. 404 (session gone) and other
 * refusals throw typed errors at once.
 */
export async function uploadChunks(runtime: YouTubeRuntime, uploadUrl: string, source: string | ReadChunk, size: number, options: UploadChunksOptions = {}): Promise<string> {
  const chunkSize = options.chunkSize ?? DEFAULT_UPLOAD_CHUNK_SIZE;
  if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0 || chunkSize % UPLOAD_BLOCK !== 0) {
    throw new RangeError(`chunk size must be a positive multiple of ${UPLOAD_BLOCK} bytes, got ${chunkSize}`);
  }
  if (!Number.isSafeInteger(size) || size <= 0) throw new YouTubeError('file', explainYouTubeError('video_empty'), { code: 'video_empty', detail: `size ${size}` });
  let offset = options.startAt ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= size) throw new RangeError(`startAt must be a byte offset below ${size}, got ${offset}`);
  if (typeof source === 'string') await assertFileSize(source, size);
  const logger = runtime.logger.child({ uploadUrl: redactUrl(uploadUrl) });
  const { signal } = options;
  let failures = 0;
  let mustAsk = false;
  for (;;) {
    if (signal?.aborted) throw abortedError(WHAT, signal.reason);
    const attempt = mustAsk ? await askServer(runtime, uploadUrl, size, signal) : await sendChunk(runtime, uploadUrl, source, offset, Math.min(offset + chunkSize, size), size, signal);
    if ('state' in attempt) {
      mustAsk = false;
      const { state } = attempt;
      if ('complete' in state) {
        options.onProgress?.(size, size);
        logger.info({ bytes: size, videoId: state.complete }, 'Video uploaded to YouTube');
        return state.complete;
      }
      options.onProgress?.(state.received, size);
      if (state.received >= size) {
        throw new YouTubeError('upload_failed', explainYouTubeError('upload_incomplete'), { code: 'upload_incomplete', detail: `${WHAT}: 308 with all ${size} bytes held` });
      }
      if (state.received > offset) {
        failures = 0;
        offset = state.received;
        continue;
      }
      // The server holds no more than before (a 308 without Range after a chunk means it lost
      // everything): start again from where it stands, which is not progress.
      offset = state.received;
      if (++failures < MAX_FAILURES_WITHOUT_PROGRESS) continue;
      throw gaveUp(failures, `server stuck at ${offset} bytes`);
    }
    if (++failures >= MAX_FAILURES_WITHOUT_PROGRESS) throw gaveUp(failures, attempt.failure);
    const waitMs = failureBackoff(failures);
    logger.warn({ offset, failure: attempt.failure, attempt: failures, waitMs }, 'YouTube chunk upload failed; asking the server what it holds');
    await pause(runtime, waitMs, signal, WHAT);
    mustAsk = true;
  }
}

async function askServer(runtime: YouTubeRuntime, uploadUrl: string, size: number, signal: AbortSignal | undefined): Promise<Attempt> {
  try {
    return { state: await queryUpload(runtime, uploadUrl, size, signal) };
  } catch (error) {
    // Still unreachable after the query's own retries: counts as one more failure, then ask again.
    if (error instanceof YouTubeError && error.kind === 'upstream') return { failure: `status query: ${error.detail}` };
    throw error;
  }
}

/** One PUT of bytes [start, end); a 5xx, 429 or broken connection is a failure to recover from, not an error. */
async function sendChunk(
  runtime: YouTubeRuntime,
  uploadUrl: string,
  source: string | ReadChunk,
  start: number,
  end: number,
  size: number,
  signal: AbortSignal | undefined,
): Promise<Attempt> {
  const body = await chunkBody(source, start, end);
  // The chunk's size at the slowest uplink waited for (an 8 MiB chunk: about 95 s), not a fixed 10 minutes.
  const timeout = AbortSignal.timeout(transferTimeoutMs(end - start, runtime.transferBudget));
  // duplex: 'half' is required by fetch for a streamed request body (missing from the DOM typings).
  const init: RequestInit & { duplex: 'half' } = {
    method: 'PUT',
    headers: { 'Content-Type': 'video/mp4', 'Content-Length': String(end - start), 'Content-Range': `bytes ${start}-${end - 1}/${size}` },
    body,
    duplex: 'half',
    signal: withTimeout(signal, timeout),
  };
  let response: Response;
  try {
    response = await fetch(uploadUrl, init);
  } catch (error) {
    if (signal?.aborted) throw abortedError(WHAT, error);
    return { failure: timeout.aborted ? 'timed out' : describeNetworkError(error) };
  }
  if (response.status >= 500 || response.status === 429) {
    await discardBody(response);
    return { failure: `HTTP ${response.status}` };
  }
  return { state: await readUploadAnswer(runtime, WHAT, response, size) };
}

async function chunkBody(source: string | ReadChunk, start: number, end: number): Promise<RequestInit['body']> {
  if (typeof source === 'string') {
    // A fresh read stream per attempt: a resend re-reads its byte range from disk, never from memory.
    // fetch (undici) streams any async iterable; the DOM typings only know web streams, hence the cast.
    return createReadStream(source, { start, end: end - 1 }) as unknown as RequestInit['body'];
  }
  const bytes = await source(start, end);
  if (bytes.byteLength !== end - start) {
    throw new YouTubeError('file', explainYouTubeError('video_changed'), { code: 'video_changed', detail: `readChunk(${start}, ${end}) gave ${bytes.byteLength} bytes` });
  }
  // undici sends any Uint8Array; the DOM typings only accept one over a plain ArrayBuffer.
  return bytes as Uint8Array<ArrayBuffer>;
}

/** startUpload announced this size: a file that changed since would be refused at the last chunk. */
async function assertFileSize(filePath: string, size: number): Promise<void> {
  const actual = await stat(filePath).then(
    (stats) => stats.size,
    (error: unknown) => {
      throw new YouTubeError('file', explainYouTubeError('video_unreadable'), { code: 'video_unreadable', detail: describeNetworkError(error), cause: error });
    },
  );
  if (actual !== size) throw new YouTubeError('file', explainYouTubeError('video_changed'), { code: 'video_changed', detail: `file has ${actual} bytes, upload ${size}` });
}

function gaveUp(failures: number, reason: string): YouTubeError {
  return new YouTubeError('upload_failed', explainYouTubeError('upload_server_error'), {
    code: 'upload_server_error',
    detail: `${WHAT}: ${failures} failures without progress (last: ${reason})`,
  });
}
