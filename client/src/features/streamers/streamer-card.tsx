import { useId, type ReactNode } from 'react';
import { Download, LoaderCircle, MessageSquareText, Pencil, Trash2 } from 'lucide-react';
import { formatSchedule, isBusyStatus, languageLabel, LAYOUT_LABELS, momentScoreLabel, type Streamer } from '@clipshift/shared';
import { DownloadStatusBadge } from '@/components/download-status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Separator } from '@/components/ui/separator';
import { formatDateTime } from '@/lib/format';
import { streamerTitle } from '@/api/streamers';
import { cn } from '@/lib/utils';
import { LinkedAccounts } from './linked-accounts';
import { WithTooltip } from '@/components/ui/tooltip';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

function OnOff({ on }: { on: boolean }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span className={cn('size-1.5 rounded-full', on ? 'bg-success-icon' : 'bg-muted-foreground/40')} aria-hidden="true" data-testid="on-off-dot" />
      {on ? 'On' : 'Off'}
    </span>
  );
}

/** The title, and Twitch's display name under it when it says more than a change of case. */
function StreamerTitle({ streamer, id }: { streamer: Streamer; id: string }) {
  const title = streamerTitle(streamer);
  const subtitle = streamer.display_name !== null && streamer.display_name !== title ? streamer.display_name : null;
  return (
    <div className="min-w-0">
      <CardTitle id={id} className="truncate text-lg" title={streamer.name}>
        {title}
      </CardTitle>
      {subtitle && <p className="truncate text-sm text-muted-foreground">{subtitle}</p>}
    </div>
  );
}

function StreamerFacts({ streamer }: { streamer: Streamer }) {
  const format = streamer.vertical ? `Vertical · ${LAYOUT_LABELS[streamer.layout]}` : 'Horizontal';
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
      <Fact label="Language">{languageLabel(streamer.language)}</Fact>
      <Fact label="Clip limit">{`${streamer.clip_limit} ${streamer.clip_limit === 1 ? 'clip' : 'clips'}`}</Fact>
      <Fact label="Schedule">
        <span data-testid="streamer-schedule">{formatSchedule(streamer.schedule)}</span>
        {streamer.schedule && streamer.next_run_at && (
          <span className="block text-xs font-normal text-muted-foreground">Next: {formatDateTime(streamer.next_run_at)}</span>
        )}
      </Fact>
      <Fact label="Format">{format}</Fact>
      <Fact label="Auto subtitles">
        <OnOff on={streamer.auto_subtitle} />
      </Fact>
      <Fact label="Auto publish">
        <OnOff on={streamer.auto_publish} />
      </Fact>
    </dl>
  );
}

/** The streamer's live chat is read for moments while it streams. */
function WatchingBadge({ threshold }: { threshold: number }) {
  return (
    <Badge variant="brand" title={`Clips moments scoring at least ${momentScoreLabel(threshold)}`} data-testid="watching-live">
      <MessageSquareText aria-hidden="true" />
      Watching live chat
    </Badge>
  );
}

interface StreamerCardProps {
  streamer: Streamer;
  status: string | undefined;
  starting: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onDownload: () => void;
  onManageAccounts: () => void;
}

export function StreamerCard({ streamer, status, starting, onEdit, onDelete, onDownload, onManageAccounts }: StreamerCardProps) {
  const titleId = useId();
  const busy = isBusyStatus(status);
  return (
    <li aria-labelledby={titleId} data-testid="streamer-card">
      <Card className="h-full gap-4">
        <CardHeader className="flex-row items-start justify-between gap-2">
          <div className="min-w-0 space-y-2">
            <StreamerTitle streamer={streamer} id={titleId} />
            {(streamer.watch_live || (busy && status)) && (
              <div className="flex flex-wrap gap-1.5">
                {busy && status && <DownloadStatusBadge status={status} />}
                {streamer.watch_live && <WatchingBadge threshold={streamer.moment_threshold} />}
              </div>
            )}
          </div>
          <div className="-mt-1 -mr-2 flex shrink-0">
            <WithTooltip label="Edit">
              <Button variant="ghost" size="icon" aria-label={`Edit ${streamer.name}`} onClick={onEdit}>
                <Pencil />
              </Button>
            </WithTooltip>
            <WithTooltip label="Delete">
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Delete ${streamer.name}`}
                className="text-muted-foreground hover:bg-danger-soft hover:text-destructive"
                onClick={onDelete}
              >
                <Trash2 />
              </Button>
            </WithTooltip>
          </div>
        </CardHeader>
        <CardContent className="flex-1 space-y-4">
          <StreamerFacts streamer={streamer} />
          <Separator />
          <LinkedAccounts streamer={streamer} onManage={onManageAccounts} />
        </CardContent>
        <CardFooter>
          <Button variant="brand" className="w-full" disabled={busy || starting} onClick={onDownload}>
            {starting || busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
            Download Clips
            <span className="sr-only"> for {streamer.name}</span>
          </Button>
        </CardFooter>
      </Card>
    </li>
  );
}
