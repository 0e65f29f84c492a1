export { commentaryWords, SPEECH_TRANSCRIPT, startFakeOpenAi } from './server.ts';
export type { FailurePlan, FakeOpenAi, FakeOpenAiOptions, FakeScenario, FakeWord, RecordedUpload } from './server.ts';
