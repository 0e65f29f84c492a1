/*
 * Text helpers shared by the engines and the caption writer: which scripts are written without
 * spaces between words (Chinese, Japanese, Thai…), and how words are joined back into text.
 */

/** Han, kana, CJK punctuation, fullwidth forms, Thai, Lao, Khmer, Myanmar: no spaces between words. */
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303f\uff00-\uffef]/u;

export function isNoSpaceChar(char: string | undefined): boolean {
  return char !== undefined && NO_SPACE_SCRIPT.test(char);
}

function firstChar(text: string): string | undefined {
  return Array.from(text)[0];
}

function lastChar(text: string): string | undefined {
  return Array.from(text).at(-1);
}

/** Whether a space belongs between two adjacent words ("日本" + "語" → no, "hello" + "world" → yes). */
export function needsSpaceBetween(previous: string, next: string): boolean {
  return !isNoSpaceChar(lastChar(previous)) && !isNoSpaceChar(firstChar(next));
}

export function joinWords(words: readonly string[]): string {
  let text = '';
  for (const word of words) {
    if (!word) continue;
    text += text && needsSpaceBetween(text, word) ? ` ${word}` : word;
  }
  return text;
}

/** Punctuation and symbols only (",", "?!", "。"): such a token belongs to the word before it. */
export function isPunctuationOnly(text: string): boolean {
  return text.length > 0 && /^[\p{P}\p{S}]+$/u.test(text);
}

/** Opening quotes and brackets belong to the word after them. */
export function isOpeningPunctuation(text: string): boolean {
  return /^[\p{Ps}\p{Pi}"'¿¡]+$/u.test(text);
}

/** Letters or digits in any script: what separates speech from stray symbols. */
export function hasWordCharacters(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** Lowercase letters and digits only, for comparing words regardless of punctuation and case. */
export function normalizeForComparison(text: string): string {
  return text.toLocaleLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}
