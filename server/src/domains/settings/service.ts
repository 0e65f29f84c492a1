import { DEFAULT_CONCURRENCY, DEFAULT_WHISPER_MODEL, type ProcessingSettings, type ProcessingSettingsInput } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { findUserSettings, upsertUserSettings, type UserSettingsRow } from './queries.ts';

export type { UserSettingsRow };

/** What the user saved in Settings › Processing, or null when nothing was saved (the defaults apply). */
export async function storedProcessingSettings(db: DbOrTrx, userId: string): Promise<UserSettingsRow | null> {
  return findUserSettings(db, userId);
}

export function toProcessingSettings(row: UserSettingsRow | null): ProcessingSettings {
  return {
    whisper_model: row?.whisper_model ?? DEFAULT_WHISPER_MODEL,
    concurrency: row?.concurrency ?? DEFAULT_CONCURRENCY,
    updated_at: row ? row.updated_at.toISOString() : null,
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
