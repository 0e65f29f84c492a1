import type { Env } from '../../../platform/env.ts';
import type { Logger } from '../../../platform/logger.ts';
import { createTranscriber, transcriptionConfigFromEnv } from './config.ts';
import type { Transcriber } from './types.ts';

/** The configured transcriber, or null and the reason (e.g. openai without TRANSCRIBE_API_URL). */
export function transcriberFromEnv(env: Env, ffmpegPath: string, logger: Logger): { transcriber: Transcriber | null; problem?: string } {
  try {
    return { transcriber: createTranscriber(transcriptionConfigFromEnv(env, ffmpegPath, logger)) };
  } catch (error) {
    return { transcriber: null, problem: (error as Error).message };
  }
}
