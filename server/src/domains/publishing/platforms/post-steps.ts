import { MEDIA_EXPIRED_MESSAGE } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import type { DbOrTrx } from '../../../platform/db/database.ts';
import { findClipById, localClipFile, type ClipRow } from '../../clips/service.ts';
import { StorageMissing } from '../../../platform/storage/index.ts';
import { throttledWriter } from '../../../platform/throttled-writer.ts';
import type { Insertable, Updateable } from 'kysely';
import type { AccountsTable, PostStats } from '../../../platform/db/schema.ts';
import { reattachUploads, updateUploadPercent, upsertAccountRow, type AccountRow } from '../queries.ts';
import type { UploadRow } from '../uploads.ts';

/* What the platforms' adapters share: the video on this machine, progress, event data, storing an account, reading counts. */

/** What a post's webhooks are told about it (the clip may be gone by the time a post fails). */
export async function postEventData(db: DbOrTrx, upload: UploadRow) {
  const clip = await findClipById(db, upload.clip_row_id);
  return { upload_id: upload.id, clip_id: clip?.clip_id ?? '', clip_title: clip?.title ?? '', account: upload.account_name, platform: upload.platform };
}

export type ChunkProgress = (uploadedBytes: number, totalBytes: number) => void;

/**
 * Runs a chunk transfer, saving the share of the video the platform has received as chunks are
 * accepted (at most once a second). Nothing is written once it returns, so the status that
 * follows (processing, 100 %) is never overwritten by a late progress write.
 */
export async function withUploadProgress<T>(deps: AppDeps, uploadId: string, transfer: (onProgress: ChunkProgress) => Promise<T>): Promise<T> {
  const writer = throttledWriter((percent: number) => updateUploadPercent(deps.db, uploadId, percent));
  try {
    return await transfer((uploadedBytes, totalBytes) => writer.push(Math.floor((uploadedBytes / totalBytes) * 100)));
  } finally {
    await writer.stop();
  }
}

/** The clip's video on this machine; a clip whose video retention deleted cannot be posted again. */
export async function videoToSend(deps: AppDeps, clip: ClipRow, scratchDir: string, signal: AbortSignal): Promise<string> {
  try {
    return await localClipFile(deps.storage, clip, 'video', scratchDir, signal);
  } catch (error) {
    if (!(error instanceof StorageMissing)) throw error;
    throw new Error(clip.media_expired_at ? MEDIA_EXPIRED_MESSAGE : 'The clip\'s video file is missing');
  }
}

/**
 * Stores a connected account for its owner (the same platform id again updates the existing row);
 * the same account removed and connected again gets its post history back.
 */
export async function storeAccount(db: DbOrTrx, values: Insertable<AccountsTable>, update: Updateable<AccountsTable>): Promise<AccountRow> {
  const account = await upsertAccountRow(db, values, update);
  await reattachUploads(db, account);
  return account;
}

/** Counts a platform reports as null (not told) read as 0, except shares, which some platforms never tell. */
type ReportedCounts = { views: number | null; likes: number | null; comments: number | null; shares: number | null };

/**
 * Counts read one post at a time (Meta's insights have no batch read): a post the platform says is
 * gone is left out (the statistics run stops reading it); any other failure ends the reading.
 */
export async function countsOneByOne(ids: readonly string[], read: (id: string) => Promise<ReportedCounts>, gone: (error: unknown) => boolean): Promise<Map<string, PostStats>> {
  const counts = new Map<string, PostStats>();
  for (const id of ids) {
    try {
      const stats = await read(id);
      counts.set(id, { views: stats.views ?? 0, likes: stats.likes ?? 0, comments: stats.comments ?? 0, shares: stats.shares });
    } catch (error) {
      if (!gone(error)) throw error;
    }
  }
  return counts;
}
