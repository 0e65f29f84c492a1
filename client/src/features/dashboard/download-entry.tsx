import { useId } from 'react';
import { CircleAlert, Play, Square } from 'lucide-react';
import { isBusyStatus, type StatusEntry, type StreamerSelection } from '@clipshift/shared';
import { DownloadStatusBadge } from '@/components/download-status-badge';
import { Button } from '@/components/ui/button';
import { formatDateTime, timeAgo } from '@/lib/format';
import { endedAt } from './run-groups';
import { RunProgress } from './run-progress';
import { clipsSummary, skippedSummary } from './run-text';

function RunTimes({ entry }: { entry: StatusEntry }) {
  return (
    <dl className="grid gap-x-6 gap-y-1 text-xs sm:grid-cols-2">
      <div className="flex gap-1.5">
        <dt className="text-muted-foreground">Started:</dt>
        <dd>
          <time dateTime={entry.started_at}>{formatDateTime(entry.started_at)}</time>
        </dd>
      </div>
      <div className="flex gap-1.5">
        <dt className="text-muted-foreground">Completed:</dt>
        <dd>{entry.completed_at ? <time dateTime={entry.completed_at}>{formatDateTime(entry.completed_at)}</time> : '—'}</dd>
      </div>
    </dl>
  );
}

function RunError({ message }: { message: string }) {
  return (
    <p className="flex items-start gap-2 rounded-md bg-danger-soft px-3 py-2 text-xs text-danger-soft-foreground" data-testid="download-error">
      <CircleAlert className="mt-px size-3.5 shrink-0 text-danger-icon" aria-hidden="true" />
      <span className="min-w-0 break-words">{message}</span>
    </p>
  );
}

/** How long ago a run ended, e.g. "Ended 3 min ago". */
function RunAge({ entry, now }: { entry: StatusEntry; now: number }) {
  const ended = endedAt(entry);
  return (
    <span className="text-sm text-muted-foreground" data-testid="run-age">
      Ended <time dateTime={ended}>{timeAgo(ended, now)}</time>
    </span>
  );
}

interface DownloadEntryProps {
  name: string;
  /** How the streamer is titled (its display name when known). */
  title: string;
  entry: StatusEntry;
  /** The streamer's selection rules, which word why clips were skipped. */
  rules?: Pick<StreamerSelection, 'clip_period' | 'min_views'> | undefined;
  /** Given for a run that has ended: the clock its age is told by. */
  now?: number;
  starting: boolean;
  stopping: boolean;
  onStart: () => void;
  onStop: () => void;
}

/** One streamer's latest run: status, counts, times, error, live progress, and Start or Stop. */
export function DownloadEntry({ name, title, entry, rules, now, starting, stopping, onStart, onStop }: DownloadEntryProps) {
  const headingId = useId();
  const busy = isBusyStatus(entry.status);
  const skipped = skippedSummary(entry, rules);
  return (
    <li aria-labelledby={headingId} data-testid="download-entry" className="space-y-3 rounded-lg border bg-background p-4">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 space-y-1.5">
          <h3 id={headingId} className="truncate font-semibold">
            {title}
          </h3>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <DownloadStatusBadge status={entry.status} />
            <span className="text-sm text-muted-foreground" data-testid="clips-summary">
              {clipsSummary(entry)}
            </span>
            {now !== undefined && !busy && <RunAge entry={entry} now={now} />}
          </div>
          {skipped && (
            <p className="text-xs text-muted-foreground" data-testid="skipped-summary">
              {skipped}
            </p>
          )}
        </div>
        {busy ? (
          <Button
            variant="outline"
            size="sm"
            onClick={onStop}
            disabled={entry.status === 'stopping' || stopping}
            aria-label={`Stop download for ${name}`}
          >
            <Square className="fill-current" aria-hidden="true" /> Stop
          </Button>
        ) : (
          <Button variant="outline" size="sm" onClick={onStart} disabled={starting} aria-label={`Start download for ${name}`}>
            <Play aria-hidden="true" /> Start
          </Button>
        )}
      </div>
      {busy && <RunProgress name={name} entry={entry} />}
      <RunTimes entry={entry} />
      {entry.error && <RunError message={entry.error} />}
    </li>
  );
}
