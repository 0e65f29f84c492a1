import { stat } from 'node:fs/promises';
import { platformAvatarUrl } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import { callbackError, missingPermissions, type FacebookClient, type FacebookPage, type ReelStatus } from '../../../engines/providers/facebook/index.ts';
import { isMetaError, MetaError } from '../../../engines/providers/instagram/index.ts';
import { decryptSecret, encryptSecret } from '../../../platform/crypto.ts';
import { AppError } from '../../../platform/errors.ts';
import { pause } from '../../../platform/pause.ts';
import { transitionUpload, updateUpload, type AccountRow } from '../queries.ts';
import type { AccountToken, Owner, PlatformAdapter, PostOutcome, PostRun } from './adapter.ts';
import { countsOneByOne, storeAccount, videoToSend, withUploadProgress } from './post-steps.ts';

/*
 * A clip to one Facebook Page as a Reel:
 *   claim → video_reels start (video id and upload URL saved) → bytes to rupload, resumed from the
 *   offset Facebook reports → finish (PUBLISHED, with the description) → poll until published.
 * Each Page the person granted on Facebook's consent page becomes an account, with its Page token
 * (stored encrypted; a Page token made from a long-lived user token does not expire). A retried
 * job with a saved video id asks Facebook how many bytes it holds and sends only the rest; once
 * finish was sent (status processing) it only reads the status, so no retry posts twice.
 */

export const FACEBOOK_NOT_CONFIGURED = 'Facebook is not configured on this server (FACEBOOK_APP_ID and FACEBOOK_APP_SECRET)';
const PERMISSIONS_MISSING = 'Clipshift needs permission to list your Pages and to publish videos on them: connect again and allow every permission.';
const NO_PAGE = 'None of the Pages you chose lets you create content: choose a Page you manage on Facebook’s page.';
/** Page tokens do not expire; stored with an end far enough away never to be refreshed for age. */
const PAGE_TOKEN_YEARS = 10;
const PROCESSING_WAIT_MS = 10 * 60_000;
const PROCESSING_RECHECK_MS = 5 * 60_000;
const POLL_FIRST_MS = 2000;
const POLL_MAX_MS = 30_000;

export function requireFacebook(deps: AppDeps): FacebookClient {
  if (!deps.facebook) throw new AppError('SERVICE_UNAVAILABLE', FACEBOOK_NOT_CONFIGURED);
  return deps.facebook;
}

const reelUrl = (videoId: string) => `https://www.facebook.com/reel/${videoId}`;

async function post({ deps, upload, clip, token, scratchDir, signal }: PostRun): Promise<PostOutcome> {
  const facebook = requireFacebook(deps);
  const pageId = upload.account_open_id;
  let videoId = upload.publish_id;
  if (upload.status !== 'processing') {
    const file = await videoToSend(deps, clip, scratchDir, signal);
    const size = (await stat(file)).size;
    let startAt = 0;
    let finished = false;
    let uploadUrl: string;
    if (videoId && upload.upload_url_enc) {
      // A retried job: Facebook holds part of the video (or all of it); only the rest is sent.
      uploadUrl = decryptSecret(upload.upload_url_enc, deps.appSecret);
      const held = await token.use((pageToken) => facebook.reelStatus(pageToken, videoId!, signal));
      startAt = Math.min(held.uploading.bytesTransferred ?? 0, size);
      // The last run sent finish but stopped (or lost the answer) before recording it: never sent twice.
      finished = finishLanded(held);
    } else {
      // Claimed only from a state a job may start from: a post canceled meanwhile stays canceled, unsent.
      const claimed = await transitionUpload(deps.db, upload.id, ['queued', 'scheduled', 'uploading'], { status: 'uploading', percent: 0, error: null });
      if (!claimed) return { status: 'unclaimed' };
      const reel = await token.use((pageToken) => facebook.startReel(pageToken, pageId, signal));
      videoId = reel.videoId;
      uploadUrl = reel.uploadUrl;
      // Saved before the bytes go: a retry resumes this upload and never starts a second Reel.
      await updateUpload(deps.db, upload.id, { publish_id: videoId, upload_url_enc: encryptSecret(uploadUrl, deps.appSecret), updated_at: new Date() });
    }
    const reel = { videoId, uploadUrl };
    if (!finished && startAt < size) await withUploadProgress(deps, upload.id, (onProgress) => token.use((pageToken) => facebook.uploadBytes(pageToken, reel, file, size, { startAt, signal, onProgress })));
    if (!finished) await token.use((pageToken) => facebook.finishReel(pageToken, pageId, reel.videoId, { description: upload.description }, signal));
    // Finish is sent once: from now on a retry only reads how publishing went.
    await updateUpload(deps.db, upload.id, { status: 'processing', external_id: reel.videoId, upload_url_enc: null, percent: 100, updated_at: new Date() });
  }
  if (!videoId) throw new Error('Facebook has no video of this post to ask about. Post the clip again.');
  const outcome = await waitForPublishing(facebook, token, videoId, signal);
  if (outcome === 'pending') return { status: 'pending', recheckAt: new Date(Date.now() + PROCESSING_RECHECK_MS) };
  return { status: 'published', externalId: videoId, shareUrl: reelUrl(videoId) };
}

/** Facebook processes (or has published) the Reel: finish reached it; before finish processing has not started. */
function finishLanded(status: ReelStatus): boolean {
  const processing = status.processing.status;
  return (processing !== null && processing !== 'not_started') || status.publishing.status === 'complete' || status.publishing.publishStatus === 'published';
}

/** Why Facebook stopped the Reel, in its words, or null while it goes on. */
function reelFailure(status: ReelStatus): string | null {
  const error = status.processing.error ?? status.publishing.error;
  if (error) return `Facebook could not publish the Reel (${error}).`;
  if (status.videoStatus === 'error') return 'Facebook could not process the video.';
  if (status.videoStatus === 'expired') return 'The Facebook upload expired before the Reel was published. Post the clip again.';
  return null;
}

async function waitForPublishing(facebook: FacebookClient, token: AccountToken, videoId: string, signal: AbortSignal): Promise<'published' | 'pending'> {
  const deadline = Date.now() + PROCESSING_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    const status = await token.use((pageToken) => facebook.reelStatus(pageToken, videoId, signal));
    const failure = reelFailure(status);
    if (failure) throw new Error(failure);
    if (status.publishing.status === 'complete' || status.publishing.publishStatus === 'published') return 'published';
    if (Date.now() >= deadline) return 'pending';
    await pause(Math.min(POLL_FIRST_MS * 2 ** attempt, POLL_MAX_MS), signal);
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('Posting was interrupted');
  }
}

/** Each Page the person granted, with its Page token, as an account of its owner. */
async function storePages(deps: AppDeps, owner: Owner, pages: readonly FacebookPage[]): Promise<AccountRow[]> {
  const accounts: AccountRow[] = [];
  const expiresAt = new Date(Date.now() + PAGE_TOKEN_YEARS * 365 * 86_400_000);
  for (const page of pages) {
    const profile = { union_id: null, display_name: page.name, username: null, avatar_url: platformAvatarUrl('facebook', page.pictureUrl) };
    const encrypted = encryptSecret(page.accessToken, deps.appSecret);
    const columns = { access_token_enc: encrypted, refresh_token_enc: '', access_expires_at: expiresAt, refresh_expires_at: null, scope: page.tasks.join(',') };
    const account = await storeAccount(
      deps.db,
      { user_id: owner.userId, platform: 'facebook', open_id: page.pageId, connected_via: owner.via, ...profile, ...columns },
      { ...profile, ...columns, needs_reconnect: false, updated_at: new Date() },
    );
    accounts.push(account);
  }
  return accounts;
}

export const facebookPlatform: PlatformAdapter = {
  platform: 'facebook',
  provider: 'Facebook',
  configurationProblem: (deps) => (deps.facebook ? null : FACEBOOK_NOT_CONFIGURED),
  // Facebook Login takes no PKCE challenge: the single-use state binds the code to its flow.
  authorizeUrl: (deps, request) => requireFacebook(deps).buildAuthorizeUrl({ state: request.state }),
  refusal: callbackError,

  /** Code → user token → permissions checked → the Pages chosen on Facebook's page that allow posting. */
  async connect(deps, owner, grant) {
    const facebook = requireFacebook(deps);
    const user = await facebook.exchangeCode({ code: grant.code });
    if (missingPermissions(await facebook.grantedPermissions(user.accessToken)).length) throw new Error(PERMISSIONS_MISSING);
    const pages = (await facebook.listPages(user.accessToken)).filter((page) => page.tasks.length === 0 || page.tasks.includes('CREATE_CONTENT'));
    if (!pages.length) throw new Error(NO_PAGE);
    return storePages(deps, owner, pages);
  },
  describe: (account) => `Facebook Page ${account.display_name}`,

  refresh() {
    // Page tokens do not expire; one Facebook refuses (password changed, app removed) needs a new login.
    return Promise.reject(new MetaError('facebook', 'reconnect_required', 'Facebook no longer accepts this Page’s connection: reconnect the Page in Settings'));
  },
  grantDead: (error) => isMetaError(error, 'reconnect_required'),
  tokenRefused: () => false,

  post,
  retryable: (error) => isMetaError(error) && error.retryable,
  removedMidway: 'The Facebook Page was removed while Facebook was receiving the video: check the Page on Facebook before posting again',
  removedBefore: 'The Facebook Page was removed before the clip was posted',

  readCounts(deps, token, ids, signal) {
    const facebook = requireFacebook(deps);
    // A deleted Reel's insights are refused as an invalid request: it is gone, the others are read.
    return countsOneByOne(ids, (id) => token.use((pageToken) => facebook.getInsights(pageToken, id, signal)), (error) => isMetaError(error, 'invalid_request'));
  },
  waitsForUser: (error) => isMetaError(error, 'reconnect_required'),
};
