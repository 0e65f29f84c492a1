import { setTimeout as delay } from 'node:timers/promises';
import { redactUrl, type Logger } from '../../../platform/logger.ts';

/*
 * What the third-party HTTP clients (Twitch, posting platforms, LLM, transcription) share: an injectable clock
 * and sleep so tests never really wait, per-request timeouts, and abort handling. The retry loop on
 * top is retry.ts; each client brings its own policy and error type.
 */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ProviderRuntime {
  logger: Logger;
  sleep: Sleep;
  now: () => number;
  /** The time a video transfer is given (default DEFAULT_TRANSFER_BUDGET below; tests pass less). */
  transferBudget?: TransferBudget;
}

/** How long sending bytes may take: time to get going, then the slowest uplink still waited for. */
export interface TransferBudget {
  startMs: number;
  minBytesPerSecond: number;
}

/**
 * 30 s to get going, then about 1 Mbit/s: a 10 MiB chunk gets under 2 minutes, a 64 MiB one about
 * 9; a transfer slower than that is taken as hung and tried again.
 */
const DEFAULT_TRANSFER_BUDGET: TransferBudget = { startMs: 30_000, minBytesPerSecond: 128 * 1024 };

/** The time a transfer of `bytes` is given: a stalled upload fails after this instead of a fixed 10 minutes. */
export function transferTimeoutMs(bytes: number, budget: TransferBudget = DEFAULT_TRANSFER_BUDGET): number {
  return budget.startMs + Math.ceil((bytes / budget.minBytesPerSecond) * 1000);
}

export const defaultSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, { signal });
};

/** Attempts for transient failures (5xx, network): the first try plus two retries. */
export const TRANSIENT_ATTEMPTS = 3;
/** API calls are small JSON documents; a call hanging longer than this is treated as a network failure. */
export const REQUEST_TIMEOUT_MS = 30_000;

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** The caller's signal plus a per-request timeout, so a hung connection cannot stall a job forever. */
export function withTimeout(signal: AbortSignal | undefined, timeout: AbortSignal): AbortSignal {
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** Lets the connection go back to the pool when we do not read a body. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
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

/** fetch wraps the real reason (ECONNREFUSED…) in a generic "fetch failed": "fetch failed (connect ECONNREFUSED …)". */
export function messageWithCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : '';
  return cause ? `${error.message} (${cause})` : error.message;
}

/**
 * Sleeps through the injected sleep; the caller's abort (before, during or after) becomes the
 * client's own typed error from `aborted`.
 */
export async function pauseOrAbort(
  runtime: Pick<ProviderRuntime, 'sleep'>,
  ms: number,
  signal: AbortSignal | undefined,
  aborted: (cause: unknown) => Error,
): Promise<void> {
  if (signal?.aborted) throw aborted(signal.reason);
  try {
    await runtime.sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) throw aborted(error);
    throw error;
  }
  if (signal?.aborted) throw aborted(signal.reason);
}

/** A lone half of a UTF-16 surrogate pair: an emoji cut in two by whoever wrote the text. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text from a provider as PostgreSQL can store it. text columns refuse NUL, and jsonb (a run's
 * progress, a transcript) refuses NUL and lone surrogates, so one such character in a clip title
 * would fail every write that carries it (the run's heartbeat, the clip row, the failure's own log
 * row). NUL is dropped; a lone surrogate becomes U+FFFD, as a UTF-8 encoder writes it.
 */
export function storableText(text: string): string {
  return text.replaceAll('\0', '').replace(LONE_SURROGATE, '\uFFFD');
}

/** A JSON object (not null, not an array): what providers' answers are read as before their fields are. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
