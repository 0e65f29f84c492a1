import { stat } from 'node:fs/promises';
import { commercialProblem, formatAccountHandle, platformAvatarUrl, PRIVACY_LEVEL_LABELS } from '@clipshift/shared';
import type { AppDeps } from '../../deps.ts';
import { recordLog } from '../../logs/service.ts';
import {
  assertDurationAllowed,
  callbackError,
  isTikTokError,
  planChunks,
  type CreatorInfo,
  type PrivacyLevel,
  type TikTokClient,
  type TikTokTokens,
  type TikTokUserInfo,
} from '../../../engines/providers/tiktok/index.ts';
import { decryptSecret, encryptSecret } from '../../../platform/crypto.ts';
import { AppError } from '../../../platform/errors.ts';
import type { DbOrTrx } from '../../../platform/db/database.ts';
import { selectUpload, transitionUpload, updateUpload, type AccountRow, type UploadRow } from '../queries.ts';
import { isRateRefusal, rateRefusalReason, rescheduleRefused } from '../schedule.ts';
import type { AccountToken, Owner, PlatformAdapter, PostOutcome, PostRun, TokenColumns } from './adapter.ts';
import { storeAccount, videoToSend, withUploadProgress } from './post-steps.ts';

export const TIKTOK_NOT_CONFIGURED = 'TikTok is not configured on this server (TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET)';
/** Cover frame one second in: the first frame of a clip is often a fade. */
const COVER_AT_MS = 1000;

export function requireTikTok(deps: AppDeps): TikTokClient {
  if (!deps.tiktok) throw new AppError('SERVICE_UNAVAILABLE', TIKTOK_NOT_CONFIGURED);
  return deps.tiktok;
}

function tokenColumns(tokens: TikTokTokens, appSecret: string, now: number): Required<TokenColumns> {
  return {
    access_token_enc: encryptSecret(tokens.accessToken, appSecret),
    refresh_token_enc: encryptSecret(tokens.refreshToken, appSecret),
    access_expires_at: new Date(now + tokens.expiresIn * 1000),
    refresh_expires_at: tokens.refreshExpiresIn ? new Date(now + tokens.refreshExpiresIn * 1000) : null,
    scope: tokens.scope,
  };
}

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

/** The public post's address, when TikTok told its id and the account has a username to build it with. */
function shareUrl(accountName: string, postIds: readonly string[]): string | null {
  const postId = postIds[0];
  return postId && accountName.startsWith('@') ? `https://www.tiktok.com/${accountName}/video/${postId}` : null;
}

/**
 * TikTok's publish_id is saved before any byte is sent; a retried job with a publish_id never
 * initialises a second post — it finishes the upload if it can and otherwise polls the status.
 */
async function post({ deps, upload, clip, token, scratchDir, signal }: PostRun): Promise<PostOutcome> {
  const tiktok = requireTikTok(deps);
  const file = await videoToSend(deps, clip, scratchDir, signal);
  const plan = planChunks((await stat(file)).size);

  let publishId = upload.publish_id;
  if (!publishId) {
    // Claimed only from a state a job may start from: a post canceled meanwhile stays canceled, unsent.
    const claimed = await transitionUpload(deps.db, upload.id, ['queued', 'scheduled', 'uploading'], { status: 'uploading', percent: 0 });
    if (!claimed) return { status: 'unclaimed' };
    const target = await token.use(async (accessToken) => {
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
    await updateUpload(deps.db, upload.id, { status: 'uploading', publish_id: publishId, upload_url_enc: encryptSecret(target.uploadUrl, deps.appSecret), updated_at: new Date() });
    await withUploadProgress(deps, upload.id, (onProgress) => tiktok.uploadChunks(target.uploadUrl, file, plan, { signal, onProgress }));
  } else if (upload.status === 'uploading' && upload.upload_url_enc) {
    await resumeUpload(deps, tiktok, upload, token, file, plan, signal);
  }
  await updateUpload(deps.db, upload.id, { status: 'processing', upload_url_enc: null, percent: 100, updated_at: new Date() });
  const final = await token.use((accessToken) => tiktok.waitForPublish(accessToken, publishId, { signal }));
  if (final.status === 'SEND_TO_USER_INBOX') return { status: 'sent_to_inbox' };
  // TikTok's public post id, which its video query (statistics) is matched against.
  return { status: 'published', externalId: final.publicPostIds[0] ?? null, shareUrl: shareUrl(upload.account_name, final.publicPostIds) };
}

/** A retried job whose bytes may be partly sent: ask TikTok how far it got and send the rest. */
async function resumeUpload(deps: AppDeps, tiktok: TikTokClient, upload: UploadRow, token: AccountToken, file: string, plan: ReturnType<typeof planChunks>, signal: AbortSignal): Promise<void> {
  const status = await token.use((accessToken) => tiktok.fetchPostStatus(accessToken, upload.publish_id!, signal));
  if (status.status !== 'PROCESSING_UPLOAD') return;
  const uploaded = status.uploadedBytes ?? 0;
  if (uploaded >= plan.videoSize) return;
  const startAt = plan.chunks.findIndex((chunk) => chunk.start >= uploaded);
  const uploadUrl = decryptSecret(upload.upload_url_enc!, deps.appSecret);
  await withUploadProgress(deps, upload.id, (onProgress) => tiktok.uploadChunks(uploadUrl, file, plan, { startAt: Math.max(0, startAt), signal, onProgress }));
}

/**
 * TikTok refused an automatic post for how often the account posts before it took the video (no
 * publish_id): the post waits for the account's next free slot, saying so, instead of failing. A post
 * someone made themselves fails in words, as they are waiting for the answer. Once TikTok holds a
 * publish_id the post is never initialised again, so a later refusal takes the usual retries.
 */
async function waitAfter(deps: AppDeps, failed: UploadRow, error: unknown): Promise<boolean> {
  if (!isTikTokError(error) || !isRateRefusal(error.code)) return false;
  const upload = await selectUpload(deps.db, failed.id);
  if (!upload || upload.publish_id || upload.timing !== 'next-slot') return false;
  const moved = await rescheduleRefused(deps.db, upload, rateRefusalReason(error.code!));
  if (moved) await recordLog(deps.db, deps.logger, { level: 'WARNING', logger: 'tiktok', message: `Posting to ${upload.account_name} waits: ${moved.message}`, userId: upload.user_id });
  // Canceled meanwhile: nothing to post, nothing to fail.
  return true;
}

/** Stores a connected account for its owner; the same open_id again updates the existing row. */
export async function upsertTikTokAccount(
  db: DbOrTrx,
  appSecret: string,
  input: Owner & { tokens: TikTokTokens; info: TikTokUserInfo },
  now = Date.now(),
): Promise<AccountRow> {
  const { tokens, info } = input;
  const profile = {
    union_id: info.unionId ?? null,
    display_name: info.displayName || info.username || 'TikTok account',
    username: info.username ?? null,
    avatar_url: platformAvatarUrl('tiktok', info.avatarUrl),
  };
  const columns = tokenColumns(tokens, appSecret, now);
  return storeAccount(
    db,
    { user_id: input.userId, open_id: info.openId || tokens.openId, connected_via: input.via, ...profile, ...columns },
    { ...profile, ...columns, needs_reconnect: false, updated_at: new Date(now) },
  );
}

export const tiktokPlatform: PlatformAdapter = {
  platform: 'tiktok',
  provider: 'TikTok',
  configurationProblem: (deps) => (deps.tiktok ? null : TIKTOK_NOT_CONFIGURED),
  authorizeUrl: (deps, request) => requireTikTok(deps).buildAuthorizeUrl(request),
  refusal: callbackError,

  async connect(deps, owner, grant) {
    const tiktok = requireTikTok(deps);
    const tokens = await tiktok.exchangeCode(grant);
    const info = await tiktok.getUserInfo(tokens.accessToken);
    return [await upsertTikTokAccount(deps.db, deps.appSecret, { ...owner, tokens, info })];
  },
  describe: (account) => `TikTok account ${formatAccountHandle(account)}`,

  async refresh(deps, refreshToken, now, signal) {
    // TikTok rotates the refresh token on every refresh.
    const tokens = await requireTikTok(deps).refreshToken(refreshToken, signal);
    return { token: tokens.accessToken, columns: tokenColumns(tokens, deps.appSecret, now) };
  },
  grantDead: (error) => isTikTokError(error) && (error.kind === 'reconnect_required' || error.kind === 'token_invalid'),
  tokenRefused: (error) => isTikTokError(error, 'token_invalid'),
  revoke: (deps, accessToken) => requireTikTok(deps).revokeToken(accessToken),

  post,
  waitAfter,
  retryable: (error) => isTikTokError(error) && error.retryable,
  removedMidway: 'The TikTok account was removed while TikTok was receiving the video: check the account on TikTok before posting again',
  removedBefore: 'The TikTok account was removed before the clip was posted',

  async readCounts(deps, token, ids, signal) {
    const tiktok = requireTikTok(deps);
    const videos = await token.use((accessToken) => tiktok.queryVideos(accessToken, ids, signal));
    return new Map(videos.map((video) => [video.id, { views: video.views, likes: video.likes, comments: video.comments, shares: video.shares }]));
  },
  waitsForUser: (error) => isTikTokError(error, 'reconnect_required'),
};
