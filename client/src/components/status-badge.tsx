import type { ComponentProps } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { StatusTone } from '@clipshift/shared';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const TONE_VARIANT: Record<StatusTone, NonNullable<BadgeProps['variant']>> = {
  info: 'info',
  warning: 'warning',
  success: 'success',
  danger: 'destructive',
  neutral: 'muted',
};

interface StatusBadgeProps extends Omit<ComponentProps<'span'>, 'children'> {
  /** The colour, as shared/statuses gives it for the status. */
  tone: StatusTone;
  icon: LucideIcon;
  /** Still under way: the icon turns. */
  busy?: boolean;
  label: string;
}

/** A status as a coloured badge with its icon: runs, uploads. */
export function StatusBadge({ tone, icon: Icon, busy = false, label, className, ...props }: StatusBadgeProps) {
  return (
    <Badge variant={TONE_VARIANT[tone]} data-tone={tone} className={cn('gap-1.5', className)} {...props}>
      <Icon className={cn(busy && 'animate-spin')} aria-hidden="true" />
      {label}
    </Badge>
  );
}
