import { INVITE_ALPHABET, INVITE_CODE_LENGTH } from '@clipshift/shared';

/**
 * 24 characters drawn uniformly from a 32-symbol alphabet: 24 × 5 = 120 bits of randomness.
 * 32 divides 256, so taking each byte modulo 32 has no bias.
 */
export function generateInviteCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(INVITE_CODE_LENGTH));
  let code = '';
  for (const byte of bytes) code += INVITE_ALPHABET[byte % INVITE_ALPHABET.length];
  return code;
}
