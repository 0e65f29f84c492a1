import { z } from 'zod';
import { INVITE_DAYS_DEFAULT, INVITE_DAYS_MAX, INVITE_LIST_LIMIT } from './constants.ts';
import { queryInt } from './input.ts';

/** 24 characters from a 32-letter alphabet: 120 bits, shown as six groups of four. */
export const INVITE_CODE_LENGTH = 24;
const INVITE_CODE_GROUP = 4;
/** Crockford-style alphabet without I, L, O, U so codes read aloud without confusion. */
export const INVITE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const INVITE_CODE_HINT = 'Accepted with or without dashes: XXXX-XXXX-XXXX-XXXX-XXXX-XXXX';
export const INVALID_INVITE = 'Invalid or expired invite code';

/** Strips dashes and spaces and uppercases, so any way a person types a code matches. */
export function normalizeInviteCode(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}

/** Groups of four characters separated by dashes (spec section 5). */
export function formatInviteCode(code: string): string {
  const plain = normalizeInviteCode(code);
  return plain.match(new RegExp(`.{1,${INVITE_CODE_GROUP}}`, 'g'))?.join('-') ?? '';
}

export type InviteDisplayStatus = 'Used' | 'Expired' | 'Active';

/** Used if used; else Expired if past its expiry; else Active (spec section 4). */
export function inviteDisplayStatus(
  invite: { is_used: boolean; expires_at: string },
  now: Date = new Date(),
): InviteDisplayStatus {
  if (invite.is_used) return 'Used';
  if (new Date(invite.expires_at).getTime() <= now.getTime()) return 'Expired';
  return 'Active';
}

const INVITE_LIMIT_RULE = 'limit must be between 1 and 200';

export const generateInviteInput = z
  .object({
    days_valid: z
      .number({ error: 'days_valid must be a number' })
      .int('days_valid must be a whole number of days')
      .min(1, 'days_valid must be between 1 and 365')
      .max(INVITE_DAYS_MAX, 'days_valid must be between 1 and 365')
      .default(INVITE_DAYS_DEFAULT),
  })
  .default({ days_valid: INVITE_DAYS_DEFAULT });

export const listInvitesInput = z
  .object({
    limit: queryInt(z.number().int(INVITE_LIMIT_RULE).min(1, INVITE_LIMIT_RULE).max(200, INVITE_LIMIT_RULE), INVITE_LIMIT_RULE).default(
      INVITE_LIST_LIMIT,
    ),
  })
  .default({ limit: INVITE_LIST_LIMIT });

export const inviteCode = z.object({
  id: z.string(),
  code: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  is_used: z.boolean(),
  used_by_user_id: z.string().nullable(),
  used_by_username: z.string().nullable(),
  used_at: z.string().nullable(),
});
export type InviteCode = z.infer<typeof inviteCode>;

export const generatedInvite = z.object({
  id: z.string(),
  code: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  days_valid: z.number(),
});
export type GeneratedInvite = z.infer<typeof generatedInvite>;
