import type { TikTokAccount } from '@clipshift/shared';
import { trpc } from './trpc';

/** The user's connected TikTok accounts; `fresh` loads them again each time the caller mounts (a dialog opening). */
export function useTikTokAccounts({ fresh = false }: { fresh?: boolean } = {}) {
  return trpc.tiktok.accounts.useQuery(undefined, fresh ? { refetchOnMount: 'always' } : undefined);
}

/** "@username", or the display name of an account without one. */
export function accountHandle(account: Pick<TikTokAccount, 'username' | 'display_name'>): string {
  return account.username ? `@${account.username}` : account.display_name;
}

/** Streamer names are matched case-insensitively, as the server does. */
export function isLinkedTo(account: Pick<TikTokAccount, 'linked_streamers'>, streamer: string): boolean {
  const name = streamer.toLowerCase();
  return account.linked_streamers.some((linked) => linked.toLowerCase() === name);
}
