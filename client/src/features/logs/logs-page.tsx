import { useMemo, useState } from 'react';
import { ScrollText, SearchX } from 'lucide-react';
import { countByLevel, type LogLevel } from '@clipshift/shared';
import { loadFailureDescription } from '@/api/errors';
import { LOAD_LOGS_FAILED, useLogEntries } from '@/api/logs';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatTime } from '@/lib/format';
import { LevelChips } from './level-chips';
import { LogList } from './log-list';
import { ALL_LEVELS, filterLogs, isFiltering, type LevelFilter } from './log-filters';
import { LogsToolbar } from './logs-toolbar';

function LogListSkeleton() {
  return (
    <div className="space-y-2" aria-hidden="true">
      {Array.from({ length: 6 }, (_, index) => (
        <Skeleton key={index} className="h-12 w-full" />
      ))}
    </div>
  );
}

function SummaryLine({ shown, total, filtered, updatedAt }: { shown: number; total: number; filtered: boolean; updatedAt: number }) {
  return (
    <div className="flex flex-col gap-1 text-xs text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
      <span>{filtered ? `Showing ${shown} of ${total} logs (filtered)` : `Showing ${total} logs`}</span>
      {updatedAt > 0 && <span>Last updated: {formatTime(updatedAt)}</span>}
    </div>
  );
}

export function LogsPage() {
  const [autoRefresh, setAutoRefresh] = useState(true);
  const [search, setSearch] = useState('');
  const [level, setLevel] = useState<LevelFilter>(ALL_LEVELS);
  const logs = useLogEntries(autoRefresh);

  const entries = useMemo(() => logs.data ?? [], [logs.data]);
  const counts = useMemo(() => countByLevel(entries), [entries]);
  const filters = { level, search };
  const filtered = isFiltering(filters);
  const visible = useMemo(() => filterLogs(entries, { level, search }), [entries, level, search]);

  const toggleLevel = (chip: LogLevel) => setLevel((current) => (current === chip ? ALL_LEVELS : chip));

  return (
    <>
      <PageHeader title="System Logs" description="What Clipshift has been doing for you, newest first." />
      <Card>
        <CardContent className="space-y-4">
          <LogsToolbar
            search={search}
            onSearchChange={setSearch}
            level={level}
            onLevelChange={setLevel}
            autoRefresh={autoRefresh}
            onAutoRefreshChange={setAutoRefresh}
            refreshing={logs.isFetching}
            onRefresh={() => void logs.refetch()}
          />
          <LevelChips counts={counts} active={level} onToggle={toggleLevel} />
          <SummaryLine shown={visible.length} total={entries.length} filtered={filtered} updatedAt={logs.dataUpdatedAt} />
          {logs.isPending ? (
            <LogListSkeleton />
          ) : logs.isError && entries.length === 0 ? (
            <LoadFailed
              icon={ScrollText}
              title={LOAD_LOGS_FAILED}
              description={loadFailureDescription(logs.error)}
              onRetry={() => void logs.refetch()}
            />
          ) : visible.length === 0 ? (
            <EmptyState
              icon={filtered ? SearchX : ScrollText}
              title="No Logs Found"
              description={filtered ? 'Try adjusting your filters to see more logs.' : "Your application hasn't generated any logs yet."}
            />
          ) : (
            <LogList entries={visible} />
          )}
        </CardContent>
      </Card>
    </>
  );
}
