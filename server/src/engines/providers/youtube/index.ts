export { type YouTubeClient } from './client.ts';
export { youtubeFromEnv } from './from-env.ts';
export { isYouTubeError, YouTubeQuotaExceededError } from './errors.ts';
export { callbackError, missingScopes } from './oauth.ts';
export { explainQuotaWait, nextPacificMidnight, QUOTA_UNITS, quotaDay, videosListUnits } from './quota.ts';
export { youtubeDescription, youtubeTags, youtubeTitle } from './rules.ts';
export { type YouTubeVideoMetadata } from './types.ts';
