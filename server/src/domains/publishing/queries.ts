import { expressionBuilder, sql, type AliasableExpression, type Expression, type Insertable, type Selectable, type Updateable } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import { anyUuid } from '../../platform/db/arrays.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { AccountPlatform, AccountPostSettingsTable, AccountsTable, Database, OAuthStatesTable, PostingSchedulesTable, UploadsTable, UploadStatus } from '../../platform/db/schema.ts';

/**
 * SQL of the tables the publishing domain owns: accounts, streamer_accounts, uploads,
 * posting_schedules, account_post_settings and oauth_states. Other domains reach them through service.ts.
 */

export type AccountRow = Selectable<AccountsTable>;
export type UploadRow = Selectable<UploadsTable>;
export type ScheduleRow = Selectable<PostingSchedulesTable>;

// accounts

/** The user's accounts, oldest first, as the user sees them. */
export function selectAccounts(db: DbOrTrx, userId: string, platform?: AccountPlatform) {
  let query = db
    .selectFrom('accounts')
    .select(['id', 'platform', 'display_name', 'username', 'avatar_url', 'created_at', 'needs_reconnect'])
    .where('user_id', '=', userId);
  if (platform) query = query.where('platform', '=', platform);
  return query.orderBy('created_at').execute();
}

export function selectAccount(db: DbOrTrx, userId: string, accountId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('user_id', '=', userId).where('id', '=', accountId).executeTakeFirst();
}

/** The user's account of a platform by the platform's own id of it. */
export function selectAccountByExternalId(db: DbOrTrx, userId: string, platform: AccountPlatform, openId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('user_id', '=', userId).where('platform', '=', platform).where('open_id', '=', openId).executeTakeFirst();
}

/** An account by id alone (jobs hold ids), row-locked: refreshing its tokens must not race. */
export function selectAccountForUpdate(db: DbOrTrx, accountId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).forUpdate().executeTakeFirst();
}

/**
 * Accounts whose grant ends before `cutoff` (refresh_expires_at; null: it does not end) and that
 * still work: what the daily token upkeep refreshes. Ending soonest first.
 */
export function selectAccountsEndingBefore(db: DbOrTrx, cutoff: Date) {
  return db
    .selectFrom('accounts')
    .select(['id', 'platform'])
    .where('needs_reconnect', '=', false)
    .where('refresh_expires_at', 'is not', null)
    .where('refresh_expires_at', '<', cutoff)
    .orderBy('refresh_expires_at')
    .execute();
}

/** What names the accounts, with their open_id (which outlives a removal), by id. */
export function selectAccountNames(db: DbOrTrx, accountIds: readonly string[]) {
  return db.selectFrom('accounts').select(['id', 'platform', 'open_id', 'display_name', 'username']).where('id', 'in', accountIds).execute();
}

/** Inserts the account, or updates the user's one with the same open_id with `update`. */
export function upsertAccountRow(db: DbOrTrx, values: Insertable<AccountsTable>, update: Updateable<AccountsTable>): Promise<AccountRow> {
  return db
    .insertInto('accounts')
    .values(values)
    .onConflict((conflict) => conflict.columns(['user_id', 'platform', 'open_id']).doUpdateSet(update))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateAccount(db: DbOrTrx, accountId: string, values: Updateable<AccountsTable>): Promise<void> {
  await db.updateTable('accounts').set(values).where('id', '=', accountId).execute();
}

export async function deleteAccountRow(db: DbOrTrx, accountId: string): Promise<void> {
  await db.deleteFrom('accounts').where('id', '=', accountId).execute();
}

// streamer_accounts

/** The links of these accounts, in no particular order. */
export function selectLinksOfAccounts(db: DbOrTrx, accountIds: readonly string[]) {
  return db.selectFrom('streamer_accounts').select(['account_id', 'streamer_id']).where('account_id', 'in', accountIds).execute();
}

/** Ids of the accounts linked to the streamer. */
export async function selectLinkedAccountIds(db: DbOrTrx, streamerId: string): Promise<string[]> {
  const rows = await db.selectFrom('streamer_accounts').select('account_id').where('streamer_id', '=', streamerId).execute();
  return rows.map((row) => row.account_id);
}

/** The accounts linked to any of the streamers, oldest link first. */
export function selectLinkedAccounts(db: DbOrTrx, streamerIds: readonly string[]) {
  return db
    .selectFrom('streamer_accounts as l')
    .innerJoin('accounts as a', 'a.id', 'l.account_id')
    .select(['l.streamer_id', 'a.id', 'a.platform', 'a.display_name', 'a.username', 'a.avatar_url'])
    .where('l.streamer_id', 'in', streamerIds)
    .orderBy('l.created_at')
    .execute();
}

export async function insertLink(db: DbOrTrx, streamerId: string, accountId: string): Promise<void> {
  await db.insertInto('streamer_accounts').values({ streamer_id: streamerId, account_id: accountId }).onConflict((conflict) => conflict.doNothing()).execute();
}

export async function deleteLink(db: DbOrTrx, streamerId: string, accountId: string): Promise<void> {
  await db.deleteFrom('streamer_accounts').where('streamer_id', '=', streamerId).where('account_id', '=', accountId).execute();
}

// uploads

export function selectUpload(db: DbOrTrx, uploadId: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirst();
}

export function selectUserUpload(db: DbOrTrx, userId: string, uploadId: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('user_id', '=', userId).where('id', '=', uploadId).executeTakeFirst();
}

export function selectUploads(db: DbOrTrx, uploadIds: readonly string[]): Promise<UploadRow[]> {
  return db.selectFrom('uploads').selectAll().where('id', 'in', uploadIds).execute();
}

/** The uploads of these clips, oldest first, with their account's current names (null once removed). */
export function selectUploadsOfClips(db: DbOrTrx, clipRowIds: readonly string[]) {
  return db
    .selectFrom('uploads as u')
    .leftJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.clip_row_id', 'u.status', 'u.percent', 'u.account_name', 'u.platform', 'u.external_id', 'u.stats', 'u.stats_fetched_at', 'u.warning', 'a.username', 'a.display_name'])
    .where('u.clip_row_id', '=', anyUuid(clipRowIds))
    .orderBy('u.created_at')
    .execute();
}

/** A post of a clip as a statement of another domain carries it: selectUploadsOfClips' row, its time as text. */
export type ClipPostJson = Omit<Awaited<ReturnType<typeof selectUploadsOfClips>>[number], 'clip_row_id' | 'stats_fetched_at'> & { stats_fetched_at: string | null };

/**
 * The clip's posts, oldest first, as one JSON array (null: none), for a statement that lists clips to
 * carry per row (the clip list's page). The time goes as PostgreSQL's text of it, so that it is read
 * into the same Date as the column itself (parseTimestamptz).
 */
export function uploadsOfClipColumn(clipRowId: Expression<string>): AliasableExpression<ClipPostJson[] | null> {
  const eb = expressionBuilder<Database, never>();
  return eb
    .selectFrom('uploads as u')
    .leftJoin('accounts as a', 'a.id', 'u.account_id')
    .select((post) =>
      post.fn
        .jsonAgg(
          jsonBuildObject({
            status: post.ref('u.status'),
            percent: post.ref('u.percent'),
            account_name: post.ref('u.account_name'),
            platform: post.ref('u.platform'),
            external_id: post.ref('u.external_id'),
            stats: post.ref('u.stats'),
            stats_fetched_at: sql<string | null>`${post.ref('u.stats_fetched_at')}::text`,
            warning: post.ref('u.warning'),
            username: post.ref('a.username'),
            display_name: post.ref('a.display_name'),
          }),
        )
        .orderBy('u.created_at')
        .as('posts'),
    )
    .where('u.clip_row_id', '=', clipRowId)
    .$asScalar();
}

/** Statuses in which an upload of the same clip to the same account may be made again. */
const RETRIABLE_UPLOAD: UploadStatus[] = ['failed', 'canceled'];

/**
 * A new upload of a clip to an account, or a failed (or canceled) one of the same pair tried again; undefined when
 * that pair has one posted or posting (the unique (clip_row_id, account_open_id) index).
 */
export function insertUpload(db: DbOrTrx, values: Insertable<UploadsTable>): Promise<UploadRow | undefined> {
  return db
    .insertInto('uploads')
    .values(values)
    .onConflict((onConflict) =>
      onConflict
        .columns(['clip_row_id', 'platform', 'account_open_id'])
        .doUpdateSet({ status: 'queued', ...values, publish_id: null, upload_url_enc: null, external_id: null, stats: null, stats_fetched_at: null, stats_due_at: null, percent: null, error: null, warning: null, updated_at: new Date() })
        .where('uploads.status', 'in', RETRIABLE_UPLOAD),
    )
    .returningAll()
    .executeTakeFirst();
}

/** The share of the video the platform has received, while the upload is still sending it. */
/**
 * Clips (row ids after `afterId`, in order) whose last successful post is older than `cutoff` and
 * that have no post still to go (queued, scheduled or under way): retention may delete their video.
 */
export async function selectClipsPostedBefore(db: DbOrTrx, cutoff: Date, afterId: string | null, limit: number): Promise<string[]> {
  let query = db
    .selectFrom('uploads')
    .select('clip_row_id')
    .groupBy('clip_row_id')
    .having(sql<boolean>`max(updated_at) filter (where status in ('published', 'sent_to_inbox')) < ${cutoff}`)
    .having(sql<boolean>`bool_and(status not in ('queued', 'scheduled', 'uploading', 'processing'))`)
    .orderBy('clip_row_id')
    .limit(limit);
  if (afterId) query = query.where('clip_row_id', '>', afterId);
  const rows = await query.execute();
  return rows.map((row) => row.clip_row_id);
}

export async function updateUploadPercent(db: DbOrTrx, uploadId: string, percent: number): Promise<void> {
  await db.updateTable('uploads').set({ percent }).where('id', '=', uploadId).where('status', '=', 'uploading').execute();
}

export async function updateUpload(db: DbOrTrx, uploadId: string, values: Updateable<UploadsTable>): Promise<void> {
  await db.updateTable('uploads').set(values).where('id', '=', uploadId).execute();
}

/** The same account connected again: the user's posts to its platform id that lost their account get it back. */
export async function reattachUploads(db: DbOrTrx, account: Pick<AccountRow, 'id' | 'user_id' | 'platform' | 'open_id'>): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ account_id: account.id })
    .where('user_id', '=', account.user_id)
    .where('platform', '=', account.platform)
    .where('account_open_id', '=', account.open_id)
    .where('account_id', 'is', null)
    .execute();
}

/** Statuses of uploads that will not post (again) by themselves: they take no slot. */
const SLOT_FREE_UPLOAD: UploadStatus[] = ['failed', 'canceled'];

/** When the account's posts since `since` go or went out (other than `exceptUploadId`), any user's. */
export async function selectPostTimes(db: DbOrTrx, openId: string, since: Date, exceptUploadId?: string): Promise<Date[]> {
  let query = db
    .selectFrom('uploads')
    .select('scheduled_for')
    .where('account_open_id', '=', openId)
    .where('status', 'not in', SLOT_FREE_UPLOAD)
    .where('scheduled_for', '>=', since);
  if (exceptUploadId) query = query.where('id', '!=', exceptUploadId);
  const rows = await query.execute();
  return rows.flatMap((row) => (row.scheduled_for ? [row.scheduled_for] : []));
}

/**
 * Serialises slot choices for one account until the transaction ends, so two posts queued
 * at once cannot both take the same free slot. An advisory lock rather than the account row's:
 * token refreshes hold that one across a call to the platform.
 */
export async function lockAccountSlots(db: DbOrTrx, openId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`posting-slots:${openId}`}))`.execute(db);
}

/** The uploads of the user that have not finished, soonest first, with their account's name and zone. */
export function selectUnfinishedUploads(db: DbOrTrx, userId: string, statuses: readonly UploadStatus[]) {
  return db
    .selectFrom('uploads as u')
    .leftJoin('accounts as a', 'a.id', 'u.account_id')
    .leftJoin('posting_schedules as s', 's.account_id', 'u.account_id')
    .selectAll('u')
    .select(['a.username', 'a.display_name', 's.timezone'])
    .where('u.user_id', '=', userId)
    .where('u.status', 'in', statuses)
    .orderBy(sql`coalesce(u.scheduled_for, u.created_at)`)
    .orderBy('u.created_at')
    .execute();
}

/**
 * Moves an upload to `to` only while it is in one of `from`; undefined when it was not (another
 * request or the post job got there first). The row lock makes the check and the change one step.
 */
export function transitionUpload(db: DbOrTrx, uploadId: string, from: readonly UploadStatus[], values: Updateable<UploadsTable>): Promise<UploadRow | undefined> {
  return db.updateTable('uploads').set({ ...values, updated_at: new Date() }).where('id', '=', uploadId).where('status', 'in', from).returningAll().executeTakeFirst();
}

// posting_schedules

export function selectSchedule(db: DbOrTrx, accountId: string): Promise<ScheduleRow | undefined> {
  return db.selectFrom('posting_schedules').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export function upsertSchedule(db: DbOrTrx, values: Insertable<PostingSchedulesTable>): Promise<ScheduleRow> {
  const { account_id: _accountId, ...update } = values;
  return db
    .insertInto('posting_schedules')
    .values(values)
    .onConflict((conflict) => conflict.column('account_id').doUpdateSet({ ...update, updated_at: new Date() }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

// oauth_states

export async function insertOAuthState(db: DbOrTrx, values: Insertable<OAuthStatesTable>): Promise<void> {
  await db.insertInto('oauth_states').values(values).execute();
}

/**
 * Marks the state used if it is unused, unexpired and of this platform's flow; whom it belongs to,
 * or undefined (another platform's state stays unused: it is not this callback's to spend).
 */
export function consumeOAuthState(db: DbOrTrx, stateHash: string, platform: AccountPlatform) {
  return db
    .updateTable('oauth_states')
    .set({ used_at: sql<Date>`now()` })
    .where('state_hash', '=', stateHash)
    .where('platform', '=', platform)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['user_id', 'via', 'code_verifier_enc'])
    .executeTakeFirst();
}

// account_post_settings

/** The user's accounts with the post settings chosen for each (null columns: none chosen yet), oldest first. */
export function selectAccountPostSettings(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('accounts as a')
    .leftJoin('account_post_settings as s', 's.account_id', 'a.id')
    .select(['a.id', 'a.platform', 'a.display_name', 'a.username', 's.privacy_level', 's.disable_comment', 's.disable_duet', 's.disable_stitch', 's.youtube_notify_subscribers'])
    .where('a.user_id', '=', userId)
    .orderBy('a.created_at')
    .execute();
}

/** The post settings of these accounts, where chosen. */
export function selectPostSettingsOf(db: DbOrTrx, accountIds: readonly string[]): Promise<Selectable<AccountPostSettingsTable>[]> {
  return db.selectFrom('account_post_settings').selectAll().where('account_id', 'in', accountIds).execute();
}

export async function upsertPostSettings(db: DbOrTrx, values: Insertable<AccountPostSettingsTable>): Promise<void> {
  await db
    .insertInto('account_post_settings')
    .values(values)
    .onConflict((conflict) =>
      conflict.column('account_id').doUpdateSet({
        privacy_level: values.privacy_level,
        disable_comment: values.disable_comment ?? false,
        disable_duet: values.disable_duet ?? false,
        disable_stitch: values.disable_stitch ?? false,
        youtube_notify_subscribers: values.youtube_notify_subscribers ?? false,
        updated_at: new Date(),
      }),
    )
    .execute();
}

// youtube_quota_days

/** Uploads (their own bucket) and units (every other call): a spend, a day's total or its limits. */
export interface QuotaSpend {
  uploads: number;
  units: number;
}

/**
 * Adds `spend` to the project's row for `day` when both buckets stay within `limits`, in one
 * statement: concurrent spenders queue on the row lock of the upsert and each sees the others'
 * counts, so no two can pass the limit together. Undefined (nothing spent) when it would pass.
 */
export async function spendQuotaDay(db: DbOrTrx, project: string, day: string, spend: QuotaSpend, limits: QuotaSpend): Promise<QuotaSpend | undefined> {
  const { rows } = await sql<QuotaSpend>`
    insert into youtube_quota_days as q (project, day, uploads, units)
    select ${project}, ${day}::date, ${spend.uploads}::int, ${spend.units}::int
    where ${spend.uploads}::int <= ${limits.uploads}::int and ${spend.units}::int <= ${limits.units}::int
    on conflict (project, day) do update set uploads = q.uploads + excluded.uploads, units = q.units + excluded.units
    where q.uploads + excluded.uploads <= ${limits.uploads}::int and q.units + excluded.units <= ${limits.units}::int
    returning q.uploads, q.units`.execute(db);
  return rows[0];
}

/** What the project spent on `day`; nothing spent yet without a row. */
export async function selectQuotaDay(db: DbOrTrx, project: string, day: string): Promise<QuotaSpend> {
  const row = await db.selectFrom('youtube_quota_days').select(['uploads', 'units']).where('project', '=', project).where('day', '=', sql<Date>`${day}::date`).executeTakeFirst();
  return row ?? { uploads: 0, units: 0 };
}
