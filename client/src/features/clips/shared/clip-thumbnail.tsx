import { useState } from 'react';
import { Film } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { cn } from '@/lib/utils';
import { isVertical } from './clip-format';

interface ClipThumbnailProps {
  clip: Pick<Clip, 'thumbnail' | 'format_type'>;
  /**
   * On a phone-wide single column a full-width 9:16 picture is taller than the screen: there the
   * box keeps its shape at a fixed height, centred on a blurred copy of the picture.
   */
  fitNarrow?: boolean;
  className?: string;
}

/** The clip's picture in a 9:16 or 16:9 box by its format; a film icon if the image fails. */
export function ClipThumbnail({ clip, fitNarrow = false, className }: ClipThumbnailProps) {
  const [failed, setFailed] = useState(false);
  const box = (
    <div
      data-format={clip.format_type}
      className={cn(
        'relative overflow-hidden bg-muted',
        isVertical(clip) ? 'aspect-[9/16]' : 'aspect-video',
        fitNarrow && isVertical(clip) && 'mx-auto h-96 sm:h-auto sm:w-full',
        className,
      )}
    >
      {failed ? (
        <div className="flex size-full items-center justify-center text-muted-foreground">
          <Film className="size-6" aria-hidden="true" />
        </div>
      ) : (
        <img
          src={clip.thumbnail}
          alt=""
          loading="lazy"
          decoding="async"
          className="size-full object-cover"
          onError={() => setFailed(true)}
        />
      )}
    </div>
  );
  if (!fitNarrow || !isVertical(clip)) return box;
  return (
    <div className="relative overflow-hidden bg-muted">
      {!failed && (
        <img src={clip.thumbnail} alt="" loading="lazy" decoding="async" className="absolute inset-0 size-full scale-110 object-cover opacity-70 blur-xl sm:hidden" />
      )}
      {box}
    </div>
  );
}
