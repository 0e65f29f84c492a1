import { DEFAULT_CAPTION_STYLE, FULL_FRAME, STREAMER_STUDIO_DEFAULTS, type Brand, type CaptionStyle, type LogoPosition, type ClipEdit, type ClipEditChanges, type Detection, type Hook, type Rect, type StreamerStudio } from '@clipshift/shared';
import type { ClipLayout, Trim, VerticalLayoutSpec } from '../../engines/media/index.ts';

/** The `auto` layout before detection has looked at the clip: split over this gameplay when a camera is found, else blur. */
export interface AutoLayout {
  kind: 'auto';
  gameplay: Rect;
  splitRatio: number;
}

/** Everything a render of one clip needs to know besides its files: the one place settings combine. */
export interface RenderPlan {
  /** 'horizontal', or how the vertical picture is made (`auto` until detection resolves it). */
  layout: ClipLayout | VerticalLayoutSpec | AutoLayout;
  /** The title card over the first seconds; null = none. */
  hook: Hook | null;
  /**
   * The hook comes from the streamer's setting, not the clip's own: a fresh suggestion for the
   * clip's words (the description generator's, during the render) takes its text.
   */
  hookSuggestible: boolean;
  /** The logo and end card; null = none. */
  brand: Brand | null;
  /** The streamer's logo to draw (its storage key), where and how opaque; null = none. */
  logo: { key: string; position: LogoPosition; opacity: number } | null;
  captionStyle: CaptionStyle;
  /** The part of the source to keep; null = all of it. */
  trim: Trim | null;
  normalizeAudio: boolean;
  /** Vocabulary for speech recognition. */
  glossary: string[];
}

export interface PlanInput {
  /**
   * The clip was downloaded 9:16: it renders so unless its edit's `format` says otherwise (a
   * horizontal clip keeps the source's picture whatever its layout settings).
   */
  vertical: boolean;
  /** The streamer's defaults; null once the streamer is deleted (the clip's library entry stays). */
  streamer: StreamerStudio | null;
  /** The clip's saved overrides (absent keys = the streamer's). */
  edit?: Partial<ClipEdit> | undefined;
  /** Unsaved changes on top (a preview): undefined = saved value, null = back to the streamer's. */
  changes?: ClipEditChanges | undefined;
  /** The source's length, for the trim's end. */
  sourceDurationSec: number;
  /** How the clip was last framed: the layout when neither the clip nor a streamer says. */
  renderedLayout?: string | null | undefined;
  /** The hook the description generator proposed for the clip. */
  hookSuggestion?: string | null | undefined;
  /** Where the streamer's logo is stored; null = it has none. */
  logoKey?: string | null | undefined;
  /**
   * The source is the streamer's own vertical edit (Twitch's portrait version): a vertical render
   * shows it as it is, whatever the layout says — no camera is looked for and nothing is cropped.
   */
  portraitSource?: boolean | undefined;
}

type Field = keyof ClipEdit;

/** The clip's own value of a field, after unsaved changes: a change of null drops the saved one. */
function own<K extends Field>(input: PlanInput, field: K): ClipEdit[K] | null {
  const change = input.changes?.[field as keyof ClipEditChanges] as ClipEdit[K] | null | undefined;
  if (change !== undefined) return change;
  return input.edit?.[field] ?? null;
}

/**
 * A clip whose streamer is gone keeps the layout it was rendered with; one that never recorded it
 * takes the blurred background (what every clip rendered before `auto` existed was made with).
 */
function fallbackLayout(rendered: string | null | undefined): StreamerStudio['layout'] {
  return rendered === 'crop' || rendered === 'split' ? rendered : 'blur';
}

/** The clip's own format, else the one it was downloaded in. */
function rendersVertical(input: PlanInput): boolean {
  const format = own(input, 'format');
  return format === null ? input.vertical : format === 'vertical';
}

function layoutOf(input: PlanInput): ClipLayout | VerticalLayoutSpec | AutoLayout {
  if (!rendersVertical(input)) return 'horizontal';
  // Blur fits the whole picture into the 9:16 frame: a 9:16 source fills it, its background never shows.
  if (input.portraitSource) return { kind: 'blur' };
  const streamer = input.streamer;
  const layout = own(input, 'layout') ?? streamer?.layout ?? fallbackLayout(input.renderedLayout);
  if (layout === 'crop') return { kind: 'crop', focus: own(input, 'crop_focus') ?? streamer?.crop_focus ?? STREAMER_STUDIO_DEFAULTS.crop_focus };
  if (layout === 'blur') return { kind: 'blur' };
  const facecamOff = own(input, 'facecam_off') === true;
  const drawn = own(input, 'facecam') ?? streamer?.facecam ?? null;
  const gameplay = own(input, 'gameplay') ?? streamer?.gameplay ?? FULL_FRAME;
  const splitRatio = own(input, 'split_ratio') ?? streamer?.split_ratio ?? STREAMER_STUDIO_DEFAULTS.split_ratio;
  // A rectangle the user drew always wins over detection; with the facecam off nothing is looked for.
  if (layout === 'auto' && !drawn && !facecamOff) return { kind: 'auto', gameplay, splitRatio };
  // No facecam region anywhere means facecam off: the gameplay region fills the frame.
  return { kind: 'split', facecam: facecamOff ? null : drawn, gameplay, splitRatio };
}

/** The `auto` layout once detection has looked: split with the camera it found, blur when it found none. */
export function resolvedLayout(layout: AutoLayout, detection: Detection | null): VerticalLayoutSpec {
  if (!detection?.facecam) return { kind: 'blur' };
  return { kind: 'split', facecam: detection.facecam, gameplay: layout.gameplay, splitRatio: layout.splitRatio };
}

/**
 * The title card: the clip's own hook (empty text: none on this clip); else, when its streamer turns
 * hooks on, the clip's suggested hook, or the streamer's text.
 */
function hookOf(input: PlanInput): Hook | null {
  const own_ = own(input, 'hook');
  if (own_) return own_.text ? own_ : null;
  const streamer = input.streamer?.hook;
  if (!streamer) return null;
  const text = input.hookSuggestion?.trim() || streamer.text;
  return text ? { text, seconds: streamer.seconds } : null;
}

/** The kept section; null when it is the whole source. */
function trimOf(input: Pick<PlanInput, 'edit' | 'changes' | 'sourceDurationSec'>): Trim | null {
  const start = own(input as PlanInput, 'trim_start') ?? 0;
  const end = own(input as PlanInput, 'trim_end') ?? input.sourceDurationSec;
  if (start <= 0 && end >= input.sourceDurationSec) return null;
  return { start: Math.max(0, start), end: Math.min(end, input.sourceDurationSec) };
}

function brandOf(input: PlanInput): Brand | null {
  return own(input, 'brand') ?? input.streamer?.brand ?? null;
}

/** The logo is drawn when the brand asks for it and the streamer has one. */
function logoOf(input: PlanInput): RenderPlan['logo'] {
  const brand = brandOf(input);
  if (!brand?.logo || !input.logoKey) return null;
  return { key: input.logoKey, position: brand.position, opacity: brand.opacity };
}

/** The clip's settings over the streamer's over the defaults. */
export function renderPlan(input: PlanInput): RenderPlan {
  return {
    layout: layoutOf(input),
    hook: hookOf(input),
    hookSuggestible: own(input, 'hook') === null && Boolean(input.streamer?.hook),
    brand: brandOf(input),
    logo: logoOf(input),
    captionStyle: own(input, 'caption_style') ?? input.streamer?.caption_style ?? DEFAULT_CAPTION_STYLE,
    trim: trimOf(input),
    normalizeAudio: own(input, 'normalize_audio') ?? input.streamer?.normalize_audio ?? STREAMER_STUDIO_DEFAULTS.normalize_audio,
    glossary: input.streamer?.glossary ?? [],
  };
}
