import { useCallback, useEffect, useRef, useState } from 'react';
import { OAUTH_POPUP_HEIGHT, OAUTH_POPUP_WIDTH } from '@clipshift/shared';

/** What the OAuth callback page posts to its opener: `{type, success: true}` or `{type, success: false, error}`. */
export type OAuthOutcome = { success: true } | { success: false; error: string };

/** How a start ended: the popup is on its way, the browser refused to open it, or the flow was replaced or abandoned. */
type OAuthStart = 'started' | 'blocked' | 'cancelled';

interface OAuthPopupOptions {
  /** The `type` of the callback page's message, e.g. 'tiktok-auth'. */
  messageType: string;
  /** The callback page reported back; listening has stopped. */
  onOutcome: (outcome: OAuthOutcome) => void;
  /** The popup was closed without a message; listening has stopped. */
  onClosed?: () => void;
}

/** The popup is checked this often for having been closed (spec section 4: each second). */
const POPUP_CLOSED_CHECK_MS = 1000;
/**
 * The callback page posts its message and closes itself at once; the message can arrive just after
 * the popup is seen closed, so a closed popup is given this long before the flow is abandoned.
 */
const LATE_MESSAGE_GRACE_MS = 300;
const POPUP_NAME = 'clipshift-oauth';
const UNKNOWN_ERROR = 'Unknown error';

/** The message of the callback page, or null for any other message. */
export function readOAuthMessage(data: unknown, messageType: string): OAuthOutcome | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as { type?: unknown; success?: unknown; error?: unknown };
  if (message.type !== messageType) return null;
  if (message.success === true) return { success: true };
  return { success: false, error: typeof message.error === 'string' && message.error ? message.error : UNKNOWN_ERROR };
}

/** Window features for a popup of the spec's size, centred on the current browser window. */
function centredPopupFeatures(width = OAUTH_POPUP_WIDTH, height = OAUTH_POPUP_HEIGHT): string {
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

interface Flow {
  popup: Window;
  dispose(): void;
}

interface FlowHandlers {
  onOutcome(outcome: OAuthOutcome): void;
  onClosed(): void;
}

/** Listens for the callback page's message from our own origin and checks each second whether the popup is closed. */
function watchPopup(popup: Window, messageType: string, handlers: FlowHandlers): Flow {
  let graceTimer: number | undefined;
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== window.location.origin) return;
    const outcome = readOAuthMessage(event.data, messageType);
    if (outcome) handlers.onOutcome(outcome);
  };
  const closedCheck = window.setInterval(() => {
    if (!popup.closed || graceTimer !== undefined) return;
    graceTimer = window.setTimeout(handlers.onClosed, LATE_MESSAGE_GRACE_MS);
  }, POPUP_CLOSED_CHECK_MS);
  window.addEventListener('message', onMessage);
  return {
    popup,
    dispose: () => {
      window.removeEventListener('message', onMessage);
      window.clearInterval(closedCheck);
      window.clearTimeout(graceTimer);
    },
  };
}

/** A blank popup opened inside the click (so no popup blocker objects), sent to the provider once its URL is known. */
function openBlankPopup(): Window | null {
  const popup = window.open('about:blank', POPUP_NAME, centredPopupFeatures());
  if (!popup) return null;
  try {
    popup.document.title = 'Connecting…';
    popup.document.body.style.font = '16px system-ui, sans-serif';
    popup.document.body.textContent = 'Connecting…';
  } catch {
    // A window of that name that already shows another site cannot be written to; it is navigated anyway.
  }
  return popup;
}

/**
 * An OAuth sign-in in a popup (600x700, centred): `start(getUrl)` opens the popup at once, sends
 * it to the URL that `getUrl` resolves to, and waits for the callback page's message from our own
 * origin. Waiting ends when the message arrives, when the popup is closed (checked each second),
 * when another flow starts, or when the component unmounts.
 */
export function useOAuthPopup({ messageType, onOutcome, onClosed }: OAuthPopupOptions) {
  const [waiting, setWaiting] = useState(false);
  const active = useRef<Flow | null>(null);
  const callbacks = useRef({ onOutcome, onClosed });
  useEffect(() => {
    callbacks.current = { onOutcome, onClosed };
  });

  const stop = useCallback(() => {
    active.current?.dispose();
    active.current = null;
    setWaiting(false);
  }, []);

  useEffect(
    () => () => {
      active.current?.dispose();
      active.current = null;
    },
    [],
  );

  const start = useCallback(
    async (getUrl: () => Promise<string>): Promise<OAuthStart> => {
      stop();
      const popup = openBlankPopup();
      if (!popup) return 'blocked';
      const flow = watchPopup(popup, messageType, {
        onOutcome: (outcome) => {
          if (active.current !== flow) return;
          stop();
          callbacks.current.onOutcome(outcome);
        },
        onClosed: () => {
          if (active.current !== flow) return;
          stop();
          callbacks.current.onClosed?.();
        },
      });
      active.current = flow;
      setWaiting(true);

      let url: string;
      try {
        url = await getUrl();
      } catch (error) {
        if (active.current === flow) stop();
        if (active.current?.popup !== popup) popup.close();
        throw error;
      }
      if (active.current !== flow) {
        // Unmounted, or the popup was closed meanwhile: a blank popup is not left behind.
        if (active.current?.popup !== popup) popup.close();
        return 'cancelled';
      }
      popup.location.replace(url);
      popup.focus();
      return 'started';
    },
    [messageType, stop],
  );

  return { start, waiting, cancel: stop };
}
