import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils';

/** Shown while the auth state is unknown or a redirect is about to happen. */
export function LoadingView({ label = 'Loading…', className }: { label?: string; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={cn('flex min-h-[50vh] flex-col items-center justify-center gap-3 text-muted-foreground', className)}>
      <LoaderCircle className="size-6 animate-spin text-brand-text" aria-hidden="true" />
      <span className="text-sm">{label}</span>
    </div>
  );
}
