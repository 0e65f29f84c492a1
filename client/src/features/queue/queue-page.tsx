import { useState } from 'react';
import { Ban, CalendarClock, CircleAlert, LoaderCircle, Send } from 'lucide-react';
import { uploadProgressLabel, uploadStatusTone, type QueueItem } from '@clipshift/shared';
import { loadFailureDescription } from '@/api/errors';
import { queueMessages, useCancelQueued, usePostNow, useQueue } from '@/api/queue';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { PageHeader } from '@/components/page-header';
import { PlatformIcon } from '@/components/platform-icon';
import { StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useNow } from '@/lib/use-now';
import { queueTimeLabel } from '@/lib/queue-time';

/** Statuses a user may still take back or hurry: nothing has gone to TikTok yet. */
const WAITING = ['scheduled', 'queued'];

function thumbnailOf(item: QueueItem): string {
  return `/api/clips/${encodeURIComponent(item.clip_id)}/thumbnail`;
}

interface RowProps {
  item: QueueItem;
  now: number;
  busy: boolean;
  onPostNow: (item: QueueItem) => void;
  onCancel: (item: QueueItem) => void;
}

function QueueRow({ item, now, busy, onPostNow, onCancel }: RowProps) {
  const waiting = WAITING.includes(item.status);
  const scheduled = item.status === 'scheduled';
  const title = item.clip_title || item.clip_id;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="queue-item" aria-label={title}>
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <img src={thumbnailOf(item)} alt="" className="h-16 w-10 shrink-0 rounded bg-muted object-cover sm:h-20 sm:w-12" loading="lazy" />
        <div className="min-w-0 space-y-1">
          <p className="truncate font-medium" title={title}>
            {title}
          </p>
          <p className="text-sm text-muted-foreground">
            <PlatformIcon platform={item.platform} className="mr-1 inline-block size-3.5 align-[-2px]" />
            <span>{item.account}</span> ·{' '}
            {item.scheduled_for ? (
              <time dateTime={item.scheduled_for} data-testid="queue-time">
                {queueTimeLabel(item.scheduled_for, item.timezone, now)}
              </time>
            ) : (
              '—'
            )}{' '}
            <span className="text-xs">{item.timezone}</span>
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge
              tone={uploadStatusTone(item.status)}
              icon={scheduled ? CalendarClock : LoaderCircle}
              busy={!scheduled}
              label={uploadProgressLabel({ status: item.status, percent: null })}
            />
          </div>
          {item.error && (
            <p className="flex items-start gap-1.5 text-sm text-warning-soft-foreground" data-testid="queue-error">
              <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {item.error}
            </p>
          )}
          {item.warning && (
            <p className="flex items-start gap-1.5 text-sm text-warning-soft-foreground" data-testid="queue-warning">
              <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {item.warning}
            </p>
          )}
        </div>
      </div>
      {waiting && (
        <div className="flex shrink-0 gap-2">
          {scheduled && (
            <Button variant="outline" size="sm" disabled={busy} aria-label={`Post now: ${title}`} onClick={() => onPostNow(item)}>
              <Send aria-hidden="true" />
              Post now
            </Button>
          )}
          <Button
            variant="ghost"
            size="sm"
            className="text-danger-soft-foreground hover:bg-danger-soft hover:text-danger-soft-foreground"
            disabled={busy}
            aria-label={`Cancel: ${title}`}
            onClick={() => onCancel(item)}
          >
            <Ban aria-hidden="true" />
            Cancel
          </Button>
        </div>
      )}
    </li>
  );
}

/** Posts waiting for their slot or on their way to TikTok, soonest first, with Cancel and Post now. */
export function QueuePage() {
  const queue = useQueue();
  const now = useNow(30_000);
  const cancel = useCancelQueued();
  const postNow = usePostNow();
  const [confirming, setConfirming] = useState<QueueItem | null>(null);
  const busyId = cancel.isPending ? cancel.variables?.id : postNow.isPending ? postNow.variables?.id : undefined;

  let body;
  if (queue.isPending) body = <Skeleton className="h-24 w-full" />;
  else if (queue.isError)
    body = <LoadFailed icon={CalendarClock} title={queueMessages.loadFailed} description={loadFailureDescription(queue.error)} onRetry={() => void queue.refetch()} />;
  else if (queue.data.length === 0) body = <EmptyState icon={CalendarClock} title={queueMessages.emptyTitle} description={queueMessages.emptyDescription} />;
  else
    body = (
      <ul className="divide-y rounded-lg border" aria-label="Posting queue">
        {queue.data.map((item) => (
          <QueueRow key={item.id} item={item} now={now} busy={busyId === item.id} onPostNow={(row) => postNow.mutate({ id: row.id })} onCancel={setConfirming} />
        ))}
      </ul>
    );

  return (
    <>
      <PageHeader title="Queue" description="Posts waiting for their posting slot or on their way to their platform, soonest first. Times are in each account’s time zone." />
      <Card>
        <CardContent>{body}</CardContent>
      </Card>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Cancel this post?"
        description={confirming ? `“${confirming.clip_title || confirming.clip_id}” will not be posted to ${confirming.account}. You can post the clip again later.` : ''}
        confirmLabel="Cancel post"
        pendingLabel="Canceling…"
        pending={cancel.isPending}
        destructive
        onConfirm={() => {
          if (!confirming) return;
          cancel.mutate({ id: confirming.id }, { onSettled: () => setConfirming(null) });
        }}
      />
    </>
  );
}
