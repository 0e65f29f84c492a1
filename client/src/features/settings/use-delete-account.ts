import { useCallback } from 'react';
import { toast } from 'sonner';
import { DELETE_ACCOUNT_CONFIRM } from '@clipshift/shared';
import { isUnauthorizedError, trpc } from '@/lib/trpc';
import { accountMessages } from '@/lib/tiktok-messages';

/** Remove: the browser's own confirmation (spec section 5), then the server forgets the account. */
export function useDeleteAccount() {
  const utils = trpc.useUtils();
  const mutation = trpc.tiktok.deleteAccount.useMutation({
    onSuccess: () => {
      toast.success(accountMessages.deleted);
      void utils.tiktok.accounts.invalidate();
      void utils.streamers.list.invalidate();
      void utils.logs.list.invalidate();
    },
    onError: (error) => {
      if (!isUnauthorizedError(error)) toast.error(accountMessages.deleteFailed);
    },
  });
  const { mutate, isPending, variables } = mutation;

  const remove = useCallback(
    (id: string) => {
      if (window.confirm(DELETE_ACCOUNT_CONFIRM)) mutate({ id });
    },
    [mutate],
  );
  const isRemoving = useCallback((id: string) => isPending && variables?.id === id, [isPending, variables]);
  return { remove, isRemoving };
}
