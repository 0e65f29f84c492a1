import { CircleAlert, CircleCheck, CircleDot, CircleStop, LoaderCircle, type LucideIcon } from 'lucide-react';
import { statusTone, type StatusTone } from '@clipshift/shared';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const TONE_VARIANT: Record<StatusTone, NonNullable<BadgeProps['variant']>> = {
  info: 'info',
  warning: 'warning',
  success: 'success',
  danger: 'destructive',
  neutral: 'muted',
};

const TONE_ICON: Record<StatusTone, LucideIcon> = {
  info: LoaderCircle,
  warning: CircleStop,
  success: CircleCheck,
  danger: CircleAlert,
  neutral: CircleDot,
};

/** "downloading" → "Downloading"; unknown statuses are shown as the server sent them. */
export function statusLabel(status: string): string {
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : 'Unknown';
}

/**
 * A download run's status, coloured by statusTone: downloading blue, stopping amber, completed
 * green, error red, anything else neutral (spec section 4).
 */
export function DownloadStatusBadge({ status, className }: { status: string; className?: string }) {
  const tone = statusTone(status);
  const Icon = TONE_ICON[tone];
  return (
    <Badge variant={TONE_VARIANT[tone]} data-tone={tone} data-testid="download-status" className={cn('gap-1.5', className)}>
      <Icon className={cn(tone === 'info' && 'animate-spin')} aria-hidden="true" />
      {statusLabel(status)}
    </Badge>
  );
}
