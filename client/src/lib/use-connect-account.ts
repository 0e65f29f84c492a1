import { useCallback } from 'react';
import { toast } from 'sonner';
import { useTikTokAuthPopup } from '@/lib/tiktok-auth';
import { errorCode, isUnauthorizedError, serverMessage, trpc } from '@/lib/trpc';
import { accountMessages } from './tiktok-messages';

/** 'Failed to start TikTok authorization', with the server's reason when TikTok is not configured there. */
function startFailureToast(error: unknown): void {
  if (isUnauthorizedError(error)) return; // the sign-in redirect speaks for itself
  const reason = errorCode(error) === 'SERVICE_UNAVAILABLE' ? serverMessage(error) : null;
  toast.error(accountMessages.startFailed, reason ? { description: reason } : undefined);
}

/**
 * Connect Account (and Reconnect): TikTok's authorize page in the popup; the list reloads once
 * the callback page says the account is connected, or when the popup is closed without a word.
 */
export function useConnectAccount() {
  const utils = trpc.useUtils();
  const reload = useCallback(() => {
    void utils.tiktok.accounts.invalidate();
    // Streamer cards show the linked accounts' names and pictures, which a reconnect may change.
    void utils.streamers.list.invalidate();
    void utils.logs.list.invalidate();
  }, [utils]);
  const popup = useTikTokAuthPopup({ onConnected: reload, onClosed: reload });
  const { start } = popup;

  const connect = useCallback(() => {
    const authUrl = async () => (await utils.tiktok.authUrl.fetch(undefined, { staleTime: 0, gcTime: 0 })).auth_url;
    start(authUrl).catch(startFailureToast);
  }, [start, utils]);

  return { connect, waiting: popup.waiting };
}
