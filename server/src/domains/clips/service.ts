import { rm } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Selectable } from 'kysely';
import { sortByRank, type Clip, type ClipDetails, type ClipList, type ListClipsInput, type UpdateDescriptionsInput } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import type { ClipsTable } from '../../platform/db/schema.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { accountLabel } from '../publishing/accounts.ts';
import { mediaRoot } from './files.ts';
import { containsPattern } from '../../platform/db/like.ts';

export type ClipRow = Selectable<ClipsTable>;

export const clipNotFound = (id: string) => notFound(`Clip ${id} not found`);

/** The columns the API shows (never files_dir or internal ids). */
const LIST_COLUMNS = [
  'id',
  'clip_id',
  'title',
  'streamer_name',
  'broadcaster_name',
  'twitch_created_at',
  'updated_at',
  'view_count',
  'duration',
  'game_name',
  'language',
  'thumbnail_url',
  'format_type',
  'subtitled',
  'custom_description',
  'selected_description',
  'descriptions',
] as const satisfies readonly (keyof ClipRow)[];

type ClipListRow = Pick<ClipRow, (typeof LIST_COLUMNS)[number]>;

export type PostedTo = Clip['posted_to'];

/** Upload states of each clip, keyed by clip row id. */
async function postedTo(db: DbOrTrx, clipRowIds: readonly string[]): Promise<Map<string, PostedTo>> {
  const map = new Map<string, PostedTo>();
  if (!clipRowIds.length) return map;
  const rows = await db
    .selectFrom('uploads as u')
    .leftJoin('tiktok_accounts as a', 'a.id', 'u.tiktok_account_id')
    .select(['u.clip_row_id', 'u.status', 'u.account_name', 'a.username', 'a.display_name'])
    .where('u.clip_row_id', 'in', clipRowIds)
    .orderBy('u.created_at')
    .execute();
  for (const row of rows) {
    const list = map.get(row.clip_row_id) ?? [];
    // A removed account's posts stay, under the name the account had then.
    list.push({ account: row.display_name === null ? row.account_name : accountLabel({ username: row.username, display_name: row.display_name }), status: row.status });
    map.set(row.clip_row_id, list);
  }
  return map;
}

/** Where the API serves a clip's files: the http layer adds them (domains never build URLs). */
export type ClipFileUrls = Pick<Clip, 'thumbnail' | 'video_url' | 'video'>;
/** A clip as the domain knows it: everything the API shows but the URLs of its files. */
export type ClipRecord = Omit<Clip, keyof ClipFileUrls>;
export type ClipDetailsRecord = Omit<ClipDetails, keyof ClipFileUrls>;
export type ClipListRecord = Omit<ClipList, 'clips'> & { clips: ClipRecord[] };

export function toClip(row: ClipListRow, posted: PostedTo = []): ClipRecord {
  return {
    clip_id: row.clip_id,
    title: row.title,
    streamer: row.streamer_name,
    broadcaster_name: row.broadcaster_name,
    created_at: row.twitch_created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    view_count: row.view_count,
    duration: row.duration,
    game_name: row.game_name,
    language: row.language,
    thumbnail_url: row.thumbnail_url,
    format_type: row.format_type,
    subtitled: row.subtitled,
    custom_description: row.custom_description,
    selected_description: row.selected_description,
    metadata: { descriptions: sortByRank(row.descriptions) },
    posted_to: posted,
  };
}

/** A page of the user's library, newest clip first, filtered by streamer and title. */
export async function listClips(db: DbOrTrx, userId: string, input: ListClipsInput): Promise<ClipListRecord> {
  let filtered = db.selectFrom('clips').where('user_id', '=', userId);
  if (input.streamer) filtered = filtered.where(sql<string>`lower(streamer_name)`, '=', input.streamer.toLowerCase());
  if (input.search) filtered = filtered.where('title', 'ilike', containsPattern(input.search));
  const [rows, count] = await Promise.all([
    filtered
      .select(LIST_COLUMNS)
      .orderBy('twitch_created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(input.limit)
      .offset((input.page - 1) * input.limit)
      .execute(),
    filtered.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  const posted = await postedTo(db, rows.map((row) => row.id));
  return { clips: rows.map((row) => toClip(row, posted.get(row.id))), total: count.total, page: input.page, limit: input.limit };
}

export async function findClipRow(db: DbOrTrx, userId: string, clipId: string): Promise<ClipRow> {
  const row = await db.selectFrom('clips').selectAll().where('user_id', '=', userId).where('clip_id', '=', clipId).executeTakeFirst();
  if (!row) throw clipNotFound(clipId);
  return row;
}

export async function toClipDetails(db: DbOrTrx, row: ClipRow): Promise<ClipDetailsRecord> {
  const posted = await postedTo(db, [row.id]);
  return { ...toClip(row, posted.get(row.id)), transcript: row.transcript };
}

/**
 * Changes the suggestions, the custom text or the chosen suggestion. The selected index refers to
 * the suggestions as the API lists them (highest rank first).
 */
export async function updateDescriptions(db: DbOrTrx, userId: string, input: UpdateDescriptionsInput): Promise<ClipRow> {
  const row = await findClipRow(db, userId, input.id);
  const descriptions = input.descriptions ? sortByRank(input.descriptions) : sortByRank(row.descriptions);
  const selected = input.selected_description ?? (input.descriptions ? -1 : row.selected_description);
  if (selected >= descriptions.length) throw badRequest('selected_description is out of range');
  return db
    .updateTable('clips')
    .set({
      descriptions: JSON.stringify(descriptions),
      selected_description: selected,
      custom_description: input.custom_description === undefined ? row.custom_description : input.custom_description,
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes the row, then every file of the clip. */
export async function deleteClip(db: DbOrTrx, dataDir: string, userId: string, clipId: string): Promise<ClipRow> {
  const row = await db.deleteFrom('clips').where('user_id', '=', userId).where('clip_id', '=', clipId).returningAll().executeTakeFirst();
  if (!row) throw clipNotFound(clipId);
  await rm(path.join(mediaRoot(dataDir), row.files_dir), { recursive: true, force: true });
  return row;
}
