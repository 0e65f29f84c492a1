import { describeNetworkError, discardBody, pauseOrAbort, withTimeout, type ProviderRuntime } from './runtime.ts';

/*
 * The one retry loop of the third-party HTTP clients (Twitch, the posting platforms, the LLM and the transcription
 * server). What differs between them is data in a RetryPolicy: how many attempts, how long to wait,
 * what a 429 means, and how their own typed errors read. The loop itself never builds an error.
 */

/** One failed attempt, as the policy's errors and the retry log describe it. */
export interface AttemptFailure {
  /** One line for logs and errors: "HTTP 503: busy", "timed out"… (the policy's wording). */
  reason: string;
  /** The answer's status; undefined when no answer came. */
  status?: number;
  /** What the attempt threw when no answer came. */
  cause?: unknown;
  /** The attempt's own timeout fired (not the caller's abort). */
  timedOut: boolean;
  /** The wait the answer asked for (retry-after-ms, Retry-After), when the policy reads it. */
  serverDelayMs?: number;
}

interface RetryEvent {
  what: string;
  attempt: number;
  waitMs: number;
  failure: AttemptFailure;
}

/** TikTok documents no rate-limit headers, so a 429 is waited out blindly on a fixed schedule. */
interface FixedRateLimitWaits {
  waitsMs: readonly number[];
  /** The log line for each wait. */
  message: string;
  /** The error for a 429 that outlived every wait; it may read the answer's body. */
  exhausted: (what: string, response: Response) => Promise<Error>;
}

/**
 * What a 429 means to this provider:
 * - 'return': the caller reads it (Twitch's Helix waits until its Ratelimit-Reset header);
 * - 'retry': a failure like a 5xx, waited out per Retry-After when serverDelay is set;
 * - fixed waits that do not count as attempts.
 */
type TooManyRequests = 'return' | 'retry' | FixedRateLimitWaits;

export interface RetryPolicy {
  /** The log line for a retry; it names the provider ("Twitch request failed; retrying"). */
  retryMessage: string;
  /** The fields of that line; default { what, attempt, waitMs, failure: reason }. */
  retryFields?: (event: RetryEvent) => Record<string, unknown>;
  /** Attempts for transient failures, the first included. */
  attempts: number;
  /** Per attempt, covering the body as long as it is read through the signal given to send. */
  timeoutMs: number;
  /** The wait after failed attempt n (1-based) when the server asked for none. */
  backoffMs: (attempt: number) => number;
  tooManyRequests: TooManyRequests;
  /** Read retry-after-ms / Retry-After from failed answers; above maxMs, either give up or wait maxMs. */
  serverDelay?: { maxMs: number; beyondMax: 'give_up' | 'wait_max' };
  /** Whether an attempt that timed out may be retried (default true). */
  retryTimeouts?: boolean;
  /** Hand the last attempt's 5xx answer back to the caller instead of an error (default false). */
  returnLastAnswer?: boolean;
  /** The reason for a retryable answer; it must read or discard the body. */
  describeAnswer: (response: Response) => Promise<string>;
  /** The reason for an attempt that got no answer; default describeNetworkError. */
  describeNetworkError?: (error: unknown, timedOut: boolean) => string;
  /** The caller's signal fired (before, during or between attempts). */
  aborted: (what: string, cause: unknown) => Error;
  /** The last failure when no retry is left or allowed. */
  exhausted: (what: string, attempts: number, failure: AttemptFailure) => Error;
}

export interface RetryRequest {
  /** Names the call in logs and errors, e.g. "Helix GET /clips"; never includes secrets. */
  what: string;
  /** One attempt; must pass the signal to fetch so the timeout and the caller's abort reach it. */
  send: (signal: AbortSignal) => Promise<Response>;
  signal?: AbortSignal;
  /**
   * Whether a network failure may be retried (default true). Not for token grants: a code is
   * single-use and a refresh rotates the refresh token, so if the server handled the first request
   * and only the answer was lost, a retry would fail with invalid_grant and hide what happened.
   */
  retryNetworkErrors?: boolean;
}

type AttemptResult = { response: Response } | { failure: AttemptFailure };

/**
 * Sends a request, retrying what the policy calls transient with its waits; returns the first
 * answer the policy does not retry, and throws the policy's errors otherwise.
 */
export async function sendWithRetries(runtime: ProviderRuntime, request: RetryRequest, policy: RetryPolicy): Promise<Response> {
  const { what, signal } = request;
  const aborted = (cause: unknown) => policy.aborted(what, cause);
  let rateLimitWaits = 0;
  // Counts since the last rate-limit wait: a 429 waited out is not a transient failure.
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw aborted(signal.reason);
    const result = await attemptOnce(request, policy);
    if ('response' in result) {
      const { response } = result;
      const rateLimit = policy.tooManyRequests;
      if (response.status === 429 && typeof rateLimit === 'object') {
        await waitOutRateLimit(runtime, request, rateLimit, aborted, response, ++rateLimitWaits);
        attempt = 0;
        continue;
      }
      if (!isRetryableStatus(policy, response.status)) return response;
      if (attempt >= policy.attempts && policy.returnLastAnswer) return response;
    } else if (!mayRetryNetworkFailure(request, policy, result.failure)) {
      throw policy.exhausted(what, attempt, result.failure);
    }
    const failure = 'failure' in result ? result.failure : await answerFailure(runtime, policy, result.response);
    const waitMs = retryWaitMs(policy, attempt, failure);
    if (attempt >= policy.attempts || waitMs === null) throw policy.exhausted(what, attempt, failure);
    const event: RetryEvent = { what, attempt, waitMs, failure };
    runtime.logger.warn(policy.retryFields?.(event) ?? { what, attempt, waitMs, failure: failure.reason }, policy.retryMessage);
    await pauseOrAbort(runtime, waitMs, signal, aborted);
  }
}

/** One send under its own timeout; a throw other than the caller's abort becomes a failure. */
async function attemptOnce(request: RetryRequest, policy: RetryPolicy): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  try {
    return { response: await request.send(withTimeout(request.signal, timeout)) };
  } catch (error) {
    if (request.signal?.aborted) throw policy.aborted(request.what, error);
    const timedOut = timeout.aborted;
    const reason = policy.describeNetworkError ? policy.describeNetworkError(error, timedOut) : describeNetworkError(error);
    return { failure: { reason, cause: error, timedOut } };
  }
}

/** The next of the policy's fixed waits after a 429, or its error once they are used up. */
async function waitOutRateLimit(
  runtime: ProviderRuntime,
  request: RetryRequest,
  rateLimit: FixedRateLimitWaits,
  aborted: (cause: unknown) => Error,
  response: Response,
  wait: number,
): Promise<void> {
  const { what, signal } = request;
  const waitMs = rateLimit.waitsMs[wait - 1];
  if (waitMs === undefined) throw await rateLimit.exhausted(what, response);
  await discardBody(response);
  runtime.logger.warn({ what, waitMs, wait }, rateLimit.message);
  await pauseOrAbort(runtime, waitMs, signal, aborted);
}

function mayRetryNetworkFailure(request: RetryRequest, policy: RetryPolicy, failure: AttemptFailure): boolean {
  if (request.retryNetworkErrors === false) return false;
  return !failure.timedOut || policy.retryTimeouts !== false;
}

function isRetryableStatus(policy: RetryPolicy, status: number): boolean {
  return status >= 500 || (status === 429 && policy.tooManyRequests === 'retry');
}

async function answerFailure(runtime: ProviderRuntime, policy: RetryPolicy, response: Response): Promise<AttemptFailure> {
  const serverDelayMs = policy.serverDelay ? serverRequestedDelayMs(response.headers, runtime.now()) : undefined;
  return { reason: await policy.describeAnswer(response), status: response.status, timedOut: false, serverDelayMs };
}

/** The wait before the next attempt, or null when the server asks for more than the policy allows. */
function retryWaitMs(policy: RetryPolicy, attempt: number, failure: AttemptFailure): number | null {
  const asked = failure.serverDelayMs;
  if (asked === undefined || !policy.serverDelay) return policy.backoffMs(attempt);
  if (asked <= policy.serverDelay.maxMs) return asked;
  return policy.serverDelay.beyondMax === 'wait_max' ? policy.serverDelay.maxMs : null;
}

/**
 * The wait an answer asks for: OpenAI's retry-after-ms, else Retry-After in seconds or as an HTTP
 * date. undefined when it asks for none.
 */
export function serverRequestedDelayMs(headers: Headers, now: number): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const header = headers.get('retry-after');
  if (!header) return undefined;
  const seconds = Number(header);
  const delay = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(delay) ? Math.max(0, delay) : undefined;
}

/** firstMs, twice that, four times… capped at capMs: long enough for a hiccup to pass, short enough for a job. */
export function exponentialBackoff(firstMs: number, capMs = 10_000): (attempt: number) => number {
  return (attempt) => Math.min(firstMs * 2 ** (attempt - 1), capMs);
}

/**
 * The same answer with its body already read, so a body that breaks off or stalls fails the attempt
 * (and is retried like one) rather than the caller reading it later.
 */
export async function withBufferedBody(response: Response): Promise<Response> {
  const body = await response.arrayBuffer();
  return new Response(body.byteLength > 0 ? body : null, { status: response.status, statusText: response.statusText, headers: response.headers });
}
