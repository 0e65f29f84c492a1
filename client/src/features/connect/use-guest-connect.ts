import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ACCOUNT_PLATFORMS, PASSKEY_INCOMPLETE, passkeyFromQuery, type AccountPlatform } from '@clipshift/shared';
import { useGuestPlatformConnect, usePasskeyVerification } from '@/api/guests';
import { charsFromPasskey, EMPTY_PASSKEY, isComplete, type PasskeyChars } from './passkey-entry';

/**
 * The guest page's state: the boxes (prefilled from ?passkey= when it cleans to six characters),
 * verification, and connecting an account of any platform; a connected account or Use Different Passkey starts over.
 */
export function useGuestConnect() {
  const [searchParams] = useSearchParams();
  const [chars, setChars] = useState<PasskeyChars>(() => charsFromPasskey(passkeyFromQuery(searchParams.get('passkey'))));
  const [submitError, setSubmitError] = useState<string | null>(null);
  const complete = isComplete(chars);
  const passkey = chars.join('');
  const verification = usePasskeyVerification(passkey, complete);
  const { reset: resetVerification, verify } = verification;

  const startOver = useCallback(() => {
    setChars(EMPTY_PASSKEY);
    setSubmitError(null);
    resetVerification();
  }, [resetVerification]);

  const connects: Record<AccountPlatform, ReturnType<typeof useGuestPlatformConnect>> = {
    tiktok: useGuestPlatformConnect('tiktok', passkey, startOver),
    youtube: useGuestPlatformConnect('youtube', passkey, startOver),
    instagram: useGuestPlatformConnect('instagram', passkey, startOver),
    facebook: useGuestPlatformConnect('facebook', passkey, startOver),
  };

  const change = useCallback((next: PasskeyChars) => {
    setChars(next);
    setSubmitError(null);
  }, []);

  const submit = useCallback(() => {
    if (!complete) {
      setSubmitError(PASSKEY_INCOMPLETE);
      return;
    }
    verify(passkey);
  }, [complete, passkey, verify]);

  return {
    chars,
    passkey,
    change,
    submit,
    submitError,
    verified: verification.verified,
    verifying: verification.verifying,
    refused: verification.refused,
    throttled: verification.throttled,
    connect: (platform: AccountPlatform) => connects[platform].connect(),
    /** Which platform's window is open, if any. */
    connecting: ACCOUNT_PLATFORMS.find((platform) => connects[platform].connecting) ?? null,
    startOver,
  };
}
