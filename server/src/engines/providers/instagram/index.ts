export { type InstagramClient } from './client.ts';
export { instagramFromEnv } from './from-env.ts';
export { callbackError, missingScopes } from './oauth.ts';
export { isMetaError, MetaError, type MetaErrorKind } from '../meta/errors.ts';
export { type ReelStats } from '../meta/types.ts';
export { type ContainerState, type InstagramTokens, type InstagramUser, type PublishingLimit, type ReelContainerRequest } from './types.ts';
