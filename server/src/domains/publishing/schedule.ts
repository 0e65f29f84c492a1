import { PLATFORM_LABELS, type AccountPlatform, type PostingSchedule, type PostingScheduleInput, type QueueItem } from '@clipshift/shared';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import type { UploadStatus } from '../../platform/db/schema.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { POST_JOB } from '../../platform/queue/contracts.ts';
import { enqueue, findJob, jobKey, removeJob, rescheduleJob } from '../../platform/queue/queue.ts';
import { clipLabelsOf } from '../clips/service.ts';
import { accountLabel, findAccount } from './accounts.ts';
import {
  lockAccountSlots,
  selectPostTimes,
  selectSchedule,
  selectUnfinishedUploads,
  selectUserUpload,
  transitionUpload,
  upsertSchedule,
  type ScheduleRow,
  type UploadRow,
} from './queries.ts';
import { nextFreeSlot, slotLabel, type SlotRules } from './slots.ts';

/*
 * Posting slots and the posting queue. Every post is planned here: `now` (the wizard's Post, which
 * the user asked for this minute) goes at once; `next-slot` (auto-publish, review approvals) takes
 * the account's next free slot, or goes at once when the account has none. A scheduled upload's
 * post job is queued in the same transaction with run_at = its slot, keyed by the upload, so
 * cancel and post-now find it; the job's own at-most-once rules (publish_id saved before any byte)
 * are unchanged, and the job claims the upload with a conditional update so a cancel that wins
 * the race is never posted.
 */

export type PostTiming = 'now' | 'next-slot';

const DEFAULT_ZONE = 'UTC';
/** Taken times older than this cannot share a local day or a gap with a new slot (caps ≤ a day, gaps ≤ a day). */
const LOOK_BACK_MS = 2 * 86_400_000;
/** A post its platform refused for rate reasons on an account without slots tries again this much later. */
export const NO_SLOT_RETRY_MS = 60 * 60_000;
/** Statuses the queue lists: not finished yet. */
const QUEUE_STATUSES: UploadStatus[] = ['scheduled', 'queued', 'uploading', 'processing'];
const CANCELABLE: UploadStatus[] = ['scheduled', 'queued'];

function rulesOf(row: ScheduleRow | undefined): SlotRules {
  return {
    timezone: row?.timezone ?? DEFAULT_ZONE,
    slots: row?.slots ?? [],
    dailyCap: row?.daily_cap ?? null,
    minGapMinutes: row?.min_gap_minutes ?? 0,
  };
}

function scheduleView(row: ScheduleRow | undefined): PostingSchedule {
  const rules = rulesOf(row);
  return { timezone: rules.timezone, slots: [...rules.slots], daily_cap: rules.dailyCap, min_gap_minutes: rules.minGapMinutes, updated_at: row?.updated_at.toISOString() ?? null };
}

export async function getSchedule(db: DbOrTrx, userId: string, accountId: string | null): Promise<PostingSchedule> {
  const account = await findAccount(db, userId, accountId);
  return scheduleView(await selectSchedule(db, account.id));
}

/** Saves the account's slots; posts already scheduled keep their times (cancel or post them now to change that). */
export async function saveSchedule(db: DbOrTrx, userId: string, input: PostingScheduleInput): Promise<PostingSchedule> {
  const account = await findAccount(db, userId, input.id);
  const row = await upsertSchedule(db, {
    account_id: account.id,
    timezone: input.timezone,
    slots: JSON.stringify(input.slots),
    daily_cap: input.daily_cap,
    min_gap_minutes: input.min_gap_minutes,
  });
  return scheduleView(row);
}

export interface PlannedPost {
  status: 'queued' | 'scheduled';
  scheduled_for: Date;
}

/**
 * When a new post to the account goes out. Call inside the transaction that inserts the upload:
 * the lock keeps concurrent posts to one account from taking the same slot until it commits.
 */
export async function planPost(db: DbOrTrx, account: { id: string; open_id: string }, timing: PostTiming, now = new Date(), exceptUploadId?: string): Promise<PlannedPost> {
  await lockAccountSlots(db, account.open_id);
  if (timing === 'now') return { status: 'queued', scheduled_for: now };
  const rules = rulesOf(await selectSchedule(db, account.id));
  if (!rules.slots.length) return { status: 'queued', scheduled_for: now };
  const taken = await selectPostTimes(db, account.open_id, new Date(now.getTime() - LOOK_BACK_MS), exceptUploadId);
  const slot = nextFreeSlot(rules, taken.map((date) => date.getTime()), now.getTime());
  return slot === null ? { status: 'queued', scheduled_for: now } : { status: 'scheduled', scheduled_for: new Date(slot) };
}

/** Queues (or queues again) the job that posts an upload, at its slot when it has one ahead. */
export async function queuePostJob(db: DbOrTrx, uploadId: string, runAt?: Date): Promise<void> {
  await enqueue(db, POST_JOB, { uploadId }, runAt ? { runAt } : {});
}

/** The user's uploads that have not finished, soonest first. */
export async function listQueue(db: DbOrTrx, userId: string): Promise<QueueItem[]> {
  const rows = await selectUnfinishedUploads(db, userId, QUEUE_STATUSES);
  const clips = await clipLabelsOf(db, [...new Set(rows.map((row) => row.clip_row_id))]);
  return rows.map((row) => ({
    id: row.id,
    clip_id: clips.get(row.clip_row_id)?.clip_id ?? '',
    account_id: row.account_id,
    platform: row.platform,
    status: row.status,
    scheduled_for: (row.scheduled_for ?? row.created_at).toISOString(),
    error: row.error,
    warning: row.warning,
    clip_title: clips.get(row.clip_row_id)?.title ?? '',
    account: row.display_name === null ? row.account_name : accountLabel({ username: row.username, display_name: row.display_name }),
    timezone: row.timezone ?? DEFAULT_ZONE,
  }));
}

async function findQueued(db: DbOrTrx, userId: string, uploadId: string | null): Promise<UploadRow> {
  const row = uploadId === null ? undefined : await selectUserUpload(db, userId, uploadId);
  if (!row) throw notFound('Queued post not found');
  return row;
}

function notWaiting(row: UploadRow, action: string) {
  const started = ['uploading', 'processing'].includes(row.status);
  const why = started ? `it is already being sent to ${PLATFORM_LABELS[row.platform]}` : `it is ${row.status.replace(/_/g, ' ')}`;
  return conflict(`This post cannot be ${action}: ${why}`);
}

/** Takes a post off the queue before it starts; 409 once it is uploading (the platform may have it). */
export async function cancelQueued(db: Db, userId: string, uploadId: string | null): Promise<void> {
  const row = await findQueued(db, userId, uploadId);
  await db.transaction().execute(async (trx) => {
    const canceled = await transitionUpload(trx, row.id, CANCELABLE, { status: 'canceled', error: 'Canceled from the posting queue' });
    if (!canceled) throw notWaiting((await selectUserUpload(trx, userId, row.id)) ?? row, 'canceled');
    // A job running this very moment finds the upload canceled when it claims it, and stops.
    await removeJob(trx, jobKey(POST_JOB, { uploadId: row.id }));
  });
}

/**
 * Moves a scheduled post's job to now; a post already queued to go at once is left as it is.
 * Answers the platform it goes to.
 */
export async function postQueuedNow(db: Db, userId: string, uploadId: string | null): Promise<AccountPlatform> {
  const row = await findQueued(db, userId, uploadId);
  if (row.status === 'queued') return row.platform;
  await db.transaction().execute(async (trx) => {
    const now = new Date();
    const moved = await transitionUpload(trx, row.id, ['scheduled'], { status: 'queued', scheduled_for: now });
    if (!moved) {
      const current = (await selectUserUpload(trx, userId, row.id)) ?? row;
      if (current.status === 'queued') return;
      throw notWaiting(current, 'posted now');
    }
    const key = jobKey(POST_JOB, { uploadId: row.id });
    // Rescheduling never doubles a job that a worker holds right now (it is posting already).
    if (!(await rescheduleJob(trx, key, now)) && !(await findJob(trx, key))?.locked_by) await queuePostJob(trx, row.id);
  });
  return row.platform;
}

/** What TikTok's rate refusal is about, in words for the queue. */
const RATE_REASONS: Readonly<Record<string, string>> = {
  rate_limit_exceeded: 'TikTok limits how many requests this account can make per minute',
  spam_risk_too_many_posts: 'TikTok limits how many posts this account can make per day',
  spam_risk_too_many_pending_share: 'TikTok allows at most 5 drafts waiting in the inbox per 24 hours',
  reached_active_user_cap: 'TikTok limits how many accounts can post through this app per day',
};

/** Whether TikTok refused the post for how often it is posting (worth waiting for), by its code. */
export function isRateRefusal(code: string | null): boolean {
  return code !== null && code in RATE_REASONS;
}

/** TikTok's rate refusal in words for the queue. */
export function rateRefusalReason(code: string): string {
  return RATE_REASONS[code] ?? 'TikTok limits how often this account can post';
}

/**
 * A post its platform refused for how often the account posts before it received anything (TikTok's
 * rate refusals, Instagram's publishing limit): back to `scheduled` at the account's next free slot
 * (`noSlotWaitMs` later without slots: an hour by default), saying why. Null when
 * the upload left the states a job holds meanwhile (canceled). The caller has checked that the
 * platform holds nothing of this post.
 */
export async function rescheduleRefused(
  db: Db,
  upload: UploadRow,
  reason: string,
  { now = new Date(), noSlotWaitMs = NO_SLOT_RETRY_MS }: { now?: Date; noSlotWaitMs?: number } = {},
): Promise<{ at: Date; message: string } | null> {
  return db.transaction().execute(async (trx) => {
    const accountId = upload.account_id;
    const schedule = accountId ? await selectSchedule(trx, accountId) : undefined;
    const rules = rulesOf(schedule);
    // Not in the same minute again: the refusal is about now.
    const after = new Date(now.getTime() + 60_000);
    const planned = accountId && rules.slots.length ? await planPost(trx, { id: accountId, open_id: upload.account_open_id }, 'next-slot', after, upload.id) : null;
    const at = planned?.status === 'scheduled' ? planned.scheduled_for : new Date(now.getTime() + noSlotWaitMs);
    const zone = schedule ? ` (${rules.timezone})` : ' UTC';
    const message = `${reason}; moved to ${slotLabel(at.getTime(), rules.timezone)}${zone}`;
    const moved = await transitionUpload(trx, upload.id, ['queued', 'scheduled', 'uploading'], { status: 'scheduled', scheduled_for: at, error: message, percent: null });
    if (!moved) return null;
    await queuePostJob(trx, upload.id, at);
    return { at, message };
  });
}
