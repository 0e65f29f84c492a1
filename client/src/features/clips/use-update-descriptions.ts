import { useCallback } from 'react';
import { toast } from 'sonner';
import type { ClipDetails } from '@clipshift/shared';
import { isNetworkError, isUnauthorizedError, serverMessage, trpc } from '@/lib/trpc';
import { clipMessages, errorText } from './clip-messages';

function reportSaveError(error: unknown): void {
  if (isUnauthorizedError(error)) return;
  toast.error(isNetworkError(error) ? clipMessages.descriptionSaveFailed : errorText(serverMessage(error), clipMessages.descriptionSaveFailed));
}

/** Saves the custom description or the chosen suggestion; the answer replaces the cached details. */
export function useUpdateDescriptions(clipId: string) {
  const utils = trpc.useUtils();
  const store = useCallback((clip: ClipDetails) => utils.clips.details.setData({ id: clipId }, clip), [utils, clipId]);

  const saveMutation = trpc.clips.updateDescriptions.useMutation({
    onSuccess: (clip) => {
      store(clip);
      toast.success(clipMessages.descriptionSaved);
    },
    onError: reportSaveError,
  });
  const selectMutation = trpc.clips.updateDescriptions.useMutation({ onSuccess: store, onError: reportSaveError });

  const { mutate: saveCustom } = saveMutation;
  const { mutate: saveSelected } = selectMutation;
  const save = useCallback(
    (text: string) => saveCustom({ id: clipId, custom_description: text.trim() === '' ? null : text }),
    [saveCustom, clipId],
  );
  const select = useCallback((index: number) => saveSelected({ id: clipId, selected_description: index }), [saveSelected, clipId]);
  return { save, select, saving: saveMutation.isPending };
}
