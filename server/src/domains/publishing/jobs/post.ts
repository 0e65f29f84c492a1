import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { commercialProblem, PRIVACY_LEVEL_LABELS } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import type { UploadStatus } from '../../../platform/db/schema.ts';
import { findClipById, instanceWorkDir } from '../../clips/service.ts';
import { PROCESS_IDENTITY, type WorkerIdentity } from '../../../platform/identity.ts';
import { publicReason } from '../../../platform/public-reason.ts';
import { recordLog } from '../../logs/service.ts';
import { raiseEvent } from '../../notifications/service.ts';
import {
  assertDurationAllowed,
  isTikTokError,
  planChunks,
  type CreatorInfo,
  type PrivacyLevel,
  type TikTokClient,
} from '../../../engines/providers/tiktok/index.ts';
import { decryptSecret, encryptSecret } from '../../../platform/crypto.ts';
import { ACCOUNT_REMOVED, freshAccessToken } from '../accounts.ts';
import { POST_JOB } from '../../../platform/queue/contracts.ts';
import { defineJob, type JobContext } from '../../../platform/queue/define.ts';
import { selectUpload, transitionUpload, updateUpload } from '../queries.ts';
import { isRateRefusal, rescheduleRefused } from '../schedule.ts';
import { firstStatsDue } from '../stats-schedule.ts';
import { queuePostJob, type UploadRow } from '../uploads.ts';
import { postEventData, videoToSend, withUploadProgress } from './post-common.ts';
import { postYouTubeUpload } from './post-youtube.ts';

/** TikTok may have the video already; we can no longer ask. */
const ACCOUNT_REMOVED_MIDWAY = 'The TikTok account was removed while TikTok was receiving the video: check the account on TikTok before posting again';
/** A job this much ahead of its upload's slot (rescheduled meanwhile) waits for the slot instead. */
const EARLY_TOLERANCE_MS = 5000;
/** Cover frame one second in: the first frame of a clip is often a fade. */
const COVER_AT_MS = 1000;

/** The user's choice when it is allowed; for automatic posts the most public level the creator offers. */
function choosePrivacy(requested: string | null, creator: CreatorInfo): PrivacyLevel {
  const options = creator.privacyLevelOptions as PrivacyLevel[];
  if (requested) {
    if (!options.includes(requested as PrivacyLevel)) {
      const label = (level: string) => `"${PRIVACY_LEVEL_LABELS[level] ?? level}"`;
      throw new Error(`This TikTok account cannot post to ${label(requested)}; it offers ${options.map(label).join(', ')}`);
    }
    return requested as PrivacyLevel;
  }
  const preferred: PrivacyLevel[] = ['PUBLIC_TO_EVERYONE', 'FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
  const choice = preferred.find((level) => options.includes(level));
  if (!choice) throw new Error('This TikTok account offers no privacy level to post with');
  return choice;
}

/**
 * Branded content cannot be private (the API refuses it, but the level may be the job's own choice,
 * or a row written before the rule): the post fails in TikTok's words before anything is sent.
 */
function assertCommercialAllowed(upload: Pick<UploadRow, 'brand_organic' | 'brand_content'>, privacyLevel: PrivacyLevel): void {
  const problem = commercialProblem({ your_brand: upload.brand_organic, branded_content: upload.brand_content }, privacyLevel);
  if (problem) throw new Error(problem);
}

interface StatusFields {
  error?: string | null;
  publish_id?: string;
  upload_url_enc?: string | null;
  percent?: number;
}

async function setStatus(deps: AppDeps, uploadId: string, status: UploadStatus, fields: StatusFields = {}) {
  await updateUpload(deps.db, uploadId, { status, ...fields, updated_at: new Date() });
}

/** The public post's address, when TikTok told its id and the account has a username to build it with. */
function shareUrl(accountName: string, postIds: readonly string[]): string | null {
  const postId = postIds[0];
  return postId && accountName.startsWith('@') ? `https://www.tiktok.com/${accountName}/video/${postId}` : null;
}

/**
 * `tiktok/post`: one clip to one account, at most once (a YouTube account's upload goes to
 * post-youtube.ts from here: the job, its key and the queue's handling of it are shared). TikTok's publish_id is saved before any
 * byte is sent; a retried job with a publish_id never initialises a second post — it finishes the
 * upload if it can and otherwise polls the status. graphile-worker's abort signal (the app is
 * stopping) cancels the transfer or the wait, and the job is queued again to carry on after the
 * restart from the saved publish_id.
 */
export function postJob(deps: AppDeps, identity: WorkerIdentity = PROCESS_IDENTITY) {
  return defineJob({ ...POST_JOB, run: ({ uploadId }, ctx) => postUpload(deps, identity, uploadId, ctx) });
}

async function postUpload(deps: AppDeps, identity: WorkerIdentity, uploadId: string, ctx: JobContext): Promise<void> {
  const upload = await selectUpload(deps.db, uploadId);
  if (!upload || ['sent_to_inbox', 'published', 'failed', 'canceled'].includes(upload.status)) return;
  if (upload.status === 'scheduled' && upload.scheduled_for && upload.scheduled_for.getTime() - Date.now() > EARLY_TOLERANCE_MS) {
    await queuePostJob(deps.db, uploadId, upload.scheduled_for);
    return;
  }
  if (upload.platform === 'youtube') return postYouTubeUpload(deps, identity, upload, ctx);
  const lastAttempt = ctx.attempts.last;
  // A copy of the video when it lives in a bucket; removed whatever happens.
  const scratchDir = path.join(instanceWorkDir(deps.env.dataDir, identity.instance), `post-${uploadId}`);
  try {
    if (!deps.tiktok) throw new Error('TikTok is not configured on this server');
    await runUpload(deps, deps.tiktok, upload, scratchDir, ctx.signal);
  } catch (error) {
    if (ctx.signal.aborted) {
      // Not a failure of this post: it carries on in a fresh job (its attempts untouched).
      await queuePostJob(deps.db, uploadId);
      deps.logger.info({ uploadId }, 'posting interrupted by a restart; queued again');
      return;
    }
    if (isTikTokError(error) && isRateRefusal(error.code) && (await rescheduleAfterRefusal(deps, uploadId, error.code!))) return;
    const retry = isTikTokError(error) && error.retryable && !lastAttempt;
    if (retry) throw error;
    const reason = publicReason(error);
    await deps.db.transaction().execute(async (trx) => {
      await updateUpload(trx, uploadId, { status: 'failed', error: reason, upload_url_enc: null, updated_at: new Date() });
      await raiseEvent(trx, upload.user_id, 'post.failed', { ...(await postEventData(trx, upload)), error: reason });
    });
    await recordLog(deps.db, deps.logger, { level: 'ERROR', logger: 'tiktok', message: `Posting a clip to TikTok failed: ${reason}`, userId: upload.user_id, error });
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}

/**
 * TikTok refused an automatic post for how often the account posts before it took the video (no
 * publish_id): the post waits for the account's next free slot, saying so, instead of failing. A post
 * someone made themselves fails in words, as they are waiting for the answer. Once TikTok holds a
 * publish_id the post is never initialised again, so a later refusal takes the usual retries.
 */
async function rescheduleAfterRefusal(deps: AppDeps, uploadId: string, code: string): Promise<boolean> {
  const upload = await selectUpload(deps.db, uploadId);
  if (!upload || upload.publish_id || upload.timing !== 'next-slot') return false;
  const moved = await rescheduleRefused(deps.db, upload, code);
  if (moved) await recordLog(deps.db, deps.logger, { level: 'WARNING', logger: 'tiktok', message: `Posting to ${upload.account_name} waits: ${moved.message}`, userId: upload.user_id });
  // Canceled meanwhile: nothing to post, nothing to fail.
  return true;
}

async function runUpload(deps: AppDeps, tiktok: TikTokClient, upload: UploadRow, scratchDir: string, signal: AbortSignal): Promise<void> {
  const accountId = upload.account_id;
  if (!accountId) throw new Error(upload.publish_id ? ACCOUNT_REMOVED_MIDWAY : ACCOUNT_REMOVED);
  let token = await freshAccessToken(deps.db, tiktok, deps.appSecret, accountId, { signal });
  // An access token TikTok refuses mid-way is refreshed once and the step tried again.
  const withToken = async <T>(step: (accessToken: string) => Promise<T>): Promise<T> => {
    try {
      return await step(token);
    } catch (error) {
      if (!isTikTokError(error, 'token_invalid')) throw error;
      token = await freshAccessToken(deps.db, tiktok, deps.appSecret, accountId, { force: true, signal });
      return step(token);
    }
  };
  const clip = await findClipById(deps.db, upload.clip_row_id);
  if (!clip) throw new Error('The clip was deleted before it was posted');
  const file = await videoToSend(deps, clip, scratchDir, signal);
  const plan = planChunks((await stat(file)).size);

  let publishId = upload.publish_id;
  if (!publishId) {
    // Claimed only from a state a job may start from: a post canceled meanwhile stays canceled, unsent.
    const claimed = await transitionUpload(deps.db, upload.id, ['queued', 'scheduled', 'uploading'], { status: 'uploading', percent: 0 });
    if (!claimed) return;
    const target = await withToken(async (accessToken) => {
      if (upload.mode === 'inbox') return tiktok.initInboxUpload(accessToken, plan, signal);
      const creator = await tiktok.queryCreatorInfo(accessToken, signal);
      assertDurationAllowed(clip.duration, creator);
      const privacyLevel = choosePrivacy(upload.privacy_level, creator);
      assertCommercialAllowed(upload, privacyLevel);
      return tiktok.initDirectPost(
        accessToken,
        {
          title: upload.description,
          privacyLevel,
          // The creator's own "disabled" settings always win.
          disableComment: upload.disable_comment || creator.commentDisabled,
          disableDuet: upload.disable_duet || creator.duetDisabled,
          disableStitch: upload.disable_stitch || creator.stitchDisabled,
          videoCoverTimestampMs: Math.min(COVER_AT_MS, Math.floor(clip.duration * 500)),
          brandOrganicToggle: upload.brand_organic,
          brandContentToggle: upload.brand_content,
        },
        plan,
        signal,
      );
    });
    publishId = target.publishId;
    // Saved before the bytes go: whatever happens next, this post is never initialised twice.
    await setStatus(deps, upload.id, 'uploading', { publish_id: publishId, upload_url_enc: encryptSecret(target.uploadUrl, deps.appSecret) });
    await withUploadProgress(deps, upload.id, (onProgress) => tiktok.uploadChunks(target.uploadUrl, file, plan, { signal, onProgress }));
  } else if (upload.status === 'uploading' && upload.upload_url_enc) {
    await resumeUpload(deps, tiktok, upload, token, file, plan, signal);
  }
  await setStatus(deps, upload.id, 'processing', { upload_url_enc: null, percent: 100 });
  const final = await withToken((accessToken) => tiktok.waitForPublish(accessToken, publishId, { signal }));
  const status: UploadStatus = final.status === 'SEND_TO_USER_INBOX' ? 'sent_to_inbox' : 'published';
  await deps.db.transaction().execute(async (trx) => {
    // TikTok's public post id, which its video query (statistics) is matched against; a public
    // post's statistics are read from now on (stats.ts).
    const externalId = final.publicPostIds[0] ?? null;
    const now = new Date();
    const published = status === 'published' ? { published_at: now, stats_due_at: externalId ? firstStatsDue(now) : null } : {};
    await updateUpload(trx, upload.id, { status, error: null, external_id: externalId, ...published, updated_at: now });
    if (status === 'published') await raiseEvent(trx, upload.user_id, 'post.published', { ...(await postEventData(trx, upload)), share_url: shareUrl(upload.account_name, final.publicPostIds) });
  });
  await recordLog(deps.db, deps.logger, {
    level: 'INFO',
    logger: 'tiktok',
    message: status === 'published' ? `Posted "${clip.title}" to TikTok` : `Sent "${clip.title}" to the TikTok inbox as a draft`,
    userId: upload.user_id,
  });
}

/** A retried job whose bytes may be partly sent: ask TikTok how far it got and send the rest. */
async function resumeUpload(deps: AppDeps, tiktok: TikTokClient, upload: UploadRow, token: string, file: string, plan: ReturnType<typeof planChunks>, signal: AbortSignal): Promise<void> {
  const status = await tiktok.fetchPostStatus(token, upload.publish_id!, signal);
  if (status.status !== 'PROCESSING_UPLOAD') return;
  const uploaded = status.uploadedBytes ?? 0;
  if (uploaded >= plan.videoSize) return;
  const startAt = plan.chunks.findIndex((chunk) => chunk.start >= uploaded);
  const uploadUrl = decryptSecret(upload.upload_url_enc!, deps.appSecret);
  await withUploadProgress(deps, upload.id, (onProgress) => tiktok.uploadChunks(uploadUrl, file, plan, { startAt: Math.max(0, startAt), signal, onProgress }));
}
