export { createTikTokClient, type AuthorizeRequest, type CodeExchange, type TikTokClient, type TikTokClientConfig } from './client.ts';
export { tiktokFromEnv } from './from-env.ts';
export {
  DEFAULT_CHUNK_SIZE,
  MAX_CHUNK_COUNT,
  MAX_CHUNK_SIZE,
  MAX_FINAL_CHUNK_SIZE,
  MAX_VIDEO_SIZE,
  MIB,
  MIN_CHUNK_SIZE,
  planChunks,
  type Chunk,
  type ChunkPlan,
  type PlanOptions,
} from './chunks.ts';
export {
  assertDurationAllowed,
  explainDurationTooLong,
  explainTikTokError,
  isTikTokError,
  TikTokError,
  type TikTokErrorKind,
} from './errors.ts';
export { buildAuthorizeUrl, callbackError, DEFAULT_AUTH_URL, DEFAULT_SCOPES, missingScopes, type AuthorizeUrlParams } from './oauth.ts';
export { MAX_TITLE_LENGTH, MAX_VIDEO_IDS_PER_QUERY, publicPostIds } from './api.ts';
export { resumeChunkIndex } from './upload.ts';
export { defaultSleep, type Sleep } from '../http/runtime.ts';
export { RATE_LIMIT_WAITS_MS } from './runtime.ts';
export {
  POST_STATUSES,
  PRIVACY_LEVELS,
  type CreatorInfo,
  type DirectPostInfo,
  type PostStatus,
  type PostStatusValue,
  type PrivacyLevel,
  type PublishTarget,
  type TikTokTokens,
  type TikTokUserInfo,
  type TikTokVideoStats,
  type UploadProgressOptions,
  type UploadResult,
  type WaitForPublishOptions,
} from './types.ts';
