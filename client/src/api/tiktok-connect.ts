import { useCallback } from 'react';
import { toast } from 'sonner';
import { TIKTOK_AUTH_MESSAGE_TYPE } from '@clipshift/shared';
import { useOAuthPopup, type OAuthOutcome } from '@/lib/use-oauth-popup';
import { errorCode, serverMessage, toastFailure } from './errors';
import { trpc } from './trpc';

/** TikTok connect toasts of spec section 8, shared by Settings, the streamer dialog, the wizard and the guest page. */
const tiktokAuthMessages = {
  connected: 'TikTok account connected successfully',
  failed: (error: string) => `Failed to connect TikTok account: ${error}`,
  popupBlocked: 'Your browser blocked the TikTok window. Allow pop-ups for this site and try again.',
  startFailed: 'Failed to start TikTok authorization',
} as const;

interface TikTokAuthPopupOptions {
  /** The account is connected (after the success toast). */
  onConnected: () => void;
  /** The popup was closed without telling how it went. */
  onClosed?: () => void;
}

/**
 * TikTok's authorize page in the OAuth popup, with the spec's toasts for the answer of the
 * callback page. `start(getUrl)` rejects with getUrl's error, for the caller's own message.
 */
export function useTikTokAuthPopup({ onConnected, onClosed }: TikTokAuthPopupOptions) {
  const onOutcome = useCallback(
    (outcome: OAuthOutcome) => {
      if (outcome.success) {
        toast.success(tiktokAuthMessages.connected);
        onConnected();
      } else {
        toast.error(tiktokAuthMessages.failed(outcome.error));
      }
    },
    [onConnected],
  );
  const popup = useOAuthPopup({ messageType: TIKTOK_AUTH_MESSAGE_TYPE, onOutcome, onClosed });
  const { start: startPopup } = popup;

  const start = useCallback(
    async (getUrl: () => Promise<string>) => {
      const started = await startPopup(getUrl);
      if (started === 'blocked') toast.error(tiktokAuthMessages.popupBlocked);
      return started;
    },
    [startPopup],
  );

  return { start, waiting: popup.waiting };
}

/** 'Failed to start TikTok authorization', with the server's reason when TikTok is not configured there. */
function startFailureToast(error: unknown): void {
  const reason = errorCode(error) === 'SERVICE_UNAVAILABLE' ? serverMessage(error) : null;
  toastFailure(error, tiktokAuthMessages.startFailed, reason ? { description: reason } : undefined);
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
