import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { errorCode, isNetworkError, serverMessage, trpc } from '@/lib/trpc';
import { connectMessages } from './connect-messages';

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

function verifyErrorMessage(error: unknown): string {
  if (isNetworkError(error)) return connectMessages.verifyFailed;
  return serverMessage(error) ?? connectMessages.invalid;
}

/**
 * Verification of the typed passkey (spec section 4): automatic once all six characters are there
 * and differ from the last attempt; fewer than six means not verified. The state is that of the
 * passkey now in the boxes, so an answer about an earlier passkey never shows.
 */
export function usePasskeyVerification(passkey: string, complete: boolean) {
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
      if (input.passkey === current.current) toast.error(verifyErrorMessage(error));
    },
  });
  const { mutate, reset: resetMutation } = mutation;

  const verify = useCallback(
    (key: string) => {
      lastAttempt.current = key;
      mutate({ passkey: key });
    },
    [mutate],
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
