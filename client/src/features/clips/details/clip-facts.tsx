import type { ReactNode } from 'react';
import type { Clip } from '@clipshift/shared';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { formatDuration, formatLoudness, formatViewsFull, isTrimmed, videoDuration } from '../shared/clip-format';

function Fact({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={cn('min-w-0', wide && 'col-span-full')}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate text-sm font-medium">{children}</dd>
    </div>
  );
}

/** Streamer, game, dates, views and length of a clip, and its video's measured loudness when known. */
export function ClipFacts({ clip }: { clip: Clip }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border bg-muted/40 p-3 sm:grid-cols-3">
      <Fact label="Streamer">{clip.broadcaster_name}</Fact>
      <Fact label="Game">{clip.game_name || '—'}</Fact>
      <Fact label="Views">{formatViewsFull(clip.view_count)}</Fact>
      <Fact label="Created">{formatDateTime(clip.created_at)}</Fact>
      <Fact label="Updated">{formatDateTime(clip.updated_at)}</Fact>
      <Fact label="Duration">
        {formatDuration(videoDuration(clip))}
        {/* A trim shows what it kept of how much (the trim, not the video's measured length, says whether there is one). */}
        {isTrimmed(clip) && <span className="font-normal text-muted-foreground"> of {formatDuration(clip.duration)}</span>}
      </Fact>
      {/* A row of its own: the figures do not fit a third of the dialog. Null for clips rendered before it was measured. */}
      {clip.loudness && (
        <Fact label="Loudness" wide>
          {formatLoudness(clip.loudness)}
        </Fact>
      )}
    </dl>
  );
}
