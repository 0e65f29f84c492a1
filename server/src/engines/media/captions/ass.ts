import { randomUUID } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { languageCode, needsSpaceBetween, type TranscriptWord } from '../../providers/transcription/index.ts';
import { dominantScript, EMOJI_FONT_FAMILY, emojiFontHas, emojiRuns, FONT_FAMILIES, isRightToLeft, scriptOfFont, wordScript, type CaptionScript } from './fonts.ts';

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
export function layoutCaptions(words: readonly TranscriptWord[], options: Partial<AssOptions> = {}): Caption[] {
  const settings = { ...DEFAULT_ASS_OPTIONS, ...options };
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

function startsNewCaption(current: readonly TranscriptWord[], next: TranscriptWord, settings: AssOptions): boolean {
  const previous = current.at(-1)!;
  if (next.start - previous.end >= settings.pauseSeconds) return true;
  if (SENTENCE_END.test(previous.text)) return true;
  if (next.end - current[0]!.start > settings.maxCaptionSeconds) return true;
  return greedyLines([...current, next], settings.maxLineWidth).length > settings.maxLines;
}

/** Fills lines word by word; a word wider than a line gets a line of its own. */
function greedyLines(words: readonly TranscriptWord[], maxWidth: number): TranscriptWord[][] {
  const lines: TranscriptWord[][] = [];
  let line: TranscriptWord[] = [];
  for (const word of words) {
    if (line.length > 0 && lineWidth([...line, word]) > maxWidth) {
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
function balanceLines(words: TranscriptWord[], settings: AssOptions): TranscriptWord[][] {
  if (lineWidth(words) <= settings.maxLineWidth || words.length === 1) return [words];
  const greedy = greedyLines(words, settings.maxLineWidth);
  if (greedy.length > 2 || settings.maxLines < 2) return greedy;
  let best = greedy;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let split = 1; split < words.length; split++) {
    const top = words.slice(0, split);
    const bottom = words.slice(split);
    const widest = Math.max(lineWidth(top), lineWidth(bottom));
    if (widest > settings.maxLineWidth) continue;
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
}

/** The caption's text with the word at `active` highlighted; lines joined by \N. */
function captionText(caption: Caption, active: TranscriptWord | null, context: RenderContext): string {
  return caption.lines
    .map((line) => {
      let text = '';
      let previous = '';
      for (const word of line) {
        const separator = previous && needsSpaceBetween(previous, word.text) ? ' ' : '';
        text += separator + renderWord(word, word === active, context);
        previous = word.text;
      }
      return text;
    })
    .join('\\N');
}

/** A word in the caption font, or switched to its script's bundled font when that differs. */
function renderWord(word: TranscriptWord, highlighted: boolean, context: RenderContext): string {
  const script = wordScript(word.text);
  const switched = script !== null && script !== context.baseScript;
  let text = withEmojiFont(word.text, switched ? FONT_FAMILIES[script] : context.baseFont);
  if (switched) {
    const size = fontSizeFor(script, context.settings);
    const baseSize = fontSizeFor(context.baseScript, context.settings);
    text = `{\\fn${FONT_FAMILIES[script]}\\fs${size}}${text}{\\fn${context.baseFont}\\fs${baseSize}}`;
  }
  if (highlighted) text = `{\\1c${tagColour(context.settings.highlightColor)}}${text}{\\1c${tagColour(context.settings.textColor)}}`;
  return text;
}

/**
 * Escaped text with its emoji in the emoji font, then back to `font`. No text font has emoji, and
 * libass does not fall back to another font inside a line, so without the switch they would be
 * empty boxes; for the same reason an emoji the font lacks (newer than it) is left out.
 */
function withEmojiFont(text: string, font: string): string {
  return emojiRuns(text)
    .map((run) => {
      if (!run.emoji) return escapeAssText(run.text);
      const drawable = Array.from(run.text)
        .filter((char) => emojiFontHas(char.codePointAt(0)!))
        .join('');
      return drawable ? `{\\fn${EMOJI_FONT_FAMILY}}${drawable}{\\fn${font}}` : '';
    })
    .join('');
}

/** Space kept between a positioned caption block and the frame's top or bottom edge, as a share of its height. */
const EDGE_MARGIN_SHARE = 0.02;

/**
 * \an5\pos centres the block on the point whatever its line count, so `position` is where the
 * block's middle lands, moved inward only as far as keeps the whole block on screen (a position of 0
 * or 1 would otherwise cut it in half). libass makes a line as tall as the font size (the size is
 * ascender + descender), plus the outline above and below. Without a position the style's bottom
 * alignment and marginV apply.
 */
export function positionTag(settings: AssOptions, lineCount: number): string {
  if (settings.position === undefined) return '';
  const x = Math.round(settings.playResX / 2);
  const half = (lineCount * settings.fontSize) / 2 + settings.outline;
  const edge = settings.playResY * EDGE_MARGIN_SHARE;
  const wanted = settings.position * settings.playResY;
  const y = Math.round(Math.min(Math.max(wanted, half + edge), settings.playResY - half - edge));
  return `{\\an5\\pos(${x},${y})}`;
}

/** Dialogue events: per caption, one per word from its start to the next word's start. */
function dialogueLines(captions: readonly Caption[], context: RenderContext): string[] {
  const lines: string[] = [];
  for (const caption of captions) {
    const placed = positionTag(context.settings, caption.lines.length);
    const words = caption.lines.flat();
    words.forEach((word, index) => {
      const from = index === 0 ? caption.start : word.start;
      const to = index === words.length - 1 ? caption.end : words[index + 1]!.start;
      // Words starting in the same centisecond would make an empty event: the later one takes over.
      if (Math.round(to * 100) <= Math.round(from * 100)) return;
      lines.push(`Dialogue: 0,${formatAssTime(from)},${formatAssTime(to)},Caption,,0,0,0,,${placed}${captionText(caption, word, context)}`);
    });
  }
  return lines;
}

/** The complete .ass document for these words (no events when there are none). */
export function buildAss(spoken: readonly TranscriptWord[], options: Partial<AssOptions> = {}): string {
  const settings = { ...DEFAULT_ASS_OPTIONS, ...options };
  // Upper-cased before the layout, so line widths are measured on the capitals shown.
  const words = settings.uppercase ? spoken.map((word) => ({ ...word, text: upperCased(word.text, settings.language) })) : spoken;
  const allText = words.map((word) => word.text).join(' ');
  // A named font is the base for the script it is made for (a font the app does not bundle is
  // taken for a Latin one); other scripts' words switch to their own font in renderWord.
  const baseScript = settings.fontName ? (scriptOfFont(settings.fontName) ?? 'latin') : dominantScript(allText);
  const baseFont = settings.fontName ?? FONT_FAMILIES[baseScript];
  const context: RenderContext = { settings, baseFont, baseScript };
  const captions = layoutCaptions(words, settings);
  // Encoding -1 asks libass to detect the base direction, so Arabic lines read right to left with
  // punctuation at the correct end; left-to-right text keeps the usual value.
  const encoding = isRightToLeft(allText) ? -1 : 1;
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
    settings.marginH,
    settings.marginH,
    settings.marginV,
    encoding,
  ].join(',');
  return [
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
export async function writeAssFile(file: string, words: readonly TranscriptWord[], options: Partial<AssOptions> = {}): Promise<void> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, buildAss(words, options), 'utf8');
    await rename(temporary, file);
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
