export { transcriptionDefaults } from './config.ts';
export { transcriberFromEnv } from './from-env.ts';
export { languageCode } from './languages.ts';
export { joinWords, needsSpaceBetween } from './text.ts';
export { type Transcriber, type Transcript, type TranscriptWord } from './types.ts';
