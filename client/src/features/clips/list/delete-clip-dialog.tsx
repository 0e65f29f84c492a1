import type { Clip } from '@clipshift/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';

const DELETE_CONFIRM = 'This action cannot be undone. The clip will be permanently deleted.';

interface DeleteClipDialogProps {
  clip: Clip | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (clip: Clip) => void;
}

export function DeleteClipDialog({ clip, pending, onCancel, onConfirm }: DeleteClipDialogProps) {
  return (
    <ConfirmDialog
      open={clip !== null}
      onOpenChange={(open) => !open && onCancel()}
      title={clip ? `Delete "${clip.title}"?` : 'Delete clip?'}
      description={DELETE_CONFIRM}
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      pending={pending}
      destructive
      onConfirm={() => clip && onConfirm(clip)}
    />
  );
}
