import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CloudOff, Plus, Users } from 'lucide-react';
import { toast } from 'sonner';
import { cannotDeleteWhileDownloading, cannotEditWhileDownloading, isBusyStatus, STREAMERS_POLL_MS, type StatusMap, type Streamer } from '@clipshift/shared';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { ADD_STREAMER_PARAM } from '@/lib/paths';
import { useDownloadStatus, useStartDownload } from '@/api/downloads';
import { streamerMessages, useStreamerList } from '@/api/streamers';
import { DeleteStreamerDialog } from './delete-streamer-dialog';
import { ManageAccountsDialog } from './manage-accounts-dialog';
import { StreamerCard } from './streamer-card';
import { StreamerFormDialog, type StreamerDialogTarget } from './streamer-form-dialog';

/** 1 to 3 columns by width. */
const GRID = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3';

function CardsSkeleton() {
  return (
    <div role="status" data-testid="streamers-loading">
      <span className="sr-only">Loading streamers…</span>
      <div className={GRID} aria-hidden="true">
        {Array.from({ length: 3 }, (_, index) => (
          <div key={index} className="space-y-4 rounded-xl border p-5">
            <Skeleton className="h-5 w-32" />
            <div className="grid grid-cols-2 gap-3">
              {Array.from({ length: 6 }, (_, fact) => (
                <Skeleton key={fact} className="h-9 w-full" />
              ))}
            </div>
            <Skeleton className="h-9 w-full" />
          </div>
        ))}
      </div>
    </div>
  );
}

function AddStreamerButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="brand" onClick={onClick}>
      <Plus aria-hidden="true" /> Add Streamer
    </Button>
  );
}

interface StreamerGridProps {
  streamers: readonly Streamer[];
  status: StatusMap | undefined;
  onEdit: (streamer: Streamer) => void;
  onDelete: (streamer: Streamer) => void;
  onManageAccounts: (streamer: Streamer) => void;
}

function StreamerGrid({ streamers, status, onEdit, onDelete, onManageAccounts }: StreamerGridProps) {
  const { start, isStarting } = useStartDownload();
  return (
    <ul className={GRID} aria-label="Streamers">
      {streamers.map((streamer) => (
        <StreamerCard
          key={streamer.name}
          streamer={streamer}
          status={status?.[streamer.name]?.status}
          starting={isStarting(streamer.name)}
          onEdit={() => onEdit(streamer)}
          onDelete={() => onDelete(streamer)}
          onManageAccounts={() => onManageAccounts(streamer)}
          // The streamers screen sends clip_limit (spec section 7).
          onDownload={() => start({ name: streamer.name, clip_limit: streamer.clip_limit, vertical: streamer.vertical })}
        />
      ))}
    </ul>
  );
}

/**
 * Whether the screen was opened to add a streamer (the dashboard's first-run checklist links so).
 * The parameter is taken off the address at once: a reload or Back does not open the dialog again.
 */
function useAddRequested(): boolean {
  const [searchParams, setSearchParams] = useSearchParams();
  const [requested] = useState(() => searchParams.has(ADD_STREAMER_PARAM));
  useEffect(() => {
    if (!requested) return;
    setSearchParams(
      (current) => {
        current.delete(ADD_STREAMER_PARAM);
        return current;
      },
      { replace: true },
    );
  }, [requested, setSearchParams]);
  return requested;
}

export function StreamersPage() {
  const streamers = useStreamerList();
  const status = useDownloadStatus(STREAMERS_POLL_MS);
  const addRequested = useAddRequested();
  const [dialog, setDialog] = useState<StreamerDialogTarget | null>(() => (addRequested ? { mode: 'add' } : null));
  const [deleting, setDeleting] = useState<Streamer | null>(null);
  // By name: the dialog follows the cached streamer as links change it.
  const [managing, setManaging] = useState<string | null>(null);
  const managed = managing === null ? undefined : streamers.data?.find((streamer) => streamer.name === managing);

  const busy = (streamer: Streamer) => isBusyStatus(status.data?.[streamer.name]?.status);
  const edit = (streamer: Streamer) => {
    if (busy(streamer)) toast.error(cannotEditWhileDownloading(streamer.name));
    else setDialog({ mode: 'edit', streamer });
  };
  const remove = (streamer: Streamer) => {
    if (busy(streamer)) toast.error(cannotDeleteWhileDownloading(streamer.name));
    else setDeleting(streamer);
  };
  const add = () => setDialog({ mode: 'add' });

  return (
    <>
      <PageHeader
        title="Streamers"
        description="The Twitch channels Clipshift downloads clips from, with their format, schedule and linked accounts."
        actions={streamers.data && streamers.data.length > 0 ? <AddStreamerButton onClick={add} /> : undefined}
      />
      {streamers.isPending ? (
        <CardsSkeleton />
      ) : !streamers.data ? (
        <LoadFailed icon={CloudOff} title={streamerMessages.loadFailed} className="py-16" onRetry={() => void streamers.refetch()} />
      ) : streamers.data.length === 0 ? (
        <EmptyState
          icon={Users}
          title="No streamers yet"
          description="Add the Twitch channels whose clips you want as shorts. Each one gets its own limit, format and schedule."
          className="py-16"
          action={<AddStreamerButton onClick={add} />}
        />
      ) : (
        <StreamerGrid
          streamers={streamers.data}
          status={status.data}
          onEdit={edit}
          onDelete={remove}
          onManageAccounts={(streamer) => setManaging(streamer.name)}
        />
      )}
      {dialog && (
        <StreamerFormDialog
          key={dialog.mode === 'edit' ? `edit:${dialog.streamer.name}` : 'add'}
          target={dialog}
          onClose={() => setDialog(null)}
        />
      )}
      {deleting && <DeleteStreamerDialog streamer={deleting} onClose={() => setDeleting(null)} />}
      {managed && <ManageAccountsDialog streamer={managed} onClose={() => setManaging(null)} />}
    </>
  );
}
