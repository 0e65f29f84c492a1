import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { CONCURRENCY_RULE } from '@clipshift/shared';
import {
  hasStoredProcessingPreferences,
  parseConcurrency,
  preferencesFromServer,
  readProcessingPreferences,
  saveProcessingPreferences,
  useServerProcessingPreferences,
  useSaveProcessingPreferences,
  type ProcessingPreferences,
} from '@/api/settings';
import { describeError } from '@/api/errors';

const PREFERENCES_SAVED = 'Processing preferences saved';
const CONCURRENCY_INVALID = CONCURRENCY_RULE;
const preferencesNotSaved = (reason: string) => `Failed to save processing preferences to your account: ${reason}`;

/** Where the form's values stand, for the line beside Save. */
export type ProcessingSaveState = 'unsaved' | 'browser-only' | 'account' | 'defaults';

const samePreferences = (a: ProcessingPreferences, b: ProcessingPreferences) => a.whisperModel === b.whisperModel && a.concurrency === b.concurrency;

/**
 * The Processing form. It starts from this browser's app-settings and switches to the account's
 * saved preferences once they load (the server's copy wins: scheduled work uses it). Save writes
 * both. A browser holding preferences the account does not have yet offers to save them.
 */
export function useProcessingForm() {
  const server = useServerProcessingPreferences();
  const [saved, setSaved] = useState<ProcessingPreferences>(readProcessingPreferences);
  const [whisperModel, setWhisperModel] = useState(saved.whisperModel);
  const [concurrencyText, setConcurrencyText] = useState(String(saved.concurrency));
  const fromServer = preferencesFromServer(server.data);
  // Nothing saved anywhere: the server's answer is what will run (its model depends on where transcription runs).
  const serverDefaults = server.data && !fromServer && !hasStoredProcessingPreferences() ? { whisperModel: server.data.whisper_model, concurrency: server.data.concurrency } : null;

  const concurrency = parseConcurrency(concurrencyText);
  const edited = whisperModel !== saved.whisperModel || concurrency !== saved.concurrency;
  // The last Save reached this browser only, or this browser kept preferences the account never got.
  const [serverBehind, setServerBehind] = useState(false);
  const browserOnly = serverBehind || (server.isSuccess && fromServer === null && hasStoredProcessingPreferences());

  // The account's preferences arrive (or change): they replace what the form started from, unless
  // the user is editing. The server's defaults are shown but not stored here: stored, this browser
  // would send them with every request as if chosen.
  const shown = fromServer ?? serverDefaults;
  // Only a new answer from the server resets the form: the other values are read as they are now.
  const adoptShown = useEffectEvent(() => {
    if (!shown || samePreferences(shown, saved) || edited) return;
    if (fromServer) saveProcessingPreferences(fromServer);
    setSaved(shown);
    setWhisperModel(shown.whisperModel);
    setConcurrencyText(String(shown.concurrency));
  });
  const shownModel = shown?.whisperModel;
  const shownConcurrency = shown?.concurrency;
  useEffect(() => {
    adoptShown();
  }, [shownModel, shownConcurrency]);

  const { mutate, isPending } = useSaveProcessingPreferences({
    onSaved: () => {
      setServerBehind(false);
      toast.success(PREFERENCES_SAVED);
    },
    onFailed: (error) => {
      setServerBehind(true);
      toast.error(preferencesNotSaved(describeError(error)));
    },
  });

  const save = useCallback(() => {
    if (concurrency === null) return;
    const next = { whisperModel, concurrency };
    saveProcessingPreferences(next);
    setSaved(next);
    setConcurrencyText(String(concurrency));
    mutate({ whisper_model: next.whisperModel, concurrency: next.concurrency });
  }, [whisperModel, concurrency, mutate]);

  const state: ProcessingSaveState = edited ? 'unsaved' : browserOnly ? 'browser-only' : fromServer ? 'account' : 'defaults';
  const concurrencyError = concurrency === null ? CONCURRENCY_INVALID : null;
  const transcription = server.data?.transcription;
  return useMemo(
    () => ({ whisperModel, setWhisperModel, concurrencyText, setConcurrencyText, concurrencyError, dirty: edited || browserOnly, saving: isPending, state, save, transcription }),
    [whisperModel, concurrencyText, concurrencyError, edited, browserOnly, isPending, state, save, transcription],
  );
}
