import { DEFAULT_WHISPER_MODEL, type TranscriptionInfo } from '@clipshift/shared';
import type { Env } from '../../../platform/env.ts';
import type { Logger } from '../../../platform/logger.ts';
import { createLocalTranscriber, type LocalEngineConfig } from './local.ts';
import { createOpenAiTranscriber, type OpenAiEngineConfig } from './openai.ts';
import type { Transcriber } from './types.ts';

type TranscriptionConfig = ({ engine: 'local' } & LocalEngineConfig) | ({ engine: 'openai' } & OpenAiEngineConfig);

/** The engine TRANSCRIBE_ENGINE names: whisper.cpp in-process, or an OpenAI-compatible server. */
export function createTranscriber(config: TranscriptionConfig): Transcriber {
  return config.engine === 'local' ? createLocalTranscriber(config) : createOpenAiTranscriber(config);
}

/** The OpenAI-compatible engine's model when WHISPER_MODEL names none. */
const OPENAI_DEFAULT_MODEL = 'whisper-1';

/**
 * Where speech recognition runs and the model a request that names none gets: WHISPER_MODEL, a
 * ggml name for local and the server's model id for openai, else the engine's own default.
 */
export function transcriptionDefaults(env: Pick<Env, 'TRANSCRIBE_ENGINE' | 'WHISPER_MODEL'>): TranscriptionInfo {
  const engineDefault = env.TRANSCRIBE_ENGINE === 'openai' ? OPENAI_DEFAULT_MODEL : DEFAULT_WHISPER_MODEL;
  return { engine: env.TRANSCRIBE_ENGINE, default_model: env.WHISPER_MODEL ?? engineDefault };
}

/** Reads the transcription settings from the environment (the default model: transcriptionDefaults). */
export function transcriptionConfigFromEnv(env: Env, ffmpegPath: string, logger?: Logger): TranscriptionConfig {
  const defaultModel = transcriptionDefaults(env).default_model;
  if (env.TRANSCRIBE_ENGINE === 'openai') {
    if (!env.TRANSCRIBE_API_URL) throw new Error('TRANSCRIBE_ENGINE=openai needs TRANSCRIBE_API_URL (an OpenAI-compatible server)');
    return {
      engine: 'openai',
      apiUrl: env.TRANSCRIBE_API_URL,
      apiKey: env.TRANSCRIBE_API_KEY,
      defaultModel,
      ffmpegPath,
      logger,
    };
  }
  return { engine: 'local', modelsDir: env.whisperModelsDir, defaultModel, ffmpegPath, logger };
}
