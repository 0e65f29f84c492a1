import { PASSKEY_INCOMPLETE, PASSKEY_INVALID } from '@clipshift/shared';

/** Guest page messages of spec sections 5 and 8. */
export const connectMessages = {
  incomplete: PASSKEY_INCOMPLETE,
  invalid: PASSKEY_INVALID,
  verifyFailed: 'Failed to verify passkey. Please try again.',
  authUrlFailed: 'Failed to get TikTok authorization URL',
  connectFailed: 'Failed to connect to TikTok. Please try again.',
} as const;
