import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { ActiveDownloadsCard } from './active-downloads-card';
import { FirstRunChecklist } from './first-run-checklist';
import { QuickDownloadCard } from './quick-download-card';
import { useDashboardData } from './use-dashboard-data';
import { useFirstRun } from './use-first-run';
import { useRunFinishedToast } from './use-run-finished-toast';

export function DashboardPage() {
  const { status, streamers } = useDashboardData();
  useRunFinishedToast(status.data);
  const firstRun = useFirstRun(streamers.data);
  // Only a refresh the user asked for spins the button; the 5 s polls stay quiet.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void status.refetch().finally(() => setRefreshing(false));
  };
  return (
    <>
      <PageHeader title="Dashboard" description="Your downloads at a glance." />
      <div className="space-y-6">
        {firstRun && <FirstRunChecklist {...firstRun} />}
        <ActiveDownloadsCard
          status={status.data}
          failure={status.error}
          streamers={streamers.data ?? []}
          refreshing={refreshing}
          onRefresh={refresh}
        />
        <QuickDownloadCard
          streamers={streamers.data}
          failed={streamers.isError}
          onRetry={() => void streamers.refetch()}
          status={status.data}
        />
      </div>
    </>
  );
}
