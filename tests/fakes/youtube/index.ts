export { startFakeYouTube } from './server.ts';
export type { DropChunk, FakeYouTube, FakeYouTubeEndpoint, FakeYouTubeFailure, FakeYouTubeOptions, ProcessingOutcome, RecordedYouTubeRequest } from './server.ts';
export { DEFAULT_DAILY_QUOTA, DEFAULT_DAILY_UPLOADS, QUOTA_COST, READONLY_SCOPE, tagsLength, UPLOAD_BLOCK, UPLOAD_SCOPE } from './state.ts';
export type { AddGoogleUserInput, FakeChannel, FakeGoogleUser, FakeProcessingStatus, FakeUploadSession, FakeVideo } from './state.ts';
