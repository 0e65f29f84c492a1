import { stat } from 'node:fs/promises';
import { isYouTubePrivacy, platformAvatarUrl, postPreflight, YOUTUBE_PRIVATE_LOCK_WARNING, youtubeShortUrl } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import { recordLog } from '../../logs/service.ts';
import {
  callbackError,
  explainQuotaWait,
  isYouTubeError,
  missingScopes,
  youtubeDescription,
  youtubeTags,
  youtubeTitle,
  YouTubeQuotaExceededError,
  type YouTubeClient,
  type YouTubeVideoMetadata,
} from '../../../engines/providers/youtube/index.ts';
import { decryptSecret, encryptSecret } from '../../../platform/crypto.ts';
import { AppError } from '../../../platform/errors.ts';
import { pause } from '../../../platform/pause.ts';
import { queuePostJob } from '../schedule.ts';
import { selectAccountByExternalId, selectSchedule, selectUpload, transitionUpload, updateUpload, type UploadRow } from '../queries.ts';
import type { AccountToken, PlatformAdapter, PostOutcome, PostRun } from './adapter.ts';
import { storeAccount, videoToSend, withUploadProgress } from './post-steps.ts';

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

export const YOUTUBE_NOT_CONFIGURED = 'YouTube is not configured on this server (YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET)';
const SESSION_EXPIRED = 'The YouTube upload session expired before the video was complete. Post the clip again.';
/** Google gave no refresh token and none is stored: posts scheduled for later could never get a token. */
const NO_REFRESH_TOKEN = 'Google did not grant offline access. Remove Clipshift from your Google account’s third-party access, then connect again.';
/** The permissions a YouTube connection needs, in the user's words, when Google's page let them untick one. */
const YOUTUBE_SCOPES_MISSING = 'Clipshift needs permission to upload videos and to see your YouTube channel: connect again and leave both boxes ticked on Google’s page.';
/** How long one job waits for YouTube's processing before handing the wait to a later job. */
const PROCESSING_WAIT_MS = 10 * 60_000;
const PROCESSING_RECHECK_MS = 5 * 60_000;
const POLL_FIRST_MS = 2000;
const POLL_MAX_MS = 30_000;

export function requireYouTube(deps: AppDeps): YouTubeClient {
  if (!deps.youtube) throw new AppError('SERVICE_UNAVAILABLE', YOUTUBE_NOT_CONFIGURED);
  return deps.youtube;
}

async function post({ deps, upload, clip, token, scratchDir, signal }: PostRun): Promise<PostOutcome> {
  const youtube = requireYouTube(deps);
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
      if (!claimed) return { status: 'unclaimed' };
      const metadata = videoMetadata(upload, clip.title);
      uploadUrl = await token.use((accessToken) => youtube.startUpload(accessToken, metadata, size, signal));
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
  const outcome = await waitForProcessing(youtube, token, videoId, noticePrivacy, signal);
  if (outcome.status === 'pending') return { status: 'pending', recheckAt: new Date(Date.now() + PROCESSING_RECHECK_MS) };
  if (outcome.status === 'failed') throw new Error(outcome.reason);
  return { status: 'published', externalId: videoId, shareUrl: youtubeShortUrl(videoId), warning };
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
  token: AccountToken,
  videoId: string,
  noticePrivacy: (privacyStatus: string | null) => Promise<void>,
  signal: AbortSignal,
): Promise<Processing> {
  const deadline = Date.now() + PROCESSING_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    const [video] = await token.use((accessToken) => youtube.getVideos(accessToken, [videoId], signal));
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

/**
 * The project's daily quota is spent: the post waits for the reset (midnight Pacific), in the queue
 * and in words, with its job queued for then. A post whose video YouTube already has keeps its
 * status and only waits to read the processing result.
 */
async function waitAfter(deps: AppDeps, failed: UploadRow, error: unknown): Promise<boolean> {
  if (!(error instanceof YouTubeQuotaExceededError)) return false;
  const retryAt = error.retryAt;
  const upload = await selectUpload(deps.db, failed.id);
  if (!upload) return true;
  const schedule = upload.account_id ? await selectSchedule(deps.db, upload.account_id) : undefined;
  const message = explainQuotaWait(retryAt, schedule ? { timeZone: schedule.timezone } : {});
  const waiting = await deps.db.transaction().execute(async (trx) => {
    const moved = upload.external_id
      ? await transitionUpload(trx, upload.id, ['processing'], { error: message })
      : await transitionUpload(trx, upload.id, ['queued', 'scheduled', 'uploading'], { status: 'scheduled', scheduled_for: retryAt, error: message, percent: null });
    if (moved) await queuePostJob(trx, upload.id, retryAt);
    return moved !== undefined;
  });
  // Canceled meanwhile: nothing waits.
  if (waiting) await recordLog(deps.db, deps.logger, { level: 'WARNING', logger: 'youtube', message: `Posting to ${upload.account_name} waits: ${message}`, userId: upload.user_id });
  return true;
}

export const youtubePlatform: PlatformAdapter = {
  platform: 'youtube',
  provider: 'Google',
  configurationProblem: (deps) => (deps.youtube ? null : YOUTUBE_NOT_CONFIGURED),
  authorizeUrl: (deps, request) => requireYouTube(deps).buildAuthorizeUrl(request),
  refusal: callbackError,

  /**
   * Code → tokens (with the scopes both ticked) → the Google account's channel → the account row:
   * open_id is the channel id, the name its title, the username its handle without "@". Google does
   * not rotate refresh tokens and sends one only on a consent: a reconnection without one keeps the
   * stored one.
   */
  async connect(deps, owner, grant) {
    const youtube = requireYouTube(deps);
    const tokens = await youtube.exchangeCode(grant);
    if (missingScopes(tokens.scope).length) throw new Error(YOUTUBE_SCOPES_MISSING);
    const channel = await youtube.getMyChannel(tokens.accessToken);
    if (!tokens.refreshToken && !(await selectAccountByExternalId(deps.db, owner.userId, 'youtube', channel.channelId))) throw new Error(NO_REFRESH_TOKEN);
    const profile = {
      union_id: null,
      display_name: channel.title || channel.handle || 'YouTube channel',
      username: channel.handle ? channel.handle.replace(/^@/, '') : null,
      avatar_url: platformAvatarUrl('youtube', channel.avatarUrl),
    };
    const access = {
      access_token_enc: encryptSecret(tokens.accessToken, deps.appSecret),
      access_expires_at: tokens.expiresAt,
      refresh_expires_at: null,
      scope: tokens.scope,
    };
    const refresh = tokens.refreshToken ? { refresh_token_enc: encryptSecret(tokens.refreshToken, deps.appSecret) } : {};
    return [
      await storeAccount(
      deps.db,
      { user_id: owner.userId, platform: 'youtube', open_id: channel.channelId, connected_via: owner.via, ...profile, ...access, refresh_token_enc: refresh.refresh_token_enc ?? '' },
      { ...profile, ...access, ...refresh, needs_reconnect: false, updated_at: new Date() },
      ),
    ];
  },
  describe: (account) => `YouTube channel ${account.display_name}`,

  async refresh(deps, refreshToken, _now, signal) {
    // Google keeps the refresh token, so the stored one stays unless it sends another.
    const tokens = await requireYouTube(deps).refreshToken(refreshToken, signal);
    const rotated = tokens.refreshToken ? { refresh_token_enc: encryptSecret(tokens.refreshToken, deps.appSecret) } : {};
    return {
      token: tokens.accessToken,
      columns: { access_token_enc: encryptSecret(tokens.accessToken, deps.appSecret), access_expires_at: tokens.expiresAt, ...rotated, ...(tokens.scope ? { scope: tokens.scope } : {}) },
    };
  },
  grantDead: (error) => isYouTubeError(error, 'reconnect_required'),
  tokenRefused: (error) => isYouTubeError(error, 'token_invalid'),

  post,
  waitAfter,
  // 5xx, a chunk upload that kept failing, rate limits: the retry resumes the saved session.
  retryable: (error) => isYouTubeError(error) && error.retryable,
  removedMidway: 'The YouTube account was removed while YouTube was receiving the video: check the channel on YouTube before posting again',
  removedBefore: 'The YouTube account was removed before the clip was posted',

  async readCounts(deps, token, ids, signal) {
    const youtube = requireYouTube(deps);
    const videos = await token.use((accessToken) => youtube.getVideos(accessToken, ids, signal));
    // Hidden counts (a channel can hide likes) read as 0; YouTube tells no shares.
    return new Map(videos.map((video) => [video.videoId, { views: video.stats.views ?? 0, likes: video.stats.likes ?? 0, comments: video.stats.comments ?? 0, shares: null }]));
  },
  waitsForUser: (error) => isYouTubeError(error, 'reconnect_required'),
};
