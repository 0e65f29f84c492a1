import { useEffect, useRef } from 'react';
import { MEDIA_EXPIRED_MESSAGE, type Clip } from '@clipshift/shared';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { isVertical, versionedUrl } from './clip-format';

/**
 * The clip's MP4, streamed with HTTP Range; a vertical clip is shown tall. Playback stops when
 * the player leaves the page (the modal closing), not only when the element is collected.
 */
interface ClipVideoProps {
  clip: Pick<Clip, 'video_url' | 'thumbnail' | 'format_type' | 'title' | 'updated_at' | 'media_expired_at'>;
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
  const frame = vertical ? 'aspect-[9/16] w-full max-w-[calc(min(70vh,40rem)*9/16)] md:w-[calc(min(70vh,40rem)*9/16)]' : 'aspect-video w-full';
  if (clip.media_expired_at) {
    // Retention deleted the video: the thumbnail stays, with why there is nothing to play.
    return (
      <figure className={cn('relative mx-auto overflow-hidden rounded-lg bg-black', frame, className)} data-testid="video-expired">
        <img src={versionedUrl(clip.thumbnail, clip.updated_at)} alt="" className="size-full object-contain opacity-60" />
        <figcaption className="absolute inset-x-0 bottom-0 bg-black/75 p-3 text-sm text-white">
          <strong className="block">Video deleted on {formatDate(clip.media_expired_at)}</strong>
          {MEDIA_EXPIRED_MESSAGE}.
        </figcaption>
      </figure>
    );
  }
  return (
    // eslint-disable-next-line jsx-a11y-x/media-has-caption -- a clip as it came from Twitch has no caption file to point a <track> at (a track built from its transcript is open: decision 0029).
    <video
      ref={ref}
      src={versionedUrl(clip.video_url, clip.updated_at)}
      poster={versionedUrl(clip.thumbnail, clip.updated_at)}
      controls
      playsInline
      preload="metadata"
      aria-label={`Video: ${clip.title}`}
      className={cn('mx-auto block rounded-lg bg-black object-contain', frame, className)}
    />
  );
}
