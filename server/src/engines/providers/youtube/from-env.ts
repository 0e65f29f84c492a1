import type { Env } from '../../../platform/env.ts';
import type { Logger } from '../../../platform/logger.ts';
import { createYouTubeClient, type YouTubeClient } from './client.ts';

/** The client from configuration, or null when YOUTUBE_CLIENT_ID/YOUTUBE_CLIENT_SECRET are not set (the app still starts). */
export function youtubeFromEnv(
  env: Pick<Env, 'YOUTUBE_CLIENT_ID' | 'YOUTUBE_CLIENT_SECRET' | 'YOUTUBE_AUTH_URL' | 'YOUTUBE_TOKEN_URL' | 'YOUTUBE_API_URL' | 'youtubeRedirectUri'>,
  logger: Logger,
): YouTubeClient | null {
  if (!env.YOUTUBE_CLIENT_ID || !env.YOUTUBE_CLIENT_SECRET) return null;
  return createYouTubeClient({
    clientId: env.YOUTUBE_CLIENT_ID,
    clientSecret: env.YOUTUBE_CLIENT_SECRET,
    authUrl: env.YOUTUBE_AUTH_URL,
    tokenUrl: env.YOUTUBE_TOKEN_URL,
    apiUrl: env.YOUTUBE_API_URL,
    redirectUri: env.youtubeRedirectUri,
    logger,
  });
}
