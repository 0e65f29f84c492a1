import { completeClipEdit, splitProblem, transcriptProblem, trimProblem, type ClipEdit, type ClipEditChanges, type ClipTranscript, type StreamerStudio, type UpdateClipEditInput, type UpdateTranscriptInput } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { joinWords } from '../../engines/providers/transcription/index.ts';
import { findClipRow, saveClipEdit, saveTranscript, type ClipRow } from '../clips/service.ts';
import { assertCaptionStyle, findStreamerById, studioOf, type StreamerRow } from '../streamers/service.ts';
import { renderPlan, type RenderPlan } from './settings.ts';

/** The clip's overrides after `changes`: undefined keeps a value, null drops it (the streamer's applies). */
export function mergedEdit(saved: Partial<ClipEdit>, changes: ClipEditChanges): Partial<ClipEdit> {
  const merged: Partial<ClipEdit> = { ...saved };
  for (const [key, value] of Object.entries(changes) as [keyof ClipEdit, ClipEdit[keyof ClipEdit] | undefined][]) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else Object.assign(merged, { [key]: value });
  }
  return merged;
}

/**
 * How a render of this clip would come out: its overrides (and unsaved `changes`) over its
 * streamer's settings, for a source of `sourceDurationSec` seconds.
 */
export async function clipRenderPlan(
  db: DbOrTrx,
  clip: Pick<ClipRow, 'streamer_id' | 'format_type' | 'edit' | 'layout' | 'hook_suggestion' | 'portrait_source'>,
  sourceDurationSec: number,
  options: { changes?: ClipEditChanges; streamer?: StreamerRow | null } = {},
): Promise<RenderPlan> {
  // Callers that read the streamer already pass its row; null: no streamer any more.
  const row = options.streamer === undefined ? await streamerRowOf(db, clip) : options.streamer;
  return renderPlan({
    // The column keeps the format the download chose; the edit's `format` may change it.
    vertical: clip.format_type === 'vertical',
    streamer: row ? studioOf(row) : null,
    edit: completeClipEdit(clip.edit),
    changes: options.changes,
    sourceDurationSec,
    renderedLayout: clip.layout,
    hookSuggestion: clip.hook_suggestion,
    logoKey: row?.logo_key ?? null,
    portraitSource: clip.portrait_source,
  });
}

/** The clip's streamer; null once that streamer is deleted. */
export async function streamerRowOf(db: DbOrTrx, clip: Pick<ClipRow, 'streamer_id'>): Promise<StreamerRow | null> {
  return (clip.streamer_id ? await findStreamerById(db, clip.streamer_id) : undefined) ?? null;
}

/** The clip's streamer's studio settings; null once that streamer is deleted. */
export async function streamerStudioOf(db: DbOrTrx, clip: Pick<ClipRow, 'streamer_id'>): Promise<StreamerStudio | null> {
  const streamer = await streamerRowOf(db, clip);
  return streamer ? studioOf(streamer) : null;
}

/**
 * Refuses overrides that cannot render: a trim outside the clip or under a second, a split layout
 * with no facecam region anywhere (unless the facecam is off), a font the server does not have.
 */
export function assertRenderable(clip: Pick<ClipRow, 'duration'>, edit: Partial<ClipEdit>, streamer: StreamerStudio | null): void {
  const start = edit.trim_start ?? 0;
  const end = edit.trim_end ?? clip.duration;
  if (edit.trim_start !== undefined || edit.trim_end !== undefined) {
    const problem = trimProblem(start, end, clip.duration);
    if (problem) throw badRequest(problem);
  }
  const layout = edit.layout ?? streamer?.layout ?? 'blur';
  const facecam = edit.facecam_off ? null : (edit.facecam ?? streamer?.facecam ?? null);
  const split = splitProblem({ layout, facecam: edit.facecam_off ? { x: 0, y: 0, w: 1, h: 1 } : facecam });
  if (split) throw badRequest(`${split}, or turn the facecam off for this clip (facecam_off)`);
  assertCaptionStyle(edit.caption_style);
}

/** Saves the clip's own studio settings (PUT /api/clips/{id}/edit). */
export async function updateClipEdit(db: DbOrTrx, userId: string, input: UpdateClipEditInput): Promise<ClipRow> {
  const { id, ...changes } = input;
  const clip = await findClipRow(db, userId, id);
  const edit = mergedEdit(completeClipEdit(clip.edit), changes);
  assertRenderable(clip, edit, await streamerStudioOf(db, clip));
  return saveClipEdit(db, clip.id, edit);
}

const noTranscript = (clipId: string) => notFound(`Clip ${clipId} has no transcript yet: generate subtitles first`);

/** The clip's timed words (GET /api/clips/{id}/transcript). */
export async function clipTranscript(db: DbOrTrx, userId: string, clipId: string): Promise<ClipTranscript> {
  const clip = await findClipRow(db, userId, clipId);
  if (!clip.transcript_words) throw noTranscript(clipId);
  return { language: clip.transcript_language, edited: clip.transcript_edited, words: clip.transcript_words };
}

/** Saves the user's words: the next render burns them, and only "transcribe again" replaces them. */
export async function updateClipTranscript(db: DbOrTrx, userId: string, input: UpdateTranscriptInput): Promise<ClipTranscript> {
  const clip = await findClipRow(db, userId, input.id);
  if (!clip.transcript_words) throw noTranscript(input.id);
  const words = input.words.map((word) => ({ start: word.start, end: word.end, text: word.text.trim() }));
  const problem = transcriptProblem(words, clip.duration);
  if (problem) throw badRequest(problem);
  const saved = await saveTranscript(db, clip.id, { text: joinWords(words.map((word) => word.text)), words, language: clip.transcript_language, edited: true });
  return { language: saved.transcript_language, edited: true, words };
}
