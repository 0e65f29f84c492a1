import { DEFAULT_CONCURRENCY, type ProcessingSettings, type ProcessingSettingsInput } from '@clipshift/shared';
import { transcriptionDefaults } from '../../engines/providers/transcription/index.ts';
import type { Env } from '../../platform/env.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { findUserSettings, upsertUserSettings, type UserSettingsRow } from './queries.ts';

export type { UserSettingsRow };

/** What the user saved in Settings › Processing, or null when nothing was saved (the defaults apply). */
export async function storedProcessingSettings(db: DbOrTrx, userId: string): Promise<UserSettingsRow | null> {
  return findUserSettings(db, userId);
}

/**
 * Settings › Processing as the API shows them: the saved preferences, or what runs without them
 * (the server's default model, which depends on where transcription runs).
 */
export function toProcessingSettings(row: UserSettingsRow | null, env: Pick<Env, 'TRANSCRIBE_ENGINE' | 'WHISPER_MODEL'>): ProcessingSettings {
  const transcription = transcriptionDefaults(env);
  return {
    whisper_model: row?.whisper_model ?? transcription.default_model,
    concurrency: row?.concurrency ?? DEFAULT_CONCURRENCY,
    updated_at: row ? row.updated_at.toISOString() : null,
    transcription,
  };
}

export async function saveProcessingSettings(db: DbOrTrx, userId: string, input: ProcessingSettingsInput): Promise<UserSettingsRow> {
  const values = { whisper_model: input.whisper_model, concurrency: input.concurrency, updated_at: new Date() };
  return upsertUserSettings(db, userId, values);
}

/**
 * The speech model for a user's work: the one asked for, else the saved preference, else none
 * (the transcriber's configured default, WHISPER_MODEL).
 */
export async function whisperModelFor(db: DbOrTrx, userId: string, asked?: string): Promise<string | undefined> {
  if (asked) return asked;
  return (await storedProcessingSettings(db, userId))?.whisper_model;
}

/** Clips a run processes at once: the one asked for, else the saved preference, else the default. */
export async function concurrencyFor(db: DbOrTrx, userId: string, asked?: number): Promise<number> {
  if (asked !== undefined) return asked;
  return (await storedProcessingSettings(db, userId))?.concurrency ?? DEFAULT_CONCURRENCY;
}
