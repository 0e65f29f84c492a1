import { sql } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { ClipReviewStatus } from '../../platform/db/schema.ts';
import { CLIP_LIST_COLUMNS, type ClipListRow } from '../clips/service.ts';

/* The review columns of clips (review_status, reviewed_at): the inbox's state of each clip. */

/** The user's clips waiting for review, the longest waiting first. */
export function selectPendingClips(db: DbOrTrx, userId: string): Promise<ClipListRow[]> {
  return db
    .selectFrom('clips')
    .select(CLIP_LIST_COLUMNS)
    .where('user_id', '=', userId)
    .where('review_status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countPendingClips(db: DbOrTrx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('clips')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('user_id', '=', userId)
    .where('review_status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return row.count;
}

/**
 * Settles a pending clip (approved or rejected); false when it was not pending any more, so two
 * approvals racing settle it once.
 */
export async function settlePendingClip(db: DbOrTrx, clipRowId: string, status: Exclude<ClipReviewStatus, 'pending'>): Promise<boolean> {
  const row = await db
    .updateTable('clips')
    .set({ review_status: status, reviewed_at: new Date() })
    .where('id', '=', clipRowId)
    .where('review_status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
