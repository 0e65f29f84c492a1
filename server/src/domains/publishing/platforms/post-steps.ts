import { MEDIA_EXPIRED_MESSAGE } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import type { DbOrTrx } from '../../../platform/db/database.ts';
import { findClipById, localClipFile, type ClipRow } from '../../clips/service.ts';
import { StorageMissing } from '../../../platform/storage/index.ts';
import { throttledWriter } from '../../../platform/throttled-writer.ts';
import { updateUploadPercent } from '../queries.ts';
import type { UploadRow } from '../uploads.ts';

/* What the platforms' post runs share: the video on this machine, progress, event data. */

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
