import { useCallback } from 'react';
import { toast } from 'sonner';
import { TWITCH_AUTH_MESSAGE } from '@clipshift/shared';
import { useOAuthPopup, type OAuthOutcome } from '@/lib/use-oauth-popup';
import { isNotConfigured } from './platform-connect';
import { serverMessage, toastFailure, useLoadErrorToast } from './errors';
import { trpc } from './trpc';

/** Settings' "Twitch" words. */
export const twitchMessages = {
  connected: 'Twitch account connected successfully',
  failed: (error: string) => `Failed to connect Twitch account: ${error}`,
  popupBlocked: 'Your browser blocked the Twitch window. Allow pop-ups for this site and try again.',
  startFailed: 'Failed to start Twitch authorization',
  loadFailed: 'Failed to load the Twitch connection',
  disconnected: 'Twitch account disconnected',
  disconnectFailed: 'Failed to disconnect Twitch',
  reconnectNeeded: 'Reconnect needed',
} as const;

/** The user's own Twitch account (tRPC twitch.connection). */
export function useTwitchConnection() {
  const query = trpc.twitch.connection.useQuery();
  useLoadErrorToast(query, twitchMessages.loadFailed);
  return query;
}

/** Connect (and Reconnect): Twitch's authorize page in the OAuth popup; the connection reloads when it reports back or closes. */
export function useConnectTwitch() {
  const utils = trpc.useUtils();
  const reload = useCallback(() => {
    void utils.twitch.connection.invalidate();
    void utils.logs.list.invalidate();
  }, [utils]);
  const onOutcome = useCallback(
    (outcome: OAuthOutcome) => {
      if (outcome.success) toast.success(twitchMessages.connected);
      else toast.error(twitchMessages.failed(outcome.error));
      reload();
    },
    [reload],
  );
  const popup = useOAuthPopup({ messageType: TWITCH_AUTH_MESSAGE, onOutcome, onClosed: reload });
  const { start } = popup;
  const connect = useCallback(() => {
    // A fresh single-use state each time: never a cached answer.
    const authUrl = async () => (await utils.twitch.authUrl.fetch(undefined, { staleTime: 0, gcTime: 0 })).auth_url;
    start(authUrl)
      .then((started) => {
        if (started === 'blocked') toast.error(twitchMessages.popupBlocked);
      })
      .catch((error: unknown) => {
        const reason = isNotConfigured(error) ? serverMessage(error) : null;
        toastFailure(error, twitchMessages.startFailed, reason ? { description: reason } : undefined);
      });
  }, [start, utils]);
  return { connect, waiting: popup.waiting };
}

export function useDisconnectTwitch() {
  const utils = trpc.useUtils();
  return trpc.twitch.disconnect.useMutation({
    onSuccess: (result) => {
      toast.success(result.message);
      void utils.twitch.connection.invalidate();
    },
    onError: (error) => toastFailure(error, twitchMessages.disconnectFailed),
  });
}
