export { startFakeInstagram } from './server.ts';
export type { FakeInstagram, FakeInstagramEndpoint, FakeInstagramOptions, PublishedInstagramPost, RecordedInstagramRequest } from './server.ts';
export { BASIC_SCOPE, DEFAULT_PUBLISH_QUOTA, LONG_TOKEN_SECONDS, PUBLISH_SCOPE, QUOTA_WINDOW_SECONDS } from './state.ts';
export type { AddInstagramUserInput, ContainerStatusCode, FakeContainer, FakeInstagramUser, FakeMedia, VideoFetch } from './state.ts';
