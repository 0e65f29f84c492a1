import type { RejectByLinkInput } from '@clipshift/shared';
import { trpc } from './trpc';

/*
 * An approval link's page (/approve/:token), opened by someone without an account: its data, and
 * the one answer it takes. Failures are shown on the page itself, in the server's words.
 */

export function useApprovalPage(token: string) {
  return trpc.review.linkPage.useQuery({ token }, { staleTime: Number.POSITIVE_INFINITY });
}

/** Approve or reject; either answer settles the page's data to what was answered. */
export function useAnswerApproval(token: string) {
  const utils = trpc.useUtils();
  // An answer, or a refusal because the link was answered meanwhile: the page shows what the server now holds.
  const settled = () => void utils.review.linkPage.invalidate({ token });
  const approve = trpc.review.approveByLink.useMutation({ onSettled: settled });
  const reject = trpc.review.rejectByLink.useMutation({ onSettled: settled });
  return {
    approve: () => approve.mutate({ token }),
    reject: (note: RejectByLinkInput['note']) => reject.mutate({ token, note }),
    approving: approve.isPending,
    rejecting: reject.isPending,
    error: approve.error ?? reject.error,
    /** The answer just given, while the page reloads what the server now says. */
    answered: approve.data ?? reject.data ?? null,
  };
}
