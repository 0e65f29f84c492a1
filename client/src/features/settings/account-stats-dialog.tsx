import type { ReactNode } from 'react';
import { BarChart3 } from 'lucide-react';
import { STATS_DAYS_DEFAULT, formatAccountHandle, type AccountStats, type ConnectedAccount } from '@clipshift/shared';
import { connectedAccountMessages as messages, useAccountStats } from '@/api/accounts';
import { loadFailureDescription } from '@/api/errors';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { PlatformIcon } from '@/components/platform-icon';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { ViewsChart } from '@/components/views-chart';
import { formatCount } from '@/lib/stats-format';

function Total({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-lg border px-3 py-2 sm:flex-1">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" title={value.toLocaleString('en-US')}>
        {formatCount(value)}
      </dd>
    </div>
  );
}

function Totals({ totals }: { totals: AccountStats['totals'] }) {
  return (
    <dl className="grid grid-cols-2 gap-2 sm:flex" aria-label="Totals" data-testid="stats-totals">
      <Total label="Views" value={totals.views} />
      <Total label="Likes" value={totals.likes} />
      <Total label="Comments" value={totals.comments} />
      {totals.shares !== null && <Total label="Shares" value={totals.shares} />}
      <Total label="Posts" value={totals.posts} />
    </dl>
  );
}

function TopClips({ top }: { top: AccountStats['top'] }) {
  return (
    <section aria-labelledby="top-clips-heading" className="space-y-2">
      <h3 id="top-clips-heading" className="text-sm font-medium">
        Top clips
      </h3>
      <ol className="divide-y rounded-lg border" aria-labelledby="top-clips-heading">
        {top.map((clip, index) => (
          <li key={clip.upload_id} className="flex flex-wrap items-center gap-x-3 gap-y-0.5 px-3 py-2 text-sm" data-testid="top-clip">
            <span className="w-5 shrink-0 text-right text-muted-foreground tabular-nums">{index + 1}</span>
            <span className="min-w-0 flex-1 truncate font-medium" title={clip.title}>
              {clip.title}
            </span>
            <span className="w-full shrink-0 pl-8 text-xs text-muted-foreground tabular-nums sm:w-auto sm:pl-0">
              <span className="font-medium text-foreground">{formatCount(clip.views)}</span> views · {formatCount(clip.likes)} likes
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function StatsBody({ account }: { account: ConnectedAccount }) {
  const stats = useAccountStats(account.id);
  let body: ReactNode;
  if (stats.isPending) body = <Skeleton className="h-64 w-full" />;
  else if (stats.isError) body = <LoadFailed icon={BarChart3} title={messages.statsLoadFailed} description={loadFailureDescription(stats.error)} onRetry={() => void stats.refetch()} />;
  else if (stats.data.totals.posts === 0 || stats.data.series.length === 0)
    body = <EmptyState icon={BarChart3} title="No statistics yet" description={messages.statsEmpty} />;
  else
    body = (
      <div className="space-y-5">
        <Totals totals={stats.data.totals} />
        <ViewsChart points={stats.data.series} title={`Views per day, last ${STATS_DAYS_DEFAULT} days`} />
        {stats.data.top.length > 0 && <TopClips top={stats.data.top} />}
      </div>
    );
  return (
    <>
      <DialogHeader className="pr-6">
        <DialogTitle className="flex items-center gap-2">
          <PlatformIcon platform={account.platform} className="size-5" />
          Statistics: {account.display_name}
        </DialogTitle>
        <DialogDescription>
          {formatAccountHandle(account)} · views, likes and comments of its published posts over the last {STATS_DAYS_DEFAULT} days.
        </DialogDescription>
      </DialogHeader>
      <div className="min-h-0 flex-1 overflow-y-auto" data-testid="account-stats">
        {body}
      </div>
    </>
  );
}

/** An account's totals, views over time and best clips. */
export function AccountStatsDialog({ account, onClose }: { account: ConnectedAccount | null; onClose: () => void }) {
  return (
    <Dialog open={account !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="flex max-h-[90vh] max-w-2xl flex-col gap-5 overflow-hidden">{account && <StatsBody key={account.id} account={account} />}</DialogContent>
    </Dialog>
  );
}
