import {
  CAPTION_PRESET_STYLES,
  createStreamerInput,
  DEFAULT_SCHEDULE,
  GLOSSARY_MAX_TERMS,
  GLOSSARY_TERM_MAX_LENGTH,
  NEW_STREAMER_DEFAULTS,
  splitProblem,
  CLIP_CREATORS_MAX,
  type CaptionPreset,
  type CaptionStyle,
  type ClipPeriod,
  type PublishMode,
  type RankBy,
  type CreateStreamerInput,
  type Layout,
  type ScheduleUnit,
  type Streamer,
  type StreamerStudio,
} from '@clipshift/shared';
import { errorCode, isNetworkError, NETWORK_ERROR, serverIssues, serverMessage, type ServerIssue } from '@/api/errors';
import { streamerMessages, type StreamerFormMode } from '@/api/streamers';

export type { StreamerFormMode };

/** A caption style as the form edits it: the size stays text while typed. */
export type CaptionStyleValues = Omit<CaptionStyle, 'size'> & { size: string };

/** Studio settings the dialog does not edit (the studio's region editor does) but must keep. */
export type StreamerRegions = Pick<StreamerStudio, 'crop_focus' | 'facecam' | 'gameplay' | 'split_ratio'>;

/** What the form edits; numbers stay text while typed so "" and "2.5" can be told apart. */
export interface StreamerFormValues {
  name: string;
  clipLimit: string;
  vertical: boolean;
  layout: Layout;
  language: string;
  scheduleEnabled: boolean;
  scheduleInterval: string;
  scheduleUnit: ScheduleUnit;
  autoSubtitle: boolean;
  autoPublish: boolean;
  captionStyle: CaptionStyleValues;
  glossary: string[];
  normalizeAudio: boolean;
  regions: StreamerRegions;
  clipPeriod: ClipPeriod;
  minViews: string;
  rankBy: RankBy;
  clipCreators: string[];
  publishMode: PublishMode;
  featuredOnly: boolean;
  watchLive: boolean;
  /** The moment threshold as a whole percentage, 0 to 100 (the API takes 0..1). */
  momentThresholdPercent: number;
}

type StreamerFormField = 'name' | 'clipLimit' | 'scheduleInterval' | 'layout' | 'captionStyle' | 'captionSize' | 'glossary' | 'minViews' | 'clipCreators' | 'momentThreshold';
export type StreamerFormErrors = Partial<Record<StreamerFormField | 'form', string>>;

export function captionStyleValues(style: CaptionStyle): CaptionStyleValues {
  return { ...style, size: String(style.size) };
}

/** A preset chosen afresh: its whole look, so a customised colour does not linger from another. */
export function presetValues(preset: CaptionPreset): CaptionStyleValues {
  return captionStyleValues(CAPTION_PRESET_STYLES[preset]);
}

function regionsOf(studio: StreamerRegions): StreamerRegions {
  return { crop_focus: studio.crop_focus, facecam: studio.facecam, gameplay: studio.gameplay, split_ratio: studio.split_ratio };
}

/** A 0..1 threshold as the form's whole percentage (the stored value is a float: 0.6 may read 0.6000000238). */
export function thresholdPercent(threshold: number): number {
  return Math.min(100, Math.max(0, Math.round(threshold * 100)));
}

/** The spec's new-streamer defaults (limit 10, vertical, no schedule, no auto options). */
export function newStreamerValues(): StreamerFormValues {
  return {
    name: NEW_STREAMER_DEFAULTS.name,
    clipLimit: String(NEW_STREAMER_DEFAULTS.clip_limit),
    vertical: NEW_STREAMER_DEFAULTS.vertical,
    layout: NEW_STREAMER_DEFAULTS.layout,
    language: NEW_STREAMER_DEFAULTS.language,
    scheduleEnabled: NEW_STREAMER_DEFAULTS.schedule !== null,
    scheduleInterval: String(DEFAULT_SCHEDULE.interval),
    scheduleUnit: DEFAULT_SCHEDULE.unit,
    autoSubtitle: NEW_STREAMER_DEFAULTS.auto_subtitle,
    autoPublish: NEW_STREAMER_DEFAULTS.auto_publish,
    captionStyle: captionStyleValues(NEW_STREAMER_DEFAULTS.caption_style),
    glossary: [...NEW_STREAMER_DEFAULTS.glossary],
    normalizeAudio: NEW_STREAMER_DEFAULTS.normalize_audio,
    regions: regionsOf(NEW_STREAMER_DEFAULTS),
    clipPeriod: NEW_STREAMER_DEFAULTS.clip_period,
    minViews: String(NEW_STREAMER_DEFAULTS.min_views),
    rankBy: NEW_STREAMER_DEFAULTS.rank_by,
    clipCreators: [...NEW_STREAMER_DEFAULTS.clip_creators],
    publishMode: NEW_STREAMER_DEFAULTS.publish_mode,
    featuredOnly: NEW_STREAMER_DEFAULTS.featured_only,
    watchLive: NEW_STREAMER_DEFAULTS.watch_live,
    momentThresholdPercent: thresholdPercent(NEW_STREAMER_DEFAULTS.moment_threshold),
  };
}

/** A saved streamer as form values; a streamer without a schedule offers the 4-hour default. */
export function streamerValues(streamer: Streamer): StreamerFormValues {
  const schedule = streamer.schedule ?? DEFAULT_SCHEDULE;
  return {
    name: streamer.name,
    clipLimit: String(streamer.clip_limit),
    vertical: streamer.vertical,
    layout: streamer.layout,
    language: streamer.language,
    scheduleEnabled: streamer.schedule !== null,
    scheduleInterval: String(schedule.interval),
    scheduleUnit: schedule.unit,
    autoSubtitle: streamer.auto_subtitle,
    autoPublish: streamer.auto_publish,
    captionStyle: captionStyleValues(streamer.caption_style),
    glossary: [...streamer.glossary],
    normalizeAudio: streamer.normalize_audio,
    regions: regionsOf(streamer),
    clipPeriod: streamer.clip_period,
    minViews: String(streamer.min_views),
    rankBy: streamer.rank_by,
    clipCreators: [...streamer.clip_creators],
    publishMode: streamer.publish_mode,
    featuredOnly: streamer.featured_only,
    watchLive: streamer.watch_live,
    momentThresholdPercent: thresholdPercent(streamer.moment_threshold),
  };
}

/** Which form field a refusal is about, by the payload path the shared schema reports. */
function fieldOf(path: readonly (string | number)[]): StreamerFormField | 'form' {
  if (path[0] === 'name') return 'name';
  if (path[0] === 'clip_limit' || path[0] === 'limit') return 'clipLimit';
  if (path[0] === 'schedule') return 'scheduleInterval';
  if (path[0] === 'layout' || path[0] === 'facecam') return 'layout';
  if (path[0] === 'caption_style') return path[1] === 'size' ? 'captionSize' : 'captionStyle';
  if (path[0] === 'glossary') return 'glossary';
  if (path[0] === 'min_views') return 'minViews';
  if (path[0] === 'clip_creators') return 'clipCreators';
  if (path[0] === 'moment_threshold') return 'momentThreshold';
  return 'form';
}

/** The first message per field, as the form shows them under each input. */
function errorsFromIssues(issues: readonly ServerIssue[]): StreamerFormErrors {
  const errors: StreamerFormErrors = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * Where the form shows a refused save. Validation refusals name their field; on creation a 409
 * (already exists) or a plain 400 (no such Twitch user) is about the name; anything else is the
 * form's.
 */
export function saveErrors(error: unknown, mode: StreamerFormMode): StreamerFormErrors {
  if (isNetworkError(error)) return { form: NETWORK_ERROR };
  const issues = serverIssues(error);
  if (issues.length > 0) return errorsFromIssues(issues);
  const message = serverMessage(error) ?? streamerMessages.saveFailed;
  const code = errorCode(error);
  if (mode === 'add' && (code === 'CONFLICT' || code === 'BAD_REQUEST')) return { name: message };
  return { form: message };
}

type StreamerFormResult = { ok: true; payload: CreateStreamerInput } | { ok: false; errors: StreamerFormErrors };

/** An existing streamer keeps its name (it cannot change), so editing checks only the settings. */
const settingsInput = createStreamerInput.omit({ name: true });

/**
 * A typed number as JSON sends it (the server takes JSON numbers only): decimal text becomes its
 * number, so "2.5" still meets the whole-number rule; anything else becomes NaN, which the schema
 * refuses with the field's message.
 */
function numberFromField(text: string): number {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** Checks the form with the server's own rules (shared schema, spec section 5 messages) and builds the payload. */
export function validateStreamerForm(values: StreamerFormValues, mode: StreamerFormMode): StreamerFormResult {
  const settings = {
    clip_limit: numberFromField(values.clipLimit),
    vertical: values.vertical,
    layout: values.layout,
    language: values.language,
    schedule: values.scheduleEnabled ? { interval: numberFromField(values.scheduleInterval), unit: values.scheduleUnit } : null,
    auto_subtitle: values.autoSubtitle,
    auto_publish: values.autoPublish,
    caption_style: { ...values.captionStyle, size: numberFromField(values.captionStyle.size) },
    glossary: values.glossary,
    normalize_audio: values.normalizeAudio,
    ...values.regions,
    clip_period: values.clipPeriod,
    min_views: numberFromField(values.minViews),
    rank_by: values.rankBy,
    clip_creators: values.clipCreators,
    publish_mode: values.publishMode,
    featured_only: values.featuredOnly,
    watch_live: values.watchLive,
    moment_threshold: values.momentThresholdPercent / 100,
  };
  // The server refuses this too, but only after every other field has been checked.
  const split = splitProblem({ layout: values.layout, facecam: values.regions.facecam });
  if (split) return { ok: false, errors: { layout: SPLIT_NEEDS_FACECAM } };
  if (mode === 'edit') {
    const parsed = settingsInput.safeParse(settings);
    if (parsed.success) return { ok: true, payload: { name: values.name, ...parsed.data } };
    return { ok: false, errors: errorsFromIssues(issuesOf(parsed.error.issues)) };
  }
  const parsed = createStreamerInput.safeParse({ name: values.name, ...settings });
  if (parsed.success) return { ok: true, payload: parsed.data };
  return { ok: false, errors: errorsFromIssues(issuesOf(parsed.error.issues)) };
}

function issuesOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ServerIssue[] {
  return issues.map((issue) => ({
    path: issue.path.filter((part): part is string | number => typeof part !== 'symbol'),
    message: issue.message,
  }));
}

/** Why a split layout cannot be saved yet, in the dialog's words (the region is drawn on a clip). */
export const SPLIT_NEEDS_FACECAM = 'Draw the facecam region from one of this streamer’s clips';

export const GLOSSARY_TERM_TOO_LONG = `A glossary term is at most ${GLOSSARY_TERM_MAX_LENGTH} characters`;
export const GLOSSARY_FULL = `A glossary holds at most ${GLOSSARY_MAX_TERMS} terms`;

interface GlossaryAddition {
  terms: string[];
  /** Why some of the typed terms were not added; null when all were (repeats count as added). */
  problem: string | null;
  /** What stays in the input: the terms that were refused, to be shortened. */
  rest: string;
}

/**
 * Adds typed or pasted terms (separated by commas or new lines) to a glossary. Blanks and terms
 * already there are skipped; a term over the length limit or beyond the term limit is kept back.
 */
export function addGlossaryTerms(glossary: readonly string[], typed: string): GlossaryAddition {
  const terms = [...glossary];
  const refused: string[] = [];
  let problem: string | null = null;
  for (const raw of typed.split(/[,\n\r]+/)) {
    const term = raw.trim();
    if (!term || terms.includes(term)) continue;
    if (term.length > GLOSSARY_TERM_MAX_LENGTH) {
      problem ??= GLOSSARY_TERM_TOO_LONG;
      refused.push(term);
    } else if (terms.length >= GLOSSARY_MAX_TERMS) {
      problem ??= GLOSSARY_FULL;
      refused.push(term);
    } else {
      terms.push(term);
    }
  }
  return { terms, problem, rest: refused.join(', ') };
}

export const CLIP_CREATOR_INVALID = 'A clip creator is a Twitch login: letters, digits and _, at most 25 characters';
export const CLIP_CREATORS_FULL = `At most ${CLIP_CREATORS_MAX} clip creators`;
const TWITCH_LOGIN = /^[a-z0-9_]{1,25}$/;

/**
 * Adds typed or pasted Twitch logins (lower-cased, as Twitch keeps them) to the creators allowlist;
 * one that cannot be a login, or beyond the limit, stays in the input.
 */
export function addClipCreators(creators: readonly string[], typed: string): GlossaryAddition {
  const terms = [...creators];
  const refused: string[] = [];
  let problem: string | null = null;
  for (const raw of typed.split(/[,\s]+/)) {
    const login = raw.trim().replace(/^@/, '').toLowerCase();
    if (!login || terms.includes(login)) continue;
    if (!TWITCH_LOGIN.test(login)) {
      problem ??= CLIP_CREATOR_INVALID;
      refused.push(raw.trim());
    } else if (terms.length >= CLIP_CREATORS_MAX) {
      problem ??= CLIP_CREATORS_FULL;
      refused.push(login);
    } else {
      terms.push(login);
    }
  }
  return { terms, problem, rest: refused.join(', ') };
}
