import { useCallback } from 'react';
import { toast } from 'sonner';
import { TIKTOK_AUTH_MESSAGE_TYPE } from '@clipshift/shared';
import { useOAuthPopup, type OAuthOutcome, type OAuthStart } from './use-oauth-popup';

/** TikTok connect toasts of spec section 8, shared by Settings and the guest page. */
export const tiktokAuthMessages = {
  connected: 'TikTok account connected successfully',
  failed: (error: string) => `Failed to connect TikTok account: ${error}`,
  popupBlocked: 'Your browser blocked the TikTok window. Allow pop-ups for this site and try again.',
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
    async (getUrl: () => Promise<string>): Promise<OAuthStart> => {
      const started = await startPopup(getUrl);
      if (started === 'blocked') toast.error(tiktokAuthMessages.popupBlocked);
      return started;
    },
    [startPopup],
  );

  return { start, waiting: popup.waiting, cancel: popup.cancel };
}
