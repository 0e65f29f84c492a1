import type { z } from 'zod';
import { exponentialBackoff, type RetryPolicy } from '../http/retry.ts';
import { discardBody, isRecord, pauseOrAbort, type ProviderRuntime, REQUEST_TIMEOUT_MS, TRANSIENT_ATTEMPTS } from '../http/runtime.ts';
import { abortedError, errorFromCode, explainYouTubeError, YouTubeError, YouTubeQuotaExceededError } from './errors.ts';
import { nextPacificMidnight } from './quota.ts';

/*
 * What every part of the client shares: the retry policy and reading Google's two answer shapes.
 * - OAuth (token endpoint): flat `{"error":"invalid_grant","error_description":…}`
 * - Data API: `{"error":{"code":403,"message":…,"errors":[{"domain":…,"reason":…}],"status":…}}`
 */

export type YouTubeRuntime = ProviderRuntime;

export function pause(runtime: YouTubeRuntime, ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return pauseOrAbort(runtime, ms, signal, (cause) => abortedError(what, cause));
}

/**
 * 5xx, 429 and network errors are retried with exponential backoff (per Retry-After when Google
 * sends one); the last 5xx goes back to the caller, which reads Google's error out of it.
 */
export const YOUTUBE_RETRIES: RetryPolicy = {
  retryMessage: 'YouTube request failed; retrying',
  attempts: TRANSIENT_ATTEMPTS,
  timeoutMs: REQUEST_TIMEOUT_MS,
  // 1 s, 2 s, 4 s… capped at 10 s.
  backoffMs: exponentialBackoff(1000),
  tooManyRequests: 'retry',
  serverDelay: { maxMs: 60_000, beyondMax: 'give_up' },
  returnLastAnswer: true,
  describeAnswer: async (response) => {
    await discardBody(response);
    return `HTTP ${response.status}`;
  },
  aborted: abortedError,
  exhausted: (what, attempts, failure) =>
    new YouTubeError('upstream', explainYouTubeError('network_error'), {
      code: 'network_error',
      detail: `${what} failed after ${attempts} attempt(s) (${failure.reason})`,
      cause: failure.cause,
    }),
};

interface GoogleErrorBody {
  /** The first error's reason (quotaExceeded, authError…) or the OAuth error code. */
  code: string | null;
  domain: string | null;
  message: string;
}

const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/** The error a body carries in either shape, or null when it carries none. */
export function extractGoogleError(body: unknown): GoogleErrorBody | null {
  if (!isRecord(body)) return null;
  const { error } = body;
  if (typeof error === 'string' && error) return { code: error, domain: null, message: stringOr(body.error_description, '') };
  if (!isRecord(error)) return null;
  const first = Array.isArray(error.errors) && isRecord(error.errors[0]) ? error.errors[0] : {};
  const reason = typeof first.reason === 'string' && first.reason ? first.reason : null;
  return { code: reason, domain: typeof first.domain === 'string' ? first.domain : null, message: stringOr(error.message, '') };
}

/**
 * The typed error for a refused request. quotaExceeded becomes YouTubeQuotaExceededError with the
 * next Pacific midnight by the client's clock, when the quota comes back.
 */
export function errorFromAnswer(runtime: YouTubeRuntime, what: string, status: number, body: unknown): YouTubeError {
  const error = extractGoogleError(body);
  const said = error?.message ? `: ${error.message}` : '';
  const detail = `${what} → HTTP ${status} ${error?.code ?? 'without a reason'}${said}`;
  if (error && (error.code === 'quotaExceeded' || error.domain === 'youtube.quota')) {
    return new YouTubeQuotaExceededError(nextPacificMidnight(runtime.now()), { httpStatus: status, detail });
  }
  if (error?.code) return errorFromCode(error.code, { httpStatus: status, detail });
  return errorFromCode(status >= 500 ? 'backendError' : status === 401 ? 'authError' : 'badRequest', { httpStatus: status, detail });
}

export function parseWith<S extends z.ZodType>(what: string, status: number, body: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : '';
    throw new YouTubeError('upstream', explainYouTubeError('bad_response'), {
      code: 'bad_response',
      httpStatus: status,
      detail: `${what} returned a response we do not understand${where}`,
    });
  }
  return parsed.data;
}

/** JSON body of a response, or undefined when it is empty or not JSON (a proxy's HTML page). */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
