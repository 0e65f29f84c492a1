import { useCallback, useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { isNetworkError, isUnauthorizedError, serverMessage, trpc } from '@/lib/trpc';
import { clipMessages, errorText } from './clip-messages';

/** Deletes a clip; on success the caller takes it off the list and closes its details. */
export function useDeleteClip(onDeleted: (clipId: string) => void) {
  const onDeletedRef = useRef(onDeleted);
  useEffect(() => {
    onDeletedRef.current = onDeleted;
  }, [onDeleted]);

  const mutation = trpc.clips.delete.useMutation({
    onSuccess: (_result, { id }) => {
      toast.success(clipMessages.deleted);
      onDeletedRef.current(id);
    },
    onError: (error) => {
      if (isUnauthorizedError(error)) return;
      toast.error(isNetworkError(error) ? clipMessages.deleteFailed : errorText(serverMessage(error), clipMessages.deleteFailed));
    },
  });

  const { mutate, isPending } = mutation;
  const remove = useCallback((clipId: string, options?: { onSettled?: () => void }) => mutate({ id: clipId }, options), [mutate]);
  return { remove, isPending };
}
