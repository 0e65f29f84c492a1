import { useCallback, useMemo, useState } from 'react';
import type { ClipEdit, ClipFormat, StreamerStudio } from '@clipshift/shared';
import {
  changedFields,
  draftProblem,
  effectiveValues,
  fallbackValues,
  resetSection,
  savedDraft,
  type StudioDraft,
  type StudioMode,
  type StudioSection,
} from './studio-draft';

interface StudioEditorInput {
  mode: StudioMode;
  clipEdit: ClipEdit;
  durationSec: number;
  /** What the clip's format falls back to (null = as downloaded). */
  downloadedFormat: ClipFormat;
  /** The streamer's saved settings (what a clip falls back to, and what streamer mode edits). */
  streamer: StreamerStudio;
}

/**
 * The page's unsaved draft over what is saved. The draft is the page's own from the first render:
 * the clip's details reload every 2 s during a render, and that must not undo a change being made.
 */
export function useStudioEditor({ mode, clipEdit, durationSec, downloadedFormat, streamer }: StudioEditorInput) {
  const saved = useMemo(() => savedDraft(mode, clipEdit, streamer), [mode, clipEdit, streamer]);
  const fallback = useMemo(() => fallbackValues(mode, streamer, durationSec, downloadedFormat), [mode, streamer, durationSec, downloadedFormat]);
  const [draft, setDraft] = useState<StudioDraft>(saved);
  const values = useMemo(() => effectiveValues(draft, fallback), [draft, fallback]);
  const changed = useMemo(() => changedFields(draft, saved), [draft, saved]);

  const set = useCallback(<K extends keyof StudioDraft>(field: K, value: StudioDraft[K]) => setDraft((current) => ({ ...current, [field]: value })), []);
  const patch = useCallback((changes: Partial<StudioDraft>) => setDraft((current) => ({ ...current, ...changes })), []);
  const reset = useCallback((section: StudioSection) => setDraft((current) => resetSection(current, section)), []);
  /** After a save: the draft becomes what the server now holds. */
  const accept = useCallback((next: StudioDraft) => setDraft(next), []);

  return {
    mode,
    draft,
    values,
    fallback,
    dirty: changed.length > 0,
    problem: draftProblem(mode, values, durationSec),
    set,
    patch,
    reset,
    accept,
  };
}

export type StudioEditor = ReturnType<typeof useStudioEditor>;
