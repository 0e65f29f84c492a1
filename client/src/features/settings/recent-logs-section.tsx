import { Link } from 'react-router-dom';
import { ArrowRight, ScrollText } from 'lucide-react';
import { RECENT_LOGS_COUNT } from '@clipshift/shared';
import { loadFailureDescription } from '@/api/errors';
import { LOAD_LOGS_FAILED, useRecentLogs } from '@/api/logs';
import { LoadFailed } from '@/components/load-failed';
import { EmptyState } from '@/components/empty-state';
import { LogLevelBadge } from '@/components/log-level-badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatLogTimestamp } from '@/lib/format';
import { paths } from '@/lib/paths';

function RecentLogsBody() {
  const logs = useRecentLogs();
  if (logs.isPending) return <Skeleton className="h-32 w-full" />;
  if (logs.isError) {
    return <LoadFailed icon={ScrollText} title={LOAD_LOGS_FAILED} description={loadFailureDescription(logs.error)} onRetry={() => void logs.refetch()} />;
  }
  if (logs.data.length === 0) {
    return <EmptyState icon={ScrollText} title="No Logs Found" description="Activity of your account will show up here." />;
  }
  return (
    <ul className="divide-y rounded-lg border" aria-label="Recent logs">
      {logs.data.map((entry) => (
        <li key={entry.id} className="flex flex-col gap-1.5 px-4 py-3 text-sm sm:flex-row sm:items-center sm:gap-4">
          <LogLevelBadge level={entry.level} />
          <span className="min-w-0 flex-1 break-words sm:truncate">{entry.message}</span>
          <time dateTime={entry.timestamp} className="shrink-0 text-xs text-muted-foreground">
            {formatLogTimestamp(entry.timestamp)}
          </time>
        </li>
      ))}
    </ul>
  );
}

export function RecentLogsSection() {
  return (
    <Card role="region" aria-labelledby="settings-logs-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="settings-logs-title">Recent Logs</CardTitle>
          <CardDescription>The {RECENT_LOGS_COUNT} newest entries.</CardDescription>
        </div>
        <CardAction>
          <Button asChild variant="outline" size="sm">
            <Link to={paths.app.logs}>
              View all logs <ArrowRight />
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        <RecentLogsBody />
      </CardContent>
    </Card>
  );
}
