import { sql } from 'kysely';
import type { DbOrTrx } from '../../platform/db/database.ts';

export interface StorageUsage {
  /** Every stored file of the user's clips: kept sources, videos and thumbnails. */
  bytes: number;
  clips: number;
}

/**
 * What the user's clips take in storage, summed from the rows (a bucket cannot be measured cheaply
 * on each request): the video's size, plus the source and thumbnail recorded when the clip was
 * stored (aux_bytes; absent for clips saved before migration 016). A clip whose video retention
 * deleted counts its thumbnail only.
 */
export async function storageUsage(db: DbOrTrx, userId: string): Promise<StorageUsage> {
  const row = await db
    .selectFrom('clips')
    .select([
      sql<string>`coalesce(sum(case when media_expired_at is null then coalesce(size_bytes, 0) else 0 end + coalesce(aux_bytes, 0)), 0)`.as('bytes'),
      sql<string>`count(*)`.as('clips'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { bytes: Number(row.bytes), clips: Number(row.clips) };
}
