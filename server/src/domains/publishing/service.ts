import { choosesPrivacy, commercialProblem, privacyNeededMessage, type Clip, type InstagramPostOptions, type TikTokCommercial } from '@clipshift/shared';
import { youtubeTitle } from '../../engines/providers/youtube/index.ts';
import type { AppDeps } from '../deps.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { findClipById } from '../clips/service.ts';
import { recordLog } from '../logs/service.ts';
import { badRequest } from '../../platform/errors.ts';
import { accountLabel } from './accounts.ts';
import { postChoices, type PostChoice } from './post-settings.ts';
import { parseTimestamptz } from '../../platform/db/timestamps.ts';
import { selectAccountNames, selectLinkedAccountIds, selectUpload, selectUploadsOfClips, uploadsOfClipColumn, type ClipPostJson } from './queries.ts';
import { queuePostJob, queueUploads, statsOf, UNFINISHED_UPLOAD, type UploadRow } from './uploads.ts';

export { findAccount, linkAccount, linkedAccountsByStreamer, linkedPlatforms, linkedStreamerIds, listAccounts, removeAccount, unlinkAccount } from './accounts.ts';
export { creatorOptionsFor } from './creator-options.ts';
export { YOUTUBE_NOT_CONFIGURED } from './platforms/youtube.ts';
export { authorizeUrlFor, callbackPage, completeAuthorization, configurationProblem, openerMessagePage, type CallbackResult } from './oauth.ts';
export { listAccountPostSettings, saveAccountPostSettings } from './post-settings.ts';
export { cancelQueued, getSchedule, listQueue, postQueuedNow, saveSchedule } from './schedule.ts';
export { awaitAccepted, findUpload, postClip, targetAccounts, toUpload, type UploadRow } from './uploads.ts';
export { accountStats, firstStatsDue, nextStatsDue, performanceProfileFor } from './stats.ts';
export { withYouTubeQuota, youtubeQuotaFromEnv, youtubeUploadsLeft } from './youtube-quota.ts';

export type PostedTo = Clip['posted_to'];

type ClipPost = Omit<ClipPostJson, 'stats_fetched_at'> & { stats_fetched_at: Date | null };

function toPostedTo(post: ClipPost): PostedTo[number] {
  // A removed account's posts stay, under the name the account had then.
  const account = post.display_name === null ? post.account_name : accountLabel({ username: post.username, display_name: post.display_name });
  return { account, status: post.status, percent: post.percent, platform: post.platform, external_id: post.external_id, stats: statsOf(post), warning: post.warning };
}

/** Upload states of each clip, keyed by clip row id (a clip's details, the review inbox; the clip list uses postedToColumn). */
export async function postedTo(db: DbOrTrx, clipRowIds: readonly string[]): Promise<Map<string, PostedTo>> {
  const map = new Map<string, PostedTo>();
  if (!clipRowIds.length) return map;
  for (const row of await selectUploadsOfClips(db, clipRowIds)) {
    const list = map.get(row.clip_row_id) ?? [];
    list.push(toPostedTo(row));
    map.set(row.clip_row_id, list);
  }
  return map;
}

/** The clip's posts as a column of a statement that lists clips; postedToOf reads it. */
export const postedToColumn = uploadsOfClipColumn;

/** A clip's upload states from the column postedToColumn added to its row. */
export function postedToOf(posts: ClipPostJson[] | null): PostedTo {
  if (!posts) return [];
  return posts.map((post) => toPostedTo({ ...post, stats_fetched_at: post.stats_fetched_at === null ? null : parseTimestamptz(post.stats_fetched_at) }));
}

/**
 * A new clip of an auto_publish streamer (queued with its row): one upload to every account linked
 * to its streamer, into each account's next free posting slot (at once without slots), with the best-ranked description (subtitles, when asked for, ran before the
 * render, so the suggestions already know the speech). Accounts it already went to are skipped.
 */
export async function autoPublishClip(deps: AppDeps, clipRowId: string): Promise<void> {
  const clip = await findClipById(deps.db, clipRowId);
  if (!clip) return; // deleted before its turn came
  const accountIds = clip.streamer_id ? await selectLinkedAccountIds(deps.db, clip.streamer_id) : [];
  const userId = clip.user_id;
  if (!accountIds.length) {
    await recordLog(deps.db, deps.logger, { level: 'WARNING', logger: 'publishing', message: `Auto-publish is on but no account is linked: "${clip.title}" was not posted`, userId });
    return;
  }
  // A clip held for review posts only through an approval, and a rejected one never.
  if (clip.review_status === 'pending' || clip.review_status === 'rejected') return;
  const description = clip.descriptions[0]?.description ?? clip.title;
  const rows = await deps.db.transaction().execute((trx) =>
    queueUnattendedUploads(trx, { userId, clipRowId, accountIds, description, clipTitle: clip.title, mode: deps.env.TIKTOK_POST_MODE }, { requireChoice: false }),
  );
  const scheduled = rows.filter((row) => row.status === 'scheduled').length;
  const when = scheduled ? ` (${scheduled === rows.length ? 'all' : scheduled} into posting slots: see the Queue)` : '';
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'publishing', message: `Auto-publishing "${clip.title}" to ${rows.length} account${rows.length === 1 ? '' : 's'}${when}`, userId });
}

interface UnattendedPost {
  userId: string;
  clipRowId: string;
  accountIds: string[];
  description: string;
  /** The clip's title: YouTube posts take their title from it (youtubeTitle). */
  clipTitle: string;
  mode: 'direct' | 'inbox';
  /** YouTube's notifySubscribers chosen for this post; absent: each account's choice. */
  youtubeNotifySubscribers?: boolean;
  /** TikTok's commercial content disclosure (an approval's); absent: nothing disclosed. */
  commercial?: TikTokCommercial;
  /** Instagram's Reels options (an approval's); absent: the defaults. */
  instagram?: InstagramPostOptions;
}

/** Branded content cannot go to a TikTok account whose chosen privacy is "Only me": refused before anything is queued. */
async function assertCommercialAllowed(db: DbOrTrx, accountIds: readonly string[], choices: Map<string, PostChoice>, commercial: TikTokCommercial | undefined): Promise<void> {
  if (!commercial?.branded_content) return;
  const tiktok = new Set((await selectAccountNames(db, accountIds)).filter((account) => account.platform === 'tiktok').map((account) => account.id));
  for (const id of tiktok) {
    const problem = commercialProblem(commercial, choices.get(id)?.privacyLevel);
    if (problem) throw badRequest(problem);
  }
}

/**
 * Queues a post nobody set up by hand (an approval, an auto post) to each account, with the privacy
 * and interactions the user chose once for that account. With `requireChoice` (approvals), an
 * account without a chosen privacy refuses the whole post before anything is queued; without it,
 * such an account keeps the post job's own choice. Each post takes its account's next free posting
 * slot (at once without slots); accounts the clip already went to are skipped.
 */
export async function queueUnattendedUploads(db: DbOrTrx, post: UnattendedPost, options: { requireChoice: boolean }): Promise<UploadRow[]> {
  const choices = await postChoices(db, post.accountIds);
  // Only platforms where someone chooses who sees a post need that choice (Reels are public).
  const unchosen = (await selectAccountNames(db, post.accountIds)).filter((account) => choosesPrivacy(account.platform) && !choices.has(account.id));
  if (options.requireChoice && unchosen[0]) throw badRequest(privacyNeededMessage(accountLabel(unchosen[0])));
  await assertCommercialAllowed(db, post.accountIds, choices, post.commercial);
  const rows: UploadRow[] = [];
  const { clipTitle, youtubeNotifySubscribers, ...queueInput } = post;
  for (const accountId of post.accountIds) {
    const choice = choices.get(accountId);
    const queued = await queueUploads(
      db,
      {
        ...queueInput,
        accountIds: [accountId],
        title: youtubeTitle(clipTitle),
        youtubeNotifySubscribers: youtubeNotifySubscribers ?? choice?.youtubeNotifySubscribers ?? false,
        // queueUploads keeps the one that fits the account's platform (post-settings checked it on save).
        ...(choice
          ? { privacyLevel: choice.privacyLevel, youtubePrivacy: choice.privacyLevel, disableComment: choice.disableComment, disableDuet: choice.disableDuet, disableStitch: choice.disableStitch }
          : {}),
      },
      { skipExisting: true, timing: 'next-slot' },
    );
    rows.push(...queued);
  }
  return rows;
}

/** An upload whose job a dead worker held: queued again while it has work left (from its saved publish_id). */
export async function requeueInterruptedUpload(deps: AppDeps, uploadId: string): Promise<boolean> {
  const upload = await selectUpload(deps.db, uploadId);
  if (!upload || !(UNFINISHED_UPLOAD as readonly string[]).includes(upload.status)) return false;
  // A dead worker only held the job once it was due, but a slot still ahead (rescheduled meanwhile) keeps its time.
  const ahead = upload.status === 'scheduled' && upload.scheduled_for && upload.scheduled_for > new Date() ? upload.scheduled_for : undefined;
  await queuePostJob(deps.db, uploadId, ahead);
  return true;
}
