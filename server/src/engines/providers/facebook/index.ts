export { type FacebookClient } from './client.ts';
export { facebookFromEnv } from './from-env.ts';
export { callbackError, missingPermissions } from './oauth.ts';
export { type FacebookPage, type FacebookUserToken, type ReelStatus, type ReelUpload } from './types.ts';
