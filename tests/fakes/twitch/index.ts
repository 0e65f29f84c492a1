export { CLIP_HASHES, startFakeTwitch } from './server.ts';
export type { ClipPagingQuirks, FailureKind, FailureOptions, FakeEndpoint, FakeTwitch, FakeTwitchOptions, RecordedRequest } from './server.ts';
export { cameraRegion, clipMedia, ffmpegPath, thumbnailMedia, DEFAULT_CAMERA, DEFAULT_MEDIA, type ClipMediaSpec, type FakeCamera } from './media.ts';
export type { AddBroadcasterInput, AddClipInput, AddGameInput, FakeClip, FakeGame, FakeUser } from './state.ts';
export type { AuthorizingUser } from './accounts.ts';
export { PORTRAIT_MEDIA } from './server.ts';
export { privmsgLine, startFakeTwitchChat, type FakeTwitchChat, type FakeTwitchChatOptions, type ScriptedMessage } from './chat.ts';
export { chatScript, HYPE_LINES, seededRandom, TWITCH_EMOTES, type Burst, type ChatScriptSpec } from './chat-scripts.ts';
