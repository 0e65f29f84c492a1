import type { CSSProperties } from 'react';
import { TOAST_FADE_MS } from '@clipshift/shared';

/**
 * Options for a toast that stays longer than the default (e.g. the 10 s subtitle notice):
 * `toast.info(message, toastTiming(SUBTITLE_INFO_TOAST_MS))` keeps the fade at its end.
 */
export function toastTiming(visibleMs: number): { duration: number; style: CSSProperties } {
  return {
    duration: visibleMs + TOAST_FADE_MS,
    style: { '--toast-visible-ms': `${visibleMs}ms` } as CSSProperties,
  };
}
