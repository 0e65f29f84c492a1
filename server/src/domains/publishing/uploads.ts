import { commercialProblem, DEFAULT_INSTAGRAM_OPTIONS, postPreflight, YOUTUBE_PRIVACY_NEEDED, type AccountPlatform, type InstagramPostOptions, type PostClipRequest, type PostStatsDto, type TikTokCommercial, type Upload } from '@clipshift/shared';
import { youtubeTitle } from '../../engines/providers/youtube/index.ts';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import { clipLabelsOf, findClipWithMedia, type ClipRow } from '../clips/service.ts';
import { badRequest, conflict, notFound, serviceRestarting, stillWorking } from '../../platform/errors.ts';
import { HELD_CALL_LIMIT_MS } from '../deps.ts';
import { pause } from '../../platform/pause.ts';
import { accountLabel, accountNotFound, findAccount } from './accounts.ts';
import { planPost, queuePostJob, type PostTiming } from './schedule.ts';
import { insertUpload, selectAccountNames, selectLinkedAccountIds, selectUploads, selectUserUpload, type UploadRow } from './queries.ts';

export type { UploadRow };
/**
 * Statuses after which the platform has accepted (or refused) the video; `scheduled` for a post
 * that waits (YouTube's daily quota), whose upload says until when.
 */
const ACCEPTED_OR_DONE = ['processing', 'sent_to_inbox', 'published', 'failed', 'canceled', 'scheduled'] as const;
const POLL_MS = 500;

/** The account's current name while it is connected, else the name it had when the upload was made. */
async function uploadAccountName(db: DbOrTrx, row: UploadRow): Promise<string> {
  if (!row.account_id) return row.account_name;
  const [account] = await selectAccountNames(db, [row.account_id]);
  return account ? accountLabel(account) : row.account_name;
}

/** A post's last counts with when they were read; null before the first reading. */
export function statsOf(row: Pick<UploadRow, 'stats' | 'stats_fetched_at'>): PostStatsDto | null {
  return row.stats && row.stats_fetched_at ? { ...row.stats, fetched_at: row.stats_fetched_at.toISOString() } : null;
}

export async function toUpload(db: DbOrTrx, row: UploadRow): Promise<Upload> {
  const [clip, account] = await Promise.all([
    clipLabelsOf(db, [row.clip_row_id]),
    uploadAccountName(db, row),
  ]);
  return {
    id: row.id,
    clip_id: clip.get(row.clip_row_id)?.clip_id ?? '',
    tiktok_account_id: row.account_id,
    account,
    status: row.status,
    percent: row.percent,
    publish_id: row.publish_id,
    error: row.error,
    warning: row.warning,
    scheduled_for: row.scheduled_for?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    platform: row.platform,
    external_id: row.external_id,
    stats: statsOf(row),
  };
}

/** The caller's upload; a null id (text that cannot be a UUID, see rowId) is missing like any other. */
export async function findUpload(db: DbOrTrx, userId: string, uploadId: string | null): Promise<UploadRow> {
  if (uploadId === null) throw notFound('Upload not found');
  const row = await selectUserUpload(db, userId, uploadId);
  if (!row) throw notFound('Upload not found');
  return row;
}

/** Statuses in which an upload's job still has work to do (a scheduled one's job waits for its slot). */
export const UNFINISHED_UPLOAD = ['queued', 'uploading', 'processing', 'scheduled'] as const;

export { queuePostJob };

interface QueueInput {
  userId: string;
  clipRowId: string;
  accountIds: string[];
  description: string;
  mode: 'direct' | 'inbox';
  /** TikTok's privacy level, for TikTok accounts. */
  privacyLevel?: string;
  disableComment?: boolean;
  disableDuet?: boolean;
  disableStitch?: boolean;
  /** private, unlisted or public, for YouTube accounts (absent: the post job posts privately). */
  youtubePrivacy?: string;
  /** The YouTube title, for YouTube accounts. */
  title?: string;
  /** YouTube's notifySubscribers, for YouTube accounts (default false). */
  youtubeNotifySubscribers?: boolean;
  /** TikTok's commercial content disclosure, for TikTok accounts (absent: nothing disclosed). */
  commercial?: TikTokCommercial;
  /** Reels options, for Instagram accounts (absent: each option's default). */
  instagram?: InstagramPostOptions;
}

interface QueueOptions {
  /** Skip accounts the clip is already posted or posting to, instead of refusing with 409. */
  skipExisting?: boolean;
  /**
   * `now` for a post the user asked for this minute (the wizard's Post); `next-slot` for posts
   * nobody is waiting on (auto-publish, review approvals): each account's next free posting slot,
   * or at once for an account without slots.
   */
  timing: PostTiming;
}

/**
 * One upload row per (clip, account) and its job, in one transaction (pass it: the slot lock lasts
 * until it commits). A clip already posted or posting to an account is refused — also when that
 * account was removed and connected again since (same platform id); a failed or
 * canceled attempt may be tried again.
 */
export async function queueUploads(db: DbOrTrx, input: QueueInput, options: QueueOptions): Promise<UploadRow[]> {
  const accounts = input.accountIds.length ? await selectAccountNames(db, input.accountIds) : [];
  const rows: UploadRow[] = [];
  for (const accountId of input.accountIds) {
    const account = accounts.find((candidate) => candidate.id === accountId);
    if (!account) throw accountNotFound();
    const planned = await planPost(db, account, options.timing);
    const youtube = account.platform === 'youtube';
    const values = {
      ...planned,
      timing: options.timing,
      user_id: input.userId,
      clip_row_id: input.clipRowId,
      account_id: account.id,
      platform: account.platform,
      account_name: accountLabel(account),
      account_open_id: account.open_id,
      mode: input.mode,
      description: input.description,
      privacy_level: (youtube ? input.youtubePrivacy : input.privacyLevel) ?? null,
      disable_comment: !youtube && (input.disableComment ?? false),
      disable_duet: !youtube && (input.disableDuet ?? false),
      disable_stitch: !youtube && (input.disableStitch ?? false),
      brand_organic: account.platform === 'tiktok' && (input.commercial?.your_brand ?? false),
      brand_content: account.platform === 'tiktok' && (input.commercial?.branded_content ?? false),
      title: youtube ? (input.title ?? null) : null,
      youtube_notify_subscribers: youtube && (input.youtubeNotifySubscribers ?? false),
      ...instagramColumns(account.platform === 'instagram' ? input.instagram : undefined),
    };
    const row = await insertUpload(db, values);
    if (!row) {
      if (options.skipExisting) continue;
      throw conflict(`This clip is already posted or being posted to ${accountLabel(account)}`);
    }
    await queuePostJob(db, row.id, planned.status === 'scheduled' ? planned.scheduled_for : undefined);
    rows.push(row);
  }
  return rows;
}

/** Instagram's options as stored: the defaults (shared to the feed, no trial, nobody invited) when absent. */
function instagramColumns(options: InstagramPostOptions = DEFAULT_INSTAGRAM_OPTIONS) {
  return { instagram_share_to_feed: options.share_to_feed, instagram_trial_reel: options.trial_reel, instagram_collaborators: options.collaborators };
}

/**
 * The accounts a post goes to: those asked for (each must be the user's), else every account linked
 * to the clip's streamer (the wizard's post and a review approval alike).
 */
export async function targetAccounts(db: DbOrTrx, userId: string, asked: readonly (string | null)[], clip: { streamer_id: string | null; streamer_name: string }): Promise<string[]> {
  if (asked.length) {
    const found = [];
    for (const id of asked) found.push((await findAccount(db, userId, id)).id);
    return [...new Set(found)];
  }
  const linked = clip.streamer_id ? await selectLinkedAccountIds(db, clip.streamer_id) : [];
  if (!linked.length) throw badRequest(`No account to post to: link one to ${clip.streamer_name} or choose one`);
  return linked;
}

/** Why the clip's video cannot go to the platform (shared postPreflight), as a 400 before anything is queued. */
export function assertPreflight(clip: Pick<ClipRow, 'output_duration' | 'width' | 'height' | 'size_bytes'>, platforms: Iterable<AccountPlatform>): void {
  const video = { duration: clip.output_duration, width: clip.width ?? 0, height: clip.height ?? 0, size_bytes: clip.size_bytes === null ? null : Number(clip.size_bytes) };
  for (const platform of new Set(platforms)) {
    const problems = postPreflight(platform, video);
    if (problems.length) throw badRequest(problems.join(' '));
  }
}

export async function postClip(db: Db, userId: string, mode: 'direct' | 'inbox', input: PostClipRequest): Promise<UploadRow[]> {
  const clip = await findClipWithMedia(db, userId, input.id);
  return db.transaction().execute(async (trx) => {
    const asked = [...(input.tiktok_account_ids ?? []), ...(input.tiktok_account_id === undefined ? [] : [input.tiktok_account_id]), ...(input.account_ids ?? [])];
    const accountIds = await targetAccounts(trx, userId, asked, clip);
    const platforms = (await selectAccountNames(trx, accountIds)).map((account) => account.platform);
    if (platforms.includes('youtube') && !input.youtube_privacy) throw badRequest(YOUTUBE_PRIVACY_NEEDED);
    // The disclosure is TikTok's: ignored when no TikTok account is chosen.
    const commercial = platforms.includes('tiktok') ? commercialProblem(input.tiktok_commercial, input.privacy_level) : null;
    if (commercial) throw badRequest(commercial);
    assertPreflight(clip, platforms);
    return queueUploads(trx, {
      userId,
      clipRowId: clip.id,
      accountIds,
      description: input.description.trim(),
      mode,
      privacyLevel: input.privacy_level,
      disableComment: input.disable_comment,
      disableDuet: input.disable_duet,
      disableStitch: input.disable_stitch,
      youtubePrivacy: input.youtube_privacy,
      youtubeNotifySubscribers: input.youtube_notify_subscribers,
      title: input.title?.trim() ? input.title.trim() : youtubeTitle(clip.title),
      commercial: input.tiktok_commercial,
      instagram: input.instagram,
    }, { timing: 'now' });
  });
}

export const RESTARTING_UPLOADS = 'The server is restarting. The upload carries on after the restart: check the clip’s post status in a minute.';
export const UPLOADS_CARRY_ON = 'The upload is taking a while. It carries on in the background: check the clip’s post status in a minute.';

interface AcceptWait {
  /** The caller went away. */
  signal?: AbortSignal;
  /** The process is shutting down: answer 503 at once rather than hold the request. */
  stopping?: AbortSignal;
  /** How long to wait at most (default HELD_CALL_LIMIT_MS); past it the answer is a 503 saying the upload carries on. */
  limitMs?: number;
}

/**
 * Waits until the platform has accepted or refused every upload (another process may be running
 * them). Shutting down ends the wait at once with a 503, and so does its limit: the jobs go on.
 */
export async function awaitAccepted(db: Db, uploadIds: string[], options: AcceptWait = {}): Promise<UploadRow[]> {
  const deadline = Date.now() + (options.limitMs ?? HELD_CALL_LIMIT_MS);
  for (;;) {
    const rows = await selectUploads(db, uploadIds);
    if (rows.every((row) => (ACCEPTED_OR_DONE as readonly string[]).includes(row.status))) return rows;
    if (options.stopping?.aborted) throw serviceRestarting(RESTARTING_UPLOADS);
    if (Date.now() > deadline || options.signal?.aborted) throw stillWorking(UPLOADS_CARRY_ON);
    await pause(POLL_MS, options.signal, options.stopping);
  }
}
