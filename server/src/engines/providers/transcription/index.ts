export { transcriptionDefaults } from './config.ts';
export { transcriberFromEnv } from './from-env.ts';
export { joinWords } from './text.ts';
export { type Transcriber, type Transcript } from './types.ts';
