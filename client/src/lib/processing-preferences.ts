import { DEFAULT_CONCURRENCY, DEFAULT_WHISPER_MODEL } from '@clipshift/shared';
import { readSettings, writeSettings } from './storage';

/** Speech models the server's whisper.cpp knows, smallest and fastest first. */
export const WHISPER_MODELS = ['tiny', 'base', 'small', 'medium', 'large-v3', 'large-v3-turbo'] as const;

/** Clips processed at once: what the server accepts with a download start. */
export const CONCURRENCY_MIN = 1;
export const CONCURRENCY_MAX = 20;

export interface ProcessingPreferences {
  whisperModel: string;
  concurrency: number;
}

export const DEFAULT_PROCESSING_PREFERENCES: ProcessingPreferences = {
  whisperModel: DEFAULT_WHISPER_MODEL,
  concurrency: DEFAULT_CONCURRENCY,
};

/** The concurrency typed in a field, or null when it is not a whole number from 1 to 20. */
export function parseConcurrency(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= CONCURRENCY_MIN && value <= CONCURRENCY_MAX ? value : null;
}

/** The stored preferences (app-settings in localStorage), defaults where nothing usable is stored. */
export function readProcessingPreferences(): ProcessingPreferences {
  const settings = readSettings();
  return {
    whisperModel: settings.whisper_model,
    concurrency: Math.min(Math.max(CONCURRENCY_MIN, settings.concurrency), CONCURRENCY_MAX),
  };
}

/** Stores the preferences beside whatever else app-settings holds. */
export function saveProcessingPreferences(preferences: ProcessingPreferences): void {
  writeSettings({ ...readSettings(), whisper_model: preferences.whisperModel, concurrency: preferences.concurrency });
}
