import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_STORAGE_KEY } from '@clipshift/shared';
import { parseConcurrency, preferencesFromServer, preferencesToSend, readProcessingPreferences } from './settings';

/** app-settings as this browser holds it. */
function storing(settings: unknown) {
  const items = new Map<string, string>(settings === undefined ? [] : [[SETTINGS_STORAGE_KEY, JSON.stringify(settings)]]);
  vi.stubGlobal('window', { localStorage: { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => items.set(key, value) } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('processing preferences', () => {
  it('take a concurrency of 1 to 20 typed as a whole number', () => {
    expect(parseConcurrency(' 8 ')).toBe(8);
    expect(parseConcurrency('1')).toBe(1);
    expect(parseConcurrency('20')).toBe(20);
    for (const text of ['0', '21', '2.5', '-3', '', 'five']) expect(parseConcurrency(text)).toBeNull();
  });

  it('count the account’s copy only once it has been saved', () => {
    expect(preferencesFromServer(undefined)).toBeNull();
    const transcription = { engine: 'local', default_model: 'large-v3-turbo' } as const;
    expect(preferencesFromServer({ whisper_model: 'large-v3-turbo', concurrency: 5, updated_at: null, transcription })).toBeNull();
    expect(preferencesFromServer({ whisper_model: 'small', concurrency: 8, updated_at: '2026-01-01T00:00:00Z', transcription })).toEqual({ whisperModel: 'small', concurrency: 8 });
  });

  it('send only what this browser stored, so the account’s choice applies otherwise', () => {
    storing(undefined);
    expect(preferencesToSend()).toEqual({});
    storing({ concurrency: 40, whisper_model: '' });
    expect(preferencesToSend()).toEqual({ concurrency: 20 });
    storing({ concurrency: 1, whisper_model: 'tiny' });
    expect(preferencesToSend()).toEqual({ concurrency: 1, model: 'tiny' });
  });

  it('read the stored preferences with defaults filled in', () => {
    storing(undefined);
    expect(readProcessingPreferences()).toEqual({ whisperModel: 'large-v3-turbo', concurrency: 5 });
    storing({ concurrency: 99, whisper_model: 'medium' });
    expect(readProcessingPreferences()).toEqual({ whisperModel: 'medium', concurrency: 20 });
  });
});
