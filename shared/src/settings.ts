import { z } from 'zod';
import { CONCURRENCY_MAX, CONCURRENCY_MIN, DEFAULT_WHISPER_MODEL } from './constants.ts';

export const CONCURRENCY_RULE = `Concurrency must be a whole number from ${CONCURRENCY_MIN} to ${CONCURRENCY_MAX}`;
const WHISPER_MODEL_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const whisperModelRule = (field: string) => `${field} must be a model name such as ${DEFAULT_WHISPER_MODEL}`;

/** A speech model's name (whisper.cpp's, or an OpenAI-compatible server's): letters, digits, '.', '_', '-'. */
export const whisperModelName = (field = 'model') =>
  z.string({ error: whisperModelRule(field) }).trim().regex(WHISPER_MODEL_PATTERN, whisperModelRule(field));

/** Settings › Processing, stored per user on the server (and in the browser's app-settings). */
export const processingSettingsInput = z.object({
  whisper_model: whisperModelName('whisper_model'),
  concurrency: z.number({ error: CONCURRENCY_RULE }).int(CONCURRENCY_RULE).min(CONCURRENCY_MIN, CONCURRENCY_RULE).max(CONCURRENCY_MAX, CONCURRENCY_RULE),
});
export type ProcessingSettingsInput = z.infer<typeof processingSettingsInput>;

export const TRANSCRIBE_ENGINES = ['local', 'openai'] as const;
export type TranscribeEngineName = (typeof TRANSCRIBE_ENGINES)[number];

/** The server's transcription set-up (TRANSCRIBE_ENGINE, WHISPER_MODEL): what a request without a model runs. */
export const transcriptionInfo = z.object({
  /** whisper.cpp in the app (`local`), or an OpenAI-compatible server (`openai`). */
  engine: z.enum(TRANSCRIBE_ENGINES),
  /** The model used when the user has saved none. */
  default_model: z.string(),
});
export type TranscriptionInfo = z.infer<typeof transcriptionInfo>;

export const processingSettings = processingSettingsInput.extend({
  /** When the user last saved them; null while the defaults apply (nothing saved yet: whisper_model is then the server's default). */
  updated_at: z.string().nullable(),
  transcription: transcriptionInfo,
});
export type ProcessingSettings = z.infer<typeof processingSettings>;
