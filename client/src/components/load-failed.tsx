import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';

interface LoadFailedProps {
  icon: LucideIcon;
  /** The spec's words for the failed load, e.g. 'Failed to load TikTok accounts'. */
  title: string;
  description?: ReactNode;
  onRetry: () => void;
  className?: string;
}

/** A list that could not be loaded, with a Try again button, wherever one is shown. */
export function LoadFailed({ icon, title, description, onRetry, className }: LoadFailedProps) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      description={description}
      className={className}
      action={
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
      }
    />
  );
}
