import { useCallback } from 'react';
import { toast } from 'sonner';
import type { PostClipInput, Upload } from '@clipshift/shared';
import { isNetworkError, isUnauthorizedError, serverMessage, trpc } from '@/lib/trpc';
import { clipMessages, errorText } from './clip-messages';

function reportPosted(uploads: readonly Upload[]): void {
  toast.success(clipMessages.posted);
  // The server answers with success when at least one account took the clip: the others are named.
  const failed = uploads.filter((upload) => upload.status === 'failed');
  if (failed.length > 0) toast.error(clipMessages.postPartlyFailed(failed));
}

function reportPostError(error: unknown): void {
  if (isUnauthorizedError(error)) return; // the sign-in redirect speaks for itself
  toast.error(isNetworkError(error) ? clipMessages.postFailed : errorText(serverMessage(error), clipMessages.postFailed));
}

interface PostCallbacks {
  onSuccess?: () => void;
  onSettled?: () => void;
}

/**
 * Posts a clip to TikTok (spec section 4) from the wizard or the details modal. The server answers
 * once TikTok has accepted the video; either way the clip list reloads so posted_to shows the new
 * state. The toasts come from the mutation itself, so they appear even if the dialog was closed.
 */
export function usePostClip() {
  const utils = trpc.useUtils();
  const mutation = trpc.tiktok.post.useMutation({
    onSuccess: (result) => reportPosted(result.uploads),
    onError: reportPostError,
    onSettled: (_result, _error, input) => {
      void utils.clips.list.invalidate();
      void utils.clips.details.invalidate({ id: input.id });
    },
  });
  const { mutate } = mutation;
  const post = useCallback((input: PostClipInput, callbacks: PostCallbacks = {}) => mutate(input, callbacks), [mutate]);
  return { post, posting: mutation.isPending };
}
