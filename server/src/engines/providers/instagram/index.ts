export { type InstagramClient } from './client.ts';
export { instagramFromEnv } from './from-env.ts';
export { callbackError, missingScopes } from './oauth.ts';
export { isMetaError, MetaError } from '../meta/errors.ts';
