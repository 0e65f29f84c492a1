import {
  CLIP_OVERRIDE_KEYS,
  DEFAULT_BRAND,
  EMPTY_CLIP_EDIT,
  pickStudio,
  STREAMER_STUDIO_DEFAULTS,
  trimProblem,
  splitProblem,
  type ClipEdit,
  type ClipFormat,
  type ClipEditChanges,
  type ClipOverrideKey,
  type Brand,
  type Hook,
  type Rect,
  type StreamerStudio,
  type UpdateStreamerInput,
} from '@clipshift/shared';
import type { PreviewRequest } from '@/api/studio';

/*
 * What the studio edits, one model for both of its modes:
 * - a clip: the draft is the clip's overrides (null = the streamer's setting);
 * - a streamer's defaults: the draft is the streamer's settings (null = the contract default).
 * Every field shown is the draft's value, or where it is null the fallback's.
 */

/** Every setting as a render would use it: the streamer's settings a clip can override, and the clip's own. */
export type StudioValues = Pick<StreamerStudio, ClipOverrideKey> & {
  format: ClipFormat;
  facecam_off: boolean;
  trim_start: number;
  trim_end: number;
};

export type StudioField = keyof ClipEdit;
export type StudioDraft = ClipEdit;
export type StudioMode = 'clip' | 'streamer';

/** The settings a streamer holds that the studio edits; the others (format, trim, facecam off) belong to one clip. */
export const STREAMER_FIELDS = CLIP_OVERRIDE_KEYS;

/** The fields each part of the page edits, for its "Reset" and its saved/own state. */
export const SECTION_FIELDS = {
  layout: ['format', 'layout', 'crop_focus', 'facecam', 'gameplay', 'split_ratio', 'facecam_off'],
  captions: ['caption_style'],
  trim: ['trim_start', 'trim_end'],
  audio: ['normalize_audio'],
  hook: ['hook'],
  brand: ['brand'],
} as const satisfies Record<string, readonly StudioField[]>;
export type StudioSection = keyof typeof SECTION_FIELDS;

/** Where a facecam region starts when split is first chosen: a webcam's usual top-right corner. */
export const STARTING_FACECAM: Rect = { x: 0.7, y: 0.05, w: 0.25, h: 0.3 };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a null field falls back to: the streamer's settings (clip mode) or the contract defaults
 * (streamer mode); the format falls back to the one the clip was downloaded in.
 */
export function fallbackValues(mode: StudioMode, streamer: StreamerStudio, durationSec: number, downloadedFormat: ClipFormat = 'vertical'): StudioValues {
  const base = mode === 'clip' ? streamer : STREAMER_STUDIO_DEFAULTS;
  return { ...pickStudio(base, CLIP_OVERRIDE_KEYS), format: downloadedFormat, facecam_off: false, trim_start: 0, trim_end: durationSec };
}

/** The saved state as a draft: the clip's overrides, or the streamer's settings that differ from the defaults. */
export function savedDraft(mode: StudioMode, clipEdit: ClipEdit, streamer: StreamerStudio): StudioDraft {
  if (mode === 'clip') return { ...EMPTY_CLIP_EDIT, ...clipEdit };
  const draft: StudioDraft = { ...EMPTY_CLIP_EDIT };
  for (const field of STREAMER_FIELDS) {
    if (!same(streamer[field], STREAMER_STUDIO_DEFAULTS[field])) Object.assign(draft, { [field]: streamer[field] });
  }
  return draft;
}

export function effectiveValues(draft: StudioDraft, fallback: StudioValues): StudioValues {
  const values = { ...fallback };
  for (const field of Object.keys(fallback) as StudioField[]) if (draft[field] !== null) Object.assign(values, { [field]: draft[field] });
  return values;
}

/** The fields whose draft differs from what is saved. */
export function changedFields(draft: StudioDraft, saved: StudioDraft): StudioField[] {
  return (Object.keys(EMPTY_CLIP_EDIT) as StudioField[]).filter((field) => !same(draft[field], saved[field]));
}

/** Whether a section holds a value of its own (this clip's, or a streamer's non-default one). */
export function sectionIsOwn(draft: StudioDraft, section: StudioSection): boolean {
  return SECTION_FIELDS[section].some((field) => draft[field] !== null);
}

/** The draft with a section back on its fallback. */
export function resetSection(draft: StudioDraft, section: StudioSection): StudioDraft {
  const next = { ...draft };
  for (const field of SECTION_FIELDS[section]) Object.assign(next, { [field]: null });
  return next;
}

/** What PUT /api/clips/{id}/edit is sent: the whole draft (null resets a field to the streamer's). */
export function clipChanges(draft: StudioDraft): ClipEditChanges {
  return { ...draft };
}

/** What streamers.update is sent: the streamer's settings as the page shows them. */
export function streamerChanges(values: StudioValues): Omit<UpdateStreamerInput, 'name'> {
  const changes: Pick<StudioValues, ClipOverrideKey> = pickStudio(values, CLIP_OVERRIDE_KEYS);
  return changes;
}

/**
 * The preview's body. A clip's draft goes as it is (its nulls mean the streamer's saved setting, as
 * a save would); a streamer's draft goes as whole values, vertical, with the clip's own trim and
 * facecam switch set back, so the picture shows what the streamer's settings alone would make.
 */
export function previewRequest(mode: StudioMode, draft: StudioDraft, values: StudioValues, t: number): PreviewRequest {
  const at = Math.round(t * 100) / 100;
  if (mode === 'clip') return { ...clipChanges(draft), t: at };
  return { ...streamerChanges(values), format: 'vertical', facecam_off: null, trim_start: null, trim_end: null, t: at };
}

/** The layout settings matter: a streamer's always (its clips may render vertical), a clip's when it renders vertical. */
export function showsLayouts(mode: StudioMode, values: Pick<StudioValues, 'format'>): boolean {
  return mode === 'streamer' || values.format === 'vertical';
}

/** Why the draft cannot be saved as it is, or null (the server would refuse it with these words). */
export function draftProblem(mode: StudioMode, values: StudioValues, durationSec: number): string | null {
  const split = splitProblem({ layout: values.layout, facecam: values.facecam_off ? STARTING_FACECAM : values.facecam });
  if (split) return 'The facecam + gameplay layout needs a facecam region: draw one on the frame';
  if (mode === 'clip') return trimProblem(values.trim_start, values.trim_end, durationSec);
  return null;
}

/**
 * The title card a clip shows, by the server's rule (its render plan): the clip's own hook (empty
 * text: none on this clip); else, when its streamer turns hooks on, the clip's suggested hook, or
 * the streamer's text.
 */
export function clipHookCard(own: Hook | null, streamer: Hook | null, suggestion: string | null): Hook | null {
  if (own) return own.text.trim() ? own : null;
  if (!streamer) return null;
  const text = suggestion?.trim() || streamer.text;
  return text ? { text, seconds: streamer.seconds } : null;
}

/** What the brand fields show when no brand is set: the defaults, with nothing drawn. */
export const NO_BRAND: Brand = { ...DEFAULT_BRAND, logo: false, outro_seconds: 0 };

/** The camera `auto` looks for: only when the layout is auto and no rectangle is drawn (a drawn one always wins). */
export function looksForCamera(mode: StudioMode, values: StudioValues): boolean {
  return showsLayouts(mode, values) && values.layout === 'auto' && values.facecam === null && !values.facecam_off;
}
