import { useId } from 'react';
import { Download, LoaderCircle } from 'lucide-react';
import { formatSchedule, isBusyStatus, type Streamer } from '@clipshift/shared';
import { DownloadStatusBadge } from '@/components/download-status-badge';
import { Button } from '@/components/ui/button';
import { streamerTitle } from '@/api/streamers';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="truncate font-medium">{value}</dd>
    </div>
  );
}

interface QuickDownloadTileProps {
  streamer: Streamer;
  status: string | undefined;
  starting: boolean;
  onDownload: () => void;
}

/** A streamer with its download settings and one button, disabled while it is busy. */
export function QuickDownloadTile({ streamer, status, starting, onDownload }: QuickDownloadTileProps) {
  const headingId = useId();
  const busy = isBusyStatus(status);
  return (
    <li aria-labelledby={headingId} data-testid="quick-download" className="flex flex-col gap-3 rounded-lg border bg-background p-4">
      <div className="flex min-h-6 items-center justify-between gap-2">
        <h3 id={headingId} className="truncate font-semibold">
          {streamerTitle(streamer)}
        </h3>
        {busy && status && <DownloadStatusBadge status={status} />}
      </div>
      <dl className="space-y-1 text-sm">
        <Fact label="Limit" value={`${streamer.clip_limit} ${streamer.clip_limit === 1 ? 'clip' : 'clips'}`} />
        <Fact label="Format" value={streamer.vertical ? 'Vertical' : 'Horizontal'} />
        <Fact label="Schedule" value={formatSchedule(streamer.schedule)} />
      </dl>
      <Button variant="brand" size="sm" className="mt-auto w-full" disabled={busy || starting} onClick={onDownload}>
        {starting || busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
        Download
        <span className="sr-only"> clips for {streamer.name}</span>
      </Button>
    </li>
  );
}
