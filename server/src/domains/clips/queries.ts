import { sql, type Insertable, type Selectable } from 'kysely';
import type { ListClipsInput } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { containsPattern } from '../../platform/db/like.ts';
import type { ClipsTable, DescriptionOption } from '../../platform/db/schema.ts';

/* The clips table's SQL; other domains reach clips through service.ts. */

export type ClipRow = Selectable<ClipsTable>;

/** The columns the API shows (never files_dir), plus the row id that joins other domains' data. */
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

export type ClipListRow = Pick<ClipRow, (typeof LIST_COLUMNS)[number]>;

/** A page of the user's library, newest clip first, filtered by streamer and title, and the total. */
export async function selectClipPage(db: DbOrTrx, userId: string, input: ListClipsInput): Promise<{ rows: ClipListRow[]; total: number }> {
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
  return { rows, total: count.total };
}

export function selectClipByClipId(db: DbOrTrx, userId: string, clipId: string): Promise<ClipRow | undefined> {
  return db.selectFrom('clips').selectAll().where('user_id', '=', userId).where('clip_id', '=', clipId).executeTakeFirst();
}

export function selectClipById(db: DbOrTrx, id: string): Promise<ClipRow | undefined> {
  return db.selectFrom('clips').selectAll().where('id', '=', id).executeTakeFirst();
}

export function updateClipDescriptions(db: DbOrTrx, id: string, fields: { descriptions: DescriptionOption[]; selected: number; custom: string | null }): Promise<ClipRow> {
  return db
    .updateTable('clips')
    .set({ descriptions: JSON.stringify(fields.descriptions), selected_description: fields.selected, custom_description: fields.custom })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function deleteClipRow(db: DbOrTrx, userId: string, clipId: string): Promise<ClipRow | undefined> {
  return db.deleteFrom('clips').where('user_id', '=', userId).where('clip_id', '=', clipId).returningAll().executeTakeFirst();
}

/** False when the user's library already has this Twitch clip (another run saved it first). */
export async function insertClipRow(db: DbOrTrx, values: Insertable<ClipsTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('clips')
    .values(values)
    .onConflict((conflict) => conflict.columns(['user_id', 'clip_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface SubtitledClip {
  transcript: string;
  sizeBytes: number;
  descriptions: DescriptionOption[];
}

/** A re-render with captions: new transcript, size and suggestions (none chosen any more). */
export async function updateSubtitled(db: DbOrTrx, id: string, clip: SubtitledClip): Promise<void> {
  await db
    .updateTable('clips')
    .set({
      subtitled: true,
      transcript: clip.transcript,
      size_bytes: clip.sizeBytes,
      descriptions: JSON.stringify(clip.descriptions),
      selected_description: -1,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

/** Twitch clip ids of one broadcaster already in the user's library (at most `limit`). */
export async function selectLibraryClipIds(db: DbOrTrx, userId: string, broadcasterId: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('clips').select('clip_id').where('user_id', '=', userId).where('broadcaster_id', '=', broadcasterId).limit(limit).execute();
  return rows.map((row) => row.clip_id);
}

/** Which of these files_dir values some clip row points at. */
export async function selectKnownFilesDirs(db: DbOrTrx, filesDirs: readonly string[]): Promise<Set<string>> {
  if (!filesDirs.length) return new Set();
  const rows = await db.selectFrom('clips').select('files_dir').where('files_dir', 'in', filesDirs).execute();
  return new Set(rows.map((row) => row.files_dir));
}

/** clip_id (the public id) of each clip row id. */
export async function selectClipIds(db: DbOrTrx, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('clips').select(['id', 'clip_id']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.clip_id]));
}
