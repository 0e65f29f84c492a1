import { useCallback, useRef } from 'react';
import { toast } from 'sonner';
import { PLATFORM_LABELS, type AccountPlatform, type ConnectedAccount, type Streamer, type TikTokAccount } from '@clipshift/shared';
import { toastFailure } from './errors';
import { trpc } from './trpc';

/** Link and unlink toasts of spec section 8, naming the account's platform ("Linked TikTok account to shroud"). */
const linkMessages = {
  linked: (platform: AccountPlatform, name: string) => `Linked ${PLATFORM_LABELS[platform]} account to ${name}`,
  unlinked: (platform: AccountPlatform, name: string) => `Unlinked ${PLATFORM_LABELS[platform]} account from ${name}`,
  linkFailed: (platform: AccountPlatform) => `Failed to link ${PLATFORM_LABELS[platform]} account`,
  unlinkFailed: (platform: AccountPlatform) => `Failed to unlink ${PLATFORM_LABELS[platform]} account`,
} as const;

interface LinkInput {
  name: string;
  tiktok_account_id: string;
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
 * Links and unlinks the user's accounts (any platform) to one streamer. The answer is the updated
 * streamer: it replaces the cached one at once (the card and the dialog follow), then the lists reload.
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
  // The toasts name the account's platform, which only the caller knows: kept by account id.
  const platforms = useRef(new Map<string, AccountPlatform>());
  const platformOf = (input: LinkInput) => platforms.current.get(input.tiktok_account_id) ?? 'tiktok';
  const callbacks = (success: typeof linkMessages.linked, failed: typeof linkMessages.linkFailed) => ({
    onSuccess: (streamer: Streamer, input: LinkInput) => {
      toast.success(success(platformOf(input), input.name));
      store(streamer);
    },
    onError: (error: unknown, input: LinkInput) => toastFailure(error, { fallback: failed(platformOf(input)), prefixed: true }),
    // Either way the accounts reload: they list their linked streamers, and a refusal may mean one is gone.
    onSettled: () => {
      void utils.tiktok.accounts.invalidate();
      void utils.accounts.list.invalidate();
    },
  });
  const link = trpc.posting.link.useMutation(callbacks(linkMessages.linked, linkMessages.linkFailed));
  const unlink = trpc.posting.unlink.useMutation(callbacks(linkMessages.unlinked, linkMessages.unlinkFailed));

  const { mutate: linkAccount } = link;
  const { mutate: unlinkAccount } = unlink;
  const toggle = useCallback(
    (name: string, account: Pick<ConnectedAccount, 'id' | 'platform'>, linked: boolean) => {
      platforms.current.set(account.id, account.platform);
      const input = { name, tiktok_account_id: account.id };
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
