export { DEFAULT_CANDIDATES, DEFAULT_HOOK, startFakeLlm } from './server.ts';
export type { FailureOptions, FakeLlm, FakeLlmFailure, FakeLlmOptions, FakeLlmReply, RecordedChatRequest } from './server.ts';
