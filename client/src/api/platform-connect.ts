import { useCallback } from 'react';
import { toast } from 'sonner';
import { ACCOUNT_PLATFORMS, authMessageType, PLATFORM_LABELS, type AccountPlatform } from '@clipshift/shared';
import { useOAuthPopup, type OAuthOutcome } from '@/lib/use-oauth-popup';
import { errorCode, HttpStatusError, serverMessage, toastFailure } from './errors';
import { trpc } from './trpc';

/** Connect toasts of spec section 8, worded for the platform; shared by Settings, the streamer dialog, the wizard and the guest page. */
export function authMessages(platform: AccountPlatform) {
  const label = PLATFORM_LABELS[platform];
  return {
    connected: `${label} account connected successfully`,
    failed: (error: string) => `Failed to connect ${label} account: ${error}`,
    popupBlocked: `Your browser blocked the ${label} window. Allow pop-ups for this site and try again.`,
    startFailed: `Failed to start ${label} authorization`,
  };
}

/** The server answered that the platform is not configured there (tRPC SERVICE_UNAVAILABLE, or REST 503). */
export function isNotConfigured(error: unknown): boolean {
  return errorCode(error) === 'SERVICE_UNAVAILABLE' || (error instanceof HttpStatusError && error.status === 503);
}

interface AuthPopupOptions {
  /** The account is connected (after the success toast). */
  onConnected: () => void;
  /** The popup was closed without telling how it went. */
  onClosed?: () => void;
}

/**
 * The platform's authorize page in the OAuth popup, with the spec's toasts for the answer of the
 * callback page. `start(getUrl)` rejects with getUrl's error, for the caller's own message.
 */
export function usePlatformAuthPopup(platform: AccountPlatform, { onConnected, onClosed }: AuthPopupOptions) {
  const onOutcome = useCallback(
    (outcome: OAuthOutcome) => {
      const messages = authMessages(platform);
      if (outcome.success) {
        toast.success(messages.connected);
        onConnected();
      } else {
        toast.error(messages.failed(outcome.error));
      }
    },
    [onConnected, platform],
  );
  const popup = useOAuthPopup({ messageType: authMessageType(platform), onOutcome, onClosed });
  const { start: startPopup } = popup;

  const start = useCallback(
    async (getUrl: () => Promise<string>) => {
      const started = await startPopup(getUrl);
      if (started === 'blocked') toast.error(authMessages(platform).popupBlocked);
      return started;
    },
    [platform, startPopup],
  );

  return { start, waiting: popup.waiting };
}

/** 'Failed to start … authorization', with the server's reason when the platform is not configured there. */
function startFailureToast(platform: AccountPlatform, error: unknown): void {
  const reason = isNotConfigured(error) ? serverMessage(error) : null;
  toastFailure(error, authMessages(platform).startFailed, reason ? { description: reason } : undefined);
}

/** Everything that lists accounts reloads once one is connected or reconnected. */
export function useAccountsChanged() {
  const utils = trpc.useUtils();
  return useCallback(() => {
    void utils.accounts.list.invalidate();
    void utils.tiktok.accounts.invalidate();
    // Streamer cards show the linked accounts' names and pictures, which a reconnect may change.
    void utils.streamers.list.invalidate();
    void utils.logs.list.invalidate();
  }, [utils]);
}

/**
 * Connect (and Reconnect) for one platform: its authorize page in the popup; the lists reload once
 * the callback page says the account is connected, or when the popup is closed without a word.
 */
export function useConnectPlatform(platform: AccountPlatform) {
  const utils = trpc.useUtils();
  const reload = useAccountsChanged();
  const popup = usePlatformAuthPopup(platform, { onConnected: reload, onClosed: reload });
  const { start } = popup;

  const connect = useCallback(() => {
    // A fresh single-use state each time: never a cached answer.
    const authUrl = async () => (await utils.accounts.authUrl.fetch({ platform }, { staleTime: 0, gcTime: 0 })).auth_url;
    start(authUrl).catch((error: unknown) => startFailureToast(platform, error));
  }, [platform, start, utils]);

  return { connect, waiting: popup.waiting };
}

export type PlatformConnect = ReturnType<typeof useConnectPlatform>;

/** Said of a platform the server cannot connect when it gave no reason of its own. */
function notConfigured(platform: AccountPlatform): string {
  return `${PLATFORM_LABELS[platform]} is not configured on this server`;
}

/**
 * Which platforms the server can connect accounts of (tRPC accounts.platforms), asked once, so a
 * Connect button is shown disabled with the server's reason before anyone clicks. `reasonOff` is
 * null for a platform that can be connected, and while the answer is on its way.
 */
export function usePlatformAvailability() {
  const query = trpc.accounts.platforms.useQuery(undefined, { staleTime: Infinity });
  const reasonOff = useCallback(
    (platform: AccountPlatform): string | null => {
      const entry = query.data?.find((item) => item.platform === platform);
      return entry && !entry.configured ? (entry.message ?? notConfigured(platform)) : null;
    },
    [query.data],
  );
  return { reasonOff };
}

/**
 * Connect for every platform at once (Settings, the wizard, a streamer's accounts): each platform's
 * popup flow, why a platform cannot be connected here (the server's answer when the screen loaded;
 * a click that the server refuses since says why in its toast, and the button stays, so that it
 * works again as soon as the server is configured), and which platform's window is open.
 */
export function useConnectAnyPlatform() {
  const { reasonOff } = usePlatformAvailability();
  const connects: Record<AccountPlatform, PlatformConnect> = {
    tiktok: useConnectPlatform('tiktok'),
    youtube: useConnectPlatform('youtube'),
    instagram: useConnectPlatform('instagram'),
    facebook: useConnectPlatform('facebook'),
  };
  const waiting = ACCOUNT_PLATFORMS.find((platform) => connects[platform].waiting) ?? null;
  return { connects, reasonOff, waiting };
}

export type AnyPlatformConnect = ReturnType<typeof useConnectAnyPlatform>;
