import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
  /** The title's heading level: h2 where the state sits right under the page's h1. */
  titleLevel?: 2 | 3;
}

export function EmptyState({ icon: Icon, title, description, action, className, titleLevel = 3 }: EmptyStateProps) {
  const Title = titleLevel === 2 ? 'h2' : 'h3';
  return (
    <div className={cn('flex flex-col items-center justify-center rounded-lg border border-dashed px-6 py-10 text-center', className)}>
      <div className="mb-3 flex size-11 items-center justify-center rounded-full bg-muted">
        <Icon className="size-5 text-muted-foreground" aria-hidden="true" />
      </div>
      <Title className="text-sm font-semibold">{title}</Title>
      {description && <p className="mt-1 max-w-sm text-sm text-muted-foreground">{description}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}
