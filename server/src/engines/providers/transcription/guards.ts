import { hasWordCharacters, joinWords, normalizeForComparison } from './text.ts';
import type { Transcript, TranscriptWord } from './types.ts';

/*
 * Quality guards, all pure. Whisper invents text over silence and game noise ("Thank you for
 * watching", "[Music]") and sometimes loops on a phrase; these remove what cannot be real speech so
 * a clip without speech ends as "no speech found" rather than with made-up captions.
 */

/** A decoded stretch of audio as the engine reports it (OpenAI verbose_json segments). */
export interface SpeechSegment {
  start: number;
  end: number;
  text?: string;
  /** Probability that the window holds no speech at all. */
  noSpeechProb?: number;
  /** Mean token log-probability: low means the decoder was guessing. */
  avgLogprob?: number;
}

/** Loudness of the audio in fixed frames, from the same PCM the engine heard. */
export interface AudioLevels {
  frameSeconds: number;
  /** RMS of each frame, 0–1 of full scale. */
  rms: Float32Array;
}

/**
 * whisper's own rule (openai-whisper transcribe(), whisper.cpp whisper_full): a window is silence
 * when no_speech_prob > 0.6 and the average log-probability is below -1.
 */
const NO_SPEECH_THRESHOLD = 0.6;
const LOGPROB_THRESHOLD = -1;

/** Frames quieter than this (dBFS) are silence: far below speech, above dither and codec noise. */
const SILENCE_DBFS = -50;

export function dropNoSpeechSegments<T extends SpeechSegment>(
  segments: readonly T[],
  thresholds: { noSpeech?: number; logprob?: number } = {},
): T[] {
  const noSpeech = thresholds.noSpeech ?? NO_SPEECH_THRESHOLD;
  const logprob = thresholds.logprob ?? LOGPROB_THRESHOLD;
  return segments.filter((segment) => {
    const silentWindow = (segment.noSpeechProb ?? 0) > noSpeech;
    const unsure = (segment.avgLogprob ?? 0) < logprob;
    return !(silentWindow && unsure);
  });
}

/** Keeps the words whose middle lies inside one of the kept segments. */
export function wordsInSegments(words: readonly TranscriptWord[], segments: readonly SpeechSegment[]): TranscriptWord[] {
  return words.filter((word) => {
    const middle = (word.start + word.end) / 2;
    return segments.some((segment) => middle >= segment.start - 0.05 && middle <= segment.end + 0.05);
  });
}

/** RMS per frame of 16-bit mono PCM (20 ms frames by default). */
export function audioLevels(pcm: Int16Array, sampleRate = 16_000, frameSeconds = 0.02): AudioLevels {
  const frameSize = Math.max(1, Math.round(sampleRate * frameSeconds));
  const frames = Math.ceil(pcm.length / frameSize);
  const rms = new Float32Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    const from = frame * frameSize;
    const to = Math.min(pcm.length, from + frameSize);
    let sum = 0;
    for (let i = from; i < to; i++) {
      const sample = pcm[i]! / 32768;
      sum += sample * sample;
    }
    rms[frame] = Math.sqrt(sum / Math.max(1, to - from));
  }
  return { frameSeconds, rms };
}

/**
 * Drops words said where the audio is silent: whisper's favourite hallucinations sit in silence.
 * The loudest frame around the word counts (with 150 ms margin, since word timings drift).
 */
export function dropWordsInSilence(
  words: readonly TranscriptWord[],
  levels: AudioLevels,
  silenceDbfs = SILENCE_DBFS,
): TranscriptWord[] {
  const threshold = 10 ** (silenceDbfs / 20);
  return words.filter((word) => loudestFrame(levels, word.start - 0.15, word.end + 0.15) >= threshold);
}

function loudestFrame(levels: AudioLevels, from: number, to: number): number {
  const first = Math.max(0, Math.floor(from / levels.frameSeconds));
  const last = Math.min(levels.rms.length - 1, Math.ceil(to / levels.frameSeconds));
  let loudest = 0;
  for (let frame = first; frame <= last; frame++) loudest = Math.max(loudest, levels.rms[frame]!);
  return loudest;
}

/**
 * Removes sound descriptions whisper writes for non-speech: "[Music]", "(laughs)", "*applause*",
 * "♪". A bracketed span may cover several words; it ends at the word that closes it.
 */
export function dropSoundAnnotations(words: readonly TranscriptWord[]): TranscriptWord[] {
  const kept: TranscriptWord[] = [];
  for (let index = 0; index < words.length; index++) {
    const text = words[index]!.text;
    if (/^[♪♫♬♩\s]+$/u.test(text) || /^\*.*\*[.,!?]?$/u.test(text)) continue;
    const closer = closingBracket(text);
    if (closer) {
      const end = findSpanEnd(words, index, closer);
      if (end !== -1) {
        index = end;
        continue;
      }
    }
    kept.push(words[index]!);
  }
  return kept;
}

const BRACKETS: Readonly<Record<string, string>> = { '[': ']', '(': ')', '（': '）', '【': '】', '「': '」' };

function closingBracket(text: string): string | undefined {
  const first = Array.from(text)[0];
  // 「」 are ordinary quotes in Japanese speech, not sound descriptions.
  return first && first !== '「' ? BRACKETS[first] : undefined;
}

/** Index of the word closing the bracket opened at `start`, looking at most 8 words ahead. */
function findSpanEnd(words: readonly TranscriptWord[], start: number, closer: string): number {
  for (let index = start; index < Math.min(words.length, start + 8); index++) {
    if (words[index]!.text.replace(/[.,!?。、！？]+$/u, '').endsWith(closer)) return index;
  }
  return -1;
}

/**
 * Collapses a phrase repeated back to back (a decoding loop) into one occurrence: n-grams of 2+
 * words repeated 3+ times, single words 4+ times ("no no no" is a real thing streamers say; "no"
 * fifteen times is a loop). Comparison ignores case and punctuation.
 */
export function collapseRepeatedPhrases(
  words: readonly TranscriptWord[],
  options: { maxPhraseWords?: number; minRepeats?: number; minSingleWordRepeats?: number } = {},
): TranscriptWord[] {
  const maxPhrase = options.maxPhraseWords ?? 10;
  const minRepeats = options.minRepeats ?? 3;
  const minSingle = options.minSingleWordRepeats ?? 4;
  const keys = words.map((word) => normalizeForComparison(word.text));
  const kept: TranscriptWord[] = [];
  let index = 0;
  while (index < words.length) {
    const loop = longestLoopAt(keys, index, maxPhrase, minRepeats, minSingle);
    const keep = loop ? loop.size : 1;
    for (let offset = 0; offset < keep; offset++) kept.push(words[index + offset]!);
    index += loop ? loop.size * loop.repeats : 1;
  }
  return kept;
}

function longestLoopAt(
  keys: readonly string[],
  index: number,
  maxPhrase: number,
  minRepeats: number,
  minSingle: number,
): { size: number; repeats: number } | null {
  let best: { size: number; repeats: number } | null = null;
  for (let size = 1; size <= maxPhrase && index + size * 2 <= keys.length; size++) {
    const repeats = countRepeats(keys, index, size);
    const needed = size === 1 ? minSingle : minRepeats;
    // Prefer the loop that covers the most words ("a b a b a b" is a 2-word loop, not three "a b").
    if (repeats >= needed && (!best || size * repeats > best.size * best.repeats)) best = { size, repeats };
  }
  return best;
}

function countRepeats(keys: readonly string[], index: number, size: number): number {
  const phrase = keys.slice(index, index + size);
  if (phrase.some((key) => key === '')) return 1;
  let repeats = 1;
  while (index + (repeats + 1) * size <= keys.length) {
    const next = keys.slice(index + repeats * size, index + (repeats + 1) * size);
    if (next.some((key, offset) => key !== phrase[offset])) break;
    repeats++;
  }
  return repeats;
}

/**
 * Phrases whisper produces over silence or music (learned from subtitled videos). Dropped only when
 * they are all that is left, since a streamer may really say "thank you".
 */
const SILENCE_HALLUCINATIONS = [
  'thanks for watching',
  'thank you for watching',
  'thank you so much for watching',
  'please subscribe',
  'subscribe to my channel',
  'like and subscribe',
  'you',
  'subtitles by the amaraorg community',
  'ご視聴ありがとうございました',
  'チャンネル登録お願いします',
  '请不吝点赞订阅转发打赏支持明镜与点点栏目',
  'продолжение следует',
  'untertitel der amaraorg community',
  'sous-titrage st501',
  'sottotitoli creati dalla comunità amaraorg',
].map(normalizeForComparison);

function isOnlyHallucination(words: readonly TranscriptWord[]): boolean {
  const text = normalizeForComparison(words.map((word) => word.text).join(''));
  return text !== '' && SILENCE_HALLUCINATIONS.includes(text);
}

export interface GuardInput {
  words: readonly TranscriptWord[];
  language: string | null;
  /** Audio loudness, when the engine decoded the audio itself. */
  levels?: AudioLevels;
  /** Engine segments with no-speech probabilities, when the engine reports them. */
  segments?: readonly SpeechSegment[];
}

/** Every guard in order, then the verdict: a transcript with nothing real left is "no speech". */
export function applyQualityGuards(input: GuardInput): Transcript {
  let words = [...input.words].filter((word) => word.text.trim() !== '' && word.end >= word.start);
  if (input.segments) words = wordsInSegments(words, dropNoSpeechSegments(input.segments));
  if (input.levels) words = dropWordsInSilence(words, input.levels);
  words = dropSoundAnnotations(words);
  words = collapseRepeatedPhrases(words);
  if (isOnlyHallucination(words)) words = [];
  const noSpeech = !words.some((word) => hasWordCharacters(word.text));
  if (noSpeech) words = [];
  return { language: input.language, words, text: joinWords(words.map((word) => word.text)), noSpeech };
}
