import { composeDescription, pickHashtags, relevantHashtags, splitDescription, type RelevantTags } from './hashtags.ts';
import { phrasesFor, type DescriptionStyle, type Phrases } from './phrases.ts';
import { isStopWord } from './stopwords.ts';
import { comparisonKey, perceivedLength, pickBySeed, stableHash, tidyWhitespace, truncateAtWord, wordSpans, words } from './text.ts';
import type { DescriptionInput } from './types.ts';

/*
 * The built-in description writer, used when no chat model is configured or the model fails.
 * Every candidate is one caption in a distinct style followed by 3-5 hashtags, and the clip gets a
 * hook: a short line for a title card over its first seconds, about the same subject (its title).
 *
 * Each style has a pool of templates (phrases.ts). A streamer's recent suggestions are passed in to
 * avoid: a template they already show is taken only when every other one is, the one used longest
 * ago first, and a caption or hook they already have is never offered again while any other
 * fits. Choices that vary between clips (which template first, which emoji) come from a hash of the
 * clip's id, never from Math.random, so describing a clip again gives the same suggestions.
 */

export type { DescriptionStyle } from './phrases.ts';

export interface GeneratedDescription {
  style: DescriptionStyle;
  description: string;
}

export interface GeneratedSuggestions {
  descriptions: GeneratedDescription[];
  /** The title-card line, at most HOOK_MAX_LENGTH (CJK characters count double). */
  hook: string;
}

/** A title card is read in a second or two: a few words, no more. */
export const HOOK_MAX_LENGTH = 40;
/** Twitch titles are at most 100 characters; anything longer came from elsewhere and is cut. */
const MAX_TITLE_LENGTH = 120;
/** A quote is a hook, not the transcript: one sentence a viewer reads at a glance. */
const QUOTE_MIN_LENGTH = 20;
const QUOTE_MAX_LENGTH = 140;
/** The product always offers a choice: repeats are allowed back only to reach this many. */
const MIN_CANDIDATES = 3;
const STYLES: readonly DescriptionStyle[] = ['question', 'punchy', 'context', 'quote', 'watch'];

/** What the templates are filled with, for one clip. */
interface Facts {
  seedKey: string;
  language: string;
  streamer: string;
  /** The game's name for wording; null for an unknown category or one that is not a game. */
  game: string | null;
  title: string;
  short: string;
  context: string;
  quote: string | null;
  /** The mood's emoji first, then the alternatives a repeat may fall back to. */
  emoji: readonly string[];
  emoji2: string;
}

export function generateDescriptions(input: DescriptionInput, relevant: RelevantTags = relevantHashtags(input), avoid: readonly string[] = []): GeneratedDescription[] {
  return generateSuggestions(input, relevant, avoid).descriptions;
}

/**
 * Candidates and a hook for a clip. `avoid`: the streamer's recent suggestion texts (captions and
 * hooks), newest first.
 */
export function generateSuggestions(input: DescriptionInput, relevant: RelevantTags = relevantHashtags(input), avoid: readonly string[] = []): GeneratedSuggestions {
  const phrases = phrasesFor(relevant.language);
  const facts = factsOf(input, relevant, phrases);
  const history = historyOf(avoid);
  const seed = stableHash(facts.seedKey);
  const captions = chooseCaptions(phrases, facts, history);
  const descriptions = captions.map(({ style, caption }, variant) => ({
    style,
    description: composeDescription(caption, pickHashtags(relevant, variant, seed)),
  }));
  return { descriptions, hook: chooseHook(phrases, facts, history) };
}

function factsOf(input: DescriptionInput, relevant: RelevantTags, phrases: Phrases): Facts {
  const streamer = input.streamer.trim() || 'Twitch';
  const category = input.gameName?.trim() || null;
  const game = relevant.nonGame ? null : category;
  const seedKey = input.clipId ?? `${input.title}\u0000${streamer}\u0000${category ?? ''}`;
  const seed = stableHash(seedKey);
  const title = cleanTitle(input.title, streamer) || phrases.untitled(streamer);
  const [primary, secondary, alternatives] = pickEmoji(input.title, input.transcript, seed);
  return {
    seedKey,
    language: relevant.language,
    streamer,
    game,
    title,
    short: shortTitle(title, relevant.language),
    context: phrases.context(streamer, game),
    quote: input.transcript ? pickQuote(input.transcript, relevant.language) : null,
    emoji: [primary, ...alternatives],
    emoji2: secondary,
  };
}

/** What the streamer's recent suggestions say, for telling a repeat. */
interface History {
  /** Caption texts without their hashtags, newest first. */
  bodies: readonly string[];
  keys: ReadonlySet<string>;
}

function historyOf(avoid: readonly string[]): History {
  const bodies = avoid.map((text) => tidyWhitespace(splitDescription(text).body)).filter(Boolean);
  return { bodies, keys: new Set(bodies.map(comparisonKey)) };
}

function chooseCaptions(phrases: Phrases, facts: Facts, history: History): { style: DescriptionStyle; caption: string }[] {
  const taken = new Set<string>();
  const chosen = new Map<DescriptionStyle, string>();
  const styles = STYLES.filter((style) => style !== 'quote' || facts.quote !== null);
  for (const style of styles) {
    const caption = firstFresh(freshestFirst(usable(phrases.templates[style], facts), `${facts.seedKey}\u0000${style}`, facts, history), facts, history, taken);
    if (caption) chosen.set(style, caption);
  }
  // A streamer with many clips of one title can exhaust a small pool: a repeat beats too few choices.
  for (const style of styles) {
    if (chosen.size >= MIN_CANDIDATES) break;
    if (chosen.has(style)) continue;
    const caption = firstFresh(usable(phrases.templates[style], facts), facts, { bodies: [], keys: new Set() }, taken);
    if (caption) chosen.set(style, caption);
  }
  return styles.filter((style) => chosen.has(style)).map((style) => ({ style, caption: chosen.get(style) ?? '' }));
}

function chooseHook(phrases: Phrases, facts: Facts, history: History): string {
  const ordered = freshestFirst(phrases.hooks, `${facts.seedKey}\u0000hook`, facts, history);
  // Every hook template repeats one the streamer has: the freshest one still beats none.
  return firstFresh(ordered, facts, history, new Set(), fillHook) ?? firstFresh(ordered, facts, { bodies: [], keys: new Set() }, new Set(), fillHook) ?? cutToLength(facts.title, HOOK_MAX_LENGTH);
}

/** Templates whose placeholders this clip can fill ({game} needs a game, {quote} speech). */
function usable(templates: readonly string[], facts: Facts): string[] {
  return templates.filter((template) => (facts.game !== null || !template.includes('{game}')) && (facts.quote !== null || !template.includes('{quote}')));
}

type Fill = (template: string, facts: Facts, emoji: string) => string | null;

/** The first template, with the first emoji, whose text the streamer has not been offered yet. */
function firstFresh(templates: readonly string[], facts: Facts, history: History, taken: Set<string>, fill: Fill = fillCaption): string | null {
  for (const template of templates) {
    const emojis = template.includes('{emoji}') ? facts.emoji : facts.emoji.slice(0, 1);
    for (const emoji of emojis) {
      const text = fill(template, facts, emoji);
      if (!text) continue;
      const key = comparisonKey(text);
      if (history.keys.has(key) || taken.has(key)) continue;
      taken.add(key);
      return text;
    }
  }
  return null;
}

/**
 * The templates in this clip's seeded order, those the streamer's recent suggestions do not show
 * first, then those shown longest ago.
 */
function freshestFirst(templates: readonly string[], seedKey: string, facts: Facts, history: History): string[] {
  const start = templates.length ? stableHash(seedKey) % templates.length : 0;
  const seeded = [...templates.slice(start), ...templates.slice(0, start)];
  const lastUse = (template: string) => {
    const pattern = templatePattern(template, facts);
    const index = pattern ? history.bodies.findIndex((body) => pattern.test(body)) : -1;
    return index < 0 ? Number.POSITIVE_INFINITY : index;
  };
  return seeded
    .map((template, order) => ({ template, order, age: lastUse(template) }))
    .sort((a, b) => (a.age === b.age ? a.order - b.order : b.age > a.age ? 1 : -1))
    .map((entry) => entry.template);
}

const PLACEHOLDER = /(\{[a-z0-9]+\})/;
/** What a placeholder may have been filled with in another clip of the streamer. */
const WILDCARDS: ReadonlyMap<string, string> = new Map([
  ['{title}', '.+?'],
  ['{short}', '.+?'],
  ['{quote}', '.+?'],
  ['{subject}', '.+?'],
  ['{emoji}', '\\S*'],
  ['{emoji2}', '\\S*'],
]);

/**
 * A pattern matching any text this template wrote for the streamer (the title, quote and emoji
 * free), or null for a template without words of its own, which any text would match.
 */
function templatePattern(template: string, facts: Facts): RegExp | null {
  const parts = template.split(PLACEHOLDER).filter(Boolean);
  const literal = parts.filter((part) => !PLACEHOLDER.test(part)).join('');
  const known = new Map([
    ['{streamer}', facts.streamer],
    ['{game}', facts.game ?? ''],
    ['{context}', facts.context],
  ]);
  if (!/\p{L}/u.test(literal) && !parts.some((part) => known.has(part))) return null;
  const source = parts.map((part) => WILDCARDS.get(part) ?? escapeRegExp(known.get(part) ?? part).replace(/\s+/g, '\\s*')).join('');
  return new RegExp(`^\\s*${source}\\s*$`, 'iu');
}

function fillCaption(template: string, facts: Facts, emoji: string): string {
  const values = new Map([
    ['{title}', facts.title],
    ['{short}', facts.short],
    ['{streamer}', facts.streamer],
    ['{game}', facts.game ?? ''],
    ['{context}', facts.context],
    ['{quote}', facts.quote ?? ''],
    ['{emoji}', emoji],
    ['{emoji2}', facts.emoji2 === emoji ? '' : facts.emoji2],
  ]);
  return tidyWhitespace(template.replace(/\{[a-z0-9]+\}/g, (placeholder) => values.get(placeholder) ?? placeholder));
}

/** A hook: the template with the title shortened to what the card leaves room for, or null when it leaves too little. */
function fillHook(template: string, facts: Facts, emoji: string): string | null {
  const frame = tidyWhitespace(template.replace('{subject}', '').replace('{streamer}', facts.streamer).replace('{emoji}', emoji));
  const fitted = fitSubject(facts.title, HOOK_MAX_LENGTH - perceivedLength(frame), facts.language);
  if (!fitted) return null;
  // A card opens with a capital, but a streamer's name is spelled as they spell it (xQc).
  const subject = template.startsWith('{subject}') ? capitalize(fitted) : fitted;
  const hook = tidyWhitespace(template.replace('{streamer}', facts.streamer).replace('{emoji}', emoji).replace('{subject}', subject));
  return perceivedLength(hook) <= HOOK_MAX_LENGTH ? hook : null;
}

/** At least this much room for the subject, or the card says nothing. */
const MIN_SUBJECT = 10;

/** The title, or its leading words ended on a word that carries meaning, within `room`. */
function fitSubject(title: string, room: number, language: string): string | null {
  if (room < MIN_SUBJECT) return null;
  const subject = title.replace(/[.。]+$/u, '');
  if (perceivedLength(subject) <= room) return subject;
  const spans = wordSpans(subject, language);
  const fits = (count: number) => {
    const last = spans[count - 1];
    return last ? perceivedLength(subject.slice(0, last.index + last.word.length)) + 1 <= room : false;
  };
  let count = 0;
  while (count < spans.length && fits(count + 1)) count++;
  while (count > 1 && isStopWord(spans[count - 1]?.word ?? '', language)) count--;
  const last = spans[count - 1];
  // Not even the first word fits (one long token, a script without spaces): cut it.
  if (!last) return `${cutToLength(subject, room - 1)}…`;
  return `${subject.slice(0, last.index + last.word.length)}…`;
}

/** The leading characters of a text within `max` as perceived (CJK counts double), never splitting a character. */
function cutToLength(text: string, max: number): string {
  let out = '';
  for (const char of text) {
    if (perceivedLength(out + char) > max) break;
    out += char;
  }
  return out;
}

function capitalize(text: string): string {
  return text.replace(/^\p{Ll}/u, (letter) => letter.toUpperCase());
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
 * about, then the transcript — or chosen by the seed; a different second one; and the other
 * emoji a caption may take instead when its text with the first would repeat an earlier clip's.
 */
function pickEmoji(title: string, transcript: string | null, seed: number): [string, string, string[]] {
  const moodOf = (text: string) => MOODS.find(([pattern]) => pattern.test(text))?.[1];
  const mood = moodOf(title) ?? (transcript ? moodOf(transcript) : undefined);
  const primary = mood ?? pickBySeed(DEFAULT_EMOJI, seed);
  const others = SECOND_EMOJI.filter((emoji) => emoji !== primary);
  const secondary = others[(seed >>> 8) % others.length] ?? '👀';
  return [primary, secondary, DEFAULT_EMOJI.filter((emoji) => emoji !== primary)];
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
