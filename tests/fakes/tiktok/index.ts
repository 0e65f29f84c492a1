export { startFakeTikTok } from './server.ts';
export type { FakeFailure, FakeTikTok, FakeTikTokEndpoint, FakeTikTokOptions, RecordedTikTokRequest } from './server.ts';
export { chunkRuleViolation, MIB } from './state.ts';
export type { AddTikTokUserInput, FakePost, FakePostStatus, FakeTikTokUser, FakeUpload, FakeUploadChunk } from './state.ts';
