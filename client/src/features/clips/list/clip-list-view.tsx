import { Download, Maximize2, Trash2, type LucideIcon } from 'lucide-react';
import type { Clip } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { ClipActions } from '../shared/clip-actions';
import { ClipBadges } from '../shared/clip-badges';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { formatDuration, formatViews, formatViewsFull, isVertical, videoDuration } from '../shared/clip-format';
import { ClipThumbnail } from '../shared/clip-thumbnail';
import { SubtitleButton } from '../shared/subtitle-button';
import { WorkProgress } from '../shared/work-progress';
import { WithTooltip } from '@/components/ui/tooltip';

interface RowActionProps {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  className?: string;
}

/** An icon-only button of a row, named by its label. */
function RowAction({ label, icon: Icon, onClick, className }: RowActionProps) {
  return (
    <WithTooltip label={label}>
      <Button variant="ghost" size="icon" className={cn('size-8', className)} aria-label={label} onClick={onClick}>
        <Icon aria-hidden="true" />
      </Button>
    </WithTooltip>
  );
}

function RowActions({ clip, actions }: { clip: Clip; actions: ClipActions }) {
  return (
    <div className="flex items-center justify-end gap-1">
      <RowAction label="Open details" icon={Maximize2} onClick={() => actions.open(clip)} />
      <SubtitleButton
        variant="ghost"
        className="size-8"
        generating={actions.isGenerating(clip)}
        render={clip.render}
        onClick={() => actions.generateSubtitles(clip)}
      />
      <RowAction label="Download MP4" icon={Download} onClick={() => actions.download(clip)} />
      <RowAction
        label="Delete"
        icon={Trash2}
        className="text-destructive hover:bg-danger-soft hover:text-destructive"
        onClick={() => actions.requestDelete(clip)}
      />
    </div>
  );
}

function ClipRow({ clip, actions }: { clip: Clip; actions: ClipActions }) {
  return (
    <TableRow
      aria-label={clip.title}
      data-clip-id={clip.clip_id}
      className="max-md:grid max-md:grid-cols-[auto_minmax(0,1fr)] max-md:items-start max-md:gap-x-3"
    >
      <TableCell className="w-16 py-2">
        <button type="button" tabIndex={-1} aria-hidden="true" className="block cursor-pointer" onClick={() => actions.open(clip)}>
          <ClipThumbnail clip={clip} className={isVertical(clip) ? 'w-9 rounded' : 'w-16 rounded'} />
        </button>
      </TableCell>
      <TableCell className="max-w-0 min-w-48 whitespace-normal max-md:block max-md:max-w-none max-md:min-w-0">
        <button
          type="button"
          onClick={() => actions.open(clip)}
          title={clip.title}
          className="line-clamp-2 cursor-pointer text-left font-medium hover:text-brand-text focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          {clip.title}
        </button>
        <div className="mt-0.5 text-xs text-muted-foreground md:hidden">
          {clip.broadcaster_name} · {formatDate(clip.created_at)} · {formatViews(clip.view_count)}
        </div>
        <ClipBadges clip={clip} className="mt-1.5 lg:hidden" />
        <WorkProgress clip={clip} className="mt-2 max-w-72" />
      </TableCell>
      <TableCell className="hidden max-md:hidden text-muted-foreground md:table-cell">{clip.broadcaster_name}</TableCell>
      <TableCell className="hidden max-md:hidden text-muted-foreground md:table-cell">{formatDate(clip.created_at)}</TableCell>
      <TableCell className="hidden max-md:hidden text-muted-foreground tabular-nums md:table-cell" title={formatViewsFull(clip.view_count)}>
        {formatViews(clip.view_count)}
      </TableCell>
      <TableCell className="hidden max-md:hidden text-muted-foreground tabular-nums sm:table-cell">{formatDuration(videoDuration(clip))}</TableCell>
      <TableCell className="hidden max-md:hidden lg:table-cell">
        <ClipBadges clip={clip} />
      </TableCell>
      <TableCell className="w-px max-md:col-span-2 max-md:w-auto max-md:justify-start">
        <RowActions clip={clip} actions={actions} />
      </TableCell>
    </TableRow>
  );
}

/** The spec's Reading B: one row per clip with its actions. */
export function ClipListView({ clips, actions }: { clips: readonly Clip[]; actions: ClipActions }) {
  return (
    <Card className="py-0">
      <Table stacked aria-label="Clips">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>
              <span className="sr-only">Thumbnail</span>
            </TableHead>
            <TableHead>Title</TableHead>
            <TableHead className="hidden md:table-cell">Streamer</TableHead>
            <TableHead className="hidden md:table-cell">Created</TableHead>
            <TableHead className="hidden md:table-cell">Views</TableHead>
            <TableHead className="hidden sm:table-cell">Length</TableHead>
            <TableHead className="hidden lg:table-cell">Badges</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {clips.map((clip) => (
            <ClipRow key={clip.clip_id} clip={clip} actions={actions} />
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
