import type { Streamer } from '@clipshift/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useDeleteStreamer } from '@/api/streamers';

/** Asks the spec's question before deleting; the streamer's clips stay in the library. */
export function DeleteStreamerDialog({ streamer, onClose }: { streamer: Streamer; onClose: () => void }) {
  const remove = useDeleteStreamer(onClose);
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete streamer"
      description={
        <>
          <span className="block">{`Are you sure you want to delete ${streamer.name}?`}</span>
          <span className="mt-1 block">Clips already downloaded stay in your library.</span>
        </>
      }
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      pending={remove.isPending}
      destructive
      onConfirm={() => remove.mutate({ name: streamer.name })}
    />
  );
}
