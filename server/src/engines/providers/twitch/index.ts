export { type TwitchClient } from './client.ts';
export type { ClipDownload, TwitchClip, UserTokens } from './types.ts';
export { isTwitchError } from './errors.ts';
export { TWITCH_USER_SCOPES } from './user.ts';
export { twitchFromEnv } from './from-env.ts';
export { watchChat, type ChatReaderEvent, type ChatReaderStats } from './chat.ts';
