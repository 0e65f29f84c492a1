import { CircleAlert, CircleCheck, CircleDot, CircleStop, LoaderCircle, type LucideIcon } from 'lucide-react';
import { runStatusLabel, runStatusTone, type StatusTone } from '@clipshift/shared';
import { StatusBadge } from './status-badge';

const TONE_ICON: Record<StatusTone, LucideIcon> = {
  info: LoaderCircle,
  warning: CircleStop,
  success: CircleCheck,
  danger: CircleAlert,
  neutral: CircleDot,
};

/**
 * A download run's status, coloured by its tone: downloading blue, stopping amber, completed
 * green, error red, anything else neutral (spec section 4).
 */
export function DownloadStatusBadge({ status, className }: { status: string; className?: string }) {
  const tone = runStatusTone(status);
  return (
    <StatusBadge tone={tone} icon={TONE_ICON[tone]} busy={tone === 'info'} label={runStatusLabel(status)} data-testid="download-status" className={className} />
  );
}
