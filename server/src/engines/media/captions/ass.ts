import { randomUUID } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { languageCode, needsSpaceBetween, type TranscriptWord } from '../../providers/transcription/index.ts';
import { clearBand, clearHalfWidth, type CaptionAnimation, type ZoneRect } from '@clipshift/shared';
import { autoEmojiFor, emojiImage, splitEmoji } from './emoji.ts';
import { CAPTION_FONTS, dominantScript, EMOJI_FONT_FAMILY, emojiFontHas, emojiRuns, FONT_FAMILIES, fontFilePath, isRightToLeft, scriptOfFont, wordScript, type CaptionScript } from './fonts.ts';
import { chooseKeywords } from './keywords.ts';
import { fontMetrics, textWidth, type FontMetrics } from './metrics.ts';

export { captionFontsDir, fontsDir, fontForText, FONT_FAMILIES, dominantScript } from './fonts.ts';

/*
 * Word-timed captions as ASS for a 1080x1920 render: short captions of at most two lines, split on
 * pauses and sentence ends, placed above TikTok's bottom interface, with the word being said in a
 * highlight colour. The highlight is one Dialogue event per word (the caption text repeated with
 * one word coloured) rather than \k karaoke tags: \k fills words progressively and leaves them
 * filled, and its timing is relative, so one rounding error shifts every later word; separate
 * events with absolute times render identically in every libass version, ffmpeg 4.1's included.
 */

export interface AssOptions {
  playResX: number;
  playResY: number;
  /** Font size for Latin text; other scripts are scaled by SCRIPT_SIZE_SCALE to look as large. */
  fontSize: number;
  /** Distance from the bottom of the frame to the bottom of the captions: clears TikTok's caption, music and button area. */
  marginV: number;
  marginH: number;
  /** Outline width; with an opaque box (borderStyle 3), the box's padding around the text. */
  outline: number;
  shadow: number;
  /** 1: outline and drop shadow; 3: an opaque box in the outline colour behind each line. */
  borderStyle: 1 | 3;
  /**
   * Vertical centre of the caption block as a share of the frame height; unset keeps the block's
   * bottom marginV above the frame's bottom.
   */
  position?: number;
  /** Upper-case the words, by the rules of `language` (Turkish dotted İ, German ß…). */
  uppercase?: boolean;
  /** The transcript's language (code or whisper's English name), for upper-casing. */
  language?: string | null;
  maxLines: number;
  /** Line width budget in display units (one unit ≈ an average lowercase Latin letter; CJK counts 1.8). */
  maxLineWidth: number;
  /** A silence at least this long (seconds) starts a new caption. */
  pauseSeconds: number;
  /** A caption never spans longer than this (seconds). */
  maxCaptionSeconds: number;
  /** How long the last caption before a pause lingers after its last word (seconds). */
  lingerSeconds: number;
  /** Colours as RRGGBB. */
  textColor: string;
  highlightColor: string;
  outlineColor: string;
  /**
   * The caption font, instead of the one picked from the words' script. Words of a script it is not
   * made for still switch to their script's bundled font (a Korean word in Noto Sans: Noto Sans KR).
   */
  fontName?: string;
  /** How the word being said moves (see ANIMATIONS). */
  animation: CaptionAnimation;
  /** Keywords (chooseKeywords) in this colour, RRGGBB; null: no emphasis. */
  emphasisColor: string | null;
  /** Terms the emphasis always colours. */
  glossary: readonly string[];
  /** Words on screen at once. */
  maxWords: number;
  /**
   * Emoji: `none` dropped; `font` drawn in the monochrome emoji font; `image` drawn as colour
   * pictures over the video (buildCaptions returns where), the line keeping a transparent glyph's
   * space for each.
   */
  emoji: 'none' | 'font' | 'image';
  /** Add one fitting emoji now and then (autoEmojiFor), as pictures. */
  autoEmoji: boolean;
  /** Areas of the frame (pixels) no caption pixel may enter: moved up or down, lines narrowed. */
  keepClear: readonly ZoneRect[];
}

export const DEFAULT_ASS_OPTIONS: AssOptions = {
  playResX: 1080,
  playResY: 1920,
  fontSize: 80,
  marginV: 520,
  marginH: 100,
  outline: 5,
  shadow: 2,
  borderStyle: 1,
  maxLines: 2,
  // libass sizes a font by its ascender + descender (1.36 em for Noto Sans), so 80 gives a 59 px em;
  // 26 units × ~0.5 em × 59 px ≈ 770 px, inside the 880 px between the side margins.
  maxLineWidth: 26,
  pauseSeconds: 0.7,
  maxCaptionSeconds: 5,
  lingerSeconds: 0.4,
  textColor: 'FFFFFF',
  highlightColor: 'FFE500',
  outlineColor: '000000',
  animation: 'none',
  emphasisColor: null,
  glossary: [],
  maxWords: Number.POSITIVE_INFINITY,
  emoji: 'font',
  autoEmoji: false,
  keepClear: [],
};

/**
 * Noto Sans Arabic and Devanagari have tall ascenders and descenders for their marks, and libass
 * sizes by those metrics: at the same nominal size their letters look a quarter smaller.
 */
const SCRIPT_SIZE_SCALE: Readonly<Record<CaptionScript, number>> = { latin: 1, cjk: 1, korean: 1, arabic: 1.3, devanagari: 1.2 };

function fontSizeFor(script: CaptionScript | null, settings: AssOptions): number {
  return Math.round(settings.fontSize * SCRIPT_SIZE_SCALE[script ?? 'latin']);
}

export interface Caption {
  lines: TranscriptWord[][];
  start: number;
  end: number;
}

/** Seconds → ASS time "h:mm:ss.cc" (centiseconds, the format's resolution). */
export function formatAssTime(seconds: number): string {
  const total = Math.max(0, Math.round(seconds * 100));
  const hours = Math.floor(total / 360_000);
  const minutes = Math.floor((total % 360_000) / 6000);
  const secs = Math.floor((total % 6000) / 100);
  const centis = total % 100;
  return `${hours}:${pad2(minutes)}:${pad2(secs)}.${pad2(centis)}`;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * Makes spoken text inert in a Dialogue line: braces would open override blocks, and a backslash
 * before N, n or h is a line break or hard space. libass reads \{ and \} as literal braces; a lone
 * backslash gets a word joiner (U+2060, invisible) after it so nothing can follow it as a command.
 */
export function escapeAssText(text: string): string {
  return text.replace(/[\\{}\r\n\t]/g, (char) => {
    if (char === '\\') return '\\\u2060';
    if (char === '{' || char === '}') return `\\${char}`;
    return ' ';
  });
}

/** Width in display units: CJK, fullwidth and emoji count 1.8, capitals 1.15, narrow glyphs 0.55, marks 0. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

function charWidth(char: string): number {
  if (/[\p{M}\u200b-\u200f\u2060\ufeff]/u.test(char)) return 0;
  if (/\p{Extended_Pictographic}/u.test(char)) return 1.8;
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60\uffe0-\uffe6]/u.test(char)) return 1.8;
  if (/[ilIjt.,;:'!|fr()[\]\s]/u.test(char)) return 0.55;
  if (/\p{Lu}/u.test(char) || /[mwMW@%]/u.test(char)) return 1.15;
  return 1;
}

function lineWidth(words: readonly TranscriptWord[]): number {
  return displayWidth(joinForDisplay(words.map((word) => word.text)));
}

function joinForDisplay(texts: readonly string[]): string {
  let line = '';
  for (const text of texts) line += line && needsSpaceBetween(line, text) ? ` ${text}` : text;
  return line;
}

const SENTENCE_END = /[.!?…。！？]["'”’»)]*$/u;
const CLAUSE_END = /[,;:،、，；：]["'”’»)]*$/u;

/** Splits words into captions (pauses, sentence ends, duration, two-line budget) and lays out their lines. */
export function layoutCaptions(words: readonly TranscriptWord[], options: Partial<AssOptions & LineBudget> = {}): Caption[] {
  const settings: AssOptions & LineBudget = { ...DEFAULT_ASS_OPTIONS, ...options };
  const ordered = [...words].filter((word) => word.text.trim()).sort((a, b) => a.start - b.start);
  const groups: TranscriptWord[][] = [];
  let current: TranscriptWord[] = [];
  for (const word of ordered) {
    if (current.length > 0 && startsNewCaption(current, word, settings)) {
      groups.push(current);
      current = [];
    }
    current.push(word);
  }
  if (current.length > 0) groups.push(current);
  return groups.map((group, index) => ({
    lines: balanceLines(group, settings),
    start: group[0]!.start,
    end: captionEnd(group, groups[index + 1], settings),
  }));
}

function startsNewCaption(current: readonly TranscriptWord[], next: TranscriptWord, settings: AssOptions & LineBudget): boolean {
  const previous = current.at(-1)!;
  if (next.start - previous.end >= settings.pauseSeconds) return true;
  if (SENTENCE_END.test(previous.text)) return true;
  if (next.end - current[0]!.start > settings.maxCaptionSeconds) return true;
  if (current.length >= settings.maxWords) return true;
  return greedyLines([...current, next], settings).length > settings.maxLines;
}

interface LineBudget {
  maxLineWidth: number;
  /** Widest line in pixels (set where a safe zone narrows the lines), as `measure` measures it. */
  maxLinePixels?: number | undefined;
  measure?: ((words: readonly TranscriptWord[]) => number) | undefined;
}

/** A line fits the budget in display units and, when the frame limits it, in pixels. */
function fits(words: readonly TranscriptWord[], budget: LineBudget): boolean {
  if (lineWidth(words) > budget.maxLineWidth) return false;
  return budget.maxLinePixels === undefined || !budget.measure || budget.measure(words) <= budget.maxLinePixels;
}

/** Fills lines word by word; a word wider than a line gets a line of its own. */
function greedyLines(words: readonly TranscriptWord[], budget: LineBudget): TranscriptWord[][] {
  const lines: TranscriptWord[][] = [];
  let line: TranscriptWord[] = [];
  for (const word of words) {
    if (line.length > 0 && !fits([...line, word], budget)) {
      lines.push(line);
      line = [];
    }
    line.push(word);
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

/**
 * One line when it fits; otherwise the two-line split with the most even widths (a clause end is a
 * preferred break). Longer groups (only a single over-wide word can cause that) keep greedy lines.
 */
function balanceLines(words: TranscriptWord[], settings: AssOptions & LineBudget): TranscriptWord[][] {
  if (fits(words, settings) || words.length === 1) return [words];
  const greedy = greedyLines(words, settings);
  if (greedy.length > 2 || settings.maxLines < 2) return greedy;
  let best = greedy;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let split = 1; split < words.length; split++) {
    const top = words.slice(0, split);
    const bottom = words.slice(split);
    if (!fits(top, settings) || !fits(bottom, settings)) continue;
    const widest = Math.max(lineWidth(top), lineWidth(bottom));
    const cost = widest - (CLAUSE_END.test(top.at(-1)!.text) ? 3 : 0);
    if (cost < bestCost) {
      best = [top, bottom];
      bestCost = cost;
    }
  }
  return best;
}

/** A caption stays up until the next one when the gap is short (no flicker), else lingers briefly. */
function captionEnd(group: readonly TranscriptWord[], next: readonly TranscriptWord[] | undefined, settings: AssOptions): number {
  const lastEnd = Math.max(...group.map((word) => word.end), group[0]!.start);
  const nextStart = next?.[0]?.start;
  if (nextStart !== undefined && nextStart - lastEnd < settings.pauseSeconds) return nextStart;
  const lingering = lastEnd + settings.lingerSeconds;
  return nextStart === undefined ? lingering : Math.min(lingering, nextStart);
}

/** "RRGGBB" → "BBGGRR": ASS writes colours blue first. */
function bgr(rgb: string): string {
  const clean = rgb.replace(/^#/, '').toUpperCase();
  if (!/^[0-9A-F]{6}$/.test(clean)) throw new Error(`Colour must be RRGGBB, got "${rgb}"`);
  return `${clean.slice(4, 6)}${clean.slice(2, 4)}${clean.slice(0, 2)}`;
}

/** Style colour "&HAABBGGRR" (alpha 00 = opaque). */
function assColour(rgb: string, alpha = '00'): string {
  return `&H${alpha}${bgr(rgb)}`;
}

/** Override-tag colour "&HBBGGRR&". */
function tagColour(rgb: string): string {
  return `&H${bgr(rgb)}&`;
}

interface RenderContext {
  settings: AssOptions;
  baseFont: string;
  baseScript: CaptionScript | null;
  /** Words drawn in the emphasis colour. */
  keywords: ReadonlySet<TranscriptWord>;
}

/** Stands in for a colour emoji: any glyph of the emoji font keeps the picture's space, drawn transparent. */
const EMOJI_PLACEHOLDER = '\u{1F642}';
/** How far the caption comes up from when it slides in (share of the font size), and how fast. */
const SLIDE_SHARE = 0.35;
const SLIDE_MS = 160;

/**
 * Override tags on the word being said, times in ms from the event's start (the word's start).
 * Scales grow around the word and return to 100 %, so a word at rest takes its measured place.
 */
const ANIMATIONS: Readonly<Record<CaptionAnimation, { tags: string; growth: number }>> = {
  none: { tags: '', growth: 0 },
  pop: { tags: '\\fscx100\\fscy100\\t(0,90,\\fscx125\\fscy125)\\t(90,220,\\fscx100\\fscy100)', growth: 0.25 },
  bounce: { tags: '\\fscx100\\fscy100\\t(0,70,\\fscx130\\fscy130)\\t(70,150,\\fscx90\\fscy90)\\t(150,220,\\fscx108\\fscy108)\\t(220,290,\\fscx100\\fscy100)', growth: 0.3 },
  slide: { tags: '', growth: 0 },
};

const metricsByFamily = new Map<string, FontMetrics>();

/** The metrics of a caption font by family; a family the app does not bundle is measured as Noto Sans. */
function metricsOf(family: string): FontMetrics {
  let metrics = metricsByFamily.get(family);
  if (!metrics) {
    const font = Object.values(CAPTION_FONTS).find((candidate) => candidate.family === family) ?? CAPTION_FONTS.latin;
    metrics = fontMetrics(fontFilePath(font));
    metricsByFamily.set(family, metrics);
  }
  return metrics;
}

/** A word (or a line) as drawn: its text with font tags, its width at rest, where its colour emoji sit. */
interface Drawn {
  text: string;
  width: number;
  emoji: Array<{ emoji: string; offset: number; width: number; size: number }>;
  /** Font and size of every run, for the line's height. */
  runs: Array<{ font: string; size: number }>;
}

/** Hides a placeholder glyph whole (outline and shadow too; with a box, only the glyph: the box stays). */
function hideTags(settings: AssOptions): { hide: string; show: string } {
  if (settings.borderStyle === 3) return { hide: '\\1a&HFF&', show: '\\1a&H00&' };
  return { hide: '\\1a&HFF&\\3a&HFF&\\4a&HFF&', show: '\\1a&H00&\\3a&H00&\\4a&H80&' };
}

/**
 * Escaped text with its emoji in the emoji font, then back to `font`. No text font has emoji, and
 * libass does not fall back to another font inside a line, so without the switch they would be
 * empty boxes; for the same reason an emoji the font lacks (newer than it) is left out. With colour
 * pictures, each emoji that has one becomes a transparent placeholder whose place is recorded.
 */
function withEmojiFont(text: string, font: string, size: number, context: RenderContext): Drawn {
  const drawn: Drawn = { text: '', width: 0, emoji: [], runs: [{ font, size }] };
  const emojiMetrics = metricsOf(EMOJI_FONT_FAMILY);
  for (const run of emojiRuns(text)) {
    if (!run.emoji) {
      drawn.text += escapeAssText(run.text);
      drawn.width += textWidth(metricsOf(font), run.text, size);
      continue;
    }
    if (context.settings.emoji === 'none') continue;
    if (context.settings.emoji === 'image') {
      const { hide, show } = hideTags(context.settings);
      for (const emoji of splitEmoji(run.text)) {
        if (!emojiImage(emoji)) continue;
        const width = textWidth(emojiMetrics, EMOJI_PLACEHOLDER, size);
        drawn.emoji.push({ emoji, offset: drawn.width, width, size });
        drawn.text += `{\\fn${EMOJI_FONT_FAMILY}${hide}}${EMOJI_PLACEHOLDER}{${show}\\fn${font}}`;
        drawn.width += width;
        drawn.runs.push({ font: EMOJI_FONT_FAMILY, size });
      }
      continue;
    }
    const drawable = Array.from(run.text)
      .filter((char) => emojiFontHas(char.codePointAt(0)!))
      .join('');
    if (!drawable) continue;
    drawn.text += `{\\fn${EMOJI_FONT_FAMILY}}${drawable}{\\fn${font}}`;
    drawn.width += textWidth(emojiMetrics, drawable, size);
    drawn.runs.push({ font: EMOJI_FONT_FAMILY, size });
  }
  return drawn;
}

/** A word in the caption font, or switched to its script's bundled font when that differs. */
function drawWord(word: TranscriptWord, context: RenderContext): Drawn {
  const script = wordScript(word.text);
  const switched = script !== null && script !== context.baseScript;
  if (!switched) return withEmojiFont(word.text, context.baseFont, fontSizeFor(context.baseScript, context.settings), context);
  const size = fontSizeFor(script, context.settings);
  const baseSize = fontSizeFor(context.baseScript, context.settings);
  const drawn = withEmojiFont(word.text, FONT_FAMILIES[script], size, context);
  return { ...drawn, text: `{\\fn${FONT_FAMILIES[script]}\\fs${size}}${drawn.text}{\\fn${context.baseFont}\\fs${baseSize}}` };
}

/** The colour and movement of a word: the one being said, a keyword, or plain. */
function decorate(text: string, word: TranscriptWord, active: boolean, context: RenderContext): string {
  const { settings } = context;
  const back = `\\1c${tagColour(settings.textColor)}`;
  if (active) {
    const animation = ANIMATIONS[settings.animation].tags;
    const settle = animation ? '\\fscx100\\fscy100' : '';
    return `{\\1c${tagColour(settings.highlightColor)}${animation}}${text}{${back}${settle}}`;
  }
  if (settings.emphasisColor && context.keywords.has(word)) return `{\\1c${tagColour(settings.emphasisColor)}}${text}{${back}}`;
  return text;
}

/** One line of a caption: words joined by the spaces their scripts want, the active one marked. */
function drawLine(line: readonly TranscriptWord[], active: TranscriptWord | null, context: RenderContext): Drawn {
  const spaceWidth = textWidth(metricsOf(context.baseFont), ' ', fontSizeFor(context.baseScript, context.settings));
  const drawn: Drawn = { text: '', width: 0, emoji: [], runs: [] };
  let previous = '';
  for (const word of line) {
    if (previous && needsSpaceBetween(previous, word.text)) {
      drawn.text += ' ';
      drawn.width += spaceWidth;
    }
    const one = drawWord(word, context);
    drawn.emoji.push(...one.emoji.map((emoji) => ({ ...emoji, offset: emoji.offset + drawn.width })));
    drawn.text += decorate(one.text, word, word === active, context);
    drawn.width += one.width;
    drawn.runs.push(...one.runs);
    previous = word.text;
  }
  return drawn;
}

/** The caption's text with the word at `active` highlighted; lines joined by \N. */
function captionText(caption: Caption, active: TranscriptWord | null, context: RenderContext): string {
  return caption.lines.map((line) => drawLine(line, active, context).text).join('\\N');
}

/** Space kept between a positioned caption block and the frame's top or bottom edge, as a share of its height. */
const EDGE_MARGIN_SHARE = 0.02;

/** How far a caption's pixels reach beyond its lines: outline, drop shadow, a growing word, a slide. */
interface Reach {
  top: number;
  bottom: number;
  side: number;
}

function reachOf(settings: AssOptions): Reach {
  const grow = (ANIMATIONS[settings.animation].growth * settings.fontSize) / 2;
  const slide = settings.animation === 'slide' ? Math.round(settings.fontSize * SLIDE_SHARE) : 0;
  return { top: settings.outline + grow, bottom: settings.outline + settings.shadow + grow + slide, side: settings.outline + settings.shadow };
}

/**
 * The vertical centre of a block of `lineCount` lines: `position` of the frame height, moved inward
 * only as far as keeps the whole block on screen (a position of 0 or 1 would otherwise cut it in
 * half) and out of the keep-clear bars at the top and bottom. libass makes a line as tall as the
 * font size (the size is ascender + descender), plus the outline above and below.
 */
function blockCentre(settings: AssOptions, lineCount: number): number {
  const wanted = (settings.position ?? 1) * settings.playResY;
  const half = (lineCount * settings.fontSize) / 2;
  const edge = settings.playResY * EDGE_MARGIN_SHARE;
  let y = Math.min(Math.max(wanted, half + settings.outline + edge), settings.playResY - half - settings.outline - edge);
  if (settings.keepClear.length > 0) {
    const reach = reachOf(settings);
    const band = clearBand(settings.keepClear, { width: settings.playResX, height: settings.playResY });
    const lowest = band.bottom - half - reach.bottom;
    const highest = band.top + half + reach.top;
    y = Math.max(Math.min(y, lowest), highest);
  }
  return Math.round(y);
}

/**
 * \an5\pos centres the block on the point whatever its line count (see blockCentre). Without a
 * position the style's bottom alignment and marginV apply.
 */
export function positionTag(settings: AssOptions, lineCount: number): string {
  if (settings.position === undefined) return '';
  return `{\\an5\\pos(${Math.round(settings.playResX / 2)},${blockCentre(settings, lineCount)})}`;
}

/**
 * The widest line (pixels) that keeps clear of the side areas (the button columns) at the height a
 * full block sits at; undefined when nothing at the sides is in the way.
 */
function clearLinePixels(settings: AssOptions): number | undefined {
  if (settings.keepClear.length === 0 || settings.position === undefined) return undefined;
  const frame = { width: settings.playResX, height: settings.playResY };
  const reach = reachOf(settings);
  const y = blockCentre(settings, settings.maxLines);
  const half = (settings.maxLines * settings.fontSize) / 2;
  const halfWidth = clearHalfWidth(settings.keepClear, frame, y - half - reach.top, y + half + reach.bottom);
  if (halfWidth >= frame.width / 2) return undefined;
  const growth = 1 + ANIMATIONS[settings.animation].growth / 2;
  return Math.max(settings.fontSize, (2 * (halfWidth - reach.side)) / growth);
}

/** A colour emoji's picture, where and when the video shows it (pixels of the frame, seconds). */
export interface EmojiPlacement {
  image: string;
  x: number;
  y: number;
  size: number;
  start: number;
  end: number;
}

/** Where the caption's colour emoji lie when its words rest: lines centred on the block's point. */
function emojiPlacements(caption: Caption, context: RenderContext, rightToLeft: boolean): EmojiPlacement[] {
  const { settings } = context;
  const lines = caption.lines.map((line) => drawLine(line, null, context));
  if (!lines.some((line) => line.emoji.length > 0)) return [];
  const heights = lines.map((line) => lineBox(line));
  const total = heights.reduce((sum, box) => sum + box.ascent + box.descent, 0);
  const centreX = settings.playResX / 2;
  let top = blockCentre(settings, caption.lines.length) - total / 2;
  const start = caption.start + (settings.animation === 'slide' ? SLIDE_MS / 1000 : 0);
  const placements: EmojiPlacement[] = [];
  lines.forEach((line, index) => {
    const box = heights[index]!;
    const baseline = top + box.ascent;
    const emojiMetrics = metricsOf(EMOJI_FONT_FAMILY);
    for (const emoji of line.emoji) {
      const image = emojiImage(emoji.emoji);
      if (!image) continue;
      const left = centreX - line.width / 2 + (rightToLeft ? line.width - emoji.offset - emoji.width : emoji.offset);
      const middle = baseline - (emoji.size * (2 * emojiMetrics.ascentShare - 1)) / 2;
      const size = Math.round(Math.min(emoji.width, emoji.size) * 0.9);
      placements.push({ image, x: Math.round(left + (emoji.width - size) / 2), y: Math.round(middle - size / 2), size, start, end: Math.max(start, caption.end) });
    }
    top += box.ascent + box.descent;
  });
  return placements.filter((placement) => Math.round(placement.end * 100) > Math.round(placement.start * 100));
}

/** A line's ascent and descent: the largest of its runs (libass sizes each font by ascender + descender). */
function lineBox(line: Drawn): { ascent: number; descent: number } {
  let ascent = 0;
  let descent = 0;
  for (const run of line.runs) {
    const share = metricsOf(run.font).ascentShare;
    ascent = Math.max(ascent, run.size * share);
    descent = Math.max(descent, run.size * (1 - share));
  }
  return { ascent, descent };
}

/** The first event of a caption slides up into place; the others stand. */
function placeTag(settings: AssOptions, lineCount: number, first: boolean): string {
  const placed = positionTag(settings, lineCount);
  if (!placed || settings.animation !== 'slide' || !first) return placed;
  const x = Math.round(settings.playResX / 2);
  const y = blockCentre(settings, lineCount);
  return `{\\an5\\move(${x},${y + Math.round(settings.fontSize * SLIDE_SHARE)},${x},${y},0,${SLIDE_MS})}`;
}

/** Dialogue events: per caption, one per word from its start to the next word's start. */
function dialogueLines(captions: readonly Caption[], context: RenderContext): string[] {
  const lines: string[] = [];
  for (const caption of captions) {
    const words = caption.lines.flat();
    words.forEach((word, index) => {
      const from = index === 0 ? caption.start : word.start;
      const to = index === words.length - 1 ? caption.end : words[index + 1]!.start;
      // Words starting in the same centisecond would make an empty event: the later one takes over.
      if (Math.round(to * 100) <= Math.round(from * 100)) return;
      const placed = placeTag(context.settings, caption.lines.length, index === 0);
      lines.push(`Dialogue: 0,${formatAssTime(from)},${formatAssTime(to)},Caption,,0,0,0,,${placed}${captionText(caption, word, context)}`);
    });
  }
  return lines;
}

/** Words as shown: upper-cased, emoji dropped or added as the options say; each keeps its spoken original. */
function shownWords(spoken: readonly TranscriptWord[], settings: AssOptions): Array<{ shown: TranscriptWord; original: string }> {
  const shown: Array<{ shown: TranscriptWord; original: string }> = [];
  let lastAuto = Number.NEGATIVE_INFINITY;
  const hasEmoji = (text: string | undefined) => text !== undefined && emojiRuns(text).some((run) => run.emoji);
  spoken.forEach((word, index) => {
    let text = settings.emoji === 'none' ? withoutEmojiRuns(word.text) : word.text;
    // Not beside an emoji the speaker's transcript already has.
    const besideEmoji = hasEmoji(text) || hasEmoji(spoken[index + 1]?.text);
    if (settings.autoEmoji && settings.emoji === 'image' && word.start - lastAuto >= AUTO_EMOJI_GAP_SECONDS && !besideEmoji) {
      const emoji = autoEmojiFor(text);
      if (emoji) {
        text = `${text} ${emoji}`;
        lastAuto = word.start;
      }
    }
    if (settings.uppercase) text = upperCased(text, settings.language);
    if (text.trim()) shown.push({ shown: { ...word, text }, original: word.text });
  });
  return shown;
}

/** `auto` adds an emoji now and then, not to every fitting word: at most one in this many seconds. */
const AUTO_EMOJI_GAP_SECONDS = 4;

function withoutEmojiRuns(text: string): string {
  return emojiRuns(text)
    .filter((run) => !run.emoji)
    .map((run) => run.text)
    .join('')
    .trim();
}

/** The words each caption draws in the emphasis colour (chooseKeywords on the spoken words). */
function keywordsOf(captions: readonly Caption[], originals: ReadonlyMap<TranscriptWord, string>, settings: AssOptions): Set<TranscriptWord> {
  const keywords = new Set<TranscriptWord>();
  if (!settings.emphasisColor) return keywords;
  const language = languageCode(settings.language) ?? 'en';
  let startsSentence = true;
  for (const caption of captions) {
    const words = caption.lines.flat();
    const texts = words.map((word) => originals.get(word) ?? word.text);
    for (const index of chooseKeywords(texts, { glossary: settings.glossary, language, startsSentence })) keywords.add(words[index]!);
    startsSentence = SENTENCE_END.test(texts.at(-1) ?? '');
  }
  return keywords;
}

/** The captions of these words: the .ass document, and the colour emoji pictures to lay over the video. */
export interface BuiltCaptions {
  ass: string;
  emoji: EmojiPlacement[];
}

/** The complete .ass document for these words (no events when there are none). */
export function buildAss(spoken: readonly TranscriptWord[], options: Partial<AssOptions> = {}): string {
  return buildCaptions(spoken, options).ass;
}

/** The .ass document and where its colour emoji go. */
export function buildCaptions(spoken: readonly TranscriptWord[], options: Partial<AssOptions> = {}): BuiltCaptions {
  const settings: AssOptions = { ...DEFAULT_ASS_OPTIONS, ...options };
  // Upper-cased before the layout, so line widths are measured on the capitals shown.
  const prepared = shownWords(spoken, settings);
  const words = prepared.map((entry) => entry.shown);
  const originals = new Map(prepared.map((entry) => [entry.shown, entry.original]));
  const allText = words.map((word) => word.text).join(' ');
  // A named font is the base for the script it is made for (a font the app does not bundle is
  // taken for a Latin one); other scripts' words switch to their own font in drawWord.
  const baseScript = settings.fontName ? (scriptOfFont(settings.fontName) ?? 'latin') : dominantScript(allText);
  const baseFont = settings.fontName ?? FONT_FAMILIES[baseScript];
  const measuring: RenderContext = { settings, baseFont, baseScript, keywords: new Set() };
  const maxLinePixels = clearLinePixels(settings);
  const captions = layoutCaptions(words, { ...settings, maxLinePixels, measure: (line) => drawLine(line, null, measuring).width });
  const context: RenderContext = { ...measuring, keywords: keywordsOf(captions, originals, settings) };
  // libass wraps a line that would pass the side margins: where lines are narrowed, so are they.
  const marginH = maxLinePixels === undefined ? settings.marginH : Math.max(settings.marginH, Math.floor((settings.playResX - maxLinePixels) / 2) - 1);
  // Encoding -1 asks libass to detect the base direction, so Arabic lines read right to left with
  // punctuation at the correct end; left-to-right text keeps the usual value.
  const rightToLeft = isRightToLeft(allText);
  const encoding = rightToLeft ? -1 : 1;
  const style = [
    'Caption',
    baseFont,
    fontSizeFor(baseScript, settings),
    assColour(settings.textColor),
    assColour(settings.highlightColor),
    assColour(settings.outlineColor),
    assColour('000000', '80'),
    -1, 0, 0, 0,
    100, 100, 0, 0,
    settings.borderStyle,
    settings.outline,
    settings.shadow,
    settings.position === undefined ? 2 : 5,
    marginH,
    marginH,
    settings.marginV,
    encoding,
  ].join(',');
  const ass = [
    '[Script Info]',
    '; Captions generated by Clipshift',
    'ScriptType: v4.00+',
    `PlayResX: ${settings.playResX}`,
    `PlayResY: ${settings.playResY}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: TV.709',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: ${style}`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...dialogueLines(captions, context),
    '',
  ].join('\n');
  const emoji = settings.emoji === 'image' ? captions.flatMap((caption) => emojiPlacements(caption, context, rightToLeft)) : [];
  return { ass, emoji };
}

/** Upper case by the language's rules; an unknown language gets the root locale's. */
function upperCased(text: string, language: string | null | undefined): string {
  const locale = languageCode(language);
  try {
    return text.toLocaleUpperCase(locale ?? undefined);
  } catch {
    return text.toUpperCase();
  }
}

/** Writes the captions through a temporary name, so a crash never leaves a half file in place. */
export async function writeAssFile(file: string, words: readonly TranscriptWord[], options: Partial<AssOptions> = {}): Promise<EmojiPlacement[]> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    const captions = buildCaptions(words, options);
    await writeFile(temporary, captions.ass, 'utf8');
    await rename(temporary, file);
    return captions.emoji;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Words timed from the source's start, moved onto a trimmed render's timeline (which starts at
 * `startSec`, input seeking resetting timestamps to 0): words wholly before the cut are dropped and
 * one cut through keeps its remaining part, so the burned captions stay in sync.
 */
export function shiftWords(words: readonly TranscriptWord[], startSec: number): TranscriptWord[] {
  if (startSec === 0) return [...words];
  return words
    .filter((word) => word.end > startSec)
    .map((word) => ({ ...word, start: Math.max(0, word.start - startSec), end: word.end - startSec }));
}
