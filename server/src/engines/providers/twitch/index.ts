export { createTwitchClient, type TwitchClient, type TwitchClientConfig } from './client.ts';
export { isTwitchError, TwitchError, type TwitchErrorKind } from './errors.ts';
export { pickSource, signedUrl } from './gql.ts';
export { MAX_RATE_LIMIT_WAIT_MS } from './helix.ts';
export { defaultSleep, type Sleep } from '../http/runtime.ts';
export type { ClipSource, DownloadOptions, DownloadResult, TopClipsOptions, TwitchClip, TwitchUser } from './types.ts';
export { twitchFromEnv } from './from-env.ts';
