import { PASSKEY_INCOMPLETE, PASSKEY_INVALID } from '@clipshift/shared';

/** Guest page messages of spec sections 5 and 8. */
export const connectMessages = {
  incomplete: PASSKEY_INCOMPLETE,
  invalid: PASSKEY_INVALID,
  verifyFailed: 'Failed to verify passkey. Please try again.',
  authUrlFailed: 'Failed to get TikTok authorization URL',
  connectFailed: 'Failed to connect to TikTok. Please try again.',
  /** Under the boxes after a 429: the code may well be right, so it is not called wrong. */
  throttled: 'Too many attempts for now; this says nothing about the code. Wait a few minutes, then press Verify Passkey.',
} as const;
