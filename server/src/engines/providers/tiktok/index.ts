export { type TikTokClient } from './client.ts';
export { tiktokFromEnv } from './from-env.ts';
export { planChunks } from './chunks.ts';
export { assertDurationAllowed, isTikTokError } from './errors.ts';
export { callbackError } from './oauth.ts';
export { type CreatorInfo, type PrivacyLevel, type TikTokTokens, type TikTokUserInfo } from './types.ts';
