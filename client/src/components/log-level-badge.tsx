import { displayLevel, type LogLevel } from '@clipshift/shared';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const LEVEL_VARIANT: Record<LogLevel, NonNullable<BadgeProps['variant']>> = {
  DEBUG: 'muted',
  INFO: 'brand',
  WARNING: 'warning',
  ERROR: 'destructive',
  CRITICAL: 'destructive',
};

/** A log level as shown everywhere; unknown levels display as INFO (spec section 9). */
export function LogLevelBadge({ level, className }: { level: string; className?: string }) {
  const shown = displayLevel(level);
  return (
    <Badge
      variant={LEVEL_VARIANT[shown]}
      className={cn('w-20 justify-center font-mono text-[11px]', shown === 'CRITICAL' && 'bg-destructive text-destructive-foreground', className)}
    >
      {shown}
    </Badge>
  );
}
