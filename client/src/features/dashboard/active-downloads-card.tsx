import { loadFailureDescription } from '@/api/errors';
import { Activity, CloudOff, Download, RefreshCw } from 'lucide-react';
import type { StatusMap, Streamer } from '@clipshift/shared';
import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useStartDownload, useStopDownload } from '@/api/downloads';
import { streamerTitle } from '@/api/streamers';
import { cn } from '@/lib/utils';
import { DownloadEntry } from './download-entry';
import { RecentRuns } from './recent-runs';
import { groupRuns, type NamedRun } from './run-groups';

function streamerTitleOf(streamer: Streamer | undefined, name: string): string {
  return streamer ? streamerTitle(streamer) : name;
}

function EntriesSkeleton() {
  return (
    <div className="grid gap-3 md:grid-cols-2" aria-hidden="true">
      {Array.from({ length: 2 }, (_, index) => (
        <Skeleton key={index} className="h-32 w-full rounded-lg" />
      ))}
    </div>
  );
}

interface ActiveDownloadsCardProps {
  status: StatusMap | undefined;
  /** Why the first load failed (null while it has not): nothing to show until a refresh succeeds. */
  failure: unknown;
  streamers: readonly Streamer[];
  refreshing: boolean;
  onRefresh: () => void;
}

/**
 * One entry per streamer that has run, with Start or Stop, and a manual Refresh Status. Runs at
 * work come first; those that have ended wait under Recent runs, closed until asked for.
 */
export function ActiveDownloadsCard({ status, failure, streamers, refreshing, onRefresh }: ActiveDownloadsCardProps) {
  const { start, isStarting } = useStartDownload();
  const { stop, isStopping } = useStopDownload();
  const { running, recent } = groupRuns(status ?? {});

  const find = (name: string) => streamers.find((candidate) => candidate.name === name);
  const startAgain = (name: string) => {
    const streamer = find(name);
    start(streamer ? { name, limit: streamer.clip_limit, vertical: streamer.vertical } : { name });
  };

  const renderRun = ([name, entry]: NamedRun, now?: number) => (
    <DownloadEntry
      key={name}
      name={name}
      title={streamerTitleOf(find(name), name)}
      entry={entry}
      rules={find(name)}
      now={now}
      starting={isStarting(name)}
      stopping={isStopping(name)}
      onStart={() => startAgain(name)}
      onStop={() => stop(name)}
    />
  );

  return (
    <Card role="region" aria-labelledby="dashboard-downloads-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="dashboard-downloads-title" className="flex items-center gap-2">
            <Activity className="size-4 text-brand-text" aria-hidden="true" /> Active Downloads
          </CardTitle>
          <CardDescription>Progress of each streamer’s latest download run.</CardDescription>
        </div>
        <CardAction>
          <Button variant="outline" size="sm" onClick={onRefresh} disabled={refreshing}>
            <RefreshCw className={cn(refreshing && 'animate-spin')} aria-hidden="true" /> Refresh Status
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {status === undefined && failure ? (
          <EmptyState
            icon={CloudOff}
            title="Download status is unavailable"
            description={loadFailureDescription(failure, 'The server could not be reached. Refresh Status tries again.')}
          />
        ) : status === undefined ? (
          <EntriesSkeleton />
        ) : running.length + recent.length === 0 ? (
          <EmptyState
            icon={Download}
            title="No active downloads"
            description="When you start downloading clips for a streamer, its progress shows up here."
          />
        ) : (
          <div className="space-y-4">
            {running.length > 0 ? (
              <ul className="grid gap-3 md:grid-cols-2" aria-label="Running downloads">
                {running.map((run) => renderRun(run))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">Nothing is downloading right now.</p>
            )}
            {recent.length > 0 && <RecentRuns runs={recent} renderRun={renderRun} />}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
