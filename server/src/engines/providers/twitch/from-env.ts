import type { Env } from '../../../platform/env.ts';
import type { Logger } from '../../../platform/logger.ts';
import { createTwitchClient, type TwitchClient } from './client.ts';

/** The client from configuration, or null when TWITCH_CLIENT_ID/TWITCH_CLIENT_SECRET are not set (the app still starts). */
export function twitchFromEnv(
  env: Pick<Env, 'TWITCH_CLIENT_ID' | 'TWITCH_CLIENT_SECRET' | 'TWITCH_AUTH_URL' | 'TWITCH_API_URL' | 'TWITCH_GQL_URL' | 'TWITCH_GQL_CLIENT_ID' | 'TWITCH_GQL_CLIP_HASHES'>,
  logger: Logger,
): TwitchClient | null {
  if (!env.TWITCH_CLIENT_ID || !env.TWITCH_CLIENT_SECRET) return null;
  return createTwitchClient({
    clientId: env.TWITCH_CLIENT_ID,
    clientSecret: env.TWITCH_CLIENT_SECRET,
    authUrl: env.TWITCH_AUTH_URL,
    apiUrl: env.TWITCH_API_URL,
    gqlUrl: env.TWITCH_GQL_URL,
    gqlClientId: env.TWITCH_GQL_CLIENT_ID,
    clipHashes: env.TWITCH_GQL_CLIP_HASHES,
    logger,
  });
}
