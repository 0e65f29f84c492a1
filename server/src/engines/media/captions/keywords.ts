import { isStopWord } from '../../descriptions/index.ts';

/*
 * Which words of a caption the `keywords` emphasis colours: numbers, names (capitalised away from
 * a sentence's start), the streamer's glossary terms, and the caption's most telling word (its
 * longest word that is not a stop word). Pure, so the choice can be tested without rendering.
 */

export interface KeywordOptions {
  /** Glossary terms (names, game terms, emotes); matched word by word, ignoring case. */
  glossary?: readonly string[] | undefined;
  /** The transcript's language code, for its stop words (English ones always count). */
  language?: string | null | undefined;
  /** The caption's first word begins a sentence (so its capital says nothing). */
  startsSentence?: boolean | undefined;
}

/** A word's letters and digits, lower-cased: what is compared. */
function coreOf(word: string): string {
  return word.replace(/[^\p{L}\p{M}\p{N}'’-]/gu, '').replace(/^['’-]+|['’-]+$/gu, '');
}

const SENTENCE_END = /[.!?…。！？]["'”’»)]*$/u;
/** A salient word is at least this long: shorter ones ("nice", "okay") say little on their own. */
const MIN_SALIENT_LETTERS = 5;

function glossaryWords(glossary: readonly string[]): Set<string> {
  return new Set(glossary.flatMap((term) => term.split(/\s+/u)).map((word) => coreOf(word).toLocaleLowerCase()).filter(Boolean));
}

function isName(core: string, sentenceStart: boolean, language: string): boolean {
  if (sentenceStart || core.length < 2) return false;
  if (!/^\p{Lu}/u.test(core) || !/\p{Ll}/u.test(core)) return false;
  return !isStopWord(core, language);
}

/** Indexes of the caption's `words` drawn in the emphasis colour. */
export function chooseKeywords(words: readonly string[], options: KeywordOptions = {}): Set<number> {
  const language = options.language ?? 'en';
  const glossary = glossaryWords(options.glossary ?? []);
  const chosen = new Set<number>();
  let salient: { index: number; length: number } | null = null;
  words.forEach((word, index) => {
    const core = coreOf(word);
    if (!core) return;
    const sentenceStart = index === 0 ? (options.startsSentence ?? true) : SENTENCE_END.test(words[index - 1]!);
    const lower = core.toLocaleLowerCase();
    if (/\p{N}/u.test(core) || glossary.has(lower) || isName(core, sentenceStart, language)) {
      chosen.add(index);
      return;
    }
    const length = Array.from(core).length;
    if (length >= MIN_SALIENT_LETTERS && !isStopWord(lower, language) && (!salient || length > salient.length)) salient = { index, length };
  });
  if (salient) chosen.add((salient as { index: number }).index);
  return chosen;
}
