import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { ActiveDownloadsCard } from './active-downloads-card';
import { FirstRunChecklist } from './first-run-checklist';
import { LatestMomentsCard } from './latest-moments-card';
import { QuickDownloadCard } from './quick-download-card';
import { useDashboardData } from './use-dashboard-data';
import { useFirstRun } from './use-first-run';
import { useRunFinishedToast } from './use-run-finished-toast';

/** The page's place held while it learns whether the first-run checklist shows. */
function DashboardSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading the dashboard" role="status">
      <Skeleton className="h-64 w-full rounded-xl" />
      <Skeleton className="h-48 w-full rounded-xl" />
    </div>
  );
}

export function DashboardPage() {
  const { status, streamers } = useDashboardData();
  useRunFinishedToast(status.data);
  const firstRun = useFirstRun(streamers.data, streamers.isError);
  // Only a refresh the user asked for spins the button; the 5 s polls stay quiet.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void status.refetch().finally(() => setRefreshing(false));
  };
  return (
    <>
      <PageHeader title="Dashboard" description="Your downloads at a glance." />
      {firstRun.pending ? (
        <DashboardSkeleton />
      ) : (
        <div className="space-y-6">
          {firstRun.checklist && <FirstRunChecklist {...firstRun.checklist} />}
          <ActiveDownloadsCard status={status.data} failure={status.error} streamers={streamers.data ?? []} refreshing={refreshing} onRefresh={refresh} />
          <QuickDownloadCard streamers={streamers.data} failed={streamers.isError} onRetry={() => void streamers.refetch()} status={status.data} />
          <LatestMomentsCard streamers={streamers.data} />
        </div>
      )}
    </>
  );
}
