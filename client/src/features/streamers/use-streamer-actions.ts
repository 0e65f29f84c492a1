import { toast } from 'sonner';
import type { CreateStreamerInput } from '@clipshift/shared';
import { errorCode, isNetworkError, isUnauthorizedError, NETWORK_ERROR, serverIssues, serverMessage, trpc } from '@/lib/trpc';
import { errorsFromIssues, type StreamerFormErrors, type StreamerFormMode } from './streamer-form';

/** Streamer toasts and blocking messages of spec section 8. */
export const streamerMessages = {
  added: 'Streamer added successfully',
  updated: 'Streamer updated successfully',
  deleted: (name: string) => `Streamer ${name} deleted successfully`,
  saveFailed: 'Failed to save streamer',
  deleteFailed: 'Failed to delete streamer',
  cannotEdit: (name: string) => `Cannot edit ${name} while clips are being downloaded`,
  cannotDelete: (name: string) => `Cannot delete ${name} while clips are being downloaded`,
} as const;

/**
 * Where the form shows a refused save. Validation refusals name their field; on creation a 409
 * (already exists) or a plain 400 (no such Twitch user) is about the name; anything else is the
 * form's.
 */
function saveErrors(error: unknown, mode: StreamerFormMode): StreamerFormErrors {
  if (isNetworkError(error)) return { form: NETWORK_ERROR };
  const message = serverMessage(error) ?? streamerMessages.saveFailed;
  const issues = serverIssues(error);
  if (issues.length > 0) return errorsFromIssues(issues);
  const code = errorCode(error);
  if (mode === 'add' && (code === 'CONFLICT' || code === 'BAD_REQUEST')) return { name: message };
  return { form: message };
}

/** A refusal because a download is running is shown as the spec's blocking message, unprefixed. */
function isBusyRefusal(error: unknown): boolean {
  return errorCode(error) === 'CONFLICT';
}

function saveFailureToast(error: unknown, mode: StreamerFormMode): void {
  if (isUnauthorizedError(error)) return;
  if (isNetworkError(error)) toast.error(streamerMessages.saveFailed);
  else if (mode === 'edit' && isBusyRefusal(error)) toast.error(serverMessage(error) ?? streamerMessages.saveFailed);
  else toast.error(`Error: ${serverMessage(error) ?? streamerMessages.saveFailed}`);
}

interface SaveCallbacks {
  onSaved: () => void;
  onRefused: (errors: StreamerFormErrors) => void;
}

/** Adds or updates a streamer; refusals reach the form inline and as the spec's toast. */
export function useSaveStreamer(mode: StreamerFormMode, { onSaved, onRefused }: SaveCallbacks) {
  const utils = trpc.useUtils();
  const refused = {
    onError: (error: unknown) => {
      saveFailureToast(error, mode);
      onRefused(saveErrors(error, mode));
      // A lost race with a download: the busy state shows on the card after this refresh.
      if (isBusyRefusal(error)) void utils.downloads.status.invalidate();
    },
  };
  const create = trpc.streamers.create.useMutation({
    onSuccess: () => {
      toast.success(streamerMessages.added);
      void utils.streamers.list.invalidate();
      onSaved();
    },
    ...refused,
  });
  const update = trpc.streamers.update.useMutation({
    onSuccess: () => {
      toast.success(streamerMessages.updated);
      void utils.streamers.list.invalidate();
      onSaved();
    },
    ...refused,
  });
  const save = (payload: CreateStreamerInput) => {
    if (mode === 'add') create.mutate(payload);
    else update.mutate(payload);
  };
  return { save, pending: create.isPending || update.isPending };
}

/** Deletes a streamer (its clips stay in the library); a busy refusal shows the blocking message. */
export function useDeleteStreamer(onDone: () => void) {
  const utils = trpc.useUtils();
  return trpc.streamers.delete.useMutation({
    onSuccess: (_result, { name }) => {
      toast.success(streamerMessages.deleted(name));
      void utils.streamers.list.invalidate();
      void utils.downloads.status.invalidate();
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      if (isNetworkError(error)) toast.error(streamerMessages.deleteFailed);
      else if (isBusyRefusal(error)) {
        toast.error(serverMessage(error) ?? streamerMessages.deleteFailed);
        void utils.downloads.status.invalidate();
      } else toast.error(`Error: ${serverMessage(error) ?? streamerMessages.deleteFailed}`);
    },
    onSettled: onDone,
  });
}
