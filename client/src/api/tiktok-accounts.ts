import { useCallback } from 'react';
import { toast } from 'sonner';
import { type Streamer, type TikTokAccount } from '@clipshift/shared';
import { toastFailure, useLoadErrorToast } from './errors';
import { trpc } from './trpc';

/** TikTok account messages of spec sections 2, 5 and 8 (Settings, the streamer accounts dialog, the wizard). */
export const accountMessages = {
  loadFailed: 'Failed to load TikTok accounts',
  emptyTitle: 'No TikTok Accounts',
  emptyDescription: "You haven't connected any TikTok accounts yet.",
} as const;

/** Link and unlink toasts of spec section 8. */
const linkMessages = {
  linked: (name: string) => `Linked TikTok account to ${name}`,
  unlinked: (name: string) => `Unlinked TikTok account from ${name}`,
  linkFailed: 'Failed to link TikTok account',
  unlinkFailed: 'Failed to unlink TikTok account',
} as const;

interface AccountsOptions {
  /** Loads them again each time the caller mounts (a dialog opening). */
  fresh?: boolean;
  /** Says 'Failed to load TikTok accounts' when the load fails (the wizard words it its own way). */
  toastOnError?: boolean;
  /** False holds the load back (the dashboard asks only while its checklist wants them). */
  enabled?: boolean;
}

/** The user's connected TikTok accounts. */
export function useTikTokAccounts({ fresh = false, toastOnError = false, enabled = true }: AccountsOptions = {}) {
  const query = trpc.tiktok.accounts.useQuery(undefined, { enabled, ...(fresh ? { refetchOnMount: 'always' } : {}) });
  useLoadErrorToast(query, toastOnError ? accountMessages.loadFailed : null);
  return query;
}

/** Streamer names are matched case-insensitively, as the server does. */
export function isLinkedTo(account: Pick<TikTokAccount, 'linked_streamers'>, streamer: string): boolean {
  const name = streamer.toLowerCase();
  return account.linked_streamers.some((linked) => linked.toLowerCase() === name);
}

/** What TikTok lets each chosen account post with, asked once a minute at most. */
export function useCreatorOptions(accountIds: readonly string[]) {
  return trpc.useQueries((t) => accountIds.map((id) => t.tiktok.creatorOptions({ id }, { staleTime: 60_000, retry: false })));
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
  const linkCallbacks = (success: (name: string) => string, fallback: string) => ({
    onSuccess: (streamer: Streamer, input: { name: string }) => {
      toast.success(success(input.name));
      store(streamer);
    },
    onError: (error: unknown) => toastFailure(error, { fallback, prefixed: true }),
    // Either way the accounts reload: they list their linked streamers, and a refusal may mean one is gone.
    onSettled: () => {
      void utils.tiktok.accounts.invalidate();
      void utils.accounts.list.invalidate();
    },
  });
  const link = trpc.posting.link.useMutation(linkCallbacks(linkMessages.linked, linkMessages.linkFailed));
  const unlink = trpc.posting.unlink.useMutation(linkCallbacks(linkMessages.unlinked, linkMessages.unlinkFailed));

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
