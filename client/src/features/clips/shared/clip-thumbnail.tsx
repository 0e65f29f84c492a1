import { useState } from 'react';
import { Film } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { cn } from '@/lib/utils';
import { isVertical, versionedUrl } from './clip-format';

interface ClipThumbnailProps {
  clip: Pick<Clip, 'thumbnail' | 'format_type' | 'updated_at'>;
  /**
   * Inside a 16:9 frame (the card grid): every card's picture takes the same height whatever the
   * format, so a grid of mixed 9:16 and 16:9 clips stays even and short. A 9:16 box keeps its
   * shape at the frame's height, centred on a blurred copy of the picture.
   */
  framed?: boolean;
  className?: string;
}

/** The clip's picture in a 9:16 or 16:9 box by its format; a film icon if the image fails. */
export function ClipThumbnail({ clip, framed = false, className }: ClipThumbnailProps) {
  const [failed, setFailed] = useState(false);
  // A render replaces the picture under the same URL; the browser would keep showing the old one.
  const src = versionedUrl(clip.thumbnail, clip.updated_at);
  const box = (
    <div
      data-format={clip.format_type}
      className={cn(
        'relative overflow-hidden bg-muted',
        isVertical(clip) ? 'aspect-[9/16]' : 'aspect-video',
        framed && (isVertical(clip) ? 'mx-auto h-full' : 'w-full'),
        className,
      )}
    >
      {failed ? (
        <div className="flex size-full items-center justify-center text-muted-foreground">
          <Film className="size-6" aria-hidden="true" />
        </div>
      ) : (
        <img
          src={src}
          alt=""
          loading="lazy"
          decoding="async"
          className="size-full object-cover"
          onError={() => setFailed(true)}
        />
      )}
    </div>
  );
  if (!framed) return box;
  return (
    <div className="relative aspect-video overflow-hidden bg-muted">
      {!failed && isVertical(clip) && (
        <img src={src} alt="" loading="lazy" decoding="async" className="absolute inset-0 size-full scale-110 object-cover opacity-70 blur-xl" />
      )}
      {box}
    </div>
  );
}
