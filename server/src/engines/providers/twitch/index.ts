export { type TwitchClient } from './client.ts';
export type { TwitchClip } from './types.ts';
export { twitchFromEnv } from './from-env.ts';
export type { TwitchStream, TwitchVideo } from './streams.ts';
export { watchChat, type ChatReaderEvent, type ChatReaderStats } from './chat.ts';
