import { sql, type AliasableExpression, type AliasedExpression, type Expression, type Insertable, type Selectable } from 'kysely';
import type { ClipEdit, Detection, ListClipsInput, TranscriptWordDto } from '@clipshift/shared';
import type { LoudnessReading } from '../../engines/media/index.ts';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { containsPattern } from '../../platform/db/like.ts';
import type { ClipReviewStatus, ClipsTable, DescriptionOption } from '../../platform/db/schema.ts';

/* The clips table's SQL; other domains reach clips through service.ts. */

export type ClipRow = Selectable<ClipsTable>;

/** The columns the API shows (never files_dir), plus the row id that joins other domains' data. */
export const LIST_COLUMNS = [
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
  'hook_suggestion',
  'edit',
  'output_duration',
  'loudness_integrated_lufs',
  'loudness_true_peak_dbtp',
  'detected',
  'portrait_source',
  'moment',
  'media_expired_at',
  'width',
  'height',
  'size_bytes',
] as const satisfies readonly (keyof ClipRow)[];

export type ClipListRow = Pick<ClipRow, (typeof LIST_COLUMNS)[number]>;

/**
 * What other domains add to each row of a page, as SQL on the clip's row id (each domain builds its
 * own, over its own tables), under the names of T. Built once: Kysely's expressions are immutable, and
 * building them per request showed in profiles.
 */
export class ClipPageColumns<T extends object> {
  /** Types the rows of a page with these columns; never set. */
  declare private readonly row: T;
  readonly selections: readonly AliasedExpression<unknown, string>[];

  constructor(build: (clipRowId: Expression<string>) => { [K in keyof T]: AliasableExpression<T[K]> }) {
    this.selections = Object.entries<AliasableExpression<unknown>>(build(sql.ref<string>('page.id'))).map(([name, value]) => value.as(name));
  }
}

/**
 * A page of the user's library, newest clip first, filtered by streamer and title, with the other
 * domains' columns (computed once the page's rows are chosen, for those rows only), and the total.
 * The page and the count (it reads every match, through the title's trigram index) run as two
 * statements at once on two connections: inside the page's statement the count could overlap
 * nothing, and under load the route's p99 was 1.7× the bare handler's against 1.4× this way
 * (decision 0031, "2026-11-28").
 */
export async function selectClipPage<T extends object>(
  db: DbOrTrx,
  userId: string,
  input: ListClipsInput,
  columns?: ClipPageColumns<T>,
): Promise<{ rows: (ClipListRow & T)[]; total: number }> {
  let filtered = db.selectFrom('clips').where('user_id', '=', userId);
  if (input.streamer) filtered = filtered.where(sql<string>`lower(streamer_name)`, '=', input.streamer.toLowerCase());
  if (input.search) filtered = filtered.where('title', 'ilike', containsPattern(input.search));
  const offset = (input.page - 1) * input.limit;
  const page = filtered.select(LIST_COLUMNS).orderBy('twitch_created_at', 'desc').orderBy('id', 'desc').limit(input.limit).offset(offset);
  const count = filtered.select(sql<number>`count(*)::int`.as('total'));
  const [rows, counted] = await Promise.all([
    db.selectFrom(page.as('page')).selectAll('page').select(columns?.selections ?? []).orderBy('page.twitch_created_at', 'desc').orderBy('page.id', 'desc').execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  const total = counted.total;
  // The named columns are T's (ClipPageColumns), which the builder's types cannot follow through its selections.
  return { rows: rows as (ClipListRow & T)[], total };
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

/** What a finished render changed in the clip's video. */
export interface RenderedVideo {
  sizeBytes: number;
  durationSec: number;
  width: number;
  height: number;
  /** As measured on the rendered file; null: no audio, or silence. */
  loudness: LoudnessReading | null;
  /** What camera detection found for this render (the `auto` layout); null when it did not look. */
  detected: Detection | null;
}

export interface SubtitledClip {
  transcript: TranscriptUpdate | null;
  video: RenderedVideo;
  descriptions: DescriptionOption[];
  /** The hook proposed with the descriptions. */
  hookSuggestion: string | null;
}

/** New timed words: from speech recognition (edited false) or the user (edited true). */
export interface TranscriptUpdate {
  text: string;
  words: TranscriptWordDto[];
  language: string | null;
  edited: boolean;
}

function transcriptColumns(transcript: TranscriptUpdate) {
  return {
    transcript: transcript.text,
    transcript_words: JSON.stringify(transcript.words),
    transcript_language: transcript.language,
    transcript_edited: transcript.edited,
  };
}

function videoColumns(video: RenderedVideo) {
  return { size_bytes: video.sizeBytes, output_duration: video.durationSec, width: video.width, height: video.height, ...loudnessColumns(video.loudness), detected: detectedColumn(video.detected), updated_at: new Date() };
}

export function detectedColumn(detected: Detection | null): string | null {
  return detected ? JSON.stringify(detected) : null;
}

export function loudnessColumns(loudness: LoudnessReading | null) {
  return { loudness_integrated_lufs: loudness?.integrated ?? null, loudness_true_peak_dbtp: loudness?.truePeak ?? null };
}

/**
 * A re-render with captions: the new video, the transcript it burned (null: the saved one was used
 * as it was) and fresh suggestions (none chosen any more).
 */
export async function updateSubtitled(db: DbOrTrx, id: string, clip: SubtitledClip): Promise<void> {
  await db
    .updateTable('clips')
    .set({
      subtitled: true,
      ...(clip.transcript ? transcriptColumns(clip.transcript) : {}),
      ...videoColumns(clip.video),
      descriptions: JSON.stringify(clip.descriptions),
      hook_suggestion: clip.hookSuggestion,
      selected_description: -1,
    })
    .where('id', '=', id)
    .execute();
}

/** A re-render of the clip's settings is in place. */
export async function updateRenderedVideo(db: DbOrTrx, id: string, video: RenderedVideo): Promise<void> {
  await db.updateTable('clips').set(videoColumns(video)).where('id', '=', id).execute();
}

export function updateClipEditColumn(db: DbOrTrx, id: string, edit: Partial<ClipEdit>): Promise<ClipRow> {
  return db.updateTable('clips').set({ edit: JSON.stringify(edit) }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export function updateTranscript(db: DbOrTrx, id: string, transcript: TranscriptUpdate): Promise<ClipRow> {
  return db.updateTable('clips').set(transcriptColumns(transcript)).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * The suggestions of the streamer's latest clips but one (the clip being described), newest
 * first: the newest saved, not the newest on Twitch, since that is what the user just read.
 */
export function selectRecentSuggestions(
  db: DbOrTrx,
  query: { userId: string; streamer: string; exceptClipId: string; limit: number },
): Promise<Pick<ClipRow, 'descriptions' | 'hook_suggestion'>[]> {
  return db
    .selectFrom('clips')
    .select(['descriptions', 'hook_suggestion'])
    .where('user_id', '=', query.userId)
    .where(sql<string>`lower(streamer_name)`, '=', query.streamer.toLowerCase())
    .where('clip_id', '<>', query.exceptClipId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
}

/** Twitch clip ids of one broadcaster already in the user's library (at most `limit`). */
export async function selectLibraryClipIds(db: DbOrTrx, userId: string, broadcasterId: string, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('clips').select('clip_id').where('user_id', '=', userId).where('broadcaster_id', '=', broadcasterId).limit(limit).execute();
  return rows.map((row) => row.clip_id);
}

/** A streamer's newest clips whose files are still kept, newest first. */
export function selectNewestClipsWithMedia(db: DbOrTrx, userId: string, streamerId: string, limit: number): Promise<ClipRow[]> {
  return db
    .selectFrom('clips')
    .selectAll()
    .where('user_id', '=', userId)
    .where('streamer_id', '=', streamerId)
    .where('media_expired_at', 'is', null)
    .orderBy('twitch_created_at', 'desc')
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Marks these clips' video files as deleted by retention (those not marked yet); answers the rows it marked. */
export function markMediaExpired(db: DbOrTrx, ids: readonly string[]): Promise<{ id: string; files_dir: string }[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .updateTable('clips')
    .set({ media_expired_at: new Date() })
    .where('id', 'in', ids)
    .where('media_expired_at', 'is', null)
    .returning(['id', 'files_dir'])
    .execute();
}

/** The bytes of a clip's files besides its video, as now stored. */
export async function updateAuxBytes(db: DbOrTrx, id: string, bytes: number): Promise<void> {
  await db.updateTable('clips').set({ aux_bytes: bytes }).where('id', '=', id).execute();
}

/** Which of these files_dir values some clip row points at. */
export async function selectKnownFilesDirs(db: DbOrTrx, filesDirs: readonly string[]): Promise<Set<string>> {
  if (!filesDirs.length) return new Set();
  const rows = await db.selectFrom('clips').select('files_dir').where('files_dir', 'in', filesDirs).execute();
  return new Set(rows.map((row) => row.files_dir));
}

/** The public id and title of each clip row id, for lists of other things (uploads, the posting queue). */
export async function selectClipLabels(db: DbOrTrx, ids: readonly string[]): Promise<Map<string, { clip_id: string; title: string }>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('clips').select(['id', 'clip_id', 'title']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, { clip_id: row.clip_id, title: row.title }]));
}

/* The review columns (review_status, reviewed_at): the review inbox's state of each clip, which the
   review domain reads and settles through service.ts. */

/** The user's clips waiting for review, the longest waiting first. */
export function selectPendingClips(db: DbOrTrx, userId: string): Promise<ClipListRow[]> {
  return db
    .selectFrom('clips')
    .select(LIST_COLUMNS)
    .where('user_id', '=', userId)
    .where('review_status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countPendingClips(db: DbOrTrx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('clips')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('user_id', '=', userId)
    .where('review_status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return row.count;
}

/**
 * Settles a pending clip (approved or rejected); false when it was not pending any more, so two
 * approvals racing settle it once.
 */
export async function settlePendingClip(db: DbOrTrx, clipRowId: string, status: Exclude<ClipReviewStatus, 'pending'>): Promise<boolean> {
  const row = await db
    .updateTable('clips')
    .set({ review_status: status, reviewed_at: new Date() })
    .where('id', '=', clipRowId)
    .where('review_status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
