import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils';

/** Shown while a platform's window of a connect is open. */
export function PopupWaitingNote({ className, platform = 'TikTok' }: { className?: string; platform?: string }) {
  return (
    <p role="status" className={cn('flex items-center gap-2 text-sm text-muted-foreground', className)}>
      <LoaderCircle className="size-4 animate-spin text-brand-text" aria-hidden="true" />
      Finish connecting in the {platform} window. Closing it cancels.
    </p>
  );
}
