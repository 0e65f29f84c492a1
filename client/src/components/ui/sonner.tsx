import type { CSSProperties } from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { TOAST_DURATION_MS, TOAST_FADE_MS } from '@clipshift/shared';
import { useTheme } from '@/lib/theme';

/** Read by the fade animation in index.css. */
const fadeTimes = {
  '--toast-visible-ms': `${TOAST_DURATION_MS}ms`,
  '--toast-fade-ms': `${TOAST_FADE_MS}ms`,
} as CSSProperties;

/** The app's one toast outlet: bottom right, 3000 ms on screen, then a 300 ms fade. */
export function Toaster(props: ToasterProps) {
  const { theme } = useTheme();
  return (
    <Sonner
      theme={theme}
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

