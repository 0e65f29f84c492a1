import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PLATFORM_LABELS } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import { findClipById, instanceWorkDir, type ClipRow } from '../../clips/service.ts';
import { PROCESS_IDENTITY, type WorkerIdentity } from '../../../platform/identity.ts';
import { publicReason } from '../../../platform/public-reason.ts';
import { recordLog } from '../../logs/service.ts';
import { raiseEvent } from '../../notifications/service.ts';
import { POST_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob, type JobContext } from '../../../platform/queue/define.ts';
import { platformOf, type PlatformAdapter, type PostOutcome } from '../platforms/index.ts';
import { postEventData } from '../platforms/post-steps.ts';
import { selectUpload, updateUpload } from '../queries.ts';
import { firstStatsDue } from '../stats-schedule.ts';
import { accountToken } from '../tokens.ts';
import { queuePostJob, type UploadRow } from '../uploads.ts';

/** A job this much ahead of its upload's slot (rescheduled meanwhile) waits for the slot instead. */
const EARLY_TOLERANCE_MS = 5000;
const FINISHED = ['sent_to_inbox', 'published', 'failed', 'canceled'];

/**
 * `publishing/post` (once `tiktok/post`): one clip to one account of any platform, at most once.
 * This is the one skeleton every platform runs in — a scratch folder, the due check, the account's
 * token, the platform's own run (platforms/), then one way to record how it ended: published,
 * sent to the inbox, looked at again later, waiting (quota or limit), retried, or failed with a
 * plain reason, an event and a log line. graphile-worker's abort signal (the app is stopping)
 * cancels the transfer or the wait, and the job is queued again to carry on after the restart from
 * what the platform's run saved.
 */
export function postJob(deps: AppDeps, identity: WorkerIdentity = PROCESS_IDENTITY) {
  return defineJob({ ...POST_JOB, run: ({ uploadId }, ctx) => postUpload(deps, identity, uploadId, ctx) });
}

async function postUpload(deps: AppDeps, identity: WorkerIdentity, uploadId: string, ctx: JobContext): Promise<void> {
  const upload = await selectUpload(deps.db, uploadId);
  if (!upload || FINISHED.includes(upload.status)) return;
  if (upload.status === 'scheduled' && upload.scheduled_for && upload.scheduled_for.getTime() - Date.now() > EARLY_TOLERANCE_MS) {
    await queuePostJob(deps.db, uploadId, upload.scheduled_for);
    return;
  }
  const platform = platformOf(upload.platform);
  // A copy of the video when it lives in a bucket; removed whatever happens.
  const scratchDir = path.join(instanceWorkDir(deps.env.dataDir, identity.instance), `post-${uploadId}`);
  try {
    const { outcome, clip } = await runPost(deps, platform, upload, scratchDir, ctx.signal);
    await record(deps, upload, clip, outcome);
  } catch (error) {
    if (ctx.signal.aborted) {
      // Not a failure of this post: it carries on in a fresh job (its attempts untouched).
      await queuePostJob(deps.db, uploadId);
      deps.logger.info({ uploadId, platform: upload.platform }, 'posting interrupted by a restart; queued again');
      return;
    }
    if (platform.waitAfter && (await platform.waitAfter(deps, upload, error))) return;
    if (platform.retryable(error) && !ctx.attempts.last) throw error;
    await fail(deps, upload, error);
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}

async function runPost(deps: AppDeps, platform: PlatformAdapter, upload: UploadRow, scratchDir: string, signal: AbortSignal): Promise<{ outcome: PostOutcome; clip: ClipRow }> {
  const problem = platform.configurationProblem(deps);
  if (problem) throw new Error(problem);
  const accountId = upload.account_id;
  // Something may have reached the platform already; we can no longer ask it.
  if (!accountId) throw new Error(upload.publish_id || upload.upload_url_enc || upload.external_id ? platform.removedMidway : platform.removedBefore);
  const token = await accountToken(deps, platform, accountId, signal);
  const clip = await findClipById(deps.db, upload.clip_row_id);
  if (!clip) throw new Error('The clip was deleted before it was posted');
  return { outcome: await platform.post({ deps, upload, clip, token, scratchDir, signal }), clip };
}

async function record(deps: AppDeps, upload: UploadRow, clip: ClipRow, outcome: PostOutcome): Promise<void> {
  const label = PLATFORM_LABELS[upload.platform];
  if (outcome.status === 'unclaimed') return;
  if (outcome.status === 'pending') {
    // Still processing: a later job looks again (the video is on the platform; nothing is sent again).
    await queuePostJob(deps.db, upload.id, outcome.recheckAt);
    return;
  }
  const now = new Date();
  if (outcome.status === 'sent_to_inbox') {
    await updateUpload(deps.db, upload.id, { status: 'sent_to_inbox', error: null, updated_at: now });
    await recordLog(deps.db, deps.logger, { level: 'INFO', logger: upload.platform, message: `Sent "${clip.title}" to the ${label} inbox as a draft`, userId: upload.user_id });
    return;
  }
  await deps.db.transaction().execute(async (trx) => {
    // A public post's statistics are read from now on (stats.ts), matched by the platform's post id.
    const statsDue = outcome.externalId ? firstStatsDue(now) : null;
    await updateUpload(trx, upload.id, {
      status: 'published',
      error: null,
      external_id: outcome.externalId,
      ...(outcome.warning === undefined ? {} : { warning: outcome.warning }),
      published_at: now,
      stats_due_at: statsDue,
      updated_at: now,
    });
    await raiseEvent(trx, upload.user_id, 'post.published', { ...(await postEventData(trx, upload)), share_url: outcome.shareUrl });
  });
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: upload.platform, message: `Posted "${clip.title}" to ${label} (${upload.account_name})`, userId: upload.user_id });
}

async function fail(deps: AppDeps, upload: UploadRow, error: unknown): Promise<void> {
  const reason = publicReason(error);
  const label = PLATFORM_LABELS[upload.platform];
  await deps.db.transaction().execute(async (trx) => {
    await updateUpload(trx, upload.id, { status: 'failed', error: reason, upload_url_enc: null, updated_at: new Date() });
    await raiseEvent(trx, upload.user_id, 'post.failed', { ...(await postEventData(trx, upload)), error: reason });
  });
  await recordLog(deps.db, deps.logger, { level: 'ERROR', logger: upload.platform, message: `Posting a clip to ${label} failed: ${reason}`, userId: upload.user_id, error });
}
