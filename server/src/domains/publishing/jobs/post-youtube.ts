import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isYouTubePrivacy, postPreflight, YOUTUBE_PRIVATE_LOCK_WARNING, youtubeShortUrl } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import type { UploadStatus } from '../../../platform/db/schema.ts';
import { findClipById, instanceWorkDir } from '../../clips/service.ts';
import type { WorkerIdentity } from '../../../platform/identity.ts';
import { publicReason } from '../../../platform/public-reason.ts';
import { recordLog } from '../../logs/service.ts';
import { raiseEvent } from '../../notifications/service.ts';
import {
  explainQuotaWait,
  isYouTubeError,
  youtubeDescription,
  youtubeTags,
  youtubeTitle,
  YouTubeQuotaExceededError,
  type YouTubeClient,
  type YouTubeVideoMetadata,
} from '../../../engines/providers/youtube/index.ts';
import { decryptSecret, encryptSecret } from '../../../platform/crypto.ts';
import { pause } from '../../../platform/pause.ts';
import type { JobContext } from '../../../platform/queue/define.ts';
import { firstStatsDue } from '../stats-schedule.ts';
import { freshYouTubeToken, YOUTUBE_NOT_CONFIGURED, YOUTUBE_ACCOUNT_REMOVED } from '../accounts.ts';
import { selectSchedule, selectUpload, transitionUpload, updateUpload } from '../queries.ts';
import { queuePostJob, type UploadRow } from '../uploads.ts';
import { postEventData, videoToSend, withUploadProgress } from './post-common.ts';

/*
 * A clip to one YouTube channel, at most once (decision 0023):
 *   claim → startUpload → save the session URL (encrypted) → bytes → save the video id → poll
 *   processing → published.
 * A retried job with a saved URL asks the session where it stands (queryUpload) and sends only the
 * rest, or takes the video id when it is complete; with a saved video id it only polls. A new
 * session is opened only while neither is saved, and a session that never received a byte is no
 * video, so no retry can post twice. A spent daily quota (the project's count in youtube_quota_days
 * before the upload, or YouTube's quotaExceeded) puts the post back to `scheduled` at the next
 * midnight Pacific time, saying so. A video YouTube keeps private although public or unlisted was
 * asked (an unaudited Google Cloud project) is posted with the upload's warning saying why.
 */

/** YouTube may have the video already; we can no longer ask. */
const ACCOUNT_REMOVED_MIDWAY = 'The YouTube account was removed while YouTube was receiving the video: check the channel on YouTube before posting again';
const SESSION_EXPIRED = 'The YouTube upload session expired before the video was complete. Post the clip again.';
/** How long one job waits for YouTube's processing before handing the wait to a later job. */
const PROCESSING_WAIT_MS = 10 * 60_000;
const PROCESSING_RECHECK_MS = 5 * 60_000;
const POLL_FIRST_MS = 2000;
const POLL_MAX_MS = 30_000;

type TokenStep = <T>(step: (accessToken: string) => Promise<T>) => Promise<T>;

/** Entry from the post job for an upload to a YouTube account (already due, not finished). */
export async function postYouTubeUpload(deps: AppDeps, identity: WorkerIdentity, upload: UploadRow, ctx: JobContext): Promise<void> {
  const scratchDir = path.join(instanceWorkDir(deps.env.dataDir, identity.instance), `post-${upload.id}`);
  try {
    if (!deps.youtube) throw new Error(YOUTUBE_NOT_CONFIGURED);
    await runYouTubeUpload(deps, deps.youtube, upload, scratchDir, ctx.signal);
  } catch (error) {
    if (ctx.signal.aborted) {
      // Not a failure of this post: it carries on in a fresh job from what it saved.
      await queuePostJob(deps.db, upload.id);
      deps.logger.info({ uploadId: upload.id }, 'posting to YouTube interrupted by a restart; queued again');
      return;
    }
    if (error instanceof YouTubeQuotaExceededError) {
      await waitForQuota(deps, upload.id, error.retryAt);
      return;
    }
    // Worth another attempt (5xx, a chunk upload that kept failing, rate limits): the retry resumes the saved session.
    if (isYouTubeError(error) && error.retryable && !ctx.attempts.last) throw error;
    await failUpload(deps, upload, error);
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}

async function failUpload(deps: AppDeps, upload: UploadRow, error: unknown): Promise<void> {
  const reason = publicReason(error);
  await deps.db.transaction().execute(async (trx) => {
    await updateUpload(trx, upload.id, { status: 'failed', error: reason, upload_url_enc: null, updated_at: new Date() });
    await raiseEvent(trx, upload.user_id, 'post.failed', { ...(await postEventData(trx, upload)), error: reason });
  });
  await recordLog(deps.db, deps.logger, { level: 'ERROR', logger: 'youtube', message: `Posting a clip to YouTube failed: ${reason}`, userId: upload.user_id, error });
}

/**
 * The project's daily quota is spent: the post waits for the reset (midnight Pacific), in the queue
 * and in words, with its job queued for then. A post whose video YouTube already has keeps its
 * status and only waits to read the processing result.
 */
async function waitForQuota(deps: AppDeps, uploadId: string, retryAt: Date): Promise<void> {
  const upload = await selectUpload(deps.db, uploadId);
  if (!upload) return;
  const schedule = upload.account_id ? await selectSchedule(deps.db, upload.account_id) : undefined;
  const message = explainQuotaWait(retryAt, schedule ? { timeZone: schedule.timezone } : {});
  const waiting = await deps.db.transaction().execute(async (trx) => {
    const moved = upload.external_id
      ? await transitionUpload(trx, uploadId, ['processing'], { error: message })
      : await transitionUpload(trx, uploadId, ['queued', 'scheduled', 'uploading'], { status: 'scheduled', scheduled_for: retryAt, error: message, percent: null });
    if (moved) await queuePostJob(trx, uploadId, retryAt);
    return moved !== undefined;
  });
  // Canceled meanwhile: nothing waits.
  if (waiting) await recordLog(deps.db, deps.logger, { level: 'WARNING', logger: 'youtube', message: `Posting to ${upload.account_name} waits: ${message}`, userId: upload.user_id });
}

async function runYouTubeUpload(deps: AppDeps, youtube: YouTubeClient, upload: UploadRow, scratchDir: string, signal: AbortSignal): Promise<void> {
  const accountId = upload.account_id;
  if (!accountId) throw new Error(upload.upload_url_enc || upload.external_id ? ACCOUNT_REMOVED_MIDWAY : YOUTUBE_ACCOUNT_REMOVED);
  let token = await freshYouTubeToken(deps.db, youtube, deps.appSecret, accountId, { signal });
  // An access token Google refuses mid-way is refreshed once and the step tried again.
  const withToken: TokenStep = async (step) => {
    try {
      return await step(token);
    } catch (error) {
      if (!isYouTubeError(error, 'token_invalid')) throw error;
      token = await freshYouTubeToken(deps.db, youtube, deps.appSecret, accountId, { force: true, signal });
      return step(token);
    }
  };
  const clip = await findClipById(deps.db, upload.clip_row_id);
  if (!clip) throw new Error('The clip was deleted before it was posted');

  let videoId = upload.external_id;
  if (!videoId) {
    const file = await videoToSend(deps, clip, scratchDir, signal);
    const size = (await stat(file)).size;
    let uploadUrl: string;
    let startAt = 0;
    if (upload.upload_url_enc) {
      // A retried job: the session may hold part of the video, or all of it (then it names the video).
      uploadUrl = decryptSecret(upload.upload_url_enc, deps.appSecret);
      const state = await youtube.queryUpload(uploadUrl, size, signal).catch((error: unknown) => {
        throw isYouTubeError(error, 'upload_expired') ? new Error(SESSION_EXPIRED, { cause: error }) : error;
      });
      if ('complete' in state) videoId = state.complete;
      else startAt = state.received;
    } else {
      const problems = postPreflight('youtube', { duration: clip.output_duration, width: clip.width ?? 0, height: clip.height ?? 0, size_bytes: size });
      if (problems.length) throw new Error(problems.join(' '));
      // Claimed only from a state a job may start from: a post canceled meanwhile stays canceled, unsent.
      const claimed = await transitionUpload(deps.db, upload.id, ['queued', 'scheduled', 'uploading'], { status: 'uploading', percent: 0, error: null });
      if (!claimed) return;
      const metadata = videoMetadata(upload, clip.title);
      uploadUrl = await withToken((accessToken) => youtube.startUpload(accessToken, metadata, size, signal));
      // Saved before the bytes go: a retried job resumes this session and never opens a second one.
      await updateUpload(deps.db, upload.id, { upload_url_enc: encryptSecret(uploadUrl, deps.appSecret), updated_at: new Date() });
    }
    if (!videoId) {
      const url = uploadUrl;
      videoId = await withUploadProgress(deps, upload.id, (onProgress) => youtube.uploadChunks(url, file, size, { startAt, signal, onProgress }));
    }
    // Saved right after the bytes: from now on a retry only reads how processing went.
    await updateUpload(deps.db, upload.id, { status: 'processing', external_id: videoId, upload_url_enc: null, percent: 100, error: null, updated_at: new Date() });
  }

  let warning = upload.warning;
  // Shown as soon as YouTube reports it (the queue lists the post while it processes), saved once.
  const noticePrivacy = async (privacyStatus: string | null) => {
    const seen = privacyWarning(upload.privacy_level, privacyStatus);
    if (seen === warning) return;
    warning = seen;
    await updateUpload(deps.db, upload.id, { warning, updated_at: new Date() });
  };
  const outcome = await waitForProcessing(youtube, withToken, videoId, noticePrivacy, signal);
  if (outcome.status === 'pending') {
    // Still processing: a later job looks again (the video is on YouTube; nothing is sent again).
    await queuePostJob(deps.db, upload.id, new Date(Date.now() + PROCESSING_RECHECK_MS));
    return;
  }
  if (outcome.status === 'failed') throw new Error(outcome.reason);
  const status: UploadStatus = 'published';
  await deps.db.transaction().execute(async (trx) => {
    // stats_due_at: the statistics refresh reads the new video's counts from now on.
    const now = new Date();
    await updateUpload(trx, upload.id, { status, error: null, warning, published_at: now, stats_due_at: firstStatsDue(now), updated_at: now });
    await raiseEvent(trx, upload.user_id, 'post.published', { ...(await postEventData(trx, upload)), share_url: youtubeShortUrl(videoId) });
  });
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'youtube', message: `Posted "${clip.title}" to YouTube (${upload.account_name})`, userId: upload.user_id });
}

/** Title (the one chosen, else from the clip), description, tags from its hashtags, the chosen privacy (private when none was). */
function videoMetadata(upload: UploadRow, clipTitle: string): YouTubeVideoMetadata {
  const description = youtubeDescription(upload.description);
  return {
    title: upload.title?.trim() ? upload.title.trim() : youtubeTitle(clipTitle),
    description,
    tags: youtubeTags(description),
    // An automatic post to an account whose privacy nobody chose goes out private: never public by default.
    privacyStatus: upload.privacy_level !== null && isYouTubePrivacy(upload.privacy_level) ? upload.privacy_level : 'private',
    madeForKids: false,
    notifySubscribers: upload.youtube_notify_subscribers,
  };
}

/**
 * The warning for a video YouTube keeps private although public or unlisted was asked: what it does
 * to every upload of a Google Cloud project that has not passed its API audit.
 */
function privacyWarning(asked: string | null, actual: string | null): string | null {
  return actual === 'private' && (asked === 'public' || asked === 'unlisted') ? YOUTUBE_PRIVATE_LOCK_WARNING : null;
}

type Processing = { status: 'published' } | { status: 'failed'; reason: string } | { status: 'pending' };

/** Reads the video until YouTube has processed (or rejected) it, for up to PROCESSING_WAIT_MS. */
async function waitForProcessing(
  youtube: YouTubeClient,
  withToken: TokenStep,
  videoId: string,
  noticePrivacy: (privacyStatus: string | null) => Promise<void>,
  signal: AbortSignal,
): Promise<Processing> {
  const deadline = Date.now() + PROCESSING_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    const [video] = await withToken((accessToken) => youtube.getVideos(accessToken, [videoId], signal));
    if (!video) return { status: 'failed', reason: 'The video is no longer on YouTube: it was deleted or removed after the upload.' };
    if (video.uploadStatus === 'rejected') return { status: 'failed', reason: `YouTube rejected the video (${video.rejectionReason ?? 'no reason given'}).` };
    if (video.uploadStatus === 'failed' || video.processingStatus === 'failed' || video.processingStatus === 'terminated') {
      return { status: 'failed', reason: `YouTube could not process the video (${video.rejectionReason ?? video.processingStatus ?? 'no reason given'}).` };
    }
    await noticePrivacy(video.privacyStatus);
    if (video.uploadStatus === 'processed' || video.processingStatus === 'succeeded') return { status: 'published' };
    if (Date.now() >= deadline) return { status: 'pending' };
    await pause(Math.min(POLL_FIRST_MS * 2 ** attempt, POLL_MAX_MS), signal);
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('Posting was interrupted');
  }
}
