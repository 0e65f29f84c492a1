import { Link } from 'react-router-dom';
import { CloudOff, Download, Plus, Users } from 'lucide-react';
import type { StatusMap, Streamer } from '@clipshift/shared';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useStartDownload } from '@/api/downloads';
import { paths } from '@/lib/paths';
import { streamerMessages } from '@/api/streamers';
import { QuickDownloadTile } from './quick-download-tile';
import { QUICK_DOWNLOAD_ID } from './first-run-checklist';

const GRID = 'grid gap-3 sm:grid-cols-2 lg:grid-cols-3';

function TilesSkeleton() {
  return (
    <div className={GRID} aria-hidden="true">
      {Array.from({ length: 3 }, (_, index) => (
        <Skeleton key={index} className="h-40 w-full rounded-lg" />
      ))}
    </div>
  );
}

function NoStreamers() {
  return (
    <EmptyState
      icon={Users}
      title="No streamers yet"
      description="Add the Twitch streamers whose clips you want to turn into shorts."
      action={
        <Button asChild variant="brand">
          <Link to={paths.app.streamers}>
            <Plus /> Add Streamers
          </Link>
        </Button>
      }
    />
  );
}

interface QuickDownloadCardProps {
  streamers: readonly Streamer[] | undefined;
  /** The list could not be loaded (the toast has said so). */
  failed: boolean;
  onRetry: () => void;
  status: StatusMap | undefined;
}

/** Every streamer as a tile: its most-viewed clips in one click, with its own limit and format. */
export function QuickDownloadCard({ streamers, failed, onRetry, status }: QuickDownloadCardProps) {
  const { start, isStarting } = useStartDownload();
  return (
    <Card role="region" aria-labelledby="dashboard-quick-title" id={QUICK_DOWNLOAD_ID} className="scroll-mt-20">
      <CardHeader>
        <CardTitle id="dashboard-quick-title" className="flex items-center gap-2">
          <Download className="size-4 text-brand-text" aria-hidden="true" /> Quick Download
        </CardTitle>
        <CardDescription>Download any streamer's most-viewed clips with one click.</CardDescription>
      </CardHeader>
      <CardContent>
        {streamers === undefined && failed ? (
          <LoadFailed icon={CloudOff} title={streamerMessages.loadFailed} onRetry={onRetry} />
        ) : streamers === undefined ? (
          <TilesSkeleton />
        ) : streamers.length === 0 ? (
          <NoStreamers />
        ) : (
          <ul className={GRID} aria-label="Streamers">
            {streamers.map((streamer) => (
              <QuickDownloadTile
                key={streamer.name}
                streamer={streamer}
                status={status?.[streamer.name]?.status}
                starting={isStarting(streamer.name)}
                onDownload={() => start({ name: streamer.name, limit: streamer.clip_limit, vertical: streamer.vertical })}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
