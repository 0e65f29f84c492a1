import { z } from 'zod';

export const CREDENTIALS_REQUIRED = 'Username and password are required';
export const INVITE_REQUIRED = 'Invite code is required for registration';
export const USERNAME_RULE = 'Username must be 3 to 32 characters: letters, digits, _, - or .';
export const PASSWORD_RULE = 'Password must be at least 8 characters';
export const PASSWORD_MAX_RULE = 'Password must be at most 256 characters';
export const INVITE_CODE_TEXT = 'Invite code must be text';

/**
 * A string that must be non-blank once trimmed; the message is the spec's for both fields. A check
 * of the string (not a refinement), like the rules below, so that the OpenAPI document shows it.
 */
const requiredText = z.string({ error: CREDENTIALS_REQUIRED }).regex(/\S/, { error: CREDENTIALS_REQUIRED, abort: true });

export const loginInput = z.object(
  {
    username: requiredText.transform((value) => value.trim()),
    // Passwords are checked for blankness but never altered: spaces may be part of them.
    password: requiredText,
  },
  // A body that is not an object (null, an array, a string) lacks both fields.
  { error: CREDENTIALS_REQUIRED },
);
export type LoginInput = z.infer<typeof loginInput>;

/** 3 to 32 of A-Z a-z 0-9 _ . - as sent, with the spaces around it that trimming removes. */
const SENT_USERNAME_PATTERN = /^\s*[A-Za-z0-9_.-]{3,32}\s*$/;

export const registerInput = z.object(
  {
    username: requiredText.regex(SENT_USERNAME_PATTERN, USERNAME_RULE).transform((value) => value.trim()),
    password: requiredText.min(8, PASSWORD_RULE).max(256, PASSWORD_MAX_RULE),
    invite_code: z.string({ error: INVITE_CODE_TEXT }).nullish(),
  },
  { error: CREDENTIALS_REQUIRED },
);
export type RegisterInput = z.infer<typeof registerInput>;

export const publicUser = z.object({
  id: z.string(),
  username: z.string(),
  is_admin: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUser>;

export const registrationStatus = z.object({
  enabled: z.boolean(),
  invite_required: z.boolean(),
});
export type RegistrationStatus = z.infer<typeof registrationStatus>;

export const REGISTRATION_MODES = ['open', 'invite', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/** The registration status the spec derives from the configured mode. */
export function registrationStatusFor(mode: RegistrationMode, hasUsers: boolean): RegistrationStatus {
  if (!hasUsers) return { enabled: true, invite_required: false };
  if (mode === 'open') return { enabled: true, invite_required: false };
  if (mode === 'invite') return { enabled: false, invite_required: true };
  return { enabled: false, invite_required: false };
}

/** The cached auth state the browser keeps for 5 minutes. */
export const cachedAuthState = z.object({
  authenticated: z.boolean(),
  timestamp: z.number(),
});
export type CachedAuthState = z.infer<typeof cachedAuthState>;
