import { useCallback } from 'react';
import { toast } from 'sonner';
import { useTikTokAuthPopup } from '@/lib/tiktok-auth';
import { isNetworkError, serverMessage, trpc } from '@/lib/trpc';
import { connectMessages } from './connect-messages';

function authUrlErrorMessage(error: unknown): string {
  if (isNetworkError(error)) return connectMessages.connectFailed;
  return serverMessage(error) ?? connectMessages.authUrlFailed;
}

/**
 * Connect TikTok as a guest: the authorize URL for the verified passkey, opened in the OAuth popup;
 * `onConnected` runs after the success toast. Waiting also ends when the popup is closed.
 */
export function useGuestTikTokConnect(passkey: string, onConnected: () => void) {
  const { mutateAsync } = trpc.tiktok.guestAuthUrl.useMutation();
  const popup = useTikTokAuthPopup({ onConnected });
  const { start } = popup;

  const connect = useCallback(() => {
    const authUrl = async () => (await mutateAsync({ passkey })).auth_url;
    start(authUrl).catch((error: unknown) => toast.error(authUrlErrorMessage(error)));
  }, [mutateAsync, passkey, start]);

  return { connect, connecting: popup.waiting };
}
