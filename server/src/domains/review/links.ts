import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../platform/crypto.ts';
import { APPROVAL_LINK_DAYS, APPROVAL_LINK_MESSAGES, type ApprovalLinkState } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { failuresWithinLimits, RATE_LIMITS } from '../../platform/rate-limit.ts';
import type { ApprovalLinkRow } from './link-queries.ts';
import { selectLinkByHash } from './link-queries.ts';

/*
 * The approval link's token and states (docs/decisions/0046-approval-links.md). The token is 32
 * random bytes (256 bits), base64url: the link is the only credential its holder has, so it must be
 * unguessable; only its SHA-256 is stored, so the table cannot be turned into working links.
 */

const TOKEN_BYTES = 32;
/** base64url of 32 bytes, unpadded. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

export const APPROVAL_LINK_TTL_MS = APPROVAL_LINK_DAYS * DAY_MS;

export interface IssuedToken {
  token: string;
  hash: Buffer;
}

export function issueLinkToken(): IssuedToken {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

/** A lookup by the stored hash (platform's hashSecret) reveals nothing of the token through timing. */
const hashLinkToken = hashSecret;

export const linkInvalid = () => notFound(APPROVAL_LINK_MESSAGES.invalid);

/** The link a token names; 404 for anything that is not one of ours (wrong shape, changed, unknown). */
export async function findLink(db: DbOrTrx, token: string): Promise<ApprovalLinkRow> {
  if (!TOKEN_SHAPE.test(token)) throw linkInvalid();
  const row = await selectLinkByHash(db, hashLinkToken(token));
  if (!row) throw linkInvalid();
  return row;
}

/**
 * Why a link nobody answered cannot be answered (replaced by a newer one, expired), or null while
 * it is open. An answered link is for the caller to describe.
 */
export function unansweredLinkProblem(row: ApprovalLinkRow, now: Date): Error | null {
  if (row.revoked_at) return conflict(APPROVAL_LINK_MESSAGES.replaced);
  if (row.expires_at.getTime() <= now.getTime()) return conflict(APPROVAL_LINK_MESSAGES.expired);
  return null;
}

/**
 * Runs a look-up of a link for a client without a session, spending that address's budget only
 * when it fails (an unknown, used or expired link): nobody can walk tokens, while the person
 * holding a good link may open its page and play its video as often as they like.
 */
export function limitedToAddress<T>(db: DbOrTrx, ip: string, attempt: () => Promise<T>): Promise<T> {
  return failuresWithinLimits(db, [{ key: `approval-link:${ip}`, rule: RATE_LIMITS.approvalLink }], attempt);
}

/** The state the inbox shows of a clip's latest link. */
export function linkState(row: ApprovalLinkRow, now: Date): ApprovalLinkState['status'] {
  if (row.answer) return row.answer;
  return row.expires_at.getTime() <= now.getTime() ? 'expired' : 'open';
}
