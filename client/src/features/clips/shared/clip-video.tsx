import { useEffect, useRef } from 'react';
import type { Clip } from '@clipshift/shared';
import { cn } from '@/lib/utils';
import { isVertical, versionedUrl } from './clip-format';

/**
 * The clip's MP4, streamed with HTTP Range; a vertical clip is shown tall. Playback stops when
 * the player leaves the page (the modal closing), not only when the element is collected.
 */
interface ClipVideoProps {
  clip: Pick<Clip, 'video_url' | 'thumbnail' | 'format_type' | 'title' | 'updated_at'>;
  /** Overrides the size (the post wizard shows a smaller player). */
  className?: string;
}

export function ClipVideo({ clip, className }: ClipVideoProps) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    return () => video?.pause();
  }, []);
  const vertical = isVertical(clip);
  return (
    <video
      ref={ref}
      src={versionedUrl(clip.video_url, clip.updated_at)}
      poster={clip.thumbnail}
      controls
      playsInline
      preload="metadata"
      aria-label={`Video: ${clip.title}`}
      className={cn(
        'mx-auto block rounded-lg bg-black object-contain',
        vertical ? 'aspect-[9/16] w-full max-w-[calc(min(70vh,40rem)*9/16)] md:w-[calc(min(70vh,40rem)*9/16)]' : 'aspect-video w-full',
        className,
      )}
    />
  );
}
