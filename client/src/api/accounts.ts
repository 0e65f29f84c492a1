import { useCallback } from 'react';
import { toast } from 'sonner';
import { PLATFORM_LABELS, STATS_DAYS_DEFAULT, type ConnectedAccount } from '@clipshift/shared';
import { toastFailure, useLoadErrorToast } from './errors';
import { useAccountsChanged } from './platform-connect';
import { trpc } from './trpc';

/** Settings' "Connected accounts" words (every platform). */
export const connectedAccountMessages = {
  loadFailed: 'Failed to load connected accounts',
  deleteFailed: 'Failed to delete the account',
  emptyTitle: 'No connected accounts',
  emptyDescription: "You haven't connected an account yet. Connect a TikTok or Instagram account, a YouTube channel or a Facebook Page to post your clips.",
  noLinkedStreamers: 'No linked streamers',
  connected: 'Connected',
  reconnectNeeded: 'Reconnect needed',
  statsEmpty: 'No statistics yet: they appear about an hour after a post is published',
  statsLoadFailed: 'Failed to load statistics',
} as const;

/**
 * The line under an account's handle: its display name, or, for an account without a username
 * (a Facebook Page, named by its display name already), what kind of account it is.
 */
export function accountKind(account: Pick<ConnectedAccount, 'platform' | 'username' | 'display_name'>): string {
  if (account.username) return account.display_name;
  return account.platform === 'facebook' ? 'Facebook Page' : `${PLATFORM_LABELS[account.platform]} account`;
}

/** The browser's confirmation before an account is removed, naming its platform (TikTok's words are those of spec section 5). */
export function deleteAccountConfirm(account: Pick<ConnectedAccount, 'platform'>): string {
  return `Are you sure you want to delete this ${PLATFORM_LABELS[account.platform]} account?`;
}

interface AccountsOptions {
  /** Loads them again each time the caller mounts (a dialog opening). */
  fresh?: boolean;
  toastOnError?: boolean;
  enabled?: boolean;
}

/** The user's accounts of every platform (tRPC accounts.list). */
export function useConnectedAccounts({ fresh = false, toastOnError = false, enabled = true }: AccountsOptions = {}) {
  const query = trpc.accounts.list.useQuery(undefined, { enabled, ...(fresh ? { refetchOnMount: 'always' } : {}) });
  useLoadErrorToast(query, toastOnError ? connectedAccountMessages.loadFailed : null);
  return query;
}

/** Remove (any platform): the browser's confirmation, then the server forgets the account. */
export function useRemoveConnectedAccount() {
  const accountsChanged = useAccountsChanged();
  const mutation = trpc.accounts.delete.useMutation({
    onSuccess: (result) => {
      toast.success(result.message);
      accountsChanged();
    },
    onError: (error) => toastFailure(error, connectedAccountMessages.deleteFailed),
  });
  const { mutate, isPending, variables } = mutation;

  const remove = useCallback(
    (account: Pick<ConnectedAccount, 'id' | 'platform'>) => {
      if (window.confirm(deleteAccountConfirm(account))) mutate({ id: account.id });
    },
    [mutate],
  );
  const isRemoving = useCallback((id: string) => isPending && variables?.id === id, [isPending, variables]);
  return { remove, isRemoving };
}

/** One account's statistics over the last `days` days (tRPC accounts.stats). */
export function useAccountStats(id: string | null, days = STATS_DAYS_DEFAULT) {
  const query = trpc.accounts.stats.useQuery({ id: id ?? '', days }, { enabled: id !== null, retry: false });
  useLoadErrorToast(query, connectedAccountMessages.statsLoadFailed);
  return query;
}
