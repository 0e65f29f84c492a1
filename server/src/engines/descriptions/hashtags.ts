import { DESCRIPTION_MAX_LENGTH } from '@clipshift/shared';
import { communityOf, GAME_COMMUNITIES, GAMING_TERMS, NOT_NAMES, PLATFORM_TAGS, platformTags, SOURCE_TAGS, type GameCommunity } from './community-tags.ts';
import { isStopWord } from './stopwords.ts';
import type { DescriptionInput } from './types.ts';
import { detectLanguage, truncateAtWord, wordSpans, words } from './text.ts';

/** What the product tips suggest (spec section 5). */
export const MIN_HASHTAGS = 3;
export const MAX_HASHTAGS = 5;
/** Longer tags are unreadable and nobody searches them; a long game name is shortened at a word. */
const MAX_TAG_LENGTH = 40;

/**
 * Reach tags: they say nothing about the clip, so the generator adds one per description (its
 * target platforms' own, community-tags.ts) and the scorer values them less than the clip's tags.
 */
const GENERIC_KEYS: ReadonlySet<string> = new Set([
  ...Object.values(PLATFORM_TAGS).flat(),
  ...SOURCE_TAGS,
  'fyp', 'foryou', 'foryoupage', 'fy', 'fypシ', 'viral', 'trending', 'explore', 'xyzbca', 'tiktok', 'shorts', 'youtubeshorts', 'reels',
  'clips', 'twitchstreamer', 'twitchtv', 'clip', 'stream', 'streamer', 'streaming', 'livestream',
  'gaming', 'gamer', 'gamers', 'game', 'games', 'videogames', 'funny', 'meme', 'memes', 'highlights',
]);

/** Hype words a title shouts: capitalised or not, they are never a name. */
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
  /** The game's own tag, spelled as its community does (#valorant), or made from the category's name. */
  game: string | null;
  /** The game community's other tags (#valorantclips), in the order the table gives them. */
  community: string[];
  /** Known terms (#clutch, #jett, #1v5) and proper nouns of the title, then of the speech. */
  keywords: string[];
  /** Reach tags of the clip's target platforms (#fyp, #shorts, #reels), in the order to use them. */
  generic: string[];
  /** The category is not a game (Just Chatting, IRL). */
  nonGame: boolean;
  /** Keys that count as relevant when a tag (from the model, say) is judged: all of the above plus the game's words. */
  relevantKeys: ReadonlySet<string>;
  /** Keys of the title's and speech's other words: never a tag, whoever suggests it (#old, #hard, #walked). */
  commonKeys: ReadonlySet<string>;
}

const MAX_KEYWORDS = 4;
/** One mention in speech is usually noise; a name or term said twice is what the clip is about. */
const TRANSCRIPT_MENTIONS = 2;
/** The longest known term, in words ("rebirth island", "victory royale"). */
const MAX_TERM_WORDS = 3;
/** "1v5", "1v1", "2v8": a clutch's odds, searched as they are written. */
const ODDS = /^\d{1,2}v\d{1,2}$/;
/** Languages that capitalise every noun, where a capital letter does not mark a name. */
const NOUNS_CAPITALISED = new Set(['de', 'lb']);

export function relevantHashtags(source: TagSource): RelevantTags {
  const language = detectLanguage(`${source.title} ${source.transcript ?? ''}`, source.language);
  const streamer = normalizeHashtag(source.streamer);
  const community = communityOf(source.gameName);
  const game = community ? community.tags[0] : source.gameName ? normalizeHashtag(source.gameName) : null;
  const communityTags = community ? community.tags.slice(1) : [];
  const gameWords = source.gameName ? wordKeys(source.gameName, language) : [];
  const taken = new Set([streamer, game, ...communityTags, ...gameWords, ...wordKeys(source.streamer, language)].filter((tag): tag is string => tag !== null).map(tagKey));
  const terms = termIndex(community);
  const fromTitle = [...termsIn(source.title, language, terms), ...properNounsIn(source.title, language)];
  const fromSpeech = source.transcript ? repeated([...termsIn(source.transcript, language, terms), ...properNounsIn(source.transcript, language)], TRANSCRIPT_MENTIONS) : [];
  const keywords = dedupeHashtags([...fromTitle, ...fromSpeech].map(normalizeHashtag).filter((tag): tag is string => tag !== null))
    .filter((tag) => !taken.has(tagKey(tag)))
    .slice(0, MAX_KEYWORDS);
  const relevantKeys = new Set([...taken, ...keywords.map(tagKey), ...termWordKeys(keywords, terms)]);
  const spoken = [...wordKeys(source.title, language), ...(source.transcript ? wordKeys(source.transcript, language) : [])];
  const commonKeys = new Set(spoken.filter((key) => !relevantKeys.has(key)));
  return { language, streamer, game, community: communityTags, keywords, generic: platformTags(source.platforms), nonGame: community?.nonGame ?? false, relevantKeys, commonKeys };
}

function wordKeys(text: string, language: string): string[] {
  return words(text, language).map(tagKey);
}

/** The terms a clip's words may name: its game's own, every game's one-word name, gaming's in general. */
interface TermIndex {
  terms: ReadonlySet<string>;
  /** The words of each multi-word term's tag ("noscope" → no, scope): those words alone are about the clip too. */
  parts: ReadonlyMap<string, readonly string[]>;
}

const GAME_NAME_TERMS = GAME_COMMUNITIES.flatMap((entry) => (entry.nonGame ? [] : entry.names.filter((name) => /^[\p{L}\p{N}]+$/u.test(name))));

function termIndex(community: GameCommunity | null): TermIndex {
  const all = [...(community?.terms ?? []), ...GAME_NAME_TERMS, ...GAMING_TERMS];
  const parts = new Map(all.filter((term) => term.includes(' ')).map((term) => [term.replaceAll(' ', ''), term.split(' ')] as const));
  return { terms: new Set(all), parts };
}

/** The known terms a text uses, in order, longest match first ("no scope" before "scope"). */
function termsIn(text: string, language: string, index: TermIndex): string[] {
  const tokens = words(text.normalize('NFKC').toLowerCase(), language);
  const found: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (let length = Math.min(MAX_TERM_WORDS, tokens.length - i); length >= 1; length--) {
      const phrase = tokens.slice(i, i + length).join(' ');
      if (!index.terms.has(phrase) && !(length === 1 && ODDS.test(phrase))) continue;
      found.push(phrase.replaceAll(' ', ''));
      i += length - 1;
      break;
    }
  }
  return found;
}

function termWordKeys(keywords: readonly string[], index: TermIndex): string[] {
  return keywords.flatMap((keyword) => index.parts.get(tagKey(keyword)) ?? []);
}

/**
 * Names in a text: a capitalised word inside a sentence ("Gerald", "TwitchCon"), never its first
 * word, an all-capitals word (emphasis, not a name), a stop word or an exclamation. A title where most
 * words are capitalised (Title Case) tells nothing, nor do languages that capitalise every noun.
 */
function properNounsIn(text: string, language: string): string[] {
  if (NOUNS_CAPITALISED.has(language)) return [];
  const normalized = text.normalize('NFKC');
  const spans = wordSpans(normalized, language);
  const later = spans.slice(1).filter((span) => HAS_LETTER.test(span.word));
  const capitalised = later.filter((span) => /^\p{Lu}/u.test(span.word)).length;
  if (later.length >= 2 && capitalised / later.length > 0.5) return [];
  return spans.filter((span, position) => position > 0 && !startsSentence(normalized, span.index) && isNameLike(span.word, language)).map((span) => span.word);
}

function startsSentence(text: string, index: number): boolean {
  return /(?:^|[.!?…。！？:;])\s*$/u.test(text.slice(0, index));
}

function isNameLike(word: string, language: string): boolean {
  if (!/^\p{Lu}/u.test(word) || !/\p{Ll}/u.test(word) || word.length < 3 || /['’]/.test(word)) return false;
  const lower = word.toLowerCase();
  return !isStopWord(lower, language) && !NOT_NAMES.has(lower) && !HYPE_WORDS.has(lower);
}

/** Items said at least `times` times (any case), the most said first, ties in the order first said, as first spelled. */
function repeated(items: readonly string[], times: number): string[] {
  const counts = new Map<string, { spelling: string; count: number }>();
  for (const item of items) {
    const entry = counts.get(item.toLowerCase()) ?? { spelling: item, count: 0 };
    counts.set(item.toLowerCase(), { ...entry, count: entry.count + 1 });
  }
  // Map keeps first-occurrence order, and sort is stable, so ties stay in spoken order.
  return [...counts.values()]
    .filter((entry) => entry.count >= times)
    .sort((a, b) => b.count - a.count)
    .map((entry) => entry.spelling);
}

/**
 * The generator's tags for one description: the streamer, the game, up to two of the clip's own
 * terms and community tags, and one reach tag of its target platforms. `variant` (the candidate)
 * and `seed` (the clip) choose which, so a clip's candidates and a streamer's clips differ.
 */
export function pickHashtags(relevant: RelevantTags, variant: number, seed = 0): string[] {
  const [firstKeyword, ...otherKeywords] = relevant.keywords;
  const extras = dedupeHashtags([firstKeyword, ...rotate([...otherKeywords, ...relevant.community], seed + variant)].filter((tag): tag is string => Boolean(tag))).slice(0, 2);
  const specific = dedupeHashtags([relevant.streamer, relevant.game, ...extras].filter((tag): tag is string => Boolean(tag)));
  const tags = [...specific];
  for (const tag of rotate(relevant.generic.length ? relevant.generic : SOURCE_TAGS, seed + variant)) {
    if (tags.length >= MIN_HASHTAGS && tags.length > specific.length) break;
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
 * Makes any tag list fit the 3-to-5 rule: normalised and deduplicated, stop words and the clip's
 * common words dropped (a model's #old is no better than ours); over five, reach tags go first (from
 * the end), then the tail; under three, the clip's own tags and then reach tags are added.
 */
export function fitHashtags(existing: readonly string[], relevant: RelevantTags): string[] {
  const tags = dedupeHashtags(existing.map(normalizeHashtag).filter((tag): tag is string => tag !== null && isUsableTag(tag, relevant)));
  while (tags.length > MAX_HASHTAGS) {
    const lastGeneric = findLastIndex(tags, isGenericHashtag);
    if (lastGeneric < 0) break;
    tags.splice(lastGeneric, 1);
  }
  const fitted = tags.slice(0, MAX_HASHTAGS);
  const fillers = [relevant.streamer, relevant.game, ...relevant.keywords, ...relevant.community, ...relevant.generic, ...SOURCE_TAGS];
  for (const filler of fillers) {
    if (fitted.length >= MIN_HASHTAGS) break;
    if (filler && !fitted.some((tag) => tagKey(tag) === tagKey(filler))) fitted.push(filler);
  }
  return fitted;
}

function isUsableTag(tag: string, relevant: RelevantTags): boolean {
  const key = tagKey(tag);
  if (relevant.relevantKeys.has(key)) return true;
  return !relevant.commonKeys.has(key) && !isStopWord(key, relevant.language);
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
