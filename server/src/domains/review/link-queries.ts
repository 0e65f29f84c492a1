import { sql, type Selectable } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { ApprovalLinksTable, StoredApproval } from '../../platform/db/schema.ts';

/* The approval_links table (migration 030), which the review domain owns. */

export type ApprovalLinkRow = Selectable<ApprovalLinksTable>;

export interface NewApprovalLink {
  userId: string;
  clipRowId: string;
  tokenHash: Buffer;
  approval: StoredApproval;
  expiresAt: Date;
}

/** Ends the clip's links nobody answered yet: a new link replaces them. */
export async function revokeOpenLinks(db: DbOrTrx, clipRowId: string): Promise<void> {
  await db.updateTable('approval_links').set({ revoked_at: sql<Date>`now()` }).where('clip_row_id', '=', clipRowId).where('answer', 'is', null).where('revoked_at', 'is', null).execute();
}

export async function insertApprovalLink(db: DbOrTrx, link: NewApprovalLink): Promise<void> {
  await db
    .insertInto('approval_links')
    .values({ user_id: link.userId, clip_row_id: link.clipRowId, token_hash: link.tokenHash, approval: JSON.stringify(link.approval), expires_at: link.expiresAt })
    .execute();
}

export function selectLinkByHash(db: DbOrTrx, tokenHash: Buffer): Promise<ApprovalLinkRow | undefined> {
  return db.selectFrom('approval_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Records the answer on a link that is still open, as one statement: of two answers racing, one
 * finds the link open and the other nothing. False when the link was not open any more.
 */
export async function claimLink(db: DbOrTrx, linkId: string, answer: 'approved' | 'rejected', note: string | null): Promise<boolean> {
  const claimed = await db
    .updateTable('approval_links')
    .set({ answer, answered_at: sql<Date>`now()`, note })
    .where('id', '=', linkId)
    .where('answer', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** The latest link of each of the user's clips made since `since`, newest first. */
export function selectLatestLinks(db: DbOrTrx, userId: string, since: Date, limit: number): Promise<ApprovalLinkRow[]> {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('approval_links')
        .selectAll()
        .distinctOn('clip_row_id')
        .where('user_id', '=', userId)
        .where('created_at', '>', since)
        .orderBy('clip_row_id')
        .orderBy('created_at', 'desc')
        .as('latest'),
    )
    .selectAll()
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
