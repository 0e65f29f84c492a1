import { useCallback, useEffect, useRef, useState } from 'react';
import { REOPEN_DETAILS_DELAY_MS, type Clip } from '@clipshift/shared';

/**
 * Which clip's details are open. `reopen` closes them and opens them again 300 ms later, so a
 * re-rendered video (after subtitles) loads afresh (spec section 4).
 */
export function useDetailsState() {
  const [clip, setClip] = useState<Clip | null>(null);
  const current = useRef<Clip | null>(null);
  const reopenTimer = useRef<number | undefined>(undefined);

  const show = useCallback((next: Clip | null) => {
    window.clearTimeout(reopenTimer.current);
    current.current = next;
    setClip(next);
  }, []);

  useEffect(() => () => window.clearTimeout(reopenTimer.current), []);

  const open = useCallback((next: Clip) => show(next), [show]);
  const close = useCallback(() => show(null), [show]);

  /** Closes the details if they show this clip (e.g. it was deleted). */
  const closeIfShowing = useCallback((clipId: string) => {
    if (current.current?.clip_id === clipId) show(null);
  }, [show]);

  const reopenIfShowing = useCallback(
    (clipId: string) => {
      const showing = current.current;
      if (showing?.clip_id !== clipId) return;
      show(null);
      reopenTimer.current = window.setTimeout(() => show(showing), REOPEN_DETAILS_DELAY_MS);
    },
    [show],
  );

  return { clip, open, close, closeIfShowing, reopenIfShowing };
}
