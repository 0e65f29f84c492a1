import { Captions, RectangleVertical, Send } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { isVertical } from './clip-format';
import { deliveredAccounts, isPosted } from './tiktok-posting';

interface ClipBadgesProps {
  clip: Pick<Clip, 'format_type' | 'subtitled' | 'posted_to'>;
  /** Solid badges for sitting on top of a thumbnail. */
  overlay?: boolean;
  className?: string;
}

/** Vertical, Subtitled and Posted, when they apply (spec section 2, Reading A). */
export function ClipBadges({ clip, overlay = false, className }: ClipBadgesProps) {
  const vertical = isVertical(clip);
  const posted = isPosted(clip);
  if (!vertical && !clip.subtitled && !posted) return null;
  const solid = overlay && 'border-transparent bg-black/65 text-white backdrop-blur-sm';
  return (
    <div className={cn('flex flex-wrap gap-1.5', className)}>
      {vertical && (
        <Badge variant="brand" className={cn(solid)}>
          <RectangleVertical aria-hidden="true" />
          Vertical
        </Badge>
      )}
      {clip.subtitled && (
        <Badge variant="success" className={cn(solid)}>
          <Captions aria-hidden="true" />
          Subtitled
        </Badge>
      )}
      {posted && (
        <Badge variant="info" className={cn(solid)} title={`Posted to ${deliveredAccounts(clip)}`} data-testid="posted-badge">
          <Send aria-hidden="true" />
          Posted
        </Badge>
      )}
    </div>
  );
}
