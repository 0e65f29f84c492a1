import type { Env } from '../../../platform/env.ts';
import type { Logger } from '../../../platform/logger.ts';
import { createTikTokClient, type TikTokClient } from './client.ts';

/** The client from configuration, or null when TIKTOK_CLIENT_KEY/TIKTOK_CLIENT_SECRET are not set (the app still starts). */
export function tiktokFromEnv(
  env: Pick<Env, 'TIKTOK_CLIENT_KEY' | 'TIKTOK_CLIENT_SECRET' | 'TIKTOK_AUTH_URL' | 'TIKTOK_API_URL' | 'tiktokRedirectUri'>,
  logger: Logger,
): TikTokClient | null {
  if (!env.TIKTOK_CLIENT_KEY || !env.TIKTOK_CLIENT_SECRET) return null;
  return createTikTokClient({
    clientKey: env.TIKTOK_CLIENT_KEY,
    clientSecret: env.TIKTOK_CLIENT_SECRET,
    authUrl: env.TIKTOK_AUTH_URL,
    apiUrl: env.TIKTOK_API_URL,
    redirectUri: env.tiktokRedirectUri,
    logger,
  });
}
