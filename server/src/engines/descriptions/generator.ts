import { composeDescription, pickHashtags, relevantHashtags, type RelevantTags } from './hashtags.ts';
import { phrasesFor, type Phrases } from './phrases.ts';
import { isStopWord } from './stopwords.ts';
import { pickBySeed, perceivedLength, stableHash, tidyWhitespace, truncateAtWord, wordSpans, words } from './text.ts';
import type { DescriptionInput } from './types.ts';

/*
 * The built-in description writer, used when no chat model is configured or the model fails.
 * Every candidate is one caption in a distinct style followed by 3-5 hashtags. Choices that vary
 * between clips (which question, which emoji) come from a hash of the clip's facts, never from
 * Math.random, so the same clip always gets the same suggestions.
 */

export type DescriptionStyle = 'question' | 'punchy' | 'context' | 'quote' | 'watch';

export interface GeneratedDescription {
  style: DescriptionStyle;
  description: string;
}

/** Twitch titles are at most 100 characters; anything longer came from elsewhere and is cut. */
const MAX_TITLE_LENGTH = 120;
/** A quote is a hook, not the transcript: one sentence a viewer reads at a glance. */
const QUOTE_MIN_LENGTH = 20;
const QUOTE_MAX_LENGTH = 140;

export function generateDescriptions(input: DescriptionInput, relevant: RelevantTags = relevantHashtags(input)): GeneratedDescription[] {
  const phrases = phrasesFor(relevant.language);
  const streamer = input.streamer.trim() || 'Twitch';
  const game = input.gameName?.trim() || null;
  const seed = stableHash(`${input.title}\u0000${streamer}\u0000${game ?? ''}`);
  const title = cleanTitle(input.title, streamer) || phrases.untitled(streamer);
  const [emoji, emoji2] = pickEmoji(input.title, input.transcript, seed);
  const context = phrases.context(streamer, game);
  const quote = input.transcript ? pickQuote(input.transcript, relevant.language) : null;

  const captions: [DescriptionStyle, string][] = [
    ['question', `${pickBySeed(phrases.questions, seed).replaceAll('{streamer}', streamer)} ${title} ${emoji}`],
    ['punchy', `${emoji} ${shortTitle(title, relevant.language)} ${emoji2} ${pickBySeed(phrases.teasers, seed >>> 4)}`],
    ['context', `${context}${phrases.colon}${title}`],
  ];
  if (quote) captions.push(['quote', quoteCaption(phrases, quote, context, emoji)]);
  captions.push(['watch', `${phrases.watch} ${title}`]);

  return captions.map(([style, caption], variant) => ({
    style,
    description: composeDescription(tidyWhitespace(caption), pickHashtags(relevant, variant)),
  }));
}

/** Punchy means short: the first few words of a long title, cut at a word. */
const PUNCHY_WORDS = 6;
const PUNCHY_MAX_LENGTH = 50;

function shortTitle(title: string, language: string): string {
  const spans = wordSpans(title, language);
  if (spans.length <= PUNCHY_WORDS && title.length <= PUNCHY_MAX_LENGTH) return title;
  const kept = spans.slice(0, PUNCHY_WORDS);
  // "…aller Zeiten und…" reads broken; end on a word that carries meaning.
  while (kept.length > 3 && isStopWord(kept[kept.length - 1]?.word ?? '', language)) kept.pop();
  const last = kept[kept.length - 1];
  const head = last ? title.slice(0, last.index + last.word.length) : title;
  const short = truncateAtWord(head, PUNCHY_MAX_LENGTH);
  return short.endsWith('…') ? short : `${short}…`;
}

function quoteCaption(phrases: Phrases, quote: string, context: string, emoji: string): string {
  const [open, close] = phrases.quote;
  return `${open}${quote}${close} — ${context} ${emoji}`;
}

/**
 * A title fit for a caption: one line, no wrapping quotes, "!!!" reduced to "!", and a title
 * shouted in capitals turned into sentence case (with the streamer's name spelled as given).
 */
export function cleanTitle(raw: string, streamer: string): string {
  let title = tidyWhitespace(raw).replace(/\s*\n\s*/g, ' ');
  title = title.replace(/^["'“”„«»「」]+|["'“”„«»「」]+$/gu, '').trim();
  title = title.replace(/([!?！？])[!?！？]+/g, '$1').replace(/\.{4,}/g, '…');
  if (isShouting(title)) title = sentenceCase(title, streamer);
  return truncateAtWord(title, MAX_TITLE_LENGTH);
}

function isShouting(text: string): boolean {
  const cased = text.match(/[\p{Lu}\p{Ll}]/gu) ?? [];
  if (cased.length < 8) return false;
  return cased.filter((letter) => /\p{Lu}/u.test(letter)).length / cased.length > 0.7;
}

function sentenceCase(text: string, streamer: string): string {
  const lower = text.toLowerCase();
  const capitalized = lower.charAt(0).toUpperCase() + lower.slice(1);
  if (!streamer) return capitalized;
  const name = new RegExp(escapeRegExp(streamer), 'giu');
  return capitalized.replace(name, streamer);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Mood words → the emoji that matches them; first match wins, in this order. */
const MOODS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:fail|fails|troll|trolled|lol|lmao|funny|laugh|laughing|joke|prank|rage|raging|meltdown)\b|笑|草/iu, '😂'],
  [/\b(?:scare|scared|scary|jumpscare|horror|scream|screams|screaming|creepy|ghost)\b|怖|ホラー|絶叫/iu, '😱'],
  [/\b(?:dead|died|death|dies|rip|killed)\b|死/iu, '💀'],
  [/\b(?:clutch|ace|win|wins|won|insane|crazy|epic|pog|goat|record|1v\d)\b|神|最強/iu, '🔥'],
];
const DEFAULT_EMOJI = ['🔥', '😂', '😱', '👀', '🤯'] as const;
const SECOND_EMOJI = ['👀', '🤯', '🔥', '😳'] as const;

/**
 * A primary emoji matching the clip's mood — the title decides first, since it is what the clip is
 * about, then the transcript — or chosen by the seed, and a different second one.
 */
function pickEmoji(title: string, transcript: string | null, seed: number): [string, string] {
  const moodOf = (text: string) => MOODS.find(([pattern]) => pattern.test(text))?.[1];
  const mood = moodOf(title) ?? (transcript ? moodOf(transcript) : undefined);
  const primary = mood ?? pickBySeed(DEFAULT_EMOJI, seed);
  const others = SECOND_EMOJI.filter((emoji) => emoji !== primary);
  const secondary = others[(seed >>> 8) % others.length] ?? '👀';
  return [primary, secondary];
}

/**
 * The transcript sentence most worth quoting: a readable length, and energy (an exclamation or a
 * question) preferred; the earliest wins a tie. A transcript with too little speech gives none.
 */
export function pickQuote(transcript: string, language: string): string | null {
  const text = tidyWhitespace(transcript).replace(/\s*\n\s*/g, ' ');
  if (!hasSpeech(text, language)) return null;
  const sentences = text
    .split(/(?<=[.!?…。！？])\s*/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => hasSpeech(sentence, language));
  let best: { sentence: string; score: number } | null = null;
  for (const sentence of sentences) {
    const length = perceivedLength(sentence);
    if (length < QUOTE_MIN_LENGTH || length > QUOTE_MAX_LENGTH) continue;
    const score = (/[!！]/.test(sentence) ? 2 : 0) + (/[?？]/.test(sentence) ? 1 : 0) - Math.abs(length - 60) / 60;
    if (!best || score > best.score) best = { sentence, score };
  }
  const chosen = best?.sentence ?? truncateAtWord(sentences[0] ?? text, QUOTE_MAX_LENGTH / 2);
  return chosen.replace(/[.。]+$/u, '').trim() || null;
}

/** At least three words, or six characters in a script without spaces. */
function hasSpeech(text: string, language: string): boolean {
  const found = words(text, language);
  return found.length >= 3 || (found.length > 0 && perceivedLength(found.join('')) >= 12);
}
