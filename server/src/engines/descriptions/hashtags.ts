import { DESCRIPTION_MAX_LENGTH } from '@clipshift/shared';
import { isStopWord } from './stopwords.ts';
import type { DescriptionInput } from './types.ts';
import { detectLanguage, truncateAtWord, words } from './text.ts';

/** What the product tips suggest (spec section 5). */
export const MIN_HASHTAGS = 3;
export const MAX_HASHTAGS = 5;
/** Longer tags are unreadable and nobody searches them; a long game name is shortened at a word. */
const MAX_TAG_LENGTH = 40;

/**
 * Reach tags, in the order they are added when a description needs filler. They say nothing about
 * the clip, so the generator adds at most one when it has specific tags and the scorer values them less.
 */
export const GENERIC_HASHTAGS = ['twitch', 'fyp', 'clips', 'gaming'] as const;
const GENERIC_KEYS: ReadonlySet<string> = new Set([
  ...GENERIC_HASHTAGS,
  'foryou', 'foryoupage', 'fy', 'fypシ', 'viral', 'trending', 'explore', 'xyzbca', 'tiktok',
  'twitchclips', 'twitchstreamer', 'twitchtv', 'clip', 'stream', 'streamer', 'streaming', 'livestream',
  'gamer', 'gamers', 'game', 'games', 'videogames', 'funny', 'meme', 'memes', 'highlights',
]);

/** Twitch categories that are not games: #gaming would mislead there. */
const NON_GAME_CATEGORIES: ReadonlySet<string> = new Set([
  'just chatting', 'irl', 'music', 'art', 'asmr', 'talk shows & podcasts', 'pools, hot tubs, and beaches',
  'travel & outdoors', 'food & drink', 'sports', 'special events', 'makers & crafting', 'science & technology',
]);

/** Hype words describe every clip, so they make weak tags: kept, but after the real topic words. */
const HYPE_WORDS: ReadonlySet<string> = new Set([
  'insane', 'crazy', 'funny', 'epic', 'best', 'wild', 'wow', 'unbelievable', 'hilarious', 'amazing', 'huge',
  'craziest', 'funniest', 'biggest', 'moment', 'moments', 'new', 'first', 'last', 'big', 'great', 'good', 'bad',
]);

/** Hashtag characters: letters (any script), combining marks (Devanagari, Thai…), digits and underscore. */
const NOT_TAG_CHAR = /[^\p{L}\p{M}\p{N}_]+/u;
const HAS_LETTER = /\p{L}/u;

/** The case-insensitive identity of a tag: #xQc and #XQC are the same tag. */
export function tagKey(tag: string): string {
  return tag.normalize('NFKC').replace(/^#+/, '').toLowerCase();
}

export function isGenericHashtag(tag: string): boolean {
  return GENERIC_KEYS.has(tagKey(tag));
}

/**
 * A tag name (without '#') from any text, or null when nothing usable is left: "Counter-Strike 2"
 * → CounterStrike2, "Baldur's Gate 3" → BaldursGate3, "#xQc" → xQc. Multi-word text is joined in
 * PascalCase so the tag stays readable; a tag needs at least one letter (#2024 says nothing).
 */
export function normalizeHashtag(raw: string): string | null {
  const text = raw.normalize('NFKC').replace(/^#+/, '').replace(/['’]/g, '');
  const parts = text.split(NOT_TAG_CHAR).filter(Boolean);
  if (parts.length === 0) return null;
  const joined = parts.length === 1 ? (parts[0] ?? '') : joinWithinLength(parts.map(capitalizeFirst));
  return HAS_LETTER.test(joined) ? joined : null;
}

function capitalizeFirst(word: string): string {
  const first = word.charAt(0);
  return first.toUpperCase() + word.slice(1);
}

/** Joins whole words while they fit, so a very long game name becomes its leading words. */
function joinWithinLength(parts: readonly string[]): string {
  let joined = '';
  for (const part of parts) {
    if (joined && joined.length + part.length > MAX_TAG_LENGTH) break;
    joined += part;
  }
  return joined.slice(0, MAX_TAG_LENGTH);
}

/** First spelling wins; #XQC after #xQc is dropped. */
export function dedupeHashtags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const tag of tags) {
    const key = tagKey(tag);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    unique.push(tag);
  }
  return unique;
}

export type TagSource = DescriptionInput;

/** The tags that say what a clip is about, most relevant first, plus the reach tags that fit it. */
export interface RelevantTags {
  language: string;
  streamer: string | null;
  game: string | null;
  /** Topic words from the title first, then words the transcript repeats; lowercase. */
  keywords: string[];
  /** Reach tags suitable for this clip, in the order to use them. */
  generic: string[];
  /** Keys that count as relevant when a tag (from the model, say) is judged: all of the above plus title and game words. */
  relevantKeys: ReadonlySet<string>;
}

const MAX_KEYWORDS = 6;
const MAX_TRANSCRIPT_KEYWORDS = 2;

export function relevantHashtags(source: TagSource): RelevantTags {
  const language = detectLanguage(`${source.title} ${source.transcript ?? ''}`, source.language);
  const streamer = normalizeHashtag(source.streamer);
  const game = source.gameName ? normalizeHashtag(source.gameName) : null;
  const gameWords = source.gameName ? keywordsOf(source.gameName, language) : [];
  const taken = new Set([streamer, game, ...gameWords].filter((tag): tag is string => tag !== null).map(tagKey));
  const titleWords = keywordsOf(source.title, language);
  const fromTitle = orderTitleKeywords(titleWords);
  const fromTranscript = source.transcript ? repeatedKeywords(source.transcript, language, MAX_TRANSCRIPT_KEYWORDS) : [];
  const keywords = dedupeHashtags([...fromTitle, ...fromTranscript])
    .filter((word) => !taken.has(tagKey(word)))
    .map((word) => normalizeHashtag(word))
    .filter((tag): tag is string => tag !== null)
    .slice(0, MAX_KEYWORDS);
  const isGame = source.gameName !== null && !NON_GAME_CATEGORIES.has(source.gameName.trim().toLowerCase());
  const generic = GENERIC_HASHTAGS.filter((tag) => tag !== 'gaming' || isGame);
  const relevantKeys = new Set([...taken, ...titleWords.map(tagKey), ...keywords.map(tagKey)]);
  return { language, streamer, game, keywords, generic: [...generic], relevantKeys };
}

/** Words that could be a topic: not a stop word, long enough to mean something, at least one letter. */
function isKeyword(word: string, language: string): boolean {
  if (!HAS_LETTER.test(word) || /['’]/.test(word) || word.length > MAX_TAG_LENGTH) return false;
  if (isStopWord(word, language)) return false;
  if (/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u.test(word)) {
    // Hiragana-only tokens are grammar (particles, endings); a single CJK character is too vague.
    return word.length >= 2 && !/^\p{Script=Hiragana}+$/u.test(word);
  }
  return word.length >= 3;
}

function keywordsOf(text: string, language: string): string[] {
  const found = words(text.normalize('NFKC').toLowerCase(), language).filter((word) => isKeyword(word, language));
  return [...new Set(found)];
}

function orderTitleKeywords(keywords: readonly string[]): string[] {
  const topical = keywords.filter((word) => !HYPE_WORDS.has(word));
  const hype = keywords.filter((word) => HYPE_WORDS.has(word));
  return [...topical, ...hype];
}

/** Words the speaker repeats are what the clip is about; one mention is usually noise. */
function repeatedKeywords(transcript: string, language: string, limit: number): string[] {
  const counts = new Map<string, number>();
  for (const word of words(transcript.normalize('NFKC').toLowerCase(), language)) {
    if (!isKeyword(word, language) || HYPE_WORDS.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  // Map keeps first-occurrence order, and sort is stable, so ties stay in spoken order.
  return [...counts.entries()]
    .filter(([, count]) => count >= 2)
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([word]) => word);
}

/**
 * The generator's tags for one description: streamer, game, the first keyword and one more chosen
 * by `variant` (so candidates differ a little), then reach tags only as needed — one when there are
 * three specific tags, enough to reach three when there are fewer.
 */
export function pickHashtags(relevant: RelevantTags, variant: number): string[] {
  const [firstKeyword, ...otherKeywords] = relevant.keywords;
  const rotated = rotate(otherKeywords, variant);
  const specific = dedupeHashtags(
    [relevant.streamer, relevant.game, firstKeyword, ...rotated].filter((tag): tag is string => Boolean(tag)),
  ).slice(0, MAX_HASHTAGS - 1);
  const target = specific.length >= 4 ? specific.length : specific.length === 3 ? 4 : MIN_HASHTAGS;
  const tags = [...specific];
  for (const tag of rotate(relevant.generic, variant)) {
    if (tags.length >= target) break;
    tags.push(tag);
  }
  return dedupeHashtags(tags).slice(0, MAX_HASHTAGS);
}

function rotate<T>(list: readonly T[], by: number): T[] {
  if (list.length === 0) return [];
  const start = by % list.length;
  return [...list.slice(start), ...list.slice(0, start)];
}

/**
 * Makes any tag list fit the 3-to-5 rule: normalised and deduplicated; over five, reach tags go
 * first (from the end), then the tail; under three, the clip's own tags and then reach tags are added.
 */
export function fitHashtags(existing: readonly string[], relevant: RelevantTags): string[] {
  const tags = dedupeHashtags(existing.map(normalizeHashtag).filter((tag): tag is string => tag !== null));
  while (tags.length > MAX_HASHTAGS) {
    const lastGeneric = findLastIndex(tags, isGenericHashtag);
    if (lastGeneric < 0) break;
    tags.splice(lastGeneric, 1);
  }
  const fitted = tags.slice(0, MAX_HASHTAGS);
  const fillers = [relevant.streamer, relevant.game, ...relevant.keywords, ...relevant.generic, ...GENERIC_HASHTAGS];
  for (const filler of fillers) {
    if (fitted.length >= MIN_HASHTAGS) break;
    if (filler && !fitted.some((tag) => tagKey(tag) === tagKey(filler))) fitted.push(filler);
  }
  return fitted;
}

function findLastIndex<T>(list: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i];
    if (item !== undefined && predicate(item)) return i;
  }
  return -1;
}

/** Hashtags as the shared counter sees them (HASHTAG_PATTERN), with combining marks kept inside the tag. */
const INLINE_HASHTAG = /(^|\s)#([\p{L}\p{M}\p{N}_]+)/gu;
const TRAILING_TAG_TOKEN = /^#[\p{L}\p{M}\p{N}_]+[,.;·|]*$/u;

/**
 * Separates a description into its caption text and its hashtags: the trailing block of tags is
 * removed, and tags inside the sentence lose their '#' but keep their word ("watch #xQc win" →
 * "watch xQc win"), so every description ends up as one caption plus one tag block.
 */
export function splitDescription(text: string): { body: string; tags: string[] } {
  const tokens = [...text.matchAll(/\S+/g)];
  let bodyEnd = text.length;
  const trailing: string[] = [];
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    if (!token || !TRAILING_TAG_TOKEN.test(token[0])) break;
    trailing.unshift(token[0].replace(/[,.;·|]+$/u, '').slice(1));
    bodyEnd = token.index;
  }
  const inline: string[] = [];
  const body = text.slice(0, bodyEnd).replace(INLINE_HASHTAG, (_match, lead: string, name: string) => {
    inline.push(name);
    return `${lead}${name}`;
  });
  return { body: body.trim(), tags: [...inline, ...trailing] };
}

/**
 * Caption plus tag block, within the 2200-character limit: when too long, the caption is cut at a
 * word and the hashtags are kept, since they are what makes the post findable.
 */
export function composeDescription(body: string, tags: readonly string[]): string {
  const block = tags.map((tag) => `#${tag}`).join(' ');
  if (!block) return truncateAtWord(body, DESCRIPTION_MAX_LENGTH);
  const room = DESCRIPTION_MAX_LENGTH - block.length - 1;
  const caption = truncateAtWord(body, room);
  return caption ? `${caption} ${block}` : block;
}
