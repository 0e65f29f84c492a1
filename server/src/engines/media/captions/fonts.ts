import { fileURLToPath } from 'node:url';

/*
 * Fonts shipped with the app (server/assets/fonts, SIL OFL), handed to ffmpeg's subtitles filter as
 * fontsdir so captions render the same on every machine, whatever fonts the host has. Bold weights
 * only, since captions are bold; Korean Hangul, Thai, Hebrew and others fall back to system fonts
 * (Noto Sans KR alone would add 6 MB, see server/assets/fonts/README.md).
 */

/** Absolute path of the bundled fonts (pass as `fontsdir` to the subtitles filter). */
export const fontsDir = fileURLToPath(new URL('../../../../assets/fonts/', import.meta.url));

export type CaptionScript = 'latin' | 'cjk' | 'arabic' | 'devanagari';

/** Family names as the font files declare them (what libass matches the ASS Fontname against). */
export const FONT_FAMILIES: Readonly<Record<CaptionScript, string>> = {
  // Latin, Greek, Cyrillic and Vietnamese.
  latin: 'Noto Sans',
  // Simplified and traditional Chinese, Japanese kana and kanji (one font covers all three).
  cjk: 'Noto Sans SC',
  // Arabic, Persian, Urdu.
  arabic: 'Noto Sans Arabic',
  // Hindi, Marathi, Nepali.
  devanagari: 'Noto Sans Devanagari',
};

export const FONT_FILES: Readonly<Record<CaptionScript, string>> = {
  latin: 'NotoSans-Bold.ttf',
  cjk: 'NotoSansSC-Bold.ttf',
  arabic: 'NotoSansArabic-Bold.ttf',
  devanagari: 'NotoSansDevanagari-Bold.ttf',
};

const SCRIPT_PATTERNS: ReadonlyArray<[CaptionScript, RegExp]> = [
  ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
];

/** The script most of the text's letters belong to; text without letters counts as Latin. */
export function dominantScript(text: string): CaptionScript {
  const counts = new Map<CaptionScript, number>();
  for (const char of text) {
    if (!/[\p{L}\p{M}\p{N}]/u.test(char) && !SCRIPT_PATTERNS[0]![1].test(char)) continue;
    const script = SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(char))?.[0] ?? 'latin';
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let best: CaptionScript = 'latin';
  let bestCount = 0;
  for (const [script, count] of counts) {
    if (count > bestCount) {
      best = script;
      bestCount = count;
    }
  }
  return best;
}

/** The script of a single word, or null when it has no letters (digits, punctuation). */
export function wordScript(text: string): CaptionScript | null {
  return /[\p{L}\p{M}]/u.test(text) || SCRIPT_PATTERNS[0]![1].test(text) ? dominantScript(text) : null;
}

export function fontForText(text: string): string {
  return FONT_FAMILIES[dominantScript(text)];
}

/** Whether the text is written right to left (its base direction must then be detected). */
export function isRightToLeft(text: string): boolean {
  return /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u.test(text);
}
