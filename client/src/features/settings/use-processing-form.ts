import { useCallback, useMemo, useState } from 'react';
import { toast } from 'sonner';
import {
  parseConcurrency,
  readProcessingPreferences,
  saveProcessingPreferences,
  type ProcessingPreferences,
} from '@/lib/processing-preferences';

export const PREFERENCES_SAVED = 'Processing preferences saved';
export const CONCURRENCY_INVALID = 'Concurrency must be a whole number from 1 to 20';

/** The Processing form: edits held locally until Save writes them to app-settings. */
export function useProcessingForm() {
  const [saved, setSaved] = useState<ProcessingPreferences>(readProcessingPreferences);
  const [whisperModel, setWhisperModel] = useState(saved.whisperModel);
  const [concurrencyText, setConcurrencyText] = useState(String(saved.concurrency));

  const concurrency = parseConcurrency(concurrencyText);
  const concurrencyError = concurrency === null ? CONCURRENCY_INVALID : null;
  const dirty = whisperModel !== saved.whisperModel || concurrency !== saved.concurrency;

  const save = useCallback(() => {
    if (concurrency === null) return;
    const next = { whisperModel, concurrency };
    saveProcessingPreferences(next);
    setSaved(next);
    setConcurrencyText(String(concurrency));
    toast.success(PREFERENCES_SAVED);
  }, [whisperModel, concurrency]);

  return useMemo(
    () => ({ whisperModel, setWhisperModel, concurrencyText, setConcurrencyText, concurrencyError, dirty, save }),
    [whisperModel, concurrencyText, concurrencyError, dirty, save],
  );
}
