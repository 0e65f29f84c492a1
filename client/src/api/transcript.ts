import { useCallback } from 'react';
import { toast } from 'sonner';
import { useQueryClient } from '@tanstack/react-query';
import type { ClipTranscript, TranscriptWordDto } from '@clipshift/shared';
import { errorCode, formErrorMessage } from './errors';
import { STUDIO_IMAGE_KEY } from './studio';
import { trpc } from './trpc';

export const transcriptMessages = {
  saved: 'Transcript saved',
  saveFailed: 'Failed to save transcript',
  loadFailed: 'Failed to load transcript',
} as const;

/**
 * A clip's timed words. Loaded once per opening and never refreshed behind the editor's back: a
 * background reload would throw away words being edited. Saving and transcribing again replace it.
 */
export function useClipTranscript(clipId: string) {
  const query = trpc.studio.transcript.useQuery(
    { id: clipId },
    { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, refetchOnReconnect: false },
  );
  return { ...query, missing: query.isError && isMissing(query.error) };
}

/** The clip has no transcript yet (or no longer exists): 404. */
function isMissing(error: unknown): boolean {
  return errorCode(error) === 'NOT_FOUND';
}

/** Reloads the transcript after speech recognition wrote a new one. */
export function useReloadTranscript(): (clipId: string) => void {
  const utils = trpc.useUtils();
  return useCallback((clipId: string) => void utils.studio.transcript.invalidate({ id: clipId }), [utils]);
}

/**
 * Saves edited words; the answer becomes the cached transcript. A refusal is handed back as the
 * words to show beside the editor (the server names the word at fault).
 */
export function useSaveTranscript(clipId: string, onRefused: (message: string) => void) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const mutation = trpc.studio.updateTranscript.useMutation({
    onSuccess: (saved: ClipTranscript) => {
      utils.studio.transcript.setData({ id: clipId }, saved);
      // The preview burns the saved words: it is drawn again with the new ones.
      void queryClient.invalidateQueries({ queryKey: [STUDIO_IMAGE_KEY] });
      toast.success(transcriptMessages.saved);
    },
    onError: (error) => onRefused(formErrorMessage(error, transcriptMessages.saveFailed)),
  });
  const { mutate } = mutation;
  const save = useCallback((words: TranscriptWordDto[]) => mutate({ id: clipId, words }), [mutate, clipId]);
  return { save, saving: mutation.isPending };
}
