import { describe, expect, it } from 'vitest';
import { transcriptProblem } from '@clipshift/shared';
import {
  canSplit,
  countFillers,
  deleteFillers,
  deleteWord,
  formatWordTime,
  groupLines,
  isFiller,
  mergeWithNext,
  replaceText,
  sameWords,
  splitWord,
  type Word,
} from './word-edits';

const w = (start: number, end: number, text: string): Word => ({ start, end, text });

const WORDS: Word[] = [w(0, 0.4, 'Um,'), w(0.4, 0.8, 'she'), w(0.8, 1.2, 'actually'), w(1.2, 1.5, 'uhh...'), w(2.5, 2.9, 'did'), w(2.9, 3.4, 'it')];

describe('fillers', () => {
  it('are only the obvious sounds, whatever their case, punctuation or held letters', () => {
    for (const text of ['um', 'Um,', 'UH', 'uhh...', 'erm', 'Er', 'hmm', 'Hmmmm?', 'mhm', 'ah!', 'ahh']) expect(isFiller(text), text).toBe(true);
  });

  it('never include words that carry meaning or merely start like a filler', () => {
    for (const text of ['like', 'so', 'you know', 'umbrella', 'hum', 'her', 'error', 'aha', 'oh', 'a', '', '...']) expect(isFiller(text), text).toBe(false);
  });

  it('are counted for the preview and deleted in bulk, the other words kept in order with their times', () => {
    expect(countFillers(WORDS)).toBe(2);
    expect(deleteFillers(WORDS)).toEqual([w(0.4, 0.8, 'she'), w(0.8, 1.2, 'actually'), w(2.5, 2.9, 'did'), w(2.9, 3.4, 'it')]);
    expect(WORDS).toHaveLength(6);
  });
});

describe('merging', () => {
  it('joins the texts with a space and spans both words’ times', () => {
    expect(mergeWithNext(WORDS, 4)).toEqual([...WORDS.slice(0, 4), w(2.5, 3.4, 'did it')]);
  });

  it('does nothing to the last word, and never changes its input', () => {
    expect(mergeWithNext(WORDS, 5)).toEqual(WORDS);
    expect(mergeWithNext(WORDS, 5)).not.toBe(WORDS);
    mergeWithNext(WORDS, 0);
    expect(WORDS[0]).toEqual(w(0, 0.4, 'Um,'));
  });

  it('leaves a transcript the server accepts', () => {
    expect(transcriptProblem(mergeWithNext(mergeWithNext(WORDS, 1), 1), 10)).toBeNull();
  });
});

describe('splitting', () => {
  it('splits at the space nearest the middle, sharing the time by the length of each part', () => {
    expect(splitWord([w(1, 2.4, 'one versus four')], 0)).toEqual([w(1, 2, 'one versus'), w(2, 2.4, 'four')]);
    expect(splitWord([w(0, 1, 'gg  wp')], 0)).toEqual([w(0, 0.5, 'gg'), w(0.5, 1, 'wp')]);
  });

  it('splits a single word in half, text and time', () => {
    expect(splitWord([w(2, 3, 'ggwp'), w(3, 4, 'x')], 0)).toEqual([w(2, 2.5, 'gg'), w(2.5, 3, 'wp'), w(3, 4, 'x')]);
    expect(splitWord([w(0, 0.3, 'abc')], 0)).toEqual([w(0, 0.2, 'ab'), w(0.2, 0.3, 'c')]);
  });

  it('cannot split a word of one character', () => {
    expect(canSplit(w(0, 1, ' a '))).toBe(false);
    expect(splitWord([w(0, 1, 'a')], 0)).toEqual([w(0, 1, 'a')]);
  });

  it('leaves a transcript the server accepts', () => {
    expect(transcriptProblem(splitWord(splitWord(WORDS, 2), 0), 10)).toBeNull();
  });
});

describe('editing and deleting', () => {
  it('changes one word’s text or removes one word', () => {
    expect(replaceText(WORDS, 1, 'She')[1]).toEqual(w(0.4, 0.8, 'She'));
    expect(deleteWord(WORDS, 0)).toEqual(WORDS.slice(1));
  });

  it('tells unchanged lists from changed ones', () => {
    expect(sameWords(WORDS, WORDS.map((word) => ({ ...word })))).toBe(true);
    expect(sameWords(WORDS, replaceText(WORDS, 1, 'She'))).toBe(false);
    expect(sameWords(WORDS, WORDS.slice(1))).toBe(false);
  });
});

describe('lines and times', () => {
  it('starts a new line after a pause of half a second or more', () => {
    expect(groupLines(WORDS)).toEqual([
      [0, 1, 2, 3],
      [4, 5],
    ]);
    expect(groupLines([])).toEqual([]);
  });

  it('writes times as mm:ss.cc', () => {
    expect(formatWordTime(0)).toBe('00:00.00');
    expect(formatWordTime(3.456)).toBe('00:03.46');
    expect(formatWordTime(59.999)).toBe('01:00.00');
    expect(formatWordTime(125.5)).toBe('02:05.50');
  });
});
