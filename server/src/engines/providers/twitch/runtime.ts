import { exponentialBackoff, type RetryPolicy } from '../http/retry.ts';
import { pauseOrAbort, REQUEST_TIMEOUT_MS, storableText, TRANSIENT_ATTEMPTS, type ProviderRuntime } from '../http/runtime.ts';
import { abortedError, TwitchError } from './errors.ts';

/** What every part of the client shares; sleep and now are injectable so tests never really wait. */
export type TwitchRuntime = ProviderRuntime;

/** 500 ms, 1 s, 2 s… capped at 10 s. */
export const backoffMs = exponentialBackoff(500);

export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw abortedError(what, signal.reason);
}

/** Sleeps through the injected sleep, turning the caller's abort into a typed error. */
export function pause(runtime: TwitchRuntime, ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return pauseOrAbort(runtime, ms, signal, (cause) => abortedError(what, cause));
}

/** Twitch's own explanation from an error body (Helix and id.twitch.tv both send `message`). */
export async function readErrorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string' && parsed.message) {
      // It ends up in errors and log rows, which must be storable.
      return storableText(parsed.message);
    }
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): fall back to the status line.
  }
  return response.statusText || `HTTP ${response.status}`;
}

/**
 * Network errors and 5xx answers are retried with exponential backoff. Any other status, 429
 * included, goes back to the caller, which knows what 401/429/4xx mean for its endpoint.
 */
export const TWITCH_RETRIES: RetryPolicy = {
  retryMessage: 'Twitch request failed; retrying',
  attempts: TRANSIENT_ATTEMPTS,
  timeoutMs: REQUEST_TIMEOUT_MS,
  backoffMs,
  tooManyRequests: 'return',
  describeAnswer: async (response) => `HTTP ${response.status}: ${await readErrorMessage(response)}`,
  aborted: abortedError,
  exhausted: (what, attempts, failure) =>
    new TwitchError('upstream', `${what} failed after ${attempts} attempts (${failure.reason})`, { status: failure.status, cause: failure.cause }),
};
