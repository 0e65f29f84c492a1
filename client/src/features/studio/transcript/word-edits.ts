import type { TranscriptWordDto } from '@clipshift/shared';

/*
 * The transcript editor's word operations. Each returns a new list and leaves its input alone, so
 * the editor can keep earlier lists for undo.
 */

export type Word = TranscriptWordDto;

/**
 * Only sounds that are never words of their own: "like" or "so" can carry meaning, so deleting
 * them in bulk would change what was said.
 */
export const FILLER_WORDS = ['um', 'uh', 'erm', 'er', 'hmm', 'mhm', 'ah'] as const;

/** Each filler with its letters held as long as a speaker likes ("ummm", "uhh", "hmmmm"). */
const FILLER_PATTERN = /^(u+m+|u+h+|e+r+m+|e+r+|h+m+|m+h+m+|a+h+)$/;

/** A pause at least this long starts a new line, as a reader hears a new phrase. */
export const LINE_PAUSE_SECONDS = 0.5;

/** Hundredths are as fine as speech recognition's word times are meaningful. */
const roundTime = (seconds: number) => Math.round(seconds * 1000) / 1000;

export function isFiller(text: string): boolean {
  // Punctuation clings to words in transcripts ("Um," "uh..."), and is no part of the sound.
  const bare = text
    .trim()
    .toLowerCase()
    .replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '');
  return FILLER_PATTERN.test(bare);
}

export function countFillers(words: readonly Word[]): number {
  return words.filter((word) => isFiller(word.text)).length;
}

export function deleteFillers(words: readonly Word[]): Word[] {
  return words.filter((word) => !isFiller(word.text));
}

export function replaceText(words: readonly Word[], index: number, text: string): Word[] {
  return words.map((word, at) => (at === index ? { ...word, text } : word));
}

export function deleteWord(words: readonly Word[], index: number): Word[] {
  return words.filter((_, at) => at !== index);
}

/** The word and the next become one: their texts joined by a space, their times spanning both. */
export function mergeWithNext(words: readonly Word[], index: number): Word[] {
  const word = words[index];
  const next = words[index + 1];
  if (!word || !next) return [...words];
  const merged: Word = {
    start: Math.min(word.start, next.start),
    end: Math.max(word.end, next.end),
    text: [word.text.trim(), next.text.trim()].filter(Boolean).join(' '),
  };
  return [...words.slice(0, index), merged, ...words.slice(index + 2)];
}

export function canSplit(word: Word): boolean {
  return word.text.trim().length >= 2;
}

/** Where text splits: at the space nearest its middle, else between its middle characters. */
function splitText(text: string): [string, string] {
  const trimmed = text.trim();
  const middle = trimmed.length / 2;
  let best = -1;
  for (const match of trimmed.matchAll(/\s+/g)) {
    if (best === -1 || Math.abs(match.index - middle) < Math.abs(best - middle)) best = match.index;
  }
  if (best === -1) {
    const cut = Math.ceil(middle);
    return [trimmed.slice(0, cut), trimmed.slice(cut)];
  }
  return [trimmed.slice(0, best).trim(), trimmed.slice(best).trim()];
}

/**
 * The word becomes two. Text with a space splits there and the time is shared by the length of
 * each part (speech takes about as long as its letters); a single word splits in half, text and time.
 */
export function splitWord(words: readonly Word[], index: number): Word[] {
  const word = words[index];
  if (!word || !canSplit(word)) return [...words];
  const [left, right] = splitText(word.text);
  const share = left.length / (left.length + right.length);
  const cut = roundTime(word.start + (word.end - word.start) * share);
  return [...words.slice(0, index), { start: word.start, end: cut, text: left }, { start: cut, end: word.end, text: right }, ...words.slice(index + 1)];
}

/** Indices of the words of each line: a new line starts after a pause of LINE_PAUSE_SECONDS or more. */
export function groupLines(words: readonly Word[], pause = LINE_PAUSE_SECONDS): number[][] {
  const lines: number[][] = [];
  for (const [index, word] of words.entries()) {
    const previous = words[index - 1];
    const current = lines.at(-1);
    if (!current || !previous || word.start - previous.end >= pause) lines.push([index]);
    else current.push(index);
  }
  return lines;
}

/** A word time as mm:ss.cc (minutes keep counting past 59: clips are short). */
export function formatWordTime(seconds: number): string {
  const hundredths = Math.max(0, Math.round(seconds * 100));
  const minutes = Math.floor(hundredths / 6000);
  const rest = hundredths - minutes * 6000;
  const secs = Math.floor(rest / 100);
  const cc = rest % 100;
  return `${String(minutes).padStart(2, '0')}:${String(secs).padStart(2, '0')}.${String(cc).padStart(2, '0')}`;
}

export function sameWords(a: readonly Word[], b: readonly Word[]): boolean {
  return a.length === b.length && a.every((word, index) => word.start === b[index]?.start && word.end === b[index]?.end && word.text === b[index]?.text);
}
