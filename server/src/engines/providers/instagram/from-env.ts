import type { Env } from '../../../platform/env.ts';
import type { Logger } from '../../../platform/logger.ts';
import { createInstagramClient, type InstagramClient } from './client.ts';

/** The client from configuration, or null when INSTAGRAM_CLIENT_ID/INSTAGRAM_CLIENT_SECRET are not set (the app still starts). */
export function instagramFromEnv(
  env: Pick<Env, 'INSTAGRAM_CLIENT_ID' | 'INSTAGRAM_CLIENT_SECRET' | 'INSTAGRAM_AUTH_URL' | 'INSTAGRAM_TOKEN_URL' | 'INSTAGRAM_GRAPH_URL' | 'instagramRedirectUri'>,
  logger: Logger,
): InstagramClient | null {
  if (!env.INSTAGRAM_CLIENT_ID || !env.INSTAGRAM_CLIENT_SECRET) return null;
  return createInstagramClient({
    clientId: env.INSTAGRAM_CLIENT_ID,
    clientSecret: env.INSTAGRAM_CLIENT_SECRET,
    authUrl: env.INSTAGRAM_AUTH_URL,
    tokenUrl: env.INSTAGRAM_TOKEN_URL,
    graphUrl: env.INSTAGRAM_GRAPH_URL,
    redirectUri: env.instagramRedirectUri,
    logger,
  });
}
