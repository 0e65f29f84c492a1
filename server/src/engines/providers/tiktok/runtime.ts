import {
  defaultSleep,
  describeNetworkError,
  discardBody,
  isAbortError,
  joinUrl,
  pauseOrAbort,
  REQUEST_TIMEOUT_MS,
  requestSignal,
  TRANSIENT_ATTEMPTS,
  type ProviderRuntime,
  type Sleep,
} from '../http/runtime.ts';
import { abortedError, errorFromCode, explainTikTokError, TikTokError } from './errors.ts';

export { defaultSleep, describeNetworkError, discardBody, isAbortError, joinUrl, REQUEST_TIMEOUT_MS, requestSignal, TRANSIENT_ATTEMPTS, type Sleep };

/** What every part of the client shares; sleep and now are injectable so tests never really wait. */
export type TikTokRuntime = ProviderRuntime;

/**
 * TikTok documents no rate-limit headers (B4), so a 429 is waited out blindly: 10 s, 20 s, 40 s.
 * Its windows are one minute long; after ~70 s of waiting the limit is not a passing burst.
 */
export const RATE_LIMIT_WAITS_MS: readonly number[] = [10_000, 20_000, 40_000];

/** 1 s, 2 s, 4 s… capped at 10 s: long enough for a hiccup to pass, short enough for a job. */
export function backoffMs(attempt: number): number {
  return Math.min(1000 * 2 ** (attempt - 1), 10_000);
}

export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw abortedError(what, signal.reason);
}

/** Sleeps through the injected sleep, turning the caller's abort into a typed error. */
export function pause(runtime: TikTokRuntime, ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return pauseOrAbort(runtime, ms, signal, (cause) => abortedError(what, cause));
}

export interface TransientRequest {
  /** Names the call in logs and errors, e.g. "TikTok POST /v2/oauth/token/"; never includes secrets. */
  what: string;
  send: (signal: AbortSignal) => Promise<Response>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Whether a network failure may be retried. Not for token grants: a code is single-use and a
   * refresh rotates the refresh token, so if TikTok handled the first request and only the answer
   * was lost, a retry would fail with invalid_grant and hide what really happened.
   */
  retryNetworkErrors?: boolean;
}

/**
 * Sends a request, retrying 5xx answers (and network errors when allowed) with exponential backoff.
 * Any other status is returned to the caller, which knows what 401/429/4xx mean for its endpoint.
 */
export async function sendWithRetries(runtime: TikTokRuntime, request: TransientRequest): Promise<Response> {
  const { what, signal } = request;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(signal, what);
    let failure: string;
    try {
      const response = await request.send(requestSignal(signal, request.timeoutMs ?? REQUEST_TIMEOUT_MS));
      if (response.status < 500 || attempt >= TRANSIENT_ATTEMPTS) return response;
      failure = `HTTP ${response.status}`;
      await discardBody(response);
    } catch (error) {
      if (signal?.aborted) throw abortedError(what, error);
      failure = describeNetworkError(error);
      if (request.retryNetworkErrors === false || attempt >= TRANSIENT_ATTEMPTS) throw networkError(what, attempt, failure, error);
    }
    const waitMs = backoffMs(attempt);
    runtime.logger.warn({ what, attempt, waitMs, failure }, 'TikTok request failed; retrying');
    await pause(runtime, waitMs, signal, what);
  }
}

function networkError(what: string, attempts: number, failure: string, cause: unknown): TikTokError {
  return new TikTokError('upstream', explainTikTokError('network_error'), {
    code: 'network_error',
    detail: `${what} failed after ${attempts} attempt(s) (${failure})`,
    cause,
  });
}

export interface RateLimitedRequest extends TransientRequest {
  /** How to read TikTok's error out of a final 429 (its shape differs between OAuth and v2 endpoints). */
  readError?: (response: Response) => Promise<TikTokError>;
}

/**
 * sendWithRetries, plus waiting out 429 rate_limit_exceeded: 10 s, 20 s, 40 s, then a typed
 * rate_limited error. Never hammers: every retry after a 429 follows a wait.
 */
export async function sendRateLimited(runtime: TikTokRuntime, request: RateLimitedRequest): Promise<Response> {
  for (let waits = 0; ; waits++) {
    const response = await sendWithRetries(runtime, request);
    if (response.status !== 429) return response;
    const waitMs = RATE_LIMIT_WAITS_MS[waits];
    if (waitMs === undefined) {
      if (request.readError) throw await request.readError(response);
      await discardBody(response);
      throw errorFromCode('rate_limit_exceeded', { httpStatus: 429, detail: `${request.what} still rate limited after ${waits} waits` });
    }
    await discardBody(response);
    runtime.logger.warn({ what: request.what, waitMs, wait: waits + 1 }, 'TikTok rate limit reached; waiting before retrying');
    await pause(runtime, waitMs, request.signal, request.what);
  }
}

/** JSON body of a response, or undefined when it is empty or not JSON (a proxy's HTML page). */
export async function readJson(response: Response): Promise<unknown> {
  return (await readJsonAndText(response)).json;
}

/** The body as text and as JSON: the text is kept where JSON numbers would lose int64 precision. */
export async function readJsonAndText(response: Response): Promise<{ json: unknown; text: string }> {
  const text = await response.text().catch(() => '');
  if (!text.trim()) return { json: undefined, text };
  try {
    return { json: JSON.parse(text) as unknown, text };
  } catch {
    return { json: undefined, text };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
