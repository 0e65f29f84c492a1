import { DAY_MS } from '../../../platform/zoned-time.ts';
import type { AppDeps } from '../../deps.ts';
import { expireClipMedia } from '../../clips/service.ts';
import { recordLog } from '../../logs/service.ts';
import { MEDIA_RETENTION_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob } from '../../../platform/queue/define.ts';
import { selectClipsPostedBefore } from '../queries.ts';

const BATCH = 200;

/**
 * MEDIA_RETENTION_DAYS: the source and video of clips whose last successful post (published, or
 * sent to the TikTok inbox) is older than that many days, and which have nothing left to post, are
 * deleted; the row, thumbnail and post history stay, and the clip says so. Unset keeps everything.
 * Lives with publishing because posts decide it; the clips domain owns the files it deletes.
 */
export async function expirePostedMedia(deps: AppDeps, now = new Date()): Promise<number> {
  const days = deps.env.MEDIA_RETENTION_DAYS;
  if (!days) return 0;
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  let expired = 0;
  let after: string | null = null;
  for (;;) {
    const batch = await selectClipsPostedBefore(deps.db, cutoff, after, BATCH);
    if (!batch.length) break;
    expired += await expireClipMedia(deps.db, deps.storage, batch);
    after = batch[batch.length - 1]!;
  }
  if (expired) {
    await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'retention', message: `Deleted the video files of ${expired} clip${expired === 1 ? '' : 's'} posted more than ${days} days ago (MEDIA_RETENTION_DAYS); their details and thumbnails stay` });
  }
  return expired;
}

export function mediaRetentionJob(deps: AppDeps) {
  return defineJob({ ...MEDIA_RETENTION_JOB, run: async () => void (await expirePostedMedia(deps)) });
}
