import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { PASSKEY_INVALID, PLATFORM_LABELS, type AccountPlatform } from '@clipshift/shared';
import { errorCode, failureText, isNetworkError } from './errors';
import { usePlatformAuthPopup } from './platform-connect';
import { trpc } from './trpc';

/** Guest page toasts of spec section 8. */
const guestMessages = {
  verifyFailed: 'Failed to verify passkey. Please try again.',
  authUrlFailed: (platform: AccountPlatform) => `Failed to get ${PLATFORM_LABELS[platform]} authorization URL`,
  connectFailed: (platform: AccountPlatform) => `Failed to connect to ${PLATFORM_LABELS[platform]}. Please try again.`,
} as const;

/**
 * How the server judged one passkey: `refused` is a real "no" (not a lost connection, not a
 * throttle); `throttled` says nothing about the code, only that this browser must wait.
 */
interface VerifyResult {
  passkey: string;
  valid: boolean;
  refused: boolean;
  throttled: boolean;
}

/**
 * The guest visit, started once per page before the first passkey is checked: the server gives
 * this browser its own budget for wrong passkeys, so somebody guessing from the same address (a
 * shared network, a proxy) does not use it up. A failure is no reason to stop: the check then
 * shares the address's budget, as it did before visits.
 */
function useGuestVisit(): () => Promise<void> {
  const { mutateAsync } = trpc.guests.startVisit.useMutation();
  const started = useRef<Promise<void> | null>(null);
  const start = useCallback(() => {
    started.current ??= mutateAsync().then(
      () => undefined,
      () => undefined,
    );
    return started.current;
  }, [mutateAsync]);
  useEffect(() => {
    void start();
  }, [start]);
  return start;
}

/**
 * Verification of the typed passkey (spec section 4): automatic once all six characters are there
 * and differ from the last attempt; fewer than six means not verified. The state is that of the
 * passkey now in the boxes, so an answer about an earlier passkey never shows.
 */
export function usePasskeyVerification(passkey: string, complete: boolean) {
  const visitStarted = useGuestVisit();
  const [result, setResult] = useState<VerifyResult | null>(null);
  const lastAttempt = useRef<string | null>(null);
  const current = useRef(passkey);
  useEffect(() => {
    current.current = passkey;
  }, [passkey]);

  const mutation = trpc.guests.verifyPasskey.useMutation({
    onSuccess: (_answer, input) => setResult({ passkey: input.passkey, valid: true, refused: false, throttled: false }),
    onError: (error, input) => {
      const throttled = errorCode(error) === 'TOO_MANY_REQUESTS';
      setResult({ passkey: input.passkey, valid: false, refused: !throttled && !isNetworkError(error), throttled });
      if (input.passkey === current.current) toast.error(failureText(error, { fallback: PASSKEY_INVALID, offline: guestMessages.verifyFailed }));
    },
  });
  const { mutate, reset: resetMutation } = mutation;

  const verify = useCallback(
    (key: string) => {
      lastAttempt.current = key;
      void visitStarted().then(() => mutate({ passkey: key }));
    },
    [mutate, visitStarted],
  );

  useEffect(() => {
    if (complete && passkey !== lastAttempt.current) verify(passkey);
  }, [complete, passkey, verify]);

  const reset = useCallback(() => {
    lastAttempt.current = null;
    setResult(null);
    resetMutation();
  }, [resetMutation]);

  const judged = complete && result?.passkey === passkey ? result : null;
  return {
    verified: judged?.valid === true,
    refused: judged?.refused === true,
    throttled: judged?.throttled === true,
    verifying: complete && mutation.isPending && mutation.variables?.passkey === passkey,
    verify,
    reset,
  };
}

/** The signed-in user's guest passkey (Settings shows it with the guest page's link). */
export function useCurrentPasskey() {
  return trpc.guests.currentPasskey.useQuery();
}

/**
 * Connect an account of any platform as a guest: the platform's authorize URL for the verified
 * passkey (tRPC accounts.guestAuthUrl), opened in the OAuth popup; `onConnected` runs after the
 * success toast. Waiting also ends when the popup is closed.
 */
export function useGuestPlatformConnect(platform: AccountPlatform, passkey: string, onConnected: () => void) {
  const { mutateAsync } = trpc.accounts.guestAuthUrl.useMutation();
  const popup = usePlatformAuthPopup(platform, { onConnected });
  const { start } = popup;

  const connect = useCallback(() => {
    const authUrl = async () => (await mutateAsync({ platform, passkey })).auth_url;
    start(authUrl).catch((error: unknown) =>
      toast.error(failureText(error, { fallback: guestMessages.authUrlFailed(platform), offline: guestMessages.connectFailed(platform) })),
    );
  }, [mutateAsync, passkey, platform, start]);

  return { connect, connecting: popup.waiting };
}
