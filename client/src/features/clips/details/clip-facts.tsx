import type { ReactNode } from 'react';
import type { Clip } from '@clipshift/shared';
import { formatDateTime } from '@/lib/format';
import { formatDuration, formatViewsFull } from '../shared/clip-format';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate text-sm font-medium">{children}</dd>
    </div>
  );
}

/** Streamer, game, dates, views and length of a clip. */
export function ClipFacts({ clip }: { clip: Clip }) {
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border bg-muted/40 p-3 sm:grid-cols-3">
      <Fact label="Streamer">{clip.broadcaster_name}</Fact>
      <Fact label="Game">{clip.game_name || '—'}</Fact>
      <Fact label="Views">{formatViewsFull(clip.view_count)}</Fact>
      <Fact label="Created">{formatDateTime(clip.created_at)}</Fact>
      <Fact label="Updated">{formatDateTime(clip.updated_at)}</Fact>
      <Fact label="Duration">{formatDuration(clip.duration)}</Fact>
    </dl>
  );
}
