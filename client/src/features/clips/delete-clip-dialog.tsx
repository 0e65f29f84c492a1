import type { Clip } from '@clipshift/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { clipMessages } from './clip-messages';

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
      description={clipMessages.deleteConfirm}
      confirmLabel="Delete"
      pendingLabel="Deleting…"
      pending={pending}
      destructive
      onConfirm={() => clip && onConfirm(clip)}
    />
  );
}
