import { Calendar, Clock, Eye, Info, User } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Alert } from '@/components/ui/alert';
import { cn } from '@/lib/utils';
import { ClipBadges } from '../shared/clip-badges';
import { formatDate } from '@/lib/format';
import { formatDuration, formatViewsFull, isVertical, videoDuration } from '../shared/clip-format';
import { ClipVideo } from '../shared/clip-video';
import { SubtitleButton } from '../shared/subtitle-button';

interface ClipPreviewStepProps {
  clip: Clip;
  generating: boolean;
  onGenerateSubtitles: () => void;
}

/** Only subtitled clips go on: the note says so and offers the subtitle action in place. */
function SubtitlesFirst({ generating, onGenerateSubtitles }: Omit<ClipPreviewStepProps, 'clip'>) {
  return (
    <Alert variant="info" data-testid="subtitles-required">
      <Info aria-hidden="true" />
      <div className="space-y-2">
        <p>
          <span className="font-medium">Generate subtitles first.</span> Only subtitled clips can be posted: most people watch shorts with the
          sound off.
        </p>
        <SubtitleButton withLabel generating={generating} onClick={onGenerateSubtitles} className="bg-background" />
      </div>
    </Alert>
  );
}

/** Step 1: the video, its title and badges. */
export function ClipPreviewStep({ clip, generating, onGenerateSubtitles }: ClipPreviewStepProps) {
  const vertical = isVertical(clip);
  return (
    <div className={cn('grid gap-5', vertical && 'sm:grid-cols-[auto_minmax(0,1fr)]')}>
      <ClipVideo clip={clip} className={vertical ? 'h-[min(40vh,20rem)] w-auto max-w-full sm:h-[min(50vh,24rem)] md:w-auto' : 'max-h-[40vh]'} />
      <div className="min-w-0 space-y-3">
        <h3 className="text-base leading-snug font-semibold break-words">{clip.title}</h3>
        <ClipBadges clip={clip} />
        <ul className="grid gap-1.5 text-sm text-muted-foreground [&_svg]:size-4 [&_svg]:shrink-0 [&>li]:flex [&>li]:items-center [&>li]:gap-2">
          <li>
            <User aria-hidden="true" />
            {clip.broadcaster_name}
            {clip.game_name ? ` · ${clip.game_name}` : ''}
          </li>
          <li>
            <Calendar aria-hidden="true" />
            {formatDate(clip.created_at)}
          </li>
          <li>
            <Eye aria-hidden="true" />
            {formatViewsFull(clip.view_count)}
          </li>
          <li>
            <Clock aria-hidden="true" />
            {formatDuration(videoDuration(clip))}
          </li>
        </ul>
        {!clip.subtitled && <SubtitlesFirst generating={generating} onGenerateSubtitles={onGenerateSubtitles} />}
      </div>
    </div>
  );
}
