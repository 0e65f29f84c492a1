import { hashSecret } from '../../platform/crypto.ts';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { TOKEN_PREFIX, TOKENS_PER_USER_MAX, type ApiToken, type CreatedToken, type CreateTokenInput, type PublicUser, type TokenScope } from '@clipshift/shared';
import { findPublicUser } from '../auth/service.ts';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import { badRequest, notFound, unauthorized } from '../../platform/errors.ts';
import { consumeRateLimit, countAttempt, RATE_LIMITS, RateLimited } from '../../platform/rate-limit.ts';
import { countTokens, deleteTokenRow, insertToken, lockUserTokens, selectTokenByLookup, selectTokens, touchToken, type TokenColumns } from './queries.ts';

/**
 * API tokens (docs/decisions/0044-api-tokens-and-scopes.md). A token reads
 * `cs_<lookup>_<secret>`: the row is found by its lookup half and the secret's SHA-256 compared in
 * constant time, as sessions are (auth/sessions.ts). Nothing is cached: a revoked token (its row
 * deleted) fails on the very next request.
 */

/** last_used_at is written at most once a minute per token: one write a minute, not one a request. */
const LAST_USED_EVERY_SECONDS = 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const LOOKUP_BYTES = 15; // 120 bits: 24 characters
const SECRET_BYTES = 20; // 160 bits: 32 characters
const TOKEN_PATTERN = /^cs_([a-z2-7]{24})_([a-z2-7]{32})$/;

export const INVALID_TOKEN = 'This API token is not valid: it is unknown, revoked or expired';
const TOKEN_NOT_FOUND = 'API token not found';
const ADMIN_SCOPE_FOR_ADMINS = 'Only administrators can give a token the admin scope';
const TOO_MANY_FAILURES = 'Too many requests with an invalid API token from this address. Please wait and try again.';
const TOO_MANY_REQUESTS = 'This API token made too many requests. Please slow down and try again in a moment.';

const randomPart = (bytes: number) => encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));

function toApiToken(row: TokenColumns): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}

/** The user's tokens, newest first, without their values (those are shown once, at creation). */
export async function listTokens(db: DbOrTrx, userId: string): Promise<ApiToken[]> {
  return (await selectTokens(db, userId)).map(toApiToken);
}

/** Makes a token for the user; its value is in this answer only (the row keeps the secret's hash). */
export async function createToken(db: Db, user: PublicUser, input: CreateTokenInput, now = new Date()): Promise<CreatedToken> {
  const scopes = [...new Set(input.scopes)] as TokenScope[];
  if (scopes.includes('admin') && !user.is_admin) throw badRequest(ADMIN_SCOPE_FOR_ADMINS);
  const lookup = randomPart(LOOKUP_BYTES);
  const secret = randomPart(SECRET_BYTES);
  const expiresAt = input.expires_in_days === undefined ? null : new Date(now.getTime() + input.expires_in_days * DAY_MS);
  const row = await db.transaction().execute(async (trx) => {
    await lockUserTokens(trx, user.id);
    if ((await countTokens(trx, user.id)) >= TOKENS_PER_USER_MAX) throw badRequest(`You can have at most ${TOKENS_PER_USER_MAX} API tokens: revoke one first`);
    return insertToken(trx, { user_id: user.id, name: input.name.trim(), lookup, secret_hash: hashSecret(secret), scopes, expires_at: expiresAt });
  });
  return { ...toApiToken(row), token: `${TOKEN_PREFIX}${lookup}_${secret}` };
}

/** Revokes (deletes) one of the user's tokens: the next request with it answers 401. */
export async function revokeToken(db: DbOrTrx, userId: string, id: string | null): Promise<void> {
  if (id === null || !(await deleteTokenRow(db, userId, id))) throw notFound(TOKEN_NOT_FOUND);
}

export interface TokenPrincipal {
  tokenId: string;
  scopes: TokenScope[];
  user: PublicUser;
}

/** The token's row when the value is one of ours and still valid; null otherwise. */
async function findValidToken(db: DbOrTrx, token: string) {
  const parts = TOKEN_PATTERN.exec(token);
  if (!parts) return null;
  const row = await selectTokenByLookup(db, parts[1] ?? '', LAST_USED_EVERY_SECONDS);
  if (!row || row.expired) return null;
  if (!constantTimeEqual(new Uint8Array(row.secret_hash), new Uint8Array(hashSecret(parts[2] ?? '')))) return null;
  return row;
}

/**
 * Who a request's bearer token speaks for. Every request of a token counts in its budget
 * (RATE_LIMITS.apiToken); an invalid one counts against the client's address
 * (RATE_LIMITS.apiTokenFailures) and answers 401, or 429 once that budget is spent.
 */
export async function authenticateToken(db: DbOrTrx, token: string, clientIp: string): Promise<TokenPrincipal> {
  const row = await findValidToken(db, token);
  const user = row && (await findPublicUser(db, row.user_id));
  if (!row || !user) {
    const { hits, secondsLeft } = await countAttempt(db, `api-token-failure:${clientIp}`, RATE_LIMITS.apiTokenFailures);
    if (hits > RATE_LIMITS.apiTokenFailures.max) throw new RateLimited(TOO_MANY_FAILURES, secondsLeft);
    throw unauthorized(INVALID_TOKEN);
  }
  await consumeRateLimit(db, `api-token:${row.id}`, RATE_LIMITS.apiToken, () => TOO_MANY_REQUESTS);
  if (row.stale) await touchToken(db, row.id, LAST_USED_EVERY_SECONDS);
  return { tokenId: row.id, scopes: row.scopes, user };
}
