import type { z } from 'zod';
import type { AppTokenSource } from './auth.ts';
import { TwitchError } from './errors.ts';
import { sendWithRetries } from '../http/retry.ts';
import { discardBody, joinUrl } from '../http/runtime.ts';
import { backoffMs, pause, readErrorMessage, TWITCH_RETRIES, type TwitchRuntime } from './runtime.ts';

export type QueryParams = ReadonlyArray<readonly [string, string]>;

interface HelixConfig {
  clientId: string;
  apiUrl: string;
}

export interface Helix {
  get<S extends z.ZodType>(path: string, query: QueryParams, schema: S, signal?: AbortSignal): Promise<z.output<S>>;
}

/** Never sleep longer than this for a rate limit, whatever Ratelimit-Reset says (clock skew, odd headers). */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;
/** After this many 429s in a row for one call, give up: something other than a busy minute is wrong. */
export const MAX_RATE_LIMIT_WAITS = 5;

/**
 * GET requests to Helix with the conventions of external-apis.md A2: Bearer app token + Client-Id,
 * one fresh token after a 401, waiting out 429s until Ratelimit-Reset, retrying 5xx and network errors.
 */
export function createHelix(config: HelixConfig, tokens: AppTokenSource, runtime: TwitchRuntime): Helix {
  async function get<S extends z.ZodType>(path: string, query: QueryParams, schema: S, signal?: AbortSignal): Promise<z.output<S>> {
    const url = `${joinUrl(config.apiUrl, path)}?${toSearch(query)}`;
    const what = `Helix GET ${path}`;
    let reminted = false;
    for (let rateLimitWaits = 0; ; ) {
      const token = await tokens.get(signal);
      const response = await sendWithRetries(runtime, {
        what,
        signal,
        send: (requestSignal) =>
          fetch(url, {
            headers: { Authorization: `Bearer ${token}`, 'Client-Id': config.clientId, Accept: 'application/json' },
            signal: requestSignal,
          }),
      }, TWITCH_RETRIES);
      if (response.status === 401 && !reminted) {
        // App tokens can be revoked or expire early (A1): mint a new one once, then trust Twitch's answer.
        reminted = true;
        tokens.invalidate(token);
        runtime.logger.info({ what }, 'Twitch refused the app token; minting a new one');
        await discardBody(response);
        continue;
      }
      if (response.status === 429 && rateLimitWaits < MAX_RATE_LIMIT_WAITS) {
        rateLimitWaits++;
        const waitMs = rateLimitWaitMs(response, runtime.now()) ?? backoffMs(rateLimitWaits);
        runtime.logger.warn({ what, waitMs, remaining: response.headers.get('ratelimit-remaining') }, 'Twitch rate limit reached; waiting for the bucket to refill');
        await discardBody(response);
        await pause(runtime, waitMs, signal, what);
        continue;
      }
      if (!response.ok) throw await helixError(what, response);
      return parseBody(what, response, schema);
    }
  }

  return { get };
}

export function toSearch(query: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of query) search.append(key, value);
  return search.toString();
}

/** Ratelimit-Reset is the epoch second when the bucket refills (A2); null when absent or unreadable. */
export function rateLimitWaitMs(response: Response, now: number): number | null {
  const header = response.headers.get('ratelimit-reset');
  const resetSeconds = header === null ? NaN : Number(header);
  if (!Number.isFinite(resetSeconds) || resetSeconds <= 0) return null;
  return Math.min(Math.max(resetSeconds * 1000 - now, 0), MAX_RATE_LIMIT_WAIT_MS);
}

async function helixError(what: string, response: Response): Promise<TwitchError> {
  const message = await readErrorMessage(response);
  const status = response.status;
  const text = `${what}: ${message}`;
  if (status === 400) return new TwitchError('bad_request', `Twitch refused the request (${text})`, { status });
  if (status === 404) return new TwitchError('not_found', `Twitch found nothing (${text})`, { status });
  if (status === 401 || status === 403) return new TwitchError('auth', `Twitch refused our credentials (${text})`, { status });
  if (status === 429) return new TwitchError('rate_limited', `Twitch kept rate-limiting us (${text})`, { status });
  return new TwitchError('upstream', `Twitch answered HTTP ${status} (${text})`, { status });
}

async function parseBody<S extends z.ZodType>(what: string, response: Response, schema: S): Promise<z.output<S>> {
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : '';
    throw new TwitchError('upstream', `${what} returned a response we do not understand${where}`, { status: response.status });
  }
  return parsed.data;
}
