import { useCallback, useState } from 'react';
import { readPreference, writePreference } from '@/lib/storage';

/** Card view (the spec's Reading A) or list view (Reading B). */
export type ClipView = 'cards' | 'list';

const CLIP_VIEW_STORAGE_KEY = 'clips-view';

function readClipView(): ClipView {
  return readPreference(CLIP_VIEW_STORAGE_KEY) === 'list' ? 'list' : 'cards';
}

/** The chosen view, remembered per browser. */
export function useClipView(): [ClipView, (view: ClipView) => void] {
  const [view, setView] = useState<ClipView>(readClipView);
  const choose = useCallback((next: ClipView) => {
    setView(next);
    writePreference(CLIP_VIEW_STORAGE_KEY, next);
  }, []);
  return [view, choose];
}
