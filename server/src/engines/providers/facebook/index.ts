export { type FacebookClient } from './client.ts';
export { facebookFromEnv } from './from-env.ts';
export { callbackError, missingPermissions } from './oauth.ts';
export { type FacebookPage, type ReelStatus } from './types.ts';
