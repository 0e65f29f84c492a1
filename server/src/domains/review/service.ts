import { APPROVAL_LINK_DAYS, APPROVAL_LINK_MESSAGES, formatAccountHandle, sortByRank, type ApprovalAnswer, type ApprovalLinkState, type ApproveClipRequest } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { StoredApproval } from '../../platform/db/schema.ts';
import { AppError, conflict, notFound, type AppErrorCode } from '../../platform/errors.ts';
import { clipKey, clipLabelsOf, countPendingClips, findClipById, findClipRow, pendingClips, settlePendingClip, type ClipListRow, type ClipRow } from '../clips/service.ts';
import { anonymousLogBudget, recordLog } from '../logs/service.ts';
import { listAccounts, queueUnattendedUploads, targetAccounts, type UploadRow } from '../publishing/service.ts';
import { claimLink, insertApprovalLink, revokeOpenLinks, selectLatestLinks, type ApprovalLinkRow } from './link-queries.ts';
import { APPROVAL_LINK_TTL_MS, findLink, issueLinkToken, limitedToAddress, linkInvalid, linkState, unansweredLinkProblem } from './links.ts';

/*
 * The review inbox: clips a run saved for a streamer in `review` publish mode wait here (the run
 * marks them pending, see saveClip) until the user approves them, which queues their posts like an
 * auto post would, or rejects them, which keeps them in the library and out of every automatic post.
 */

/** What one clip of a bulk approval may fail with while the others go on. */
const PER_CLIP_FAILURES = new Set<AppErrorCode>(['BAD_REQUEST', 'NOT_FOUND', 'CONFLICT']);

const NOT_WAITING = (clipId: string) => conflict(`Clip ${clipId} is not waiting for review`);

export function listPendingClips(db: DbOrTrx, userId: string): Promise<ClipListRow[]> {
  return pendingClips(db, userId);
}

export function countPending(db: DbOrTrx, userId: string): Promise<number> {
  return countPendingClips(db, userId);
}

async function pendingClip(db: DbOrTrx, userId: string, clipId: string): Promise<ClipRow> {
  const clip = await findClipRow(db, userId, clipId);
  if (clip.review_status !== 'pending') throw NOT_WAITING(clipId);
  return clip;
}

export interface Approval {
  clip: ClipRow;
  uploads: UploadRow[];
}

/** Who settles a clip: its owner in the inbox, or the person the owner sent an approval link to. */
interface Settling {
  by: 'owner' | 'link';
  /**
   * Runs first in the transaction that settles the clip: a link claims itself there, so that the
   * link and the clip are settled together or not at all.
   */
  claim?: (trx: DbOrTrx) => Promise<void>;
}

const BY_OWNER: Settling = { by: 'owner' };

/** What an approval posts when no description is given: the best-ranked suggestion, else the title. */
function approvalDescription(clip: Pick<ClipRow, 'descriptions' | 'title'>, asked: string | undefined): string {
  return asked?.trim() || (sortByRank(clip.descriptions)[0]?.description ?? clip.title);
}

const accountsWord = (count: number) => `${count} account${count === 1 ? '' : 's'}`;

/**
 * Approves a clip waiting for review: its posts are queued to the accounts (with the privacy the
 * user chose for each, which is required) and the clip leaves the inbox, in one transaction.
 */
export async function approveClip(deps: AppDeps, userId: string, input: Omit<ApproveClipRequest, 'clip_id'> & { clip_id: string }, settling: Settling = BY_OWNER): Promise<Approval> {
  const clip = await pendingClip(deps.db, userId, input.clip_id);
  const accountIds = await targetAccounts(deps.db, userId, input.account_ids ?? [], clip);
  const description = approvalDescription(clip, input.description);
  const uploads = await deps.db.transaction().execute(async (trx) => {
    await settling.claim?.(trx);
    if (!(await settlePendingClip(trx, clip.id, 'approved'))) throw NOT_WAITING(clip.clip_id);
    return queueUnattendedUploads(
      trx,
      {
        userId,
        clipRowId: clip.id,
        accountIds,
        description,
        clipTitle: clip.title,
        mode: deps.env.TIKTOK_POST_MODE,
        commercial: input.tiktok_commercial,
        youtubeNotifySubscribers: input.youtube_notify_subscribers,
        instagram: input.instagram,
      },
      { requireChoice: true },
    );
  });
  const message =
    settling.by === 'link' ? `Approved by link: "${clip.title}" queued for ${accountsWord(uploads.length)}` : `Approved "${clip.title}": queued for ${accountsWord(uploads.length)}`;
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'review', message, userId });
  return { clip, uploads };
}

export interface BulkApproval {
  approved: number;
  uploads: UploadRow[];
  failed: { clip_id: string; message: string }[];
}

/**
 * Approves each clip on its own (the best-ranked suggestion, the streamer's linked accounts): one
 * clip that cannot be approved is reported in `failed` and does not hold the others back.
 */
export async function approveClips(deps: AppDeps, userId: string, clipIds: readonly string[], choices: Pick<ApproveClipRequest, 'youtube_notify_subscribers'> = {}): Promise<BulkApproval> {
  const result: BulkApproval = { approved: 0, uploads: [], failed: [] };
  for (const clipId of new Set(clipIds)) {
    try {
      const approval = await approveClip(deps, userId, { clip_id: clipId, ...choices });
      result.approved += 1;
      result.uploads.push(...approval.uploads);
    } catch (error) {
      // Only the user's mistakes are reported per clip; anything else (the database) fails the request.
      if (!(error instanceof AppError) || !PER_CLIP_FAILURES.has(error.code)) throw error;
      result.failed.push({ clip_id: clipId, message: error.message });
    }
  }
  return result;
}

/** Rejects a clip waiting for review: it stays in the library and is never posted automatically. */
export async function rejectClip(deps: AppDeps, userId: string, clipId: string, settling: Settling & { note?: string | null } = BY_OWNER): Promise<ClipRow> {
  const clip = await pendingClip(deps.db, userId, clipId);
  await deps.db.transaction().execute(async (trx) => {
    await settling.claim?.(trx);
    if (!(await settlePendingClip(trx, clip.id, 'rejected'))) throw NOT_WAITING(clipId);
  });
  const message =
    settling.by === 'link'
      ? `Rejected by link: "${clip.title}" stays in the library and will not be posted${settling.note ? `. Their note: ${settling.note}` : ''}`
      : `Rejected "${clip.title}": it stays in the library and will not be posted`;
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'review', message, userId });
  return clip;
}

/*
 * Approval links (docs/decisions/0046-approval-links.md): the owner shares a clip waiting for review
 * with someone without an account, who approves or rejects it once, within APPROVAL_LINK_DAYS. The
 * answer goes through approveClip and rejectClip above, as if the owner had clicked in the inbox.
 */

export interface SharedLink {
  /** The link's secret: shown to the owner this once, stored only as a hash. */
  token: string;
  expiresAt: Date;
}

/**
 * Makes a link for a clip waiting for review, carrying the owner's approval choices resolved now
 * (the accounts, the description), so that the page shows exactly what an approval will post. A
 * clip has one working link at a time: this one replaces any the clip had that nobody answered.
 */
export async function shareClip(deps: AppDeps, userId: string, input: ApproveClipRequest, now: Date = new Date()): Promise<SharedLink> {
  const clip = await pendingClip(deps.db, userId, input.clip_id);
  const { clip_id: _clipId, ...choices } = input;
  const approval: StoredApproval = {
    ...choices,
    description: approvalDescription(clip, input.description),
    account_ids: await targetAccounts(deps.db, userId, input.account_ids ?? [], clip),
  };
  const { token, hash } = issueLinkToken();
  const expiresAt = new Date(now.getTime() + APPROVAL_LINK_TTL_MS);
  await deps.db.transaction().execute(async (trx) => {
    await revokeOpenLinks(trx, clip.id);
    await insertApprovalLink(trx, { userId, clipRowId: clip.id, tokenHash: hash, approval, expiresAt });
  });
  await recordLog(deps.db, deps.logger, { level: 'INFO', logger: 'review', message: `Shared "${clip.title}" for approval: the link works once, for ${APPROVAL_LINK_DAYS} days`, userId });
  return { token, expiresAt };
}

/** What an approval link's page shows; the http layer adds where its video is served. */
export interface ApprovalLinkView {
  status: 'open' | ApprovalAnswer;
  title: string;
  streamer: string;
  description: string;
  accounts: { name: string; platform: Awaited<ReturnType<typeof listAccounts>>[number]['platform'] }[];
  formatType: ClipRow['format_type'];
  expiresAt: Date;
  answeredAt: Date | null;
  note: string | null;
}

/** The clip a link names, while it still waits for review; the link's refusal otherwise. */
async function linkedPendingClip(db: DbOrTrx, row: ApprovalLinkRow): Promise<ClipRow> {
  const clip = await findClipById(db, row.clip_row_id);
  // The clip is deleted with its links (on delete cascade): a missing one raced a deletion.
  if (!clip) throw linkInvalid();
  if (clip.review_status !== 'pending') throw conflict(APPROVAL_LINK_MESSAGES.settled);
  return clip;
}

/**
 * An approval link's page: the clip, its description and accounts while the link is open; the
 * answer once it was answered (no video then). 404 for a token that is not a link, 409 for one
 * that was replaced or has expired, or whose clip was reviewed since. Failures spend the address's
 * budget (429 past it).
 */
export function approvalLinkPage(deps: AppDeps, token: string, ip: string, now: Date = new Date()): Promise<ApprovalLinkView> {
  return limitedToAddress(deps.db, ip, async () => {
    const row = await findLink(deps.db, token);
    const clip = row.answer ? await findClipById(deps.db, row.clip_row_id) : await openLinkClip(deps.db, row, now);
    if (!clip) throw linkInvalid();
    const accounts = (await listAccounts(deps.db, row.user_id)).filter((account) => row.approval.account_ids.includes(account.id));
    return {
      status: row.answer ?? 'open',
      title: clip.title,
      streamer: clip.streamer_name,
      description: row.approval.description ?? clip.title,
      accounts: accounts.map((account) => ({ name: formatAccountHandle(account), platform: account.platform })),
      formatType: clip.format_type,
      expiresAt: row.expires_at,
      answeredAt: row.answered_at,
      note: row.note,
    };
  });
}

/** The clip of a link nobody answered yet, while the link may still be answered. */
async function openLinkClip(db: DbOrTrx, row: ApprovalLinkRow, now: Date): Promise<ClipRow> {
  const problem = unansweredLinkProblem(row, now);
  if (problem) throw problem;
  return linkedPendingClip(db, row);
}

/** The link a token names, open for an answer; 409 once answered, replaced or expired. */
async function answerableLink(db: DbOrTrx, token: string, now: Date): Promise<{ row: ApprovalLinkRow; clip: ClipRow }> {
  const row = await findLink(db, token);
  if (row.answer) throw conflict(APPROVAL_LINK_MESSAGES.used);
  return { row, clip: await openLinkClip(db, row, now) };
}

/** Claims the link inside the settling transaction; a link answered meanwhile stops the settling. */
function claimWith(row: ApprovalLinkRow, answer: ApprovalAnswer, note: string | null): Settling['claim'] {
  return async (trx) => {
    if (!(await claimLink(trx, row.id, answer, note))) throw conflict(APPROVAL_LINK_MESSAGES.used);
  };
}

/**
 * Approves through a link, once: exactly the owner's approval (approveClip, with the choices the
 * owner made when sharing), logged as "Approved by link". A refusal (an account removed since, a
 * privacy nobody chose) leaves the link open and is the answer's 4xx.
 */
export function approveByLink(deps: AppDeps, token: string, ip: string, now: Date = new Date()): Promise<Approval> {
  return limitedToAddress(deps.db, ip, async () => {
    const { row, clip } = await answerableLink(deps.db, token, now);
    try {
      return await approveClip(deps, row.user_id, { clip_id: clip.clip_id, ...row.approval }, { by: 'link', claim: claimWith(row, 'approved', null) });
    } catch (error) {
      // The owner must hear that the streamer said yes and nothing was posted (a bounded few such rows).
      if (error instanceof AppError && error.code === 'BAD_REQUEST') {
        await recordLog(deps.db, deps.logger, {
          level: 'WARNING',
          logger: 'review',
          message: `Approval by link of "${clip.title}" could not be carried out: ${error.message}. The link stays open.`,
          userId: row.user_id,
          budget: anonymousLogBudget(row.user_id),
        });
      }
      throw error;
    }
  });
}

/** Rejects through a link, once, as the owner's Reject does; logged as "Rejected by link" with the note. */
export function rejectByLink(deps: AppDeps, token: string, ip: string, note: string | undefined, now: Date = new Date()): Promise<ClipRow> {
  return limitedToAddress(deps.db, ip, async () => {
    const { row, clip } = await answerableLink(deps.db, token, now);
    const kept = note?.trim() || null;
    return rejectClip(deps, row.user_id, clip.clip_id, { by: 'link', claim: claimWith(row, 'rejected', kept), note: kept });
  });
}

/** What an open link serves without a session: its clip's video or picture, nothing else. */
export type LinkFile = 'video' | 'thumbnail';

export const LINK_FILE_GONE = 'Nothing to show for this link: it is not valid, was answered, or has expired';

/**
 * The stored key of the clip's video (or thumbnail) for an open link: unanswered, not replaced,
 * not expired, its clip still waiting with its media kept. Anything else is one 404.
 */
export function approvalLinkFile(deps: AppDeps, token: string, ip: string, file: LinkFile, now: Date = new Date()): Promise<string> {
  return limitedToAddress(deps.db, ip, async () => {
    const gone = () => notFound(LINK_FILE_GONE);
    const row = await findLink(deps.db, token).catch((error: unknown) => {
      throw error instanceof AppError ? gone() : error;
    });
    if (row.answer || unansweredLinkProblem(row, now)) throw gone();
    const clip = await findClipById(deps.db, row.clip_row_id);
    if (!clip || clip.review_status !== 'pending' || clip.media_expired_at) throw gone();
    return clipKey(clip.files_dir, file);
  });
}

/** How far back the inbox looks for links: their lifetime, and as long again for the answers. */
const LINK_HISTORY_MS = 2 * APPROVAL_LINK_TTL_MS;
const LINK_HISTORY_MAX = 100;

/** The latest link of each of the user's clips shared lately, newest first: out, answered or expired. */
export async function listApprovalLinks(db: DbOrTrx, userId: string, now: Date = new Date()): Promise<ApprovalLinkState[]> {
  const rows = await selectLatestLinks(db, userId, new Date(now.getTime() - LINK_HISTORY_MS), LINK_HISTORY_MAX);
  const labels = await clipLabelsOf(
    db,
    rows.map((row) => row.clip_row_id),
  );
  return rows.flatMap((row) => {
    const label = labels.get(row.clip_row_id);
    if (!label) return [];
    return [
      {
        clip_id: label.clip_id,
        title: label.title,
        status: linkState(row, now),
        created_at: row.created_at.toISOString(),
        expires_at: row.expires_at.toISOString(),
        answered_at: row.answered_at?.toISOString() ?? null,
        note: row.note,
      },
    ];
  });
}
