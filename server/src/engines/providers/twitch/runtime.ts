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
import { abortedError, TwitchError } from './errors.ts';

export { defaultSleep, describeNetworkError, discardBody, isAbortError, joinUrl, REQUEST_TIMEOUT_MS, requestSignal, TRANSIENT_ATTEMPTS, type Sleep };

/** What every part of the client shares; sleep and now are injectable so tests never really wait. */
export type TwitchRuntime = ProviderRuntime;

/** 500 ms, 1 s, 2 s… capped at 10 s: long enough for a hiccup to pass, short enough for a job. */
export function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** (attempt - 1), 10_000);
}

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

