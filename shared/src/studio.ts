import { z } from 'zod';
import { queryNumber } from './input.ts';
import { safeZoneSchema } from './safe-zones.ts';

/*
 * The studio's settings (rest-api.md "Studio"): how a clip is framed, captioned, trimmed and how
 * loud it is. A streamer holds the defaults; a clip holds overrides (null = the streamer's).
 */

/**
 * Vertical layouts: the streamer's camera found in each clip (split when found, blur when not), a
 * blurred background, a 9:16 crop window, or facecam over gameplay.
 */
export const LAYOUTS = ['auto', 'blur', 'crop', 'split'] as const;
export type Layout = (typeof LAYOUTS)[number];
export const LAYOUT_LABELS: Record<Layout, string> = { auto: 'Automatic', blur: 'Blurred background', crop: 'Crop', split: 'Facecam + gameplay' };
export const layoutSchema = z.enum(LAYOUTS, { error: 'Layout must be auto, blur, crop or split' });
/** What `auto` renders as once detection has looked at the clip. */
export type DetectedLayout = 'split' | 'blur';

export const DEFAULT_CROP_FOCUS = 0.5;
export const MIN_SPLIT_RATIO = 0.2;
export const MAX_SPLIT_RATIO = 0.6;
export const DEFAULT_SPLIT_RATIO = 0.35;
/** Smallest side of a region, as a share of the frame: smaller ones are scaled up into mush. */
export const MIN_REGION_SIDE = 0.05;
/** A trimmed clip keeps at least this many seconds. */
export const MIN_TRIM_SECONDS = 1;

export const RECT_RULE = `A region is {x, y, w, h}: fractions of the frame from 0 to 1, w and h at least ${MIN_REGION_SIDE}, x + w and y + h at most 1`;
const EDGE_SLACK = 1e-6;
const fraction = z.number({ error: RECT_RULE }).min(0, RECT_RULE).max(1, RECT_RULE);

/** A region of the source picture as fractions of its displayed width and height. */
export const rectSchema = z
  .object({ x: fraction, y: fraction, w: fraction.min(MIN_REGION_SIDE, RECT_RULE), h: fraction.min(MIN_REGION_SIDE, RECT_RULE) }, { error: RECT_RULE })
  .refine((rect) => rect.x + rect.w <= 1 + EDGE_SLACK && rect.y + rect.h <= 1 + EDGE_SLACK, RECT_RULE);
export type Rect = z.infer<typeof rectSchema>;
export const FULL_FRAME: Rect = { x: 0, y: 0, w: 1, h: 1 };

const CROP_FOCUS_RULE = 'crop_focus must be a number from 0 to 1';
export const cropFocusSchema = z.number({ error: CROP_FOCUS_RULE }).min(0, CROP_FOCUS_RULE).max(1, CROP_FOCUS_RULE);
const SPLIT_RATIO_RULE = `split_ratio must be a number from ${MIN_SPLIT_RATIO} to ${MAX_SPLIT_RATIO}`;
export const splitRatioSchema = z.number({ error: SPLIT_RATIO_RULE }).min(MIN_SPLIT_RATIO, SPLIT_RATIO_RULE).max(MAX_SPLIT_RATIO, SPLIT_RATIO_RULE);
export const normalizeAudioSchema = z.boolean({ error: 'normalize_audio must be true or false' });

/* Captions */

export const CAPTION_PRESETS = ['classic', 'bold', 'boxed', 'minimal', 'karaoke', 'punch'] as const;
export type CaptionPreset = (typeof CAPTION_PRESETS)[number];
export const CAPTION_PRESET_LABELS: Record<CaptionPreset, string> = {
  classic: 'Classic',
  bold: 'Bold',
  boxed: 'Boxed',
  minimal: 'Minimal',
  karaoke: 'Karaoke',
  punch: 'Punch',
};
export const MIN_CAPTION_SIZE = 24;
export const MAX_CAPTION_SIZE = 140;
/** The font captions use unless a style names another (it covers Latin, Greek and Cyrillic). */
export const DEFAULT_CAPTION_FONT = 'Noto Sans';

/** How the word being said moves: grows and settles, bounces, or the caption slides in. */
export const CAPTION_ANIMATIONS = ['none', 'pop', 'bounce', 'slide'] as const;
export type CaptionAnimation = (typeof CAPTION_ANIMATIONS)[number];
export const CAPTION_ANIMATION_LABELS: Record<CaptionAnimation, string> = { none: 'None', pop: 'Pop', bounce: 'Bounce', slide: 'Slide in' };
/** `keywords`: names, glossary terms, numbers and each caption's most telling word in the emphasis colour. */
export const CAPTION_EMPHASES = ['none', 'keywords'] as const;
export type CaptionEmphasis = (typeof CAPTION_EMPHASES)[number];
/** The transcript's emoji dropped, kept (in colour), or kept with a fitting one added now and then. */
export const CAPTION_EMOJI_MODES = ['none', 'keep', 'auto'] as const;
export type CaptionEmojiMode = (typeof CAPTION_EMOJI_MODES)[number];
export const CAPTION_EMOJI_LABELS: Record<CaptionEmojiMode, string> = { none: 'None', keep: 'As spoken', auto: 'Automatic' };
export const MAX_CAPTION_STROKE = 12;
export const MAX_CAPTION_SHADOW = 10;
export const MIN_CAPTION_WORDS = 1;
export const MAX_CAPTION_WORDS = 8;

const COLOR_RULE = 'Colours must be #RRGGBB';
const color = z.string({ error: COLOR_RULE }).regex(/^#[0-9A-Fa-f]{6}$/, COLOR_RULE).transform((value) => value.toUpperCase());
const SIZE_RULE = `Caption size must be a whole number from ${MIN_CAPTION_SIZE} to ${MAX_CAPTION_SIZE}`;
const POSITION_RULE = 'Caption position must be a number from 0 (top) to 1 (bottom)';
const STROKE_RULE = `stroke_width must be a whole number of pixels from 0 to ${MAX_CAPTION_STROKE}`;
const SHADOW_RULE = `shadow must be a whole number of pixels from 0 to ${MAX_CAPTION_SHADOW}`;
const WORDS_RULE = `max_words must be a whole number from ${MIN_CAPTION_WORDS} to ${MAX_CAPTION_WORDS}`;

/** The fields of the automatic look (rest-api.md): optional in requests and in styles stored before them. */
const captionLookShape = {
  animation: z.enum(CAPTION_ANIMATIONS, { error: 'animation must be none, pop, bounce or slide' }),
  stroke_width: z.number({ error: STROKE_RULE }).int(STROKE_RULE).min(0, STROKE_RULE).max(MAX_CAPTION_STROKE, STROKE_RULE),
  shadow: z.number({ error: SHADOW_RULE }).int(SHADOW_RULE).min(0, SHADOW_RULE).max(MAX_CAPTION_SHADOW, SHADOW_RULE),
  emphasis: z.enum(CAPTION_EMPHASES, { error: 'emphasis must be none or keywords' }),
  emphasis_color: color,
  emoji: z.enum(CAPTION_EMOJI_MODES, { error: 'emoji must be none, keep or auto' }),
  max_words: z.number({ error: WORDS_RULE }).int(WORDS_RULE).min(MIN_CAPTION_WORDS, WORDS_RULE).max(MAX_CAPTION_WORDS, WORDS_RULE),
  safe_zone: safeZoneSchema,
};

/** A complete caption style, as a streamer or clip stores it and a render uses it. */
export const captionStyleSchema = z.object({
  preset: z.enum(CAPTION_PRESETS, { error: 'Caption preset must be classic, bold, boxed, minimal, karaoke or punch' }),
  font: z.string({ error: 'font must be one of GET /api/fonts' }).trim().min(1, 'font must be one of GET /api/fonts').max(100),
  size: z.number({ error: SIZE_RULE }).int(SIZE_RULE).min(MIN_CAPTION_SIZE, SIZE_RULE).max(MAX_CAPTION_SIZE, SIZE_RULE),
  primary_color: color,
  highlight_color: color,
  outline_color: color,
  position: z.number({ error: POSITION_RULE }).min(0, POSITION_RULE).max(1, POSITION_RULE),
  uppercase: z.boolean({ error: 'uppercase must be true or false' }),
  ...captionLookShape,
});
export type CaptionStyle = z.infer<typeof captionStyleSchema>;

/** What the automatic look adds to the first presets: today's look (no animation, no emphasis). */
const PLAIN_LOOK = { animation: 'none', emphasis: 'none', emphasis_color: '#FFE500', emoji: 'keep', max_words: 8, safe_zone: 'all' } as const;

/**
 * Each preset's field values. The first four reproduce the look they had before the automatic
 * look's fields (stroke and shadow were fixed per preset); the box of `boxed` is padded by a fixed
 * amount and has no outline or shadow. Karaoke lights each word up with a pop, a few words at a
 * time; punch shows one or two big words at a time, bouncing, key words coloured.
 */
export const CAPTION_PRESET_STYLES: Record<CaptionPreset, CaptionStyle> = {
  classic: { preset: 'classic', font: DEFAULT_CAPTION_FONT, size: 80, primary_color: '#FFFFFF', highlight_color: '#FFE500', outline_color: '#000000', position: 0.68, uppercase: false, ...PLAIN_LOOK, stroke_width: 5, shadow: 2 },
  bold: { preset: 'bold', font: DEFAULT_CAPTION_FONT, size: 100, primary_color: '#FFFFFF', highlight_color: '#39FF14', outline_color: '#000000', position: 0.62, uppercase: true, ...PLAIN_LOOK, stroke_width: 8, shadow: 3 },
  boxed: { preset: 'boxed', font: DEFAULT_CAPTION_FONT, size: 72, primary_color: '#FFFFFF', highlight_color: '#FFE500', outline_color: '#111111', position: 0.7, uppercase: false, ...PLAIN_LOOK, stroke_width: 0, shadow: 0 },
  minimal: { preset: 'minimal', font: DEFAULT_CAPTION_FONT, size: 60, primary_color: '#FFFFFF', highlight_color: '#FFFFFF', outline_color: '#000000', position: 0.75, uppercase: false, ...PLAIN_LOOK, stroke_width: 2, shadow: 0 },
  karaoke: {
    preset: 'karaoke', font: DEFAULT_CAPTION_FONT, size: 84, primary_color: '#FFFFFF', highlight_color: '#00E5FF', outline_color: '#000000', position: 0.66, uppercase: false,
    animation: 'pop', stroke_width: 6, shadow: 3, emphasis: 'none', emphasis_color: '#FFE500', emoji: 'keep', max_words: 5, safe_zone: 'all',
  },
  punch: {
    preset: 'punch', font: DEFAULT_CAPTION_FONT, size: 120, primary_color: '#FFFFFF', highlight_color: '#FFE500', outline_color: '#000000', position: 0.58, uppercase: true,
    animation: 'bounce', stroke_width: 10, shadow: 4, emphasis: 'keywords', emphasis_color: '#FF3B30', emoji: 'auto', max_words: 2, safe_zone: 'all',
  },
};
export const DEFAULT_CAPTION_STYLE: CaptionStyle = CAPTION_PRESET_STYLES.classic;

/** Keeps only the fields given a value: those left out take the preset's. */
function presetWith(preset: CaptionPreset, fields: Record<string, unknown>): CaptionStyle {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return { ...CAPTION_PRESET_STYLES[preset], ...defined } as CaptionStyle;
}

/**
 * What a request may send: a preset and any fields to change from it. Fields left out take the
 * preset's values, so `{preset: 'bold'}` is a whole style.
 */
export const captionStyleInput = captionStyleSchema
  .partial()
  .extend({ preset: captionStyleSchema.shape.preset })
  .transform((input): CaptionStyle => presetWith(input.preset, input));

/**
 * A style as stored: those saved before the automatic look lack its fields, which then take their
 * preset's values (the look they had). What every reader of a stored style goes through.
 */
export const storedCaptionStyle = captionStyleSchema
  .partial(Object.fromEntries(Object.keys(captionLookShape).map((key) => [key, true])) as { [K in keyof typeof captionLookShape]: true })
  .transform((stored): CaptionStyle => presetWith(stored.preset, stored));
export type StoredCaptionStyle = z.input<typeof storedCaptionStyle>;

/** A stored style completed with its preset's values (see storedCaptionStyle); null stays null. */
export function completeCaptionStyle(stored: StoredCaptionStyle): CaptionStyle;
export function completeCaptionStyle(stored: StoredCaptionStyle | null | undefined): CaptionStyle | null;
export function completeCaptionStyle(stored: StoredCaptionStyle | null | undefined): CaptionStyle | null {
  if (!stored) return null;
  return presetWith(stored.preset, stored as Record<string, unknown>);
}

/* Glossary */

export const GLOSSARY_MAX_TERMS = 100;
export const GLOSSARY_TERM_MAX_LENGTH = 50;
const GLOSSARY_RULE = `glossary is a list of at most ${GLOSSARY_MAX_TERMS} terms, each 1 to ${GLOSSARY_TERM_MAX_LENGTH} characters`;
/** Names, game terms and emotes given to speech recognition; blanks and repeats are dropped. */
export const glossarySchema = z
  .array(z.string({ error: GLOSSARY_RULE }).trim().max(GLOSSARY_TERM_MAX_LENGTH, GLOSSARY_RULE), { error: GLOSSARY_RULE })
  .transform((terms) => [...new Set(terms.filter(Boolean))])
  .refine((terms) => terms.length <= GLOSSARY_MAX_TERMS, GLOSSARY_RULE);

/* Hook title, brand, detection */

export const HOOK_MAX_LENGTH = 80;
export const MIN_HOOK_SECONDS = 1;
export const MAX_HOOK_SECONDS = 5;
const HOOK_RULE = `hook is {text, seconds}: text up to ${HOOK_MAX_LENGTH} characters (empty = no title card on this clip), seconds from ${MIN_HOOK_SECONDS} to ${MAX_HOOK_SECONDS}`;
/**
 * A title card over the first seconds. On a streamer it turns hooks on for its clips: each shows its
 * own text, else its suggested hook, else the streamer's text. On a clip, empty text means none.
 */
export const hookSchema = z.object(
  {
    text: z.string({ error: HOOK_RULE }).trim().max(HOOK_MAX_LENGTH, HOOK_RULE),
    seconds: z.number({ error: HOOK_RULE }).min(MIN_HOOK_SECONDS, HOOK_RULE).max(MAX_HOOK_SECONDS, HOOK_RULE),
  },
  { error: HOOK_RULE },
);
export type Hook = z.infer<typeof hookSchema>;
export const DEFAULT_HOOK_SECONDS = 3;

export const LOGO_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type LogoPosition = (typeof LOGO_POSITIONS)[number];
export const LOGO_POSITION_LABELS: Record<LogoPosition, string> = { 'top-left': 'Top left', 'top-right': 'Top right', 'bottom-left': 'Bottom left', 'bottom-right': 'Bottom right' };
export const MIN_LOGO_OPACITY = 0.1;
export const MAX_OUTRO_SECONDS = 3;
const BRAND_RULE = `brand is {logo: true|false, position: ${LOGO_POSITIONS.join('|')}, opacity: ${MIN_LOGO_OPACITY} to 1, outro_seconds: 0 to ${MAX_OUTRO_SECONDS}}`;
/** The streamer's logo over the video, and an end card of up to 3 s (the logo on the last frame, dimmed). */
export const brandSchema = z.object(
  {
    logo: z.boolean({ error: BRAND_RULE }),
    position: z.enum(LOGO_POSITIONS, { error: BRAND_RULE }),
    opacity: z.number({ error: BRAND_RULE }).min(MIN_LOGO_OPACITY, BRAND_RULE).max(1, BRAND_RULE),
    outro_seconds: z.number({ error: BRAND_RULE }).min(0, BRAND_RULE).max(MAX_OUTRO_SECONDS, BRAND_RULE),
  },
  { error: BRAND_RULE },
);
export type Brand = z.infer<typeof brandSchema>;
export const DEFAULT_BRAND: Brand = { logo: true, position: 'top-right', opacity: 0.85, outro_seconds: 0 };

/** The logo a streamer uploads: PNG or JPEG, at most 2 MB. */
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** What camera detection found in a clip: the camera's rectangle (null: none) and how sure it is. */
export const detectionSchema = z.object({ facecam: rectSchema.nullable(), confidence: z.number().min(0).max(1) });
export type Detection = z.infer<typeof detectionSchema>;
/** POST /api/clips/{id}/detect: what the `auto` layout would find in the clip now (nothing is saved). */
export const clipDetection = detectionSchema.extend({ gameplay: rectSchema, layout: z.enum(['split', 'blur']) });
export type ClipDetection = z.infer<typeof clipDetection>;
/** POST /api/streamers/{name}/detect: the camera over the streamer's newest clips (nothing is saved). */
export const streamerDetection = detectionSchema.extend({ clips_checked: z.number().int() });
export type StreamerDetection = z.infer<typeof streamerDetection>;

/*
 * Every studio setting a streamer holds, defined once: how a request spells it (with its rule), how
 * the API shows it, its default, and whether one clip can override it. A streamer's input, output
 * and defaults, a clip's overrides, the preview's fields, and the server's and client's copies of
 * them are all derived from this table: a new setting is one line here.
 */
function studioSetting<I extends z.ZodType, S extends z.ZodType, O extends boolean>(input: I, shown: S, value: z.output<S>, clipOverride: O) {
  return { input, shown, default: value, clipOverride };
}

export const STUDIO_SETTINGS = {
  layout: studioSetting(layoutSchema, layoutSchema, 'auto', true),
  crop_focus: studioSetting(cropFocusSchema, z.number(), DEFAULT_CROP_FOCUS, true),
  facecam: studioSetting(rectSchema.nullable(), rectSchema.nullable(), null, true),
  gameplay: studioSetting(rectSchema, rectSchema, FULL_FRAME, true),
  split_ratio: studioSetting(splitRatioSchema, z.number(), DEFAULT_SPLIT_RATIO, true),
  caption_style: studioSetting(captionStyleInput, captionStyleSchema, DEFAULT_CAPTION_STYLE, true),
  glossary: studioSetting(glossarySchema, z.array(z.string()), [], false),
  normalize_audio: studioSetting(normalizeAudioSchema, z.boolean(), true, true),
  hook: studioSetting(hookSchema.nullable(), hookSchema.nullable(), null, true),
  brand: studioSetting(brandSchema.nullable(), brandSchema.nullable(), null, true),
};
type StudioSettings = typeof STUDIO_SETTINGS;
export type StudioSettingKey = keyof StudioSettings;
export const STUDIO_SETTING_KEYS = Object.keys(STUDIO_SETTINGS) as StudioSettingKey[];

/** The settings one clip can override (the studio edits these for a clip and for its streamer). */
export type ClipOverrideKey = { [K in StudioSettingKey]: StudioSettings[K]['clipOverride'] extends true ? K : never }[StudioSettingKey];
export const CLIP_OVERRIDE_KEYS = STUDIO_SETTING_KEYS.filter((key) => STUDIO_SETTINGS[key].clipOverride) as ClipOverrideKey[];

function eachSetting<K extends string, R>(keys: readonly K[], make: (key: K) => R): Record<K, R> {
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, R>;
}

/** The studio fields of a streamer request, each with its rule. */
export const streamerStudioFields = eachSetting(STUDIO_SETTING_KEYS, (key) => STUDIO_SETTINGS[key].input) as { [K in StudioSettingKey]: StudioSettings[K]['input'] };

/** The same fields for a new streamer: each optional, taking its default. */
export const streamerStudioDefaultedFields = eachSetting(STUDIO_SETTING_KEYS, (key) => (STUDIO_SETTINGS[key].input as z.ZodType).default(STUDIO_SETTINGS[key].default)) as unknown as {
  [K in StudioSettingKey]: z.ZodDefault<StudioSettings[K]['input']>;
};

/** A streamer's studio settings as the API shows them. */
export const streamerStudio = z.object(eachSetting(STUDIO_SETTING_KEYS, (key) => STUDIO_SETTINGS[key].shown) as { [K in StudioSettingKey]: StudioSettings[K]['shown'] });
export type StreamerStudio = z.infer<typeof streamerStudio>;

/** The contract defaults of every studio setting. */
export const STREAMER_STUDIO_DEFAULTS = eachSetting(STUDIO_SETTING_KEYS, (key) => STUDIO_SETTINGS[key].default) as StreamerStudio;

/** The settings of `source` (a row, a request, the studio's values), and nothing else. */
export function pickStudio<K extends string, T extends { [P in K]: unknown }>(source: T, keys: readonly K[]): Pick<T, K> {
  return eachSetting(keys, (key) => source[key]) as Pick<T, K>;
}

/* Per-clip overrides */

/** A clip's video: 9:16 with a layout, or the source's own picture. */
export const CLIP_FORMATS = ['vertical', 'horizontal'] as const;
export type ClipFormat = (typeof CLIP_FORMATS)[number];
export const CLIP_FORMAT_LABELS: Record<ClipFormat, string> = { vertical: 'Vertical', horizontal: 'Horizontal' };
export const clipFormatSchema = z.enum(CLIP_FORMATS, { error: 'format must be vertical, horizontal or null (as downloaded)' });

/**
 * A clip's overrides; null (or absent) = the streamer's setting. `facecam_off` drops the facecam band;
 * `format` null renders the clip in the format it was downloaded in.
 */
export const clipEdit = z.object({
  format: clipFormatSchema.nullable(),
  ...(eachSetting(CLIP_OVERRIDE_KEYS, (key) => STUDIO_SETTINGS[key].shown.nullable()) as { [K in ClipOverrideKey]: z.ZodNullable<StudioSettings[K]['shown']> }),
  facecam_off: z.boolean().nullable(),
  trim_start: z.number().nullable(),
  trim_end: z.number().nullable(),
});
export type ClipEdit = z.infer<typeof clipEdit>;
/** A clip's overrides as stored: a caption style saved before the automatic look lacks its fields. */
export type StoredClipEdit = Omit<Partial<ClipEdit>, 'caption_style'> & { caption_style?: StoredCaptionStyle | null };

/** Stored overrides with their caption style completed (see storedCaptionStyle). */
export function completeClipEdit(stored: StoredClipEdit): Partial<ClipEdit> {
  const { caption_style: style, ...rest } = stored;
  return style ? { ...rest, caption_style: completeCaptionStyle(style) } : rest;
}
export const EMPTY_CLIP_EDIT = eachSetting(Object.keys(clipEdit.shape) as (keyof ClipEdit)[], () => null) as ClipEdit;

const TRIM_RULE = 'Trim times must be seconds (a number of at least 0)';
const trimTime = z.number({ error: TRIM_RULE }).min(0, TRIM_RULE).max(86_400, TRIM_RULE);

/** The fields PUT /api/clips/{id}/edit and POST /api/clips/{id}/preview take: each optional, null resets it. */
export const clipEditFields = {
  format: clipFormatSchema.nullable().optional(),
  ...(eachSetting(CLIP_OVERRIDE_KEYS, (key) => STUDIO_SETTINGS[key].input.nullable().optional()) as { [K in ClipOverrideKey]: z.ZodOptional<z.ZodNullable<StudioSettings[K]['input']>> }),
  facecam_off: z.boolean({ error: 'facecam_off must be true or false' }).nullable().optional(),
  trim_start: trimTime.nullable().optional(),
  trim_end: trimTime.nullable().optional(),
};

const clipRef = { id: z.string().trim().min(1).max(200) };
export const updateClipEditInput = z.object({ ...clipRef, ...clipEditFields });
export type UpdateClipEditInput = z.infer<typeof updateClipEditInput>;
export type ClipEditChanges = Omit<UpdateClipEditInput, 'id'>;

const FRAME_TIME_RULE = 't must be seconds from the start of the clip: digits, optionally with a decimal point (e.g. 2.5)';
/** GET /api/clips/{id}/frame: t from the query string, clamped into the clip; 0 when absent. */
export const clipFrameInput = z.object({ ...clipRef, t: queryNumber(z.number({ error: FRAME_TIME_RULE }).min(0, FRAME_TIME_RULE), FRAME_TIME_RULE).optional() });
export type ClipFrameInput = z.infer<typeof clipFrameInput>;

const PREVIEW_TIME_RULE = 't must be seconds from the start of the clip (a number of at least 0)';
export const previewClipInput = z.object({ ...clipRef, t: z.number({ error: PREVIEW_TIME_RULE }).min(0, PREVIEW_TIME_RULE).max(86_400, PREVIEW_TIME_RULE).optional(), ...clipEditFields });
export type PreviewClipInput = z.infer<typeof previewClipInput>;

/* Transcript */

export const TRANSCRIPT_MAX_WORDS = 20_000;
export const TRANSCRIPT_WORD_MAX_LENGTH = 200;
export const transcriptWord = z.object({
  start: z.number({ error: 'Word times must be numbers of seconds' }).min(0, 'Word times must be at least 0'),
  end: z.number({ error: 'Word times must be numbers of seconds' }).min(0, 'Word times must be at least 0'),
  text: z.string({ error: 'Every word needs text' }).max(TRANSCRIPT_WORD_MAX_LENGTH, `A word is at most ${TRANSCRIPT_WORD_MAX_LENGTH} characters`),
});
export type TranscriptWordDto = z.infer<typeof transcriptWord>;

export const clipTranscript = z.object({
  language: z.string().nullable(),
  edited: z.boolean(),
  words: z.array(transcriptWord),
});
export type ClipTranscript = z.infer<typeof clipTranscript>;

export const updateTranscriptInput = z.object({
  ...clipRef,
  words: z.array(transcriptWord, { error: 'words must be a list of {start, end, text}' }).max(TRANSCRIPT_MAX_WORDS, `A transcript has at most ${TRANSCRIPT_MAX_WORDS} words`),
});
export type UpdateTranscriptInput = z.infer<typeof updateTranscriptInput>;

/**
 * Why a transcript cannot be saved for a clip of `durationSec` seconds, or null: every word has
 * text, ends after it starts, starts no earlier than the previous word, and lies inside the clip.
 */
export function transcriptProblem(words: readonly TranscriptWordDto[], durationSec: number): string | null {
  const slack = 0.05;
  for (const [index, word] of words.entries()) {
    const position = `Word ${index + 1} ("${word.text.trim().slice(0, 30)}")`;
    if (!word.text.trim()) return `Word ${index + 1} has no text: delete it instead`;
    if (word.end < word.start) return `${position} ends before it starts`;
    if (word.end > durationSec + slack) return `${position} ends after the clip (${durationSec.toFixed(1)} s)`;
    const previous = words[index - 1];
    if (previous && word.start < previous.start) return `${position} starts before the word before it: times must increase`;
  }
  return null;
}

/** Why a trim cannot be used on a clip of `durationSec` seconds, or null. */
export function trimProblem(start: number, end: number, durationSec: number): string | null {
  const slack = 0.05;
  if (start >= durationSec) return `Trim start must be inside the clip (0 to ${durationSec.toFixed(1)} s)`;
  if (end > durationSec + slack) return `Trim end must be inside the clip (at most ${durationSec.toFixed(1)} s)`;
  if (end - start < MIN_TRIM_SECONDS - 1e-9) return `A trimmed clip must be at least ${MIN_TRIM_SECONDS} s long`;
  return null;
}

/** A streamer's studio settings that make a `split` layout unusable, or null. */
export function splitProblem(settings: { layout: Layout; facecam: Rect | null }): string | null {
  return settings.layout === 'split' && !settings.facecam ? 'The split layout needs a facecam region (facecam)' : null;
}
