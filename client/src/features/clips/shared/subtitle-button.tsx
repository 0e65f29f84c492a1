import { Captions, LoaderCircle } from 'lucide-react';
import type { ClipRender } from '@clipshift/shared';
import { Button, type ButtonProps } from '@/components/ui/button';
import { WithTooltip } from '@/components/ui/tooltip';

interface SubtitleButtonProps {
  generating: boolean;
  /** The server's word on the clip's job: its percent joins the label while it runs. */
  render?: ClipRender;
  onClick: () => void;
  /** Icon only (cards, rows) or with its words (details modal). */
  withLabel?: boolean;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
}

/** "Generating subtitles… 37%" once the server reports how far the job is. */
function generatingLabel(render: ClipRender | undefined): string {
  return render?.status === 'rendering' && render.percent !== null ? `Generating subtitles… ${render.percent}%` : 'Generating subtitles…';
}

/**
 * Generate subtitles. While the clip is being subtitled a spinner takes the icon's place; the
 * button stays clickable so a second request is answered with the spec's info message (and only
 * that: the state comes from the server, so it holds after leaving the screen too).
 */
export function SubtitleButton({ generating, render, onClick, withLabel = false, variant = 'outline', size, className }: SubtitleButtonProps) {
  const label = generating ? generatingLabel(render) : 'Generate subtitles';
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
