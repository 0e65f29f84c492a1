import { TwitchError } from './errors.ts';
import { sendWithRetries } from '../http/retry.ts';
import { joinUrl } from '../http/runtime.ts';
import { readErrorMessage, TWITCH_RETRIES, type TwitchRuntime } from './runtime.ts';
import { tokenResponseSchema } from './types.ts';

interface AppTokenConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
}

export interface AppTokenSource {
  /** A valid app access token, minted on first use and again shortly before it expires. */
  get(signal?: AbortSignal): Promise<string>;
  /** Forgets `token` after Twitch refused it (401), unless a newer one was minted meanwhile. */
  invalidate(token: string): void;
}

/** Renew this long before expires_in runs out (at most a tenth of the lifetime), so a request never races the expiry. */
const RENEW_MARGIN_MS = 5 * 60_000;

interface CachedToken {
  token: string;
  renewAt: number;
}

/** App access tokens by OAuth client credentials (external-apis.md A1); they cannot be refreshed, only minted again. */
export function createAppTokenSource(config: AppTokenConfig, runtime: TwitchRuntime): AppTokenSource {
  let cached: CachedToken | null = null;
  // Concurrent callers share one mint instead of each asking Twitch for a token.
  let minting: Promise<CachedToken> | null = null;

  async function mint(): Promise<CachedToken> {
    assertConfigured(config);
    const response = await sendWithRetries(runtime, {
      what: 'Twitch token request',
      send: (signal) =>
        fetch(joinUrl(config.authUrl, '/oauth2/token'), {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body: new URLSearchParams({
            client_id: config.clientId,
            client_secret: config.clientSecret,
            grant_type: 'client_credentials',
          }),
          signal,
        }),
    }, TWITCH_RETRIES);
    if (!response.ok) throw await tokenError(response);
    const parsed = tokenResponseSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new TwitchError('upstream', 'Twitch token response was not understood (no access_token/expires_in)');
    const lifetimeMs = parsed.data.expires_in * 1000;
    const renewAt = runtime.now() + lifetimeMs - Math.min(RENEW_MARGIN_MS, lifetimeMs / 10);
    runtime.logger.debug({ expiresInSeconds: parsed.data.expires_in }, 'Minted a Twitch app access token');
    return { token: parsed.data.access_token, renewAt };
  }

  async function get(signal?: AbortSignal): Promise<string> {
    if (cached && runtime.now() < cached.renewAt) return cached.token;
    minting ??= mint().finally(() => {
      minting = null;
    });
    const fresh = await abortable(minting, signal);
    cached = fresh;
    return fresh.token;
  }

  function invalidate(token: string): void {
    if (cached?.token === token) cached = null;
  }

  return { get, invalidate };
}

function assertConfigured(config: AppTokenConfig): void {
  if (!config.clientId || !config.clientSecret) {
    throw new TwitchError('auth', 'Twitch is not configured: set TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET');
  }
}

/** 400 "invalid client" means the id is wrong, 403 "invalid client secret" the secret (A1). */
async function tokenError(response: Response): Promise<TwitchError> {
  const message = await readErrorMessage(response);
  if (response.status === 400 && /invalid client$/i.test(message)) {
    return new TwitchError('auth', `Twitch rejected TWITCH_CLIENT_ID (${message})`, { status: 400 });
  }
  if (response.status === 403 || response.status === 401) {
    return new TwitchError('auth', `Twitch rejected TWITCH_CLIENT_SECRET (${message})`, { status: response.status });
  }
  if (response.status === 429) {
    return new TwitchError('rate_limited', 'Twitch rate-limited the token request', { status: 429 });
  }
  return new TwitchError('auth', `Twitch token request failed with HTTP ${response.status} (${message})`, { status: response.status });
}

/** Waits for a shared promise but lets this caller leave as soon as its own signal fires. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new TwitchError('aborted', 'Twitch token request was cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new TwitchError('aborted', 'Twitch token request was cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
