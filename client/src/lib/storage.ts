import { z } from 'zod';
import {
  AUTH_CACHE_KEY,
  AUTH_CACHE_MS,
  DEFAULT_CONCURRENCY,
  DEFAULT_WHISPER_MODEL,
  SETTINGS_STORAGE_KEY,
  cachedAuthState,
  type CachedAuthState,
} from '@clipshift/shared';

/** localStorage can throw (privacy modes, full quota); the app then behaves as if nothing is stored. */
function readJson(key: string): unknown {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Not being able to remember is harmless: the next page load asks the server again.
  }
}

function remove(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // See writeJson.
  }
}

export function readAuthCache(): CachedAuthState | null {
  const parsed = cachedAuthState.safeParse(readJson(AUTH_CACHE_KEY));
  return parsed.success ? parsed.data : null;
}

export function writeAuthCache(authenticated: boolean, now: number = Date.now()): void {
  writeJson(AUTH_CACHE_KEY, { authenticated, timestamp: now } satisfies CachedAuthState);
}

export function clearAuthCache(): void {
  remove(AUTH_CACHE_KEY);
}

/** The cached state is trusted for 5 minutes (spec section 6). */
export function isAuthCacheFresh(cache: CachedAuthState | null, now: number = Date.now()): cache is CachedAuthState {
  return cache !== null && now - cache.timestamp >= 0 && now - cache.timestamp < AUTH_CACHE_MS;
}

/** Settings kept in the browser (spec section 3); the provider credentials have no defaults here. */
const appSettings = z.object({
  client_id: z.string().catch(''),
  client_secret: z.string().catch(''),
  concurrency: z.number().int().min(1).catch(DEFAULT_CONCURRENCY),
  whisper_model: z.string().min(1).catch(DEFAULT_WHISPER_MODEL),
});
type AppSettings = z.infer<typeof appSettings>;

const DEFAULT_SETTINGS: AppSettings = {
  client_id: '',
  client_secret: '',
  concurrency: DEFAULT_CONCURRENCY,
  whisper_model: DEFAULT_WHISPER_MODEL,
};

/** The processing fields this browser actually stored and that are usable; no defaults filled in. */
export function readStoredProcessingSettings(): Partial<Pick<AppSettings, 'concurrency' | 'whisper_model'>> {
  const stored = readJson(SETTINGS_STORAGE_KEY);
  if (!stored || typeof stored !== 'object') return {};
  const { concurrency, whisper_model } = stored as Record<string, unknown>;
  const storedConcurrency = z.number().int().min(1).safeParse(concurrency);
  const storedModel = z.string().min(1).safeParse(whisper_model);
  return {
    ...(storedConcurrency.success ? { concurrency: storedConcurrency.data } : {}),
    ...(storedModel.success ? { whisper_model: storedModel.data } : {}),
  };
}

export function readSettings(): AppSettings {
  const stored = readJson(SETTINGS_STORAGE_KEY);
  const parsed = appSettings.safeParse({ ...DEFAULT_SETTINGS, ...(stored && typeof stored === 'object' ? stored : {}) });
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

export function writeSettings(settings: AppSettings): void {
  writeJson(SETTINGS_STORAGE_KEY, settings);
}

/** A small per-browser preference (e.g. a screen's chosen view); null when unset or unreadable. */
export function readPreference(key: string): unknown {
  return readJson(key);
}

export function writePreference(key: string, value: unknown): void {
  writeJson(key, value);
}
