import { useCallback } from 'react';
import { toast } from 'sonner';
import { PLATFORM_LABELS, type PostClipInput, type Upload } from '@clipshift/shared';
import { toastFailure } from './errors';
import { trpc } from './trpc';

/** Spec section 8 says 'Failed to post to TikTok'; a post now goes to any platform. */
const POST_FAILED = 'Failed to post the clip';

/** Some accounts took the clip and others refused it: the refusals, each with its platform's reason. */
function partlyFailedText(failures: readonly Pick<Upload, 'account' | 'error' | 'platform'>[]): string {
  return `Error: ${failures.map((failure) => `not posted to ${failure.account}: ${failure.error ?? `${PLATFORM_LABELS[failure.platform]} refused the video`}`).join('; ')}`;
}

function reportPosted(result: { message: string; uploads: readonly Upload[] }): void {
  toast.success(result.message);
  // The server answers with success when at least one account took the clip: the others are named.
  const failed = result.uploads.filter((upload) => upload.status === 'failed');
  if (failed.length > 0) toast.error(partlyFailedText(failed));
}

interface PostCallbacks {
  onSuccess?: () => void;
  onSettled?: () => void;
}

/**
 * Posts a clip to accounts of any platform (spec section 4) from the wizard. The server answers
 * once the platforms have accepted the video; either way the clip list reloads so posted_to shows the new
 * state. The toasts come from the mutation itself, so they appear even if the dialog was closed.
 */
export function usePostClip() {
  const utils = trpc.useUtils();
  const mutation = trpc.posting.post.useMutation({
    onSuccess: reportPosted,
    onError: (error) => toastFailure(error, { fallback: POST_FAILED, prefixed: true }),
    onSettled: (_result, _error, input) => {
      void utils.clips.list.invalidate();
      void utils.clips.details.invalidate({ id: input.id });
    },
  });
  const { mutate } = mutation;
  const post = useCallback((input: PostClipInput, callbacks: PostCallbacks = {}) => mutate(input, callbacks), [mutate]);
  return { post, posting: mutation.isPending };
}
