import type { Env } from '../../../platform/env.ts';
import type { Logger } from '../../../platform/logger.ts';
import { createFacebookClient, type FacebookClient } from './client.ts';

/** The client from configuration, or null when FACEBOOK_APP_ID/FACEBOOK_APP_SECRET are not set (the app still starts). */
export function facebookFromEnv(
  env: Pick<Env, 'FACEBOOK_APP_ID' | 'FACEBOOK_APP_SECRET' | 'FACEBOOK_AUTH_URL' | 'FACEBOOK_GRAPH_URL' | 'FACEBOOK_RUPLOAD_URL' | 'facebookRedirectUri'>,
  logger: Logger,
): FacebookClient | null {
  if (!env.FACEBOOK_APP_ID || !env.FACEBOOK_APP_SECRET) return null;
  return createFacebookClient({
    appId: env.FACEBOOK_APP_ID,
    appSecret: env.FACEBOOK_APP_SECRET,
    authUrl: env.FACEBOOK_AUTH_URL,
    graphUrl: env.FACEBOOK_GRAPH_URL,
    ruploadUrl: env.FACEBOOK_RUPLOAD_URL,
    redirectUri: env.facebookRedirectUri,
    logger,
  });
}
