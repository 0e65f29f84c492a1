import { Captions, LoaderCircle } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { WithTooltip } from '@/components/ui/tooltip';

interface SubtitleButtonProps {
  generating: boolean;
  onClick: () => void;
  /** Icon only (cards, rows) or with its words (details modal). */
  withLabel?: boolean;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
}

/**
 * Generate subtitles. While the clip is being subtitled a spinner takes the icon's place; the
 * button stays clickable so a second request is answered with the spec's info message.
 */
export function SubtitleButton({ generating, onClick, withLabel = false, variant = 'outline', size, className }: SubtitleButtonProps) {
  const label = generating ? 'Generating subtitles…' : 'Generate subtitles';
  const Icon = generating ? LoaderCircle : Captions;
  const button = (
    <Button
      type="button"
      variant={variant}
      size={size ?? (withLabel ? 'sm' : 'icon')}
      className={className}
      onClick={onClick}
      aria-label={withLabel ? undefined : label}
      aria-busy={generating || undefined}
      data-generating={generating || undefined}
    >
      <Icon className={generating ? 'animate-spin' : undefined} aria-hidden="true" />
      {withLabel && label}
    </Button>
  );
  // Icon only, its words show on hover and focus.
  return withLabel ? button : <WithTooltip label={label}>{button}</WithTooltip>;
}
