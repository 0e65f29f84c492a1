import { Captions, RectangleVertical } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { isVertical } from './clip-format';

interface ClipBadgesProps {
  clip: Pick<Clip, 'format_type' | 'subtitled'>;
  /** Solid badges for sitting on top of a thumbnail. */
  overlay?: boolean;
  className?: string;
}

/** Vertical and Subtitled, when they apply (spec section 2, Reading A). */
export function ClipBadges({ clip, overlay = false, className }: ClipBadgesProps) {
  const vertical = isVertical(clip);
  if (!vertical && !clip.subtitled) return null;
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
    </div>
  );
}
