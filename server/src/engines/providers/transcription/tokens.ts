import { isNoSpaceChar, isOpeningPunctuation, isPunctuationOnly } from './text.ts';
import type { TranscriptWord } from './types.ts';

/** A timed fragment of text: one whisper.cpp token (segment of max_len 1), times in seconds. */
export interface TimedPiece {
  text: string;
  start: number;
  end: number;
}

const REPLACEMENT = '\uFFFD';

/*
 * whisper tokens are byte sequences: a CJK or emoji character is often split over two tokens, and
 * the binding converts each token's bytes to a JS string on its own, so each half arrives as U+FFFD.
 * The full result text is built from the raw bytes and is intact; repairBrokenCharacters puts the
 * real characters back by aligning the pieces with it.
 */

/** Replaces U+FFFD runs in the pieces by the characters of `fullText`; unchanged if nothing is broken. */
export function repairBrokenCharacters(pieces: readonly TimedPiece[], fullText: string): TimedPiece[] {
  if (!pieces.some((piece) => piece.text.includes(REPLACEMENT))) return [...pieces];
  const merged = mergeBrokenBoundaries(pieces);
  const repaired: TimedPiece[] = [];
  let cursor = 0;
  for (let index = 0; index < merged.length; index++) {
    const piece = merged[index]!;
    const match = matchPiece(piece.text, merged[index + 1]?.text, fullText, cursor);
    // Out of step with the full text (should not happen): keep what we have, minus the broken bytes.
    if (match === null) return merged.map((item) => ({ ...item, text: item.text.replaceAll(REPLACEMENT, '') }));
    repaired.push({ ...piece, text: match });
    cursor += match.length;
  }
  return repaired;
}

/** Joins neighbours whose boundary cuts through a character, so every piece holds whole characters. */
function mergeBrokenBoundaries(pieces: readonly TimedPiece[]): TimedPiece[] {
  const merged: TimedPiece[] = [];
  for (const piece of pieces) {
    const previous = merged.at(-1);
    if (previous && (previous.text.endsWith(REPLACEMENT) || piece.text.startsWith(REPLACEMENT))) {
      merged[merged.length - 1] = { text: previous.text + piece.text, start: previous.start, end: piece.end };
    } else {
      merged.push({ ...piece });
    }
  }
  return merged;
}

/**
 * The text `pieceText` stands for at `cursor` in `fullText`: literal parts must match exactly, each
 * U+FFFD run stands for one or more real characters, and the match must end where the next piece's
 * first literal text begins.
 */
function matchPiece(pieceText: string, nextText: string | undefined, fullText: string, cursor: number): string | null {
  if (!pieceText.includes(REPLACEMENT)) return fullText.startsWith(pieceText, cursor) ? pieceText : null;
  const pattern = pieceText.split(/\uFFFD+/u).map(escapeRegExp).join('[^]+?');
  const nextLiteral = nextText?.split(REPLACEMENT)[0] ?? '';
  const lookahead = nextText === undefined ? '$' : nextLiteral ? `(?=${escapeRegExp(nextLiteral)})` : '';
  const regex = new RegExp(`${pattern}${lookahead}`, 'uy');
  regex.lastIndex = cursor;
  return regex.exec(fullText)?.[0] ?? null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * Tokens → words: a token starting with a space starts a word, other tokens continue it (BPE splits
 * long words), punctuation sticks to the word before, and in scripts without spaces (Chinese,
 * Japanese, Thai) every token is its own word so each can be highlighted as it is said.
 */
export function piecesToWords(pieces: readonly TimedPiece[]): TranscriptWord[] {
  const words: TranscriptWord[] = [];
  let breakBefore = false;
  for (const piece of pieces.flatMap(splitInnerSpaces)) {
    const core = piece.text.trim();
    if (!core) {
      breakBefore = true;
      continue;
    }
    const current = words.at(-1);
    if (current && startsNewWord(piece.text, core, current.text, breakBefore)) {
      words.push({ text: core, start: piece.start, end: piece.end });
    } else if (current) {
      current.text += core;
      current.end = Math.max(current.end, piece.end);
    } else {
      words.push({ text: core, start: piece.start, end: piece.end });
    }
    breakBefore = false;
  }
  return words;
}

/**
 * A piece holding several words (after a repair merged neighbours, or a server's coarse piece)
 * becomes one piece per word, sharing its time by length.
 */
function splitInnerSpaces(piece: TimedPiece): TimedPiece[] {
  const parts = piece.text.split(/(?<=\S)(?=\s+\S)/u);
  if (parts.length === 1) return [piece];
  const total = parts.reduce((sum, part) => sum + part.trim().length, 0) || 1;
  const duration = piece.end - piece.start;
  let cursor = piece.start;
  return parts.map((part) => {
    const share = (part.trim().length / total) * duration;
    const timed = { text: part, start: cursor, end: cursor + share };
    cursor += share;
    return timed;
  });
}

function startsNewWord(raw: string, core: string, currentText: string, breakBefore: boolean): boolean {
  // An opening quote or bracket waits for the word it opens.
  if (isOpeningPunctuation(currentText)) return false;
  if (isPunctuationOnly(core)) return isOpeningPunctuation(core) && (breakBefore || /^\s/u.test(raw));
  if (breakBefore || /^\s/u.test(raw)) return true;
  return isNoSpaceChar(Array.from(core)[0]) || isNoSpaceChar(Array.from(currentText).at(-1));
}
