import { z } from 'zod';

export const PASSKEY_LENGTH = 6;
export const PASSKEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const PASSKEY_INCOMPLETE = 'Please enter a 6-character passkey';
export const PASSKEY_INVALID = 'Invalid passkey';
export const PASSKEY_PLACEHOLDER = '----';

/** Letters and digits only, uppercased (spec section 5); may be shorter or longer than 6. */
export function cleanPasskey(input: string): string {
  return input.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

/** The query parameter counts only when it cleans to exactly 6 characters. */
export function passkeyFromQuery(value: string | null | undefined): string | null {
  if (!value) return null;
  const cleaned = cleanPasskey(value);
  return cleaned.length === PASSKEY_LENGTH ? cleaned : null;
}

export const passkeyInput = z.object(
  {
    passkey: z
      .string({ error: PASSKEY_INCOMPLETE })
      .transform(cleanPasskey)
      .refine((value) => value.length === PASSKEY_LENGTH, PASSKEY_INCOMPLETE),
  },
  { error: PASSKEY_INCOMPLETE },
);
