import { formatAccountHandle, instagramCaptionProblems, platformAvatarUrl } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import { publicMediaUrl } from '../../clips/service.ts';
import { recordLog } from '../../logs/service.ts';
import { callbackError, isMetaError, missingScopes, type InstagramClient } from '../../../engines/providers/instagram/index.ts';
import { encryptSecret } from '../../../platform/crypto.ts';
import { AppError } from '../../../platform/errors.ts';
import { DAY_MS } from '../../../platform/zoned-time.ts';
import { selectUpload, transitionUpload, updateUpload } from '../queries.ts';
import { rescheduleRefused } from '../schedule.ts';
import type { PlatformAdapter, PostOutcome, PostRun } from './adapter.ts';
import { countsOneByOne, storeAccount } from './post-steps.ts';

/*
 * A clip to one Instagram professional account as a Reel (Instagram API with Instagram Login):
 *   publishing limit read → claim → container from the clip's media URL (its id saved) → Instagram
 *   fetches and processes the video → media_publish → the media id.
 * A retried job with a saved container asks the container where it stands: PUBLISHED means a lost
 * answer (the post exists, nothing is sent again), FINISHED is published now, IN_PROGRESS is waited
 * for, EXPIRED (24 hours unpublished) starts over with a new container — nothing was posted — and
 * ERROR fails in Instagram's words. So a crash between container and publish never gives two posts.
 */

export const INSTAGRAM_NOT_CONFIGURED = 'Instagram is not configured on this server (INSTAGRAM_CLIENT_ID and INSTAGRAM_CLIENT_SECRET)';
const SCOPES_MISSING = 'Clipshift needs permission to see your Instagram profile and to publish Reels: connect again and allow both.';
/** How long one job waits for Instagram to process a container before a later job looks again. */
const CONTAINER_WAIT_MS = 5 * 60_000;
const CONTAINER_RECHECK_MS = 2 * 60_000;

export function requireInstagram(deps: AppDeps): InstagramClient {
  if (!deps.instagram) throw new AppError('SERVICE_UNAVAILABLE', INSTAGRAM_NOT_CONFIGURED);
  return deps.instagram;
}

/** The account's publishing limit is used up: the post waits (waitAfter) instead of asking Instagram to refuse it. */
class PublishingLimitReached extends Error {
  override name = 'PublishingLimitReached';
  constructor(readonly total: number, readonly windowHours: number) {
    super(`Instagram allows ${total} posts through apps per ${windowHours} hours and this account has made them`);
  }
}

async function post({ deps, upload, clip, token, signal }: PostRun): Promise<PostOutcome> {
  const instagram = requireInstagram(deps);
  const igUserId = upload.account_open_id;
  if (upload.external_id) return { status: 'published', externalId: upload.external_id, shareUrl: null };
  let containerId = upload.publish_id;
  if (containerId) {
    const state = await token.use((accessToken) => instagram.containerStatus(accessToken, containerId!, signal));
    // Published already (the answer was lost): the post exists; its media id cannot be asked for.
    if (state.statusCode === 'PUBLISHED') return { status: 'published', externalId: null, shareUrl: null };
    if (state.statusCode === 'EXPIRED') {
      // Never published, so nothing is posted twice by starting over: the upload leaves `processing`
      // for a state the claim below (and a publishing-limit wait) starts from, without the dead container.
      const reopened = await transitionUpload(deps.db, upload.id, ['processing'], { status: 'uploading', publish_id: null });
      if (!reopened) return { status: 'unclaimed' };
      containerId = null;
    }
  }
  if (!containerId) {
    const problems = instagramCaptionProblems(upload.description);
    if (problems.length) throw new Error(problems.join(' '));
    const limit = await token.use((accessToken) => instagram.publishingLimit(accessToken, igUserId, signal));
    if (limit.used >= limit.total) throw new PublishingLimitReached(limit.total, Math.round(limit.windowSeconds / 3600));
    // Claimed only from a state a job may start from: a post canceled meanwhile stays canceled, unsent.
    const claimed = await transitionUpload(deps.db, upload.id, ['queued', 'scheduled', 'uploading'], { status: 'uploading', percent: null, error: null });
    if (!claimed) return { status: 'unclaimed' };
    // A fresh link each time: Instagram fetches it now, and a re-rendered video has a new one.
    const media = await publicMediaUrl(deps, clip.id);
    const request = {
      videoUrl: media.url,
      caption: upload.description,
      shareToFeed: upload.instagram_share_to_feed,
      collaborators: upload.instagram_collaborators,
      trialReel: upload.instagram_trial_reel,
    };
    containerId = await token.use((accessToken) => instagram.createReelContainer(accessToken, igUserId, request, signal));
    // Saved before anything is published: a retry asks this container and never makes a second post.
    await updateUpload(deps.db, upload.id, { status: 'processing', publish_id: containerId, updated_at: new Date() });
  }
  const id = containerId;
  try {
    await token.use((accessToken) => instagram.waitForContainer(accessToken, id, { signal, budgetMs: CONTAINER_WAIT_MS }));
  } catch (error) {
    if (isMetaError(error, 'not_ready')) return { status: 'pending', recheckAt: new Date(Date.now() + CONTAINER_RECHECK_MS) };
    if (isMetaError(error, 'already_published')) return { status: 'published', externalId: null, shareUrl: null };
    throw error;
  }
  try {
    const mediaId = await token.use((accessToken) => instagram.publishContainer(accessToken, igUserId, id, signal));
    return { status: 'published', externalId: mediaId, shareUrl: null };
  } catch (error) {
    if (isMetaError(error, 'already_published')) return { status: 'published', externalId: null, shareUrl: null };
    throw error;
  }
}

/**
 * The account's publishing limit is used up before anything was sent: the post waits for the
 * account's next posting slot, or a day without slots, saying so in the queue.
 */
async function waitAfter(deps: AppDeps, failed: { id: string }, error: unknown): Promise<boolean> {
  if (!(error instanceof PublishingLimitReached) && !isMetaError(error, 'rate_limited')) return false;
  const upload = await selectUpload(deps.db, failed.id);
  if (!upload) return true;
  // A rate refusal once a container exists takes the usual retries: the container is asked again.
  if (!(error instanceof PublishingLimitReached) && upload.publish_id) return false;
  const reason = error instanceof PublishingLimitReached ? error.message : 'Instagram limits how often this account can post';
  const moved = await rescheduleRefused(deps.db, upload, reason, { noSlotWaitMs: DAY_MS });
  if (moved) await recordLog(deps.db, deps.logger, { level: 'WARNING', logger: 'instagram', message: `Posting to ${upload.account_name} waits: ${moved.message}`, userId: upload.user_id });
  return true;
}

export const instagramPlatform: PlatformAdapter = {
  platform: 'instagram',
  provider: 'Instagram',
  configurationProblem: (deps) => (deps.instagram ? null : INSTAGRAM_NOT_CONFIGURED),
  // Instagram's login takes no PKCE challenge: the single-use state binds the code to its flow.
  authorizeUrl: (deps, request) => requireInstagram(deps).buildAuthorizeUrl({ state: request.state }),
  refusal: callbackError,

  /** Code → long-lived token (60 days) → the professional account → its row. */
  async connect(deps, owner, grant) {
    const instagram = requireInstagram(deps);
    const tokens = await instagram.exchangeCode({ code: grant.code });
    if (missingScopes(tokens.permissions).length) throw new Error(SCOPES_MISSING);
    const me = await instagram.getMe(tokens.accessToken);
    const profile = { union_id: null, display_name: me.name || me.username, username: me.username, avatar_url: platformAvatarUrl('instagram', me.avatarUrl) };
    // The long-lived token is its own refresh token (refresh_access_token takes the live token).
    const encrypted = encryptSecret(tokens.accessToken, deps.appSecret);
    const columns = { access_token_enc: encrypted, refresh_token_enc: encrypted, access_expires_at: tokens.expiresAt, refresh_expires_at: tokens.expiresAt, scope: tokens.permissions.join(',') };
    return [
      await storeAccount(
      deps.db,
      { user_id: owner.userId, platform: 'instagram', open_id: me.userId, connected_via: owner.via, ...profile, ...columns },
      { ...profile, ...columns, needs_reconnect: false, updated_at: new Date() },
      ),
    ];
  },
  describe: (account) => `Instagram account ${formatAccountHandle(account)}`,

  async refresh(deps, longLivedToken, _now, signal) {
    const refreshed = await requireInstagram(deps).refreshToken(longLivedToken, signal);
    const encrypted = encryptSecret(refreshed.accessToken, deps.appSecret);
    return { token: refreshed.accessToken, columns: { access_token_enc: encrypted, refresh_token_enc: encrypted, access_expires_at: refreshed.expiresAt, refresh_expires_at: refreshed.expiresAt } };
  },
  grantDead: (error) => isMetaError(error, 'reconnect_required'),
  // Graph answers a dead token with code 190 (reconnect_required), which a refresh cannot mend either.
  tokenRefused: () => false,

  post,
  waitAfter,
  retryable: (error) => isMetaError(error) && error.retryable,
  removedMidway: 'The Instagram account was removed while Instagram was processing the video: check the account on Instagram before posting again',
  removedBefore: 'The Instagram account was removed before the clip was posted',

  readCounts(deps, token, ids, signal) {
    const instagram = requireInstagram(deps);
    // A deleted Reel's insights are refused as an invalid request: it is gone, the others are read.
    return countsOneByOne(ids, (id) => token.use((accessToken) => instagram.getInsights(accessToken, id, signal)), (error) => isMetaError(error, 'invalid_request'));
  },
  waitsForUser: (error) => isMetaError(error, 'reconnect_required'),
};
