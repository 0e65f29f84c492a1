import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { abortedError, TwitchError } from './errors.ts';
import { describeNetworkError, discardBody } from '../http/runtime.ts';
import { backoffMs, pause, throwIfAborted, type TwitchRuntime } from './runtime.ts';
import type { DownloadOptions, DownloadResult } from './types.ts';

const WHAT = 'Clip download';
const DEFAULT_ATTEMPTS = 3;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
/** Transfer errors that another attempt cannot fix (our own disk failing), as opposed to a broken connection. */
const FINAL = new WeakSet<TwitchError>();

/**
 * Streams a clip MP4 to `${destinationPath}.part` and renames it into place only when every byte
 * announced by Content-Length arrived, so a file at destinationPath is always complete. A broken
 * or short transfer starts again from the beginning (clips are small; no Range resume needed).
 * The URL carries sig/token: it is never logged.
 */
export async function downloadClip(
  runtime: TwitchRuntime,
  url: string,
  destinationPath: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  const partPath = `${destinationPath}.part`;
  const attempts = Math.max(1, options.maxAttempts ?? DEFAULT_ATTEMPTS);
  const { signal } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      throwIfAborted(signal, WHAT);
      const bytes = await transferOnce(url, partPath, options);
      await rename(partPath, destinationPath).catch((error: unknown) => {
        throw localFileError(destinationPath, error);
      });
      return { path: destinationPath, bytes };
    } catch (error) {
      await rm(partPath, { force: true });
      if (signal?.aborted) throw error instanceof TwitchError && error.kind === 'aborted' ? error : abortedError(WHAT, error);
      const failure = asTransferError(error);
      if (failure.kind !== 'transfer' || FINAL.has(failure) || attempt >= attempts) throw failure;
      const waitMs = backoffMs(attempt);
      runtime.logger.warn({ attempt, waitMs, reason: failure.message }, 'Clip download failed; retrying');
      await pause(runtime, waitMs, signal, WHAT);
    }
  }
}

/** One GET into the .part file; resolves with the byte count or throws a TwitchError. */
async function transferOnce(url: string, partPath: string, options: DownloadOptions): Promise<number> {
  const { signal } = options;
  // A connection that stays open but sends nothing would hang the job forever: a watchdog aborts the
  // attempt after idleTimeoutMs without data, and the attempt is retried like a broken one.
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const stall = new AbortController();
  const watchdog = setTimeout(() => stall.abort(), idleMs);
  const attemptSignal = signal ? AbortSignal.any([signal, stall.signal]) : stall.signal;
  const progress = { bytes: 0, total: null as number | null };
  try {
    return await streamToFile(url, partPath, attemptSignal, progress, () => {
      watchdog.refresh();
      options.onProgress?.(progress.bytes, progress.total);
    });
  } catch (error) {
    if (signal?.aborted) throw abortedError(WHAT, error);
    if (stall.signal.aborted) {
      throw new TwitchError('transfer', `Download stalled: no data for ${idleMs / 1000} s after ${describeProgress(progress)}`, { cause: error });
    }
    throw error;
  } finally {
    clearTimeout(watchdog);
  }
}

interface Progress {
  bytes: number;
  total: number | null;
}

async function streamToFile(url: string, partPath: string, signal: AbortSignal, progress: Progress, onChunk: () => void): Promise<number> {
  // identity: with gzip, fetch would inflate the body and Content-Length would no longer match the bytes we count.
  const response = await fetch(url, { signal, headers: { 'Accept-Encoding': 'identity' } });
  if (!response.ok || !response.body) {
    await discardBody(response);
    throw cdnError(response.status);
  }
  progress.total = contentLength(response);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      progress.bytes += chunk.length;
      onChunk();
      callback(null, chunk);
    },
  });
  const file = createWriteStream(partPath);
  try {
    const body = Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>);
    await pipeline(body, counter, file, { signal });
  } catch (error) {
    // Wait for the file to close so deleting the .part cannot race a late open/flush that recreates it.
    await closed(file);
    if (signal.aborted) throw error;
    if (isFileSystemError(error)) throw localFileError(partPath, error);
    throw new TwitchError('transfer', `Download broke after ${describeProgress(progress)} (${describeNetworkError(error)})`, { cause: error });
  }
  const { bytes, total } = progress;
  if (total !== null && bytes !== total) {
    throw new TwitchError('transfer', `Download came up short: ${bytes} of ${total} bytes announced by Content-Length`);
  }
  if (bytes === 0) throw new TwitchError('transfer', 'Download delivered an empty file');
  return bytes;
}

function describeProgress({ bytes, total }: Progress): string {
  return `${bytes} of ${total ?? 'an unknown number of'} bytes`;
}

function contentLength(response: Response): number | null {
  const header = response.headers.get('content-length');
  const encoding = response.headers.get('content-encoding');
  if (header === null || (encoding && encoding !== 'identity')) return null;
  const value = Number(header);
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** 403/404 mean a bad or expired sig/token (A6b): asking again with the same URL cannot help. 5xx may pass. */
function cdnError(status: number): TwitchError {
  if (status === 403 || status === 404) {
    return new TwitchError('not_found', `The clip CDN refused the file (HTTP ${status}); the playback token may have expired`, { status });
  }
  if (status >= 500) return new TwitchError('transfer', `The clip CDN answered HTTP ${status}`, { status });
  return new TwitchError('upstream', `The clip CDN answered HTTP ${status}`, { status });
}

function asTransferError(error: unknown): TwitchError {
  if (error instanceof TwitchError) return error;
  // fetch itself failed (connection refused, reset before headers): worth another attempt.
  return new TwitchError('transfer', `Download failed (${describeNetworkError(error)})`, { cause: error });
}

/** Our disk failing (open/write: ENOSPC, EACCES…) carries a syscall; a dropped connection surfaces as fetch's "terminated" TypeError. */
function isFileSystemError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

function localFileError(path: string, error: unknown): TwitchError {
  const reason = error instanceof Error ? error.message : String(error);
  const failure = new TwitchError('transfer', `Could not write the clip to ${path} (${reason})`, { cause: error });
  FINAL.add(failure);
  return failure;
}

function closed(stream: WriteStream): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('close', () => resolve());
    stream.destroy();
  });
}
