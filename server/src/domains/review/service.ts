import { sortByRank, type ApproveClipRequest } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { AppError, conflict, type AppErrorCode } from '../../platform/errors.ts';
import { countPendingClips, findClipRow, pendingClips, settlePendingClip, type ClipListRow, type ClipRow } from '../clips/service.ts';
import { recordLog } from '../logs/service.ts';
import { queueUnattendedUploads, targetAccounts, type UploadRow } from '../publishing/service.ts';

/*
 * The review inbox: clips a run saved for a streamer in `review` publish mode wait here (the run
 * marks them pending, see saveClip) until the user approves them, which queues their posts like an
 * auto post would, or rejects them, which keeps them in the library and out of every automatic post.
 */

/** What one clip of a bulk approval may fail with while the others go on. */
const PER_CLIP_FAILURES = new Set<AppErrorCode>(['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT']);

const NOT_WAITING = (clipId: string) => conflict(`Clip ${clipId} is not waiting for review`);

export function listPendingClips(db: DbOrTrx, userId: string): Promise<ClipListRow[]> {
  return pendingClips(db, userId);
}

export function countPending(db: DbOrTrx, userId: string): Promise<number> {
  return countPendingClips(db, userId);
}

async function pendingClip(db: DbOrTrx, userId: string, clipId: string): Promise<ClipRow> {
  const clip = await findClipRow(db, userId, clipId);
  if (clip.review_status !== 'pending') throw NOT_WAITING(clipId);
  return clip;
}

export interface Approval {
  clip: ClipRow;
  uploads: UploadRow[];
}

/**
 * Approves a clip waiting for review: its posts are queued to the accounts (with the privacy the
 * user chose for each, which is required) and the clip leaves the inbox, in one transaction.
 */
export async function approveClip(deps: AppDeps, userId: string, input: Omit<ApproveClipRequest, 'clip_id'> & { clip_id: string }): Promise<Approval> {
  const clip = await pendingClip(deps.db, userId, input.clip_id);
  const accountIds = await targetAccounts(deps.db, userId, input.account_ids ?? [], clip);
  const description = input.description?.trim() || (sortByRank(clip.descriptions)[0]?.description ?? clip.title);
  const uploads = await deps.db.transaction().execute(async (trx) => {
    if (!(await settlePendingClip(trx, clip.id, 'approved'))) throw NOT_WAITING(clip.clip_id);
    return queueUnattendedUploads(
      trx,
      {
        userId,
        clipRowId: clip.id,
        accountIds,
        description,
        clipTitle: clip.title,
        mode: deps.env.TIKTOK_POST_MODE,
        commercial: input.tiktok_commercial,
        youtubeNotifySubscribers: input.youtube_notify_subscribers,
        instagram: input.instagram,
      },
      { requireChoice: true },
    );
  });
  await recordLog(deps.db, deps.logger, {
    level: 'INFO',
    logger: 'review',
    message: `Approved "${clip.title}": queued for ${uploads.length} account${uploads.length === 1 ? '' : 's'}`,
    userId,
  });
  return { clip, uploads };
}

export interface BulkApproval {
  approved: number;
  uploads: UploadRow[];
  failed: { clip_id: string; message: string }[];
}

/**
 * Approves each clip on its own (the best-ranked suggestion, the streamer's linked accounts): one
 * clip that cannot be approved is reported in `failed` and does not hold the others back.
 */
export async function approveClips(deps: AppDeps, userId: string, clipIds: readonly string[], choices: Pick<ApproveClipRequest, 'youtube_notify_subscribers'> = {}): Promise<BulkApproval> {
  const result: BulkApproval = { approved: 0, uploads: [], failed: [] };
  for (const clipId of new Set(clipIds)) {
    try {
      const approval = await approveClip(deps, userId, { clip_id: clipId, ...choices });
      result.approved += 1;
      result.uploads.push(...approval.uploads);
    } catch (error) {
      // Only the user's mistakes are reported per clip; anything else (the database) fails the request.
      if (!(error instanceof AppError) || !PER_CLIP_FAILURES.has(error.code)) throw error;
      result.failed.push({ clip_id: clipId, message: error.message });
    }
  }
  return result;
}

/** Rejects a clip waiting for review: it stays in the library and is never posted automatically. */
export async function rejectClip(deps: AppDeps, userId: string, clipId: string): Promise<ClipRow> {
  const clip = await pendingClip(deps.db, userId, clipId);
  if (!(await settlePendingClip(deps.db, clip.id, 'rejected'))) throw NOT_WAITING(clipId);
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'review', message: `Rejected "${clip.title}": it stays in the library and will not be posted`, userId });
  return clip;
}
