export { DEFAULT_CANDIDATES, startFakeLlm } from './server.ts';
export type { FailureOptions, FakeLlm, FakeLlmFailure, FakeLlmOptions, FakeLlmReply, RecordedChatRequest } from './server.ts';
