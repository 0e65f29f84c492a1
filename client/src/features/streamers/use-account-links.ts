import { useCallback } from 'react';
import { toast } from 'sonner';
import type { Streamer } from '@clipshift/shared';
import { isNetworkError, isUnauthorizedError, serverMessage, trpc } from '@/lib/trpc';

/** Link and unlink toasts of spec section 8. */
export const linkMessages = {
  linked: (name: string) => `Linked TikTok account to ${name}`,
  unlinked: (name: string) => `Unlinked TikTok account from ${name}`,
  linkFailed: 'Failed to link TikTok account',
  unlinkFailed: 'Failed to unlink TikTok account',
} as const;

/** 'Error: {error}' with the server's words, the bare fallback when the server could not be reached. */
function failureToast(fallback: string) {
  return (error: unknown) => {
    if (isUnauthorizedError(error)) return;
    toast.error(isNetworkError(error) ? fallback : `Error: ${serverMessage(error) ?? fallback}`);
  };
}

/**
 * Links and unlinks the user's TikTok accounts to one streamer. The answer is the updated streamer:
 * it replaces the cached one at once (the card and the dialog follow), then the lists reload.
 */
export function useAccountLinks() {
  const utils = trpc.useUtils();
  const store = useCallback(
    (updated: Streamer) => {
      utils.streamers.list.setData(undefined, (list) => list?.map((streamer) => (streamer.name === updated.name ? updated : streamer)));
      void utils.streamers.list.invalidate();
    },
    [utils],
  );
  // Either way the accounts reload: they list their linked streamers, and a refusal may mean one is gone.
  const reloadAccounts = useCallback(() => void utils.tiktok.accounts.invalidate(), [utils]);
  const link = trpc.tiktok.link.useMutation({
    onSuccess: (streamer, input) => {
      toast.success(linkMessages.linked(input.name));
      store(streamer);
    },
    onError: failureToast(linkMessages.linkFailed),
    onSettled: reloadAccounts,
  });
  const unlink = trpc.tiktok.unlink.useMutation({
    onSuccess: (streamer, input) => {
      toast.success(linkMessages.unlinked(input.name));
      store(streamer);
    },
    onError: failureToast(linkMessages.unlinkFailed),
    onSettled: reloadAccounts,
  });

  const { mutate: linkAccount } = link;
  const { mutate: unlinkAccount } = unlink;
  const toggle = useCallback(
    (name: string, accountId: string, linked: boolean) => {
      const input = { name, tiktok_account_id: accountId };
      if (linked) unlinkAccount(input);
      else linkAccount(input);
    },
    [linkAccount, unlinkAccount],
  );
  const isPending = useCallback(
    (accountId: string) =>
      (link.isPending && link.variables?.tiktok_account_id === accountId) || (unlink.isPending && unlink.variables?.tiktok_account_id === accountId),
    [link.isPending, link.variables, unlink.isPending, unlink.variables],
  );
  return { toggle, isPending };
}
