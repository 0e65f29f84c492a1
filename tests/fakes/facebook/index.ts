export { startFakeFacebook } from './server.ts';
export type { BreakUpload, FakeFacebook, FakeFacebookEndpoint, FakeFacebookOptions, PublishedFacebookReel, RecordedFacebookRequest } from './server.ts';
export { KNOWN_SCOPES, LONG_TOKEN_SECONDS, PAGE_SCOPES } from './state.ts';
export type { FakeFacebookUser, FakePage, FakeReel, ReelPhase, UploadBreak } from './state.ts';
