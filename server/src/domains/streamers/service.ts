import { completeCaptionStyle, pickStudio, STREAMER_STUDIO_DEFAULTS, STUDIO_SETTING_KEYS, scheduleIntervalMs, splitProblem, type CaptionStyle, type StreamerSelection, type StreamerMoments, type StreamerStudio, type CreateStreamerInput, type Schedule, type Streamer, type TikTokAccount, type AccountPlatform, type UpdateStreamerInput, cannotDeleteWhileDownloading, cannotEditWhileDownloading } from '@clipshift/shared';
import type { Insertable } from 'kysely';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import type { StreamersTable } from '../../platform/db/schema.ts';
import type { MediaStorage } from '../../platform/storage/index.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { badGateway, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { publicReason } from '../../platform/public-reason.ts';
import { isCaptionFont } from '../../engines/media/index.ts';
import { linkedAccountsByStreamer, linkedStreamerIds, listAccounts } from '../publishing/service.ts';
import { LIVE_CHECK_JOB, SCHEDULE_JOB } from '../../platform/queue/contracts.ts';
import { enqueue, jobKey, removeJob } from '../../platform/queue/queue.ts';
import {
  deleteStreamerRow,
  insertStreamer,
  selectStreamerById,
  selectStreamerByName,
  selectStreamerNames,
  selectStreamers,
  setStreamerColumns,
  updateStreamerRow,
  type StreamerRow,
  selectWatchedStreamers,
} from './queries.ts';

export type { StreamerRow };

export const scheduleJobKey = (streamerId: string) => jobKey(SCHEDULE_JOB, { streamerId });

/** What streamer creation needs of Twitch: whether a login exists. */
interface TwitchDirectory {
  getUserByLogin(login: string): Promise<{ id: string; login: string; display_name: string } | null>;
}

const streamerNotFound = (name: string) => notFound(`Streamer ${name} not found`);

function scheduleOf(row: Pick<StreamerRow, 'schedule_interval' | 'schedule_unit'>): Schedule | null {
  return row.schedule_interval && row.schedule_unit ? { interval: row.schedule_interval, unit: row.schedule_unit } : null;
}

/** The streamer's studio defaults: layout, regions, caption style, glossary, loudness. */
export function studioOf(row: StreamerRow): StreamerStudio {
  const studio = { ...STREAMER_STUDIO_DEFAULTS };
  // A column the row leaves empty (a style saved before captions had one) takes the default.
  for (const key of STUDIO_SETTING_KEYS) Object.assign(studio, { [key]: row[key] ?? STREAMER_STUDIO_DEFAULTS[key] });
  // A style stored before the automatic look takes its preset's values for the fields it lacks.
  studio.caption_style = completeCaptionStyle(row.caption_style) ?? STREAMER_STUDIO_DEFAULTS.caption_style;
  return studio;
}

/** A caption style whose font the server has (the style's other fields are checked by the schema). */
export function assertCaptionStyle(style: CaptionStyle | null | undefined): void {
  if (style && !isCaptionFont(style.font)) throw badRequest(`Font "${style.font}" is not available: choose one of GET /api/fonts`);
}

/** Settings that cannot render together are refused before they are saved. */
function assertStudio(studio: StreamerStudio): void {
  const problem = splitProblem(studio);
  if (problem) throw badRequest(problem);
  assertCaptionStyle(studio.caption_style);
}

/** The studio columns of a row to write: regions, styles and lists are JSON. */
function studioColumns(studio: StreamerStudio) {
  const columns: Record<string, unknown> = {};
  for (const key of STUDIO_SETTING_KEYS) {
    const value = studio[key];
    columns[key] = value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
  }
  return columns as Pick<Insertable<StreamersTable>, keyof StreamerStudio>;
}

/** The studio settings after a PUT: fields left out keep their values. */
function mergedStudio(row: StreamerRow, input: UpdateStreamerInput): StreamerStudio {
  const merged = studioOf(row);
  for (const key of STUDIO_SETTING_KEYS) if (input[key] !== undefined) Object.assign(merged, { [key]: input[key] });
  return merged;
}

/** Which clips a run picks and what auto_publish does with them. */
export function selectionOf(row: StreamerRow): StreamerSelection {
  return {
    clip_period: row.clip_period,
    min_views: row.min_views,
    rank_by: row.rank_by,
    clip_creators: row.clip_creators,
    publish_mode: row.publish_mode,
    featured_only: row.featured_only,
  };
}

/** The selection columns of a row to write. */
function selectionColumns(selection: StreamerSelection) {
  return { ...selection, clip_creators: JSON.stringify(selection.clip_creators) };
}

/** The selection settings after a PUT: fields left out keep their values. */
function mergedSelection(row: StreamerRow, input: UpdateStreamerInput): StreamerSelection {
  const current = selectionOf(row);
  return {
    clip_period: input.clip_period ?? current.clip_period,
    min_views: input.min_views ?? current.min_views,
    rank_by: input.rank_by ?? current.rank_by,
    clip_creators: input.clip_creators ?? current.clip_creators,
    publish_mode: input.publish_mode ?? current.publish_mode,
    featured_only: input.featured_only ?? current.featured_only,
  };
}

/** Watching just turned on: the live check runs now rather than at the next minute. */
function askWhetherLive(trx: DbOrTrx): Promise<void> {
  return enqueue(trx, LIVE_CHECK_JOB, {});
}

export function momentsOf(row: StreamerRow): StreamerMoments {
  return { watch_live: row.watch_live, moment_threshold: row.moment_threshold };
}

export function toStreamer(row: StreamerRow, accounts: Streamer['tiktok_accounts'] = []): Streamer {
  return {
    name: row.name,
    display_name: row.display_name,
    clip_limit: row.clip_limit,
    vertical: row.vertical,
    language: row.language,
    ...studioOf(row),
    ...selectionOf(row),
    ...momentsOf(row),
    schedule: scheduleOf(row),
    auto_subtitle: row.auto_subtitle,
    auto_publish: row.auto_publish,
    tiktok_accounts: accounts,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    next_run_at: row.next_run_at ? row.next_run_at.toISOString() : null,
  };
}

/** Streamer objects with their linked accounts of every platform (one query for all of them). */
export async function streamerViews(db: DbOrTrx, rows: readonly StreamerRow[]): Promise<Streamer[]> {
  const accounts = await linkedAccountsByStreamer(db, rows.map((row) => row.id));
  return rows.map((row) => toStreamer(row, accounts.get(row.id) ?? []));
}

export async function streamerView(db: DbOrTrx, row: StreamerRow): Promise<Streamer> {
  return (await streamerViews(db, [row]))[0]!;
}

/** The user's accounts (of one platform, or all) with the names of the streamers linked to each. */
export async function accountViews(db: DbOrTrx, userId: string, platform?: AccountPlatform): Promise<(TikTokAccount & { platform: AccountPlatform })[]> {
  const accounts = await listAccounts(db, userId, platform);
  const names = await streamerNames(db, accounts.flatMap((account) => account.linked_streamer_ids));
  return accounts.map(({ linked_streamer_ids, ...account }) => {
    const linked = new Set(linked_streamer_ids);
    return { ...account, linked_streamers: names.filter((row) => linked.has(row.id)).map((row) => row.name) };
  });
}

/** The streamers linked to one of the user's accounts. */
export async function linkedStreamerNames(db: DbOrTrx, userId: string, accountId: string | null): Promise<string[]> {
  const rows = await streamerNames(db, await linkedStreamerIds(db, userId, accountId));
  return rows.map((row) => row.name);
}

export async function listStreamerRows(db: DbOrTrx, userId: string): Promise<StreamerRow[]> {
  return selectStreamers(db, userId);
}

/** The user's streamer by name, ignoring case; optionally row-locked for a read-modify-write. */
export async function findStreamer(db: DbOrTrx, userId: string, name: string, options: { lock?: boolean } = {}): Promise<StreamerRow> {
  const row = await selectStreamerByName(db, userId, name.trim(), options);
  if (!row) throw streamerNotFound(name.trim());
  return row;
}

/**
 * The busy rule's port: whether a download of the streamer is going. downloads (above streamers)
 * supplies it; update and delete ask it inside their transaction, after the streamer row lock, which
 * starting a run takes too, so no run can begin between the check and the write.
 */
type IsDownloading = (trx: DbOrTrx, streamerId: string) => Promise<boolean>;

/** Names of the streamers with these row ids, by lower(name) like the streamer list. */
export async function streamerNames(db: DbOrTrx, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  return ids.length ? selectStreamerNames(db, ids) : [];
}

/**
 * Keeps the schedule job in step with the streamer: a due time one interval from now, queued under
 * a per-streamer key (so an edit replaces it), or removed with the schedule.
 */
async function syncSchedule(trx: DbOrTrx, streamerId: string, schedule: Schedule | null, now = new Date()): Promise<Date | null> {
  if (!schedule) {
    await removeJob(trx, scheduleJobKey(streamerId));
    return null;
  }
  const nextRunAt = new Date(now.getTime() + scheduleIntervalMs(schedule));
  await enqueue(trx, SCHEDULE_JOB, { streamerId }, { runAt: nextRunAt });
  return nextRunAt;
}

function scheduleChanged(row: StreamerRow, schedule: Schedule | null): boolean {
  const current = scheduleOf(row);
  return current?.interval !== schedule?.interval || current?.unit !== schedule?.unit;
}

async function lookUpOnTwitch(twitch: TwitchDirectory | null, name: string) {
  if (!twitch) return null;
  let user;
  try {
    user = await twitch.getUserByLogin(name);
  } catch (error) {
    throw badGateway(`Could not check ${name} on Twitch: ${publicReason(error)}`, error);
  }
  if (!user) throw badRequest(`Twitch user ${name} does not exist`);
  return user;
}


export async function createStreamer(db: Db, twitch: TwitchDirectory | null, userId: string, input: CreateStreamerInput): Promise<StreamerRow> {
  const studio: StreamerStudio = pickStudio(input, STUDIO_SETTING_KEYS);
  assertStudio(studio);
  if (await selectStreamerByName(db, userId, input.name)) throw conflict(`Streamer ${input.name} already exists`);
  const twitchUser = await lookUpOnTwitch(twitch, input.name);
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await insertStreamer(trx, {
        user_id: userId,
        name: input.name,
        display_name: twitchUser?.display_name ?? null,
        twitch_user_id: twitchUser?.id ?? null,
        clip_limit: input.clip_limit,
        vertical: input.vertical,
        language: input.language,
        ...studioColumns(studio),
        ...selectionColumns({
          clip_period: input.clip_period,
          min_views: input.min_views,
          rank_by: input.rank_by,
          clip_creators: input.clip_creators,
          publish_mode: input.publish_mode,
          featured_only: input.featured_only,
        }),
        watch_live: input.watch_live,
        moment_threshold: input.moment_threshold,
        schedule_interval: input.schedule?.interval ?? null,
        schedule_unit: input.schedule?.unit ?? null,
        auto_subtitle: input.auto_subtitle,
        auto_publish: input.auto_publish,
      });
      if (row.watch_live) await askWhetherLive(trx);
      if (!input.schedule) return row;
      return updateStreamerRow(trx, row.id, { next_run_at: await syncSchedule(trx, row.id, input.schedule) });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Streamer ${input.name} already exists`);
    throw error;
  }
}

export async function updateStreamer(db: Db, userId: string, input: UpdateStreamerInput, isDownloading: IsDownloading): Promise<StreamerRow> {
  return db.transaction().execute(async (trx) => {
    const row = await findStreamer(trx, userId, input.name, { lock: true });
    if (await isDownloading(trx, row.id)) throw conflict(cannotEditWhileDownloading(row.name));
    const studio = mergedStudio(row, input);
    assertStudio(studio);
    const schedule = input.schedule === undefined ? scheduleOf(row) : input.schedule;
    const nextRunAt = scheduleChanged(row, schedule) ? await syncSchedule(trx, row.id, schedule) : row.next_run_at;
    if (input.watch_live && !row.watch_live) await askWhetherLive(trx);
    return updateStreamerRow(trx, row.id, {
      clip_limit: input.clip_limit ?? row.clip_limit,
      vertical: input.vertical ?? row.vertical,
      language: input.language ?? row.language,
      ...studioColumns(studio),
      ...selectionColumns(mergedSelection(row, input)),
      watch_live: input.watch_live ?? row.watch_live,
      moment_threshold: input.moment_threshold ?? row.moment_threshold,
      schedule_interval: schedule?.interval ?? null,
      schedule_unit: schedule?.unit ?? null,
      next_run_at: nextRunAt,
      auto_subtitle: input.auto_subtitle ?? row.auto_subtitle,
      auto_publish: input.auto_publish ?? row.auto_publish,
      updated_at: new Date(),
    });
  });
}

/** Deletes the streamer and its schedule; its clips stay in the library. */
/** Deletes the streamer (its clips stay in the library), then its logo file once nothing points at it. */
export async function deleteStreamer(deps: { db: Db; storage: MediaStorage }, userId: string, name: string, isDownloading: IsDownloading): Promise<string> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const found = await findStreamer(trx, userId, name, { lock: true });
    if (await isDownloading(trx, found.id)) throw conflict(cannotDeleteWhileDownloading(found.name));
    await removeJob(trx, scheduleJobKey(found.id));
    await deleteStreamerRow(trx, found.id);
    return found;
  });
  if (row.logo_key) await deps.storage.delete([row.logo_key]);
  return row.name;
}

/** Moves a schedule forward after it fired (or was skipped because a run was going). */
export async function advanceSchedule(trx: DbOrTrx, row: StreamerRow, now = new Date()): Promise<Date | null> {
  const nextRunAt = await syncSchedule(trx, row.id, scheduleOf(row), now);
  await setStreamerColumns(trx, row.id, { next_run_at: nextRunAt });
  return nextRunAt;
}

/** A streamer by row id (jobs hold ids), optionally row-locked; undefined once deleted. */
export async function findStreamerById(db: DbOrTrx, id: string, options: { lock?: boolean } = {}): Promise<StreamerRow | undefined> {
  return selectStreamerById(db, id, options);
}

/** Every user's streamers whose live chat is watched for moments. */
export function watchedStreamers(db: DbOrTrx): Promise<StreamerRow[]> {
  return selectWatchedStreamers(db);
}

/** Remembers who the streamer is on Twitch, found when a run first looked them up. */
export async function saveTwitchUser(db: DbOrTrx, id: string, user: { id: string; display_name: string }): Promise<void> {
  await setStreamerColumns(db, id, { twitch_user_id: user.id, display_name: user.display_name });
}
export { deleteStreamerLogo, isLogoType, localStreamerLogo, LOGO_TOO_LARGE, LOGO_TYPE_RULE, saveStreamerLogo, streamerLogo } from './logo.ts';
