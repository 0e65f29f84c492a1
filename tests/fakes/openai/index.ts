export { SPEECH_TRANSCRIPT, startFakeOpenAi } from './server.ts';
export type { FailurePlan, FakeOpenAi, FakeOpenAiOptions, FakeScenario, RecordedUpload } from './server.ts';
