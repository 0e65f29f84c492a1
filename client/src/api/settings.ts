import { useEffect } from 'react';
import { CONCURRENCY_MAX, CONCURRENCY_MIN, type ProcessingSettings } from '@clipshift/shared';
import { readSettings, readStoredProcessingSettings, writeSettings } from '@/lib/storage';
import { trpc } from './trpc';

/** Speech models the server's whisper.cpp knows, smallest and fastest first. */
export const WHISPER_MODELS = ['tiny', 'base', 'small', 'medium', 'large-v3', 'large-v3-turbo'] as const;

export interface ProcessingPreferences {
  whisperModel: string;
  concurrency: number;
}

/** The server's copy has been refetched for the Settings screen anyway; elsewhere once in a while is plenty. */
const SERVER_PREFERENCES_STALE_MS = 5 * 60_000;

/** The concurrency typed in a field, or null when it is not a whole number from 1 to 20. */
export function parseConcurrency(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= CONCURRENCY_MIN && value <= CONCURRENCY_MAX ? value : null;
}

const clampConcurrency = (value: number) => Math.min(Math.max(CONCURRENCY_MIN, value), CONCURRENCY_MAX);

/** The stored preferences (app-settings in localStorage), defaults where nothing usable is stored. */
export function readProcessingPreferences(): ProcessingPreferences {
  const settings = readSettings();
  return { whisperModel: settings.whisper_model, concurrency: clampConcurrency(settings.concurrency) };
}

/** Stores the preferences beside whatever else app-settings holds. */
export function saveProcessingPreferences(preferences: ProcessingPreferences): void {
  writeSettings({ ...readSettings(), whisper_model: preferences.whisperModel, concurrency: preferences.concurrency });
}

/** Whether this browser holds processing preferences of its own (saved here before they lived on the server too). */
export function hasStoredProcessingPreferences(): boolean {
  return Object.keys(readStoredProcessingSettings()).length > 0;
}

/** The server's saved preferences; null while the user has saved none (the defaults apply there). */
export function preferencesFromServer(settings: ProcessingSettings | undefined): ProcessingPreferences | null {
  if (!settings?.updated_at) return null;
  return { whisperModel: settings.whisper_model, concurrency: settings.concurrency };
}

/**
 * What a download start or subtitle request sends: only what this browser has stored. Nothing
 * stored means nothing sent, so the server uses the preferences saved to the account instead of
 * this browser's defaults.
 */
export function preferencesToSend(): { concurrency?: number; model?: string } {
  const stored = readStoredProcessingSettings();
  return {
    ...(stored.concurrency !== undefined ? { concurrency: clampConcurrency(stored.concurrency) } : {}),
    ...(stored.whisper_model !== undefined ? { model: stored.whisper_model } : {}),
  };
}

/** The account's saved preferences, shared by every screen through the query cache. */
export function useServerProcessingPreferences() {
  return trpc.settings.processing.useQuery(undefined, { staleTime: SERVER_PREFERENCES_STALE_MS });
}

/**
 * Keeps app-settings a copy of the preferences saved to the account, so that this browser sends
 * the account's choice, not a stale one saved here earlier. Runs for signed-in screens.
 */
export function useProcessingPreferencesSync(): void {
  const { data } = useServerProcessingPreferences();
  useEffect(() => {
    const fromServer = preferencesFromServer(data);
    if (fromServer) saveProcessingPreferences(fromServer);
  }, [data]);
}

/** Saves the preferences to the account; the answer becomes the cached copy every screen reads. */
export function useSaveProcessingPreferences(callbacks: { onSaved: () => void; onFailed: (error: unknown) => void }) {
  const utils = trpc.useUtils();
  return trpc.settings.saveProcessing.useMutation({
    onSuccess: (stored) => {
      utils.settings.processing.setData(undefined, stored);
      callbacks.onSaved();
    },
    onError: callbacks.onFailed,
  });
}

/** What the user's clips take on the server's disk, for Settings. */
export function useStorageUsage() {
  return trpc.settings.storageUsage.useQuery();
}
