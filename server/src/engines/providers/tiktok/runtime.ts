import { exponentialBackoff, type RetryPolicy } from '../http/retry.ts';
import { discardBody, pauseOrAbort, REQUEST_TIMEOUT_MS, TRANSIENT_ATTEMPTS, type ProviderRuntime } from '../http/runtime.ts';
import { abortedError, explainTikTokError, TikTokError } from './errors.ts';
import { errorFromBody, readJson } from './responses.ts';

/** What every part of the client shares; sleep and now are injectable so tests never really wait. */
export type TikTokRuntime = ProviderRuntime;

/**
 * TikTok documents no rate-limit headers (B4), so a 429 is waited out blindly: 10 s, 20 s, 40 s.
 * Its windows are one minute long; after ~70 s of waiting the limit is not a passing burst.
 */
export const RATE_LIMIT_WAITS_MS: readonly number[] = [10_000, 20_000, 40_000];

/** Sleeps through the injected sleep, turning the caller's abort into a typed error. */
export function pause(runtime: TikTokRuntime, ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return pauseOrAbort(runtime, ms, signal, (cause) => abortedError(what, cause));
}

/**
 * 5xx answers (and network errors, unless the request forbids it) are retried with exponential
 * backoff; the last 5xx goes back to the caller, which reads TikTok's error out of it. A 429
 * rate_limit_exceeded is waited out (RATE_LIMIT_WAITS_MS, never hammering), then becomes TikTok's
 * typed error. Any other status goes back to the caller.
 */
export const TIKTOK_RETRIES: RetryPolicy = {
  retryMessage: 'TikTok request failed; retrying',
  attempts: TRANSIENT_ATTEMPTS,
  timeoutMs: REQUEST_TIMEOUT_MS,
  // 1 s, 2 s, 4 s… capped at 10 s.
  backoffMs: exponentialBackoff(1000),
  tooManyRequests: {
    waitsMs: RATE_LIMIT_WAITS_MS,
    message: 'TikTok rate limit reached; waiting before retrying',
    // Its shape differs between OAuth and v2 endpoints; errorFromBody reads both.
    exhausted: async (what, response) => errorFromBody(what, response.status, await readJson(response)),
  },
  returnLastAnswer: true,
  describeAnswer: async (response) => {
    await discardBody(response);
    return `HTTP ${response.status}`;
  },
  aborted: abortedError,
  exhausted: (what, attempts, failure) =>
    new TikTokError('upstream', explainTikTokError('network_error'), {
      code: 'network_error',
      detail: `${what} failed after ${attempts} attempt(s) (${failure.reason})`,
      cause: failure.cause,
    }),
};
