import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { TOAST_DURATION_MS } from '@clipshift/shared';

/** The app's one toast outlet: bottom right, dismissed after the spec's 3 seconds. */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      position="bottom-right"
      duration={TOAST_DURATION_MS}
      richColors
      closeButton
      toastOptions={{ className: 'font-sans' }}
      {...props}
    />
  );
}
