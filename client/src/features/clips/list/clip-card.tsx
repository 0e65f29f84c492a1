import type { ReactNode } from 'react';
import { Calendar, Eye, Send, User } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import type { ClipActions } from '../shared/clip-actions';
import { ClipBadges } from '../shared/clip-badges';
import { formatDate } from '@/lib/format';
import { formatDuration, formatViews, formatViewsFull, videoDuration } from '../shared/clip-format';
import { ClipOptionsMenu } from './clip-options-menu';
import { ClipThumbnail } from '../shared/clip-thumbnail';
import { SubtitleButton } from '../shared/subtitle-button';
import { WorkProgress } from '../shared/work-progress';

function MetaItem({ icon, children, title }: { icon: ReactNode; children: ReactNode; title?: string }) {
  return (
    <span className="flex min-w-0 items-center gap-1.5 [&>svg]:size-3.5 [&>svg]:shrink-0" title={title}>
      {icon}
      <span className="truncate">{children}</span>
    </span>
  );
}

/** One clip of the card grid (spec section 2, Reading A). */
function ClipCard({ clip, actions }: { clip: Clip; actions: ClipActions }) {
  const open = () => actions.open(clip);
  return (
    <Card className="h-full gap-0 overflow-hidden py-0 transition-shadow hover:shadow-md">
      {/* The title below is the focusable way in; the picture is a larger target for the mouse. */}
      <div className="relative cursor-pointer" onClick={open} aria-hidden="true" data-testid="clip-thumbnail">
        <ClipThumbnail clip={clip} framed />
        <ClipBadges clip={clip} overlay className="absolute top-2 left-2" />
        <span className="absolute right-2 bottom-2 rounded bg-black/70 px-1.5 py-0.5 text-xs font-medium text-white tabular-nums">
          {formatDuration(videoDuration(clip))}
        </span>
      </div>
      <div className="flex flex-1 flex-col gap-2.5 p-3.5">
        <h2 className="text-sm leading-snug font-semibold">
          <button
            type="button"
            onClick={open}
            className="line-clamp-2 cursor-pointer text-left hover:text-brand-text focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring/50 focus-visible:outline-none"
            title={clip.title}
          >
            {clip.title}
          </button>
        </h2>
        <div className="grid gap-1.5 text-xs text-muted-foreground">
          <MetaItem icon={<User aria-hidden="true" />}>{clip.broadcaster_name}</MetaItem>
          <div className="flex items-center justify-between gap-3">
            <MetaItem icon={<Calendar aria-hidden="true" />}>{formatDate(clip.created_at)}</MetaItem>
            <MetaItem icon={<Eye aria-hidden="true" />} title={formatViewsFull(clip.view_count)}>
              {formatViews(clip.view_count)}
            </MetaItem>
          </div>
        </div>
        <WorkProgress clip={clip} />
        <div className="mt-auto flex items-center gap-2 pt-1">
          <Button variant="brand" size="sm" className="flex-1" onClick={() => actions.requestPost(clip)}>
            <Send aria-hidden="true" />
            Post
          </Button>
          <SubtitleButton generating={actions.isGenerating(clip)} render={clip.render} onClick={() => actions.generateSubtitles(clip)} className="size-8" />
          <ClipOptionsMenu clip={clip} actions={actions} />
        </div>
      </div>
    </Card>
  );
}

/** 1 to 4 columns by width (spec section 9). */
export function ClipGrid({ clips, actions }: { clips: readonly Clip[]; actions: ClipActions }) {
  return (
    <ul aria-label="Clips" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
      {clips.map((clip) => (
        <li key={clip.clip_id} aria-label={clip.title} data-clip-id={clip.clip_id}>
          <ClipCard clip={clip} actions={actions} />
        </li>
      ))}
    </ul>
  );
}
