export { createYouTubeClient, type AuthorizeRequest, type CodeExchange, type YouTubeClient, type YouTubeClientConfig } from './client.ts';
export { youtubeFromEnv } from './from-env.ts';
export { explainYouTubeError, isYouTubeError, YouTubeError, YouTubeQuotaExceededError, type YouTubeErrorKind } from './errors.ts';
export { buildAuthorizeUrl, callbackError, DEFAULT_AUTH_URL, missingScopes, type AuthorizeUrlParams } from './oauth.ts';
export { DEFAULT_DAILY_QUOTA, explainQuotaWait, nextPacificMidnight, QUOTA_TIME_ZONE, UPLOAD_QUOTA_COST, type QuotaWaitWording } from './quota.ts';
export {
  FALLBACK_TITLE,
  GAMING_CATEGORY_ID,
  MAX_DESCRIPTION_BYTES,
  MAX_SHORTS_DURATION_SEC,
  MAX_TAGS_LENGTH,
  MAX_TITLE_LENGTH,
  MAX_VIDEO_BYTES,
  metadataProblems,
  shortsPreflight,
  tagsLength,
  youtubeDescription,
  youtubeTags,
  youtubeTitle,
  type ShortsVideo,
} from './rules.ts';
export { DEFAULT_UPLOAD_CHUNK_SIZE, receivedBytes, UPLOAD_BLOCK } from './upload.ts';
export { defaultSleep, type Sleep } from '../http/runtime.ts';
export {
  PRIVACY_STATUSES,
  YOUTUBE_SCOPES,
  type ReadChunk,
  type UploadChunksOptions,
  type UploadState,
  type YouTubeChannel,
  type YouTubePrivacy,
  type YouTubeTokens,
  type YouTubeVideoMetadata,
  type YouTubeVideoState,
  type YouTubeVideoStats,
} from './types.ts';
