import type { MomentStatus } from '@clipshift/shared';
import { Badge, type BadgeProps } from '@/components/ui/badge';

export const MOMENT_STATUS_LABELS: Record<MomentStatus, string> = { found: 'Found', clipped: 'Clipped', skipped: 'Skipped', failed: 'Failed' };

const MOMENT_STATUS_VARIANTS: Record<MomentStatus, NonNullable<BadgeProps['variant']>> = {
  found: 'info',
  clipped: 'success',
  skipped: 'muted',
  failed: 'destructive',
};

/** What became of a moment: found (its clip is being made or waits), clipped, skipped or failed. */
export function MomentStatusBadge({ status, className }: { status: MomentStatus; className?: string }) {
  return (
    <Badge variant={MOMENT_STATUS_VARIANTS[status]} className={className} data-testid="moment-status">
      {MOMENT_STATUS_LABELS[status]}
    </Badge>
  );
}
