import type { CSSProperties } from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { TOAST_DURATION_MS, TOAST_FADE_MS } from '@clipshift/shared';

/** Read by the fade animation in index.css. */
const fadeTimes = {
  '--toast-visible-ms': `${TOAST_DURATION_MS}ms`,
  '--toast-fade-ms': `${TOAST_FADE_MS}ms`,
} as CSSProperties;

/** The app's one toast outlet: bottom right, 3000 ms on screen, then a 300 ms fade. */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      position="bottom-right"
      duration={TOAST_DURATION_MS + TOAST_FADE_MS}
      richColors
      closeButton
      style={fadeTimes}
      toastOptions={{ className: 'font-sans' }}
      {...props}
    />
  );
}

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
