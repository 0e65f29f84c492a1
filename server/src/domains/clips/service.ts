import { readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { completeClipEdit, EMPTY_CLIP_EDIT, MEDIA_EXPIRED_MESSAGE, sortByRank, type ClipEdit, type ClipMoment, type ClipFormat, type ListClipsInput, type TranscriptWordDto, type UpdateDescriptionsInput } from '@clipshift/shared';
import type { Db, DbOrTrx } from '../../platform/db/database.ts';
import type { DescriptionOption } from '../../platform/db/schema.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { MediaStorage } from '../../platform/storage/index.ts';
import type { ClipLayout, VerticalLayoutSpec } from '../../engines/media/index.ts';
import type { TwitchClip } from '../../engines/providers/twitch/index.ts';
import { AUTO_PUBLISH_JOB } from '../../platform/queue/contracts.ts';
import { enqueue } from '../../platform/queue/queue.ts';
import { CLIP_REVIEW_EVENT, raiseEvent } from '../notifications/service.ts';
import { CLIP_CONTENT_TYPES, CLIP_FILES, clipFilesDir, clipKey, clipKeys, type ClipFile } from './files.ts';
import {
  deleteClipRow,
  markMediaExpired,
  updateAuxBytes,
  insertClipRow,
  detectedColumn,
  loudnessColumns,
  selectClipById,
  selectClipByClipId,
  selectClipLabels,
  selectClipPage,
  selectKnownFilesDirs,
  selectLibraryClipIds,
  selectNewestClipsWithMedia,
  selectRecentSuggestions,
  updateClipDescriptions,
  updateClipEditColumn,
  updateRenderedVideo,
  updateSubtitled,
  updateTranscript,
  type ClipListRow,
  type ClipPageColumns,
  type ClipRow,
  type RenderedVideo,
  type SubtitledClip,
  type TranscriptUpdate,
} from './queries.ts';

/** Where a clip's files and a process's scratch folders live, for the domains that read or build them. */
export { CLIP_CONTENT_TYPES, CLIP_FILES, clipKey, instanceWorkDir, mediaRoot, workRoot, type ClipFile } from './files.ts';

export { storageUsage, type StorageUsage } from './storage.ts';
/** URLs a platform fetches a clip's video from without a session (Instagram's video_url), and the route's check of them. */
export { MEDIA_LINK_GONE, mediaLinkVideo, PUBLIC_MEDIA_PATH, PUBLIC_MEDIA_TTL_SECONDS, publicMediaUrl, type PublicMediaUrl } from './media-links.ts';
export { ClipPageColumns } from './queries.ts';
export type { ClipListRow, ClipRow, RenderedVideo, SubtitledClip, TranscriptUpdate } from './queries.ts';
/** The review inbox's state of each clip: the review domain reads and settles it through these. */
export { countPendingClips, selectPendingClips as pendingClips, settlePendingClip } from './queries.ts';

const clipNotFound = (id: string) => notFound(`Clip ${id} not found`);

export interface ClipPage<T extends object = object> {
  rows: (ClipListRow & T)[];
  total: number;
  page: number;
  limit: number;
}

/**
 * A page of the user's library, newest clip first, filtered by streamer and title, with its total.
 * `columns` adds other domains' data of each clip to its row, in the page's own statement.
 */
export async function listClips<T extends object = object>(db: DbOrTrx, userId: string, input: ListClipsInput, columns?: ClipPageColumns<T>): Promise<ClipPage<T>> {
  const { rows, total } = await selectClipPage(db, userId, input, columns);
  return { rows, total, page: input.page, limit: input.limit };
}

export async function findClipRow(db: DbOrTrx, userId: string, clipId: string): Promise<ClipRow> {
  const row = await selectClipByClipId(db, userId, clipId);
  if (!row) throw clipNotFound(clipId);
  return row;
}

/** A clip by its row id, whoever owns it (jobs hold row ids); undefined once deleted. */
export function findClipById(db: DbOrTrx, id: string): Promise<ClipRow | undefined> {
  return selectClipById(db, id);
}

/** The public id and title of each clip row id (rows deleted since are missing). */
export function clipLabelsOf(db: DbOrTrx, ids: readonly string[]): Promise<Map<string, { clip_id: string; title: string }>> {
  return selectClipLabels(db, ids);
}

/** The clip's overrides as the API shows them: every field, null where the streamer's applies. */
export function clipEditOf(row: Pick<ClipRow, 'edit'>): ClipEdit {
  const edit: ClipEdit = { ...EMPTY_CLIP_EDIT };
  const saved = completeClipEdit(row.edit);
  for (const key of Object.keys(EMPTY_CLIP_EDIT) as (keyof ClipEdit)[]) {
    const value = saved[key];
    if (value !== undefined) Object.assign(edit, { [key]: value });
  }
  return edit;
}

/**
 * The shape of the clip's video as last rendered: taller than wide is vertical. The `format_type`
 * column keeps the format the download chose (what an edit's `format` null renders); clips saved
 * before the video's size was recorded fall back to it.
 */
export function renderedFormat(row: Pick<ClipRow, 'format_type' | 'width' | 'height'>): ClipFormat {
  if (!row.width || !row.height) return row.format_type;
  return row.height > row.width ? 'vertical' : 'horizontal';
}

/** The section of the source the video shows: the trim, or the whole source. */
export function clipTrimRange(row: Pick<ClipRow, 'edit' | 'duration'>): { start: number; end: number } {
  return { start: row.edit.trim_start ?? 0, end: row.edit.trim_end ?? row.duration };
}

/** Saves the clip's overrides (keys with null values are dropped: the streamer's applies). */
export function saveClipEdit(db: DbOrTrx, id: string, edit: Partial<ClipEdit>): Promise<ClipRow> {
  const kept = Object.fromEntries(Object.entries(edit).filter(([, value]) => value !== null && value !== undefined));
  return updateClipEditColumn(db, id, kept);
}

/** Replaces the clip's timed words (the user's edit, or a fresh transcription). */
export function saveTranscript(db: DbOrTrx, id: string, transcript: TranscriptUpdate): Promise<ClipRow> {
  return updateTranscript(db, id, transcript);
}

/** The clip's timed words, or null when it has never been transcribed. */
export function transcriptWordsOf(row: Pick<ClipRow, 'transcript_words'>): TranscriptWordDto[] | null {
  return row.transcript_words;
}

/** A re-render of the clip's settings replaced its video. */
export function markRendered(db: DbOrTrx, id: string, video: RenderedVideo): Promise<void> {
  return updateRenderedVideo(db, id, video);
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
  return updateClipDescriptions(db, row.id, {
    descriptions,
    selected,
    custom: input.custom_description === undefined ? row.custom_description : input.custom_description,
  });
}

/** Removes the row, then every file of the clip from storage. */
export async function deleteClip(db: DbOrTrx, storage: MediaStorage, userId: string, clipId: string): Promise<ClipRow> {
  const row = await deleteClipRow(db, userId, clipId);
  if (!row) throw clipNotFound(clipId);
  await storage.delete(clipKeys(row.files_dir));
  return row;
}

/**
 * A path on this machine to read one of the clip's stored files from: the stored file itself on
 * local disk (read only), otherwise a download into `scratchDir`, which the caller removes.
 */
export function localClipFile(storage: MediaStorage, clip: Pick<ClipRow, 'files_dir'>, file: ClipFile, scratchDir: string, signal?: AbortSignal): Promise<string> {
  return storage.localCopy(clipKey(clip.files_dir, file), path.join(scratchDir, CLIP_FILES[file]), signal);
}

/** Copies of sources unused this long leave a process's source cache when another is fetched. */
const SOURCE_CACHE_IDLE_MS = 30 * 60_000;

/**
 * The clip's source on this machine for repeated reads (studio frames and previews): the stored
 * file on local disk; from a bucket, one download kept in `cacheDir` while it is being used (a
 * source never changes once stored).
 */
export async function cachedClipSource(storage: MediaStorage, clip: Pick<ClipRow, 'id' | 'files_dir'>, cacheDir: string, signal?: AbortSignal): Promise<string> {
  const key = clipKey(clip.files_dir, 'source');
  const local = storage.localPath(key);
  if (local) return storage.localCopy(key, local, signal);
  const cached = path.join(cacheDir, `${clip.id}.mp4`);
  const now = new Date();
  if (await utimes(cached, now, now).then(() => true, () => false)) return cached;
  await evictIdleSources(cacheDir);
  return storage.localCopy(key, cached, signal);
}

async function evictIdleSources(cacheDir: string): Promise<void> {
  for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
    const file = path.join(cacheDir, name);
    const info = await stat(file).catch(() => null);
    if (info && Date.now() - info.mtimeMs > SOURCE_CACHE_IDLE_MS) await rm(file, { force: true });
  }
}

/** A clip whose video files are still kept: rendering, previewing and posting need them (409 otherwise). */
export async function findClipWithMedia(db: DbOrTrx, userId: string, clipId: string): Promise<ClipRow> {
  const row = await findClipRow(db, userId, clipId);
  if (row.media_expired_at) throw conflict(MEDIA_EXPIRED_MESSAGE);
  return row;
}

/**
 * Retention: deletes the source and video of these clips (those not expired already), keeping the
 * row and thumbnail. Marked first, so nothing starts on a clip whose files are going; returns how
 * many clips it expired.
 */
export async function expireClipMedia(db: DbOrTrx, storage: MediaStorage, clipRowIds: readonly string[]): Promise<number> {
  const expired = await markMediaExpired(db, clipRowIds);
  for (const clip of expired) {
    await storage.delete([clipKey(clip.files_dir, 'source'), clipKey(clip.files_dir, 'video')]);
    // Only the thumbnail is left to count in the user's storage.
    await updateAuxBytes(db, clip.id, (await storage.head(clipKey(clip.files_dir, 'thumbnail')))?.size ?? 0);
  }
  return expired.length;
}

/** Puts a re-render's finished video and thumbnail in place of the clip's (each replaced whole). */
export async function replaceClipFiles(storage: MediaStorage, clip: Pick<ClipRow, 'files_dir'>, files: { video: string; thumbnail: string }): Promise<void> {
  await storage.put(clipKey(clip.files_dir, 'video'), files.video, CLIP_CONTENT_TYPES.video);
  await storage.put(clipKey(clip.files_dir, 'thumbnail'), files.thumbnail, CLIP_CONTENT_TYPES.thumbnail);
}

/** A subtitle job's re-render is in place: the clip is subtitled, with fresh suggestions. */
export function markSubtitled(db: DbOrTrx, id: string, clip: SubtitledClip): Promise<void> {
  return updateSubtitled(db, id, clip);
}

/** How many of a streamer's latest clips a new clip's suggestions are kept apart from. */
const SUGGESTION_HISTORY_CLIPS = 20;

/**
 * The suggestion texts of the streamer's latest clips in the user's library (hook, then
 * descriptions best first, newest clip first), leaving out the clip being described, so describing
 * it again does not steer away from its own earlier text. The descriptions domain avoids them.
 */
export async function recentSuggestionTexts(db: DbOrTrx, query: { userId: string; streamer: string; exceptClipId: string }): Promise<string[]> {
  const rows = await selectRecentSuggestions(db, { ...query, limit: SUGGESTION_HISTORY_CLIPS });
  return rows.flatMap((row) => [...(row.hook_suggestion ? [row.hook_suggestion] : []), ...sortByRank(row.descriptions).map((option) => option.description)]);
}

/** Twitch clip ids of one broadcaster the user's library already has (at most `limit`). */
export function libraryClipIds(db: DbOrTrx, userId: string, broadcasterId: string, limit: number): Promise<string[]> {
  return selectLibraryClipIds(db, userId, broadcasterId, limit);
}

/** A streamer's newest clips (at most `limit`) whose files are still kept, newest first. */
export function newestClipsWithMedia(db: DbOrTrx, userId: string, streamerId: string, limit: number): Promise<ClipRow[]> {
  return selectNewestClipsWithMedia(db, userId, streamerId, limit);
}

/** Which of these clip folders (files_dir values) belong to a saved clip. */
export function knownClipFolders(db: DbOrTrx, filesDirs: readonly string[]): Promise<Set<string>> {
  return selectKnownFilesDirs(db, filesDirs);
}

/** The vertical layout's name the row records (null for horizontal). */
function layoutName(layout: ClipLayout | VerticalLayoutSpec): string | null {
  if (layout === 'horizontal') return null;
  return typeof layout === 'string' ? layout : layout.kind;
}

/** A finished clip: its Twitch facts, how it was rendered and what it was given. */
interface NewClip {
  userId: string;
  runId: string;
  streamer: { id: string; name: string };
  twitch: TwitchClip;
  gameName: string | null;
  /** Vertical (with the layout's name) or horizontal. */
  layout: ClipLayout | VerticalLayoutSpec;
  /** The source is the streamer's own portrait version, used as it is. */
  portraitSource?: boolean;
  sourceDurationSec: number;
  rendered: RenderedVideo;
  descriptions: DescriptionOption[];
  /** The title-card line proposed with the descriptions. */
  hookSuggestion: string | null;
  transcript: TranscriptUpdate | null;
  /** Queue the clip's auto-publish job with its row (the streamer has auto_publish on). */
  autoPublish: boolean;
  /** Hold the clip in the review inbox (auto_publish in review mode): it posts only once approved. */
  review: boolean;
  /** The chat moment the clip was made of; null for a viewer's clip. */
  moment: ClipMoment | null;
}

export interface SavedClip {
  id: string;
  inserted: boolean;
}

/**
 * Moves the finished work folder into the library and saves the row; with `autoPublish`, the
 * publishing job is queued in the same transaction, so a saved clip is never left unposted and an
 * unsaved one never posted; with `review`, the clip enters the review inbox and its webhooks are
 * told in that same transaction. A clip the library already has (another run saved it first) is
 * dropped: the library keeps one copy.
 */
export async function saveClip(db: Db, storage: MediaStorage, workDir: string, clip: NewClip): Promise<SavedClip> {
  const id = crypto.randomUUID();
  const filesDir = clipFilesDir(clip.userId, id);
  const auxBytes = await storeClipFiles(storage, workDir, filesDir);
  const { twitch } = clip;
  const vertical = clip.layout !== 'horizontal';
  const inserted = await db.transaction().execute(async (trx) => {
    const saved = await insertClipRow(trx, {
      id,
      user_id: clip.userId,
      streamer_id: clip.streamer.id,
      streamer_name: clip.streamer.name,
      clip_id: twitch.id,
      title: twitch.title,
      broadcaster_id: twitch.broadcaster_id,
      broadcaster_name: twitch.broadcaster_name,
      creator_name: twitch.creator_name,
      game_id: twitch.game_id || null,
      game_name: clip.gameName,
      language: twitch.language,
      view_count: twitch.view_count,
      duration: clip.sourceDurationSec,
      output_duration: clip.rendered.durationSec,
      twitch_created_at: twitch.created_at,
      thumbnail_url: twitch.thumbnail_url,
      url: twitch.url,
      format_type: vertical ? 'vertical' : 'horizontal',
      layout: layoutName(clip.layout),
      subtitled: clip.transcript !== null,
      width: clip.rendered.width,
      height: clip.rendered.height,
      size_bytes: clip.rendered.sizeBytes,
      ...loudnessColumns(clip.rendered.loudness),
      detected: detectedColumn(clip.rendered.detected),
      portrait_source: clip.portraitSource ?? false,
      moment: clip.moment ? JSON.stringify(clip.moment) : null,
      files_dir: filesDir,
      aux_bytes: auxBytes,
      descriptions: JSON.stringify(clip.descriptions),
      hook_suggestion: clip.hookSuggestion,
      ...(clip.transcript
        ? { transcript: clip.transcript.text, transcript_words: JSON.stringify(clip.transcript.words), transcript_language: clip.transcript.language }
        : {}),
      run_id: clip.runId,
      review_status: clip.review ? 'pending' : null,
    });
    if (saved && clip.autoPublish) await enqueue(trx, AUTO_PUBLISH_JOB, { clipRowId: id });
    if (saved && clip.review) await raiseEvent(trx, clip.userId, CLIP_REVIEW_EVENT, { clip_id: twitch.id, clip_title: twitch.title, streamer: clip.streamer.name });
    return saved;
  });
  if (!inserted) await storage.delete(clipKeys(filesDir));
  return { id, inserted };
}

/**
 * Puts the finished files of a work folder into storage, the video last; returns the bytes of the
 * source and thumbnail. A failure removes what was already stored: no row will point at it.
 */
async function storeClipFiles(storage: MediaStorage, workDir: string, filesDir: string): Promise<number> {
  const order: ClipFile[] = ['source', 'thumbnail', 'video'];
  let auxBytes = 0;
  try {
    for (const file of order) {
      const size = await storage.put(clipKey(filesDir, file), path.join(workDir, CLIP_FILES[file]), CLIP_CONTENT_TYPES[file]);
      if (file !== 'video') auxBytes += size;
    }
  } catch (error) {
    await storage.delete(clipKeys(filesDir)).catch(() => undefined);
    throw error;
  }
  return auxBytes;
}
