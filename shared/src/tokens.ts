import { z } from 'zod';
import { rowId } from './input.ts';

/**
 * API tokens (rest-api.md "Tokens and agents"): what a script or an AI assistant signs in with,
 * `Authorization: Bearer <token>`. A token's scopes narrow what its user may do, never widen it.
 */
export const TOKEN_SCOPES = ['read', 'write', 'post', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const TOKEN_SCOPE_LABELS: Record<TokenScope, string> = {
  read: 'Read: every GET (streamers, clips, review, queue, statistics, logs)',
  write: 'Write: streamers, downloads, clips, studio, review',
  post: 'Post: posting and the queue',
  admin: 'Admin: invite codes (administrators only)',
};

/** Every token starts so, to be recognisable in a config file or a secret scanner. */
export const TOKEN_PREFIX = 'cs_';
export const TOKEN_NAME_MAX_LENGTH = 100;
export const TOKEN_EXPIRY_MAX_DAYS = 365;
export const TOKENS_PER_USER_MAX = 50;

/** The 403 of a token calling beyond its scopes; the words are the contract's. */
export const tokenLacksScope = (scope: TokenScope) => `This token lacks the ${scope} scope`;

const NAME_RULE = `name must be 1 to ${TOKEN_NAME_MAX_LENGTH} characters`;
const SCOPES_RULE = `scopes must list at least one of ${TOKEN_SCOPES.join(', ')}`;
const EXPIRY_RULE = `expires_in_days must be a whole number from 1 to ${TOKEN_EXPIRY_MAX_DAYS} (left out: the token never expires)`;

export const createTokenInput = z.object({
  name: z.string({ error: NAME_RULE }).trim().min(1, NAME_RULE).max(TOKEN_NAME_MAX_LENGTH, NAME_RULE),
  scopes: z
    .array(z.enum(TOKEN_SCOPES, { error: SCOPES_RULE }), { error: SCOPES_RULE })
    .min(1, SCOPES_RULE)
    .max(TOKEN_SCOPES.length * 2, SCOPES_RULE),
  expires_in_days: z.number({ error: EXPIRY_RULE }).int(EXPIRY_RULE).min(1, EXPIRY_RULE).max(TOKEN_EXPIRY_MAX_DAYS, EXPIRY_RULE).optional(),
});
export type CreateTokenInput = z.input<typeof createTokenInput>;

export const tokenIdInput = z.object({ id: rowId('id is required') });

export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  created_at: z.string(),
  /** null: never expires. */
  expires_at: z.string().nullable(),
  /** Within a minute: the time is written at most once a minute per token. */
  last_used_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiToken>;

/** The creation answer: the token and its value, shown this once (only its hash is kept). */
export const createdToken = apiToken.extend({ token: z.string() });
export type CreatedToken = z.infer<typeof createdToken>;
