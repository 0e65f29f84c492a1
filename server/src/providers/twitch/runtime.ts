import { setTimeout as delay } from 'node:timers/promises';
import { redactUrl, type Logger } from '../../logs/logger.ts';
import { abortedError, TwitchError } from './errors.ts';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What every part of the client shares; sleep and now are injectable so tests never really wait. */
export interface TwitchRuntime {
  logger: Logger;
  sleep: Sleep;
  now: () => number;
}

export const defaultSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, { signal });
};

/** Attempts for transient failures (5xx, network): the first try plus two retries. */
export const TRANSIENT_ATTEMPTS = 3;
/** API calls are small JSON documents; a call hanging longer than this is treated as a network failure. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** 500 ms, 1 s, 2 s… capped at 10 s: long enough for a hiccup to pass, short enough for a job. */
export function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** (attempt - 1), 10_000);
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw abortedError(what, signal.reason);
}

/** Sleeps through the injected sleep, turning the caller's abort into a typed error. */
export async function pause(runtime: TwitchRuntime, ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  throwIfAborted(signal, what);
  try {
    await runtime.sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) throw abortedError(what, error);
    throw error;
  }
  throwIfAborted(signal, what);
}

/** The caller's signal plus a per-request timeout, so a hung connection cannot stall a job forever. */
export function requestSignal(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** Lets the connection go back to the pool when we do not read a body. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

/** Twitch's own explanation from an error body (Helix and id.twitch.tv both send `message`). */
export async function readErrorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string' && parsed.message) {
      return parsed.message;
    }
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): fall back to the status line.
  }
  return response.statusText || `HTTP ${response.status}`;
}

export interface TransientRequest {
  /** Names the call in logs and errors, e.g. "Helix GET /clips"; never includes secrets. */
  what: string;
  send: (signal: AbortSignal) => Promise<Response>;
  signal?: AbortSignal;
}

/**
 * Sends a request, retrying network errors and 5xx answers with exponential backoff. Any other
 * status is returned to the caller, which knows what 401/429/4xx mean for its endpoint.
 */
export async function sendWithRetries(runtime: TwitchRuntime, request: TransientRequest): Promise<Response> {
  const { what, signal } = request;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(signal, what);
    let failure: string;
    try {
      const response = await request.send(requestSignal(signal, REQUEST_TIMEOUT_MS));
      if (response.status < 500) return response;
      failure = `HTTP ${response.status}: ${await readErrorMessage(response)}`;
      if (attempt >= TRANSIENT_ATTEMPTS) {
        throw new TwitchError('upstream', `${what} failed after ${attempt} attempts (${failure})`, { status: response.status });
      }
    } catch (error) {
      if (error instanceof TwitchError) throw error;
      if (signal?.aborted) throw abortedError(what, error);
      failure = describeNetworkError(error);
      if (attempt >= TRANSIENT_ATTEMPTS) {
        throw new TwitchError('upstream', `${what} failed after ${attempt} attempts (${failure})`, { cause: error });
      }
    }
    const waitMs = backoffMs(attempt);
    runtime.logger.warn({ what, attempt, waitMs, failure }, 'Twitch request failed; retrying');
    await pause(runtime, waitMs, signal, what);
  }
}

/** A one-line reason for logs and errors; redacted because some messages quote the URL. */
export function describeNetworkError(error: unknown): string {
  if (isAbortError(error)) return 'timed out';
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return redactUrl(`${error.message}${cause}`);
  }
  return redactUrl(String(error));
}
