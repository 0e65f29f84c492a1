import { LATIN_STOP_WORD_LANGUAGES, stopWordsOf } from './stopwords.ts';

/*
 * Text helpers shared by the hashtag deriver, the generator and the scorer. Words come from
 * Intl.Segmenter rather than a whitespace split so Japanese and Chinese titles (no spaces) still
 * yield words, and the language is guessed from the script when the clip does not name one.
 */

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(language: string): Intl.Segmenter {
  let found = segmenters.get(language);
  if (!found) {
    found = new Intl.Segmenter(language, { granularity: 'word' });
    segmenters.set(language, found);
  }
  return found;
}

interface WordSpan {
  word: string;
  /** UTF-16 offset of the word in the text. */
  index: number;
}

/** The word-like segments of a text (no punctuation, spaces or emoji), with their offsets. */
export function wordSpans(text: string, language: string): WordSpan[] {
  const spans: WordSpan[] = [];
  for (const segment of segmenter(language).segment(text)) {
    if (segment.isWordLike) spans.push({ word: segment.segment, index: segment.index });
  }
  return spans;
}

export function words(text: string, language: string): string[] {
  return wordSpans(text, language).map((span) => span.word);
}

/** Twitch sends codes like "en", "en-gb", "zh-hk" or "other"; only a plain primary subtag is usable. */
function primaryLanguage(code: string | null | undefined): string | null {
  const primary = code?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return /^[a-z]{2,3}$/.test(primary) ? primary : null;
}

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const HAN = /\p{Script=Han}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const ARABIC = /\p{Script=Arabic}/u;
const DEVANAGARI = /\p{Script=Devanagari}/u;
const THAI = /\p{Script=Thai}/u;

/**
 * The clip's language: its own code when it has one, else a guess from the text: the script for
 * non-Latin text, else the Latin language whose stop words appear most (English on a tie or none).
 */
export function detectLanguage(text: string, hint: string | null | undefined): string {
  const fromHint = primaryLanguage(hint);
  if (fromHint) return fromHint;
  if (KANA.test(text)) return 'ja';
  if (HANGUL.test(text)) return 'ko';
  if (HAN.test(text)) return 'zh';
  if (CYRILLIC.test(text)) return 'ru';
  if (ARABIC.test(text)) return 'ar';
  if (DEVANAGARI.test(text)) return 'hi';
  if (THAI.test(text)) return 'th';
  return guessLatinLanguage(text);
}

function guessLatinLanguage(text: string): string {
  const tokens = words(text.toLowerCase(), 'en');
  let best = 'en';
  let bestHits = 0;
  for (const language of LATIN_STOP_WORD_LANGUAGES) {
    const list = stopWordsOf(language);
    const hits = tokens.filter((token) => list.has(token)).length;
    if (hits > bestHits) {
      best = language;
      bestHits = hits;
    }
  }
  return best;
}

/** Scripts written without spaces between words, where a character carries about a word's meaning. */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * Length as a reader perceives it: CJK characters count double, so a 40-character Japanese caption
 * is judged like an 80-character English one rather than as "too short".
 */
export function perceivedLength(text: string): number {
  return text.length + (text.match(WIDE)?.length ?? 0);
}

const EMOJI = /\p{Extended_Pictographic}/gu;

export function countEmoji(text: string): number {
  return text.match(EMOJI)?.length ?? 0;
}

/** Runs of spaces/tabs become one space, lines are trimmed, and at most one blank line survives. */
export function tidyWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const ELLIPSIS = '…';

/**
 * At most `max` UTF-16 units (what the 2200-character limit counts), cut after the last whole word
 * and ended with an ellipsis. Text without a usable space (Japanese, one huge token) is cut at a
 * code-point boundary so no surrogate pair is split.
 */
export function truncateAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return '';
  const room = max - ELLIPSIS.length;
  const head = text.slice(0, room + 1);
  const lastSpace = head.search(/\s\S*$/);
  // A space in the last third would waste too much text; beyond that, cut mid-word.
  const cut = lastSpace > room * 0.66 ? head.slice(0, lastSpace) : codePointSlice(text, room);
  return `${cut.replace(/[\s,;:–—-]+$/u, '')}${ELLIPSIS}`;
}

function codePointSlice(text: string, maxUnits: number): string {
  let out = '';
  for (const char of text) {
    if (out.length + char.length > maxUnits) break;
    out += char;
  }
  return out;
}

/** FNV-1a: a stable, dependency-free hash so the generator varies between clips but never between runs. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function pickBySeed<T>(list: readonly [T, ...T[]], seed: number): T {
  return list[seed % list.length] ?? list[0];
}

/** The key two texts share when they only differ in case, width or spacing. */
export function comparisonKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}
