import { isGenericHashtag, relevantHashtags, splitDescription, tagKey, type RelevantTags, type TagSource } from './hashtags.ts';
import { comparisonKey, countEmoji, perceivedLength, wordSpans, words } from './text.ts';

/*
 * Ranks description candidates by what tends to perform on short-video platforms. Pure: the same
 * text and clip always get the same score, whoever wrote the text (the built-in generator or a model).
 *
 * Components, each 0..1:
 *   hook        (0.30) the first ~8 words grab attention: a question, a power/emotion word,
 *                      talking to the viewer, a number, an emoji or an exclamation.
 *   length      (0.20) caption text (without hashtags) of 60-150 characters is ideal; shorter
 *                      says too little, past 300 it is cut off behind "more" and is penalised.
 *   hashtags    (0.30) 3-5 tags (the product tip), tags that match the clip (streamer, game,
 *                      title or transcript words) rather than reach-only tags, streamer and game covered.
 *   readability (0.20) no shouting in capitals, no "!!!"/"???" runs, no emoji spam, no "loooool",
 *                      no word repeated over and over, no tag twice.
 * The total is the weighted sum. When a set is ranked, a candidate whose words are nearly the same
 * as a higher-ranked one's (Jaccard similarity of word sets above 0.8) has its score halved, so the
 * user is offered real alternatives rather than five spellings of one caption.
 */

export interface ScoreComponents {
  hook: number;
  length: number;
  hashtags: number;
  readability: number;
}

export interface ScoreBreakdown extends ScoreComponents {
  total: number;
}

export const SCORE_WEIGHTS: Readonly<ScoreComponents> = { hook: 0.3, length: 0.2, hashtags: 0.3, readability: 0.2 };
/** Word-set Jaccard similarity above which a candidate counts as a near-duplicate. */
export const DUPLICATE_SIMILARITY = 0.8;
/** What a near-duplicate's score is multiplied by. */
export const DUPLICATE_FACTOR = 0.5;

/** The clip facts the scorer judges relevance against. */
export type ScoringContext = TagSource;

export interface RankedDescription {
  description: string;
  rank: number;
}

/** How many leading words make the hook: about what a viewer reads before deciding to expand. */
const HOOK_WORDS = 8;

const HOOK_SIGNALS = { question: 0.4, powerWord: 0.35, secondPerson: 0.3, number: 0.25, emoji: 0.2, exclamation: 0.1 } as const;

/** Words that make people stop scrolling, in the languages the product offers most (spec section 5). */
const POWER_WORDS = new Set(
  `watch wait look stop imagine pov nobody never always insane crazy unbelievable impossible wild epic funniest
  craziest best worst biggest secret shocking shocked scary terrifying hilarious rage raging clutch destroyed destroys
  broke breaks scream screams screaming lost loses won wins fail fails omg wow finally legendary
  krass krasse wahnsinn unglaublich verrückt beste bester schlimmste niemand nie schau warte achtung episch lustig
  incroyable fou folle dingue jamais personne regarde attends pire meilleur énorme choquant épique
  increíble loco locura nunca nadie mira espera peor mejor épico brutal
  incrível insano louco ninguém olha pior melhor surtou
  incredibile pazzesco folle mai nessuno guarda aspetta peggiore migliore epico
  ヤバ やば 神 まさか 衝撃 最強 爆笑 絶叫 伝説 奇跡 ありえない`.split(/\s+/),
);

const SECOND_PERSON = new Set(
  `you your you're youre yours yourself u ya du dich dir dein deine euch ihr tu toi ton ta tes vous votre vos
  tú te ti usted ustedes você vocês teu tua tuo voi je jij jouw jullie ты тебя вы вас твой ваш
  あなた 君 きみ お前 おまえ`.split(/\s+/),
);

/** Scripts where a term is matched as a substring, since the segmenter may split it differently. */
const WIDE_TERM = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WIDE_TERMS = [...POWER_WORDS, ...SECOND_PERSON].filter((term) => WIDE_TERM.test(term));

export function scoreDescription(text: string, context: ScoringContext): ScoreBreakdown {
  return scoreWith(text, relevantHashtags(context));
}

function scoreWith(text: string, relevant: RelevantTags): ScoreBreakdown {
  const { body } = splitDescription(text);
  const tags = hashtagsOf(text);
  const components: ScoreComponents = {
    hook: hookScore(body, relevant.language),
    length: lengthScore(body),
    hashtags: hashtagScore(tags, relevant),
    readability: readabilityScore(body, text, tags),
  };
  const total =
    components.hook * SCORE_WEIGHTS.hook +
    components.length * SCORE_WEIGHTS.length +
    components.hashtags * SCORE_WEIGHTS.hashtags +
    components.readability * SCORE_WEIGHTS.readability;
  return { ...components, total: clamp01(total) };
}

/** Every hashtag in the text, wherever it sits (the shared counter counts them all too). */
function hashtagsOf(text: string): string[] {
  return [...text.matchAll(/(^|\s)#([\p{L}\p{M}\p{N}_]+)/gu)].map((match) => match[2] ?? '');
}

/** The caption up to the start of its ninth word, punctuation and emoji included. */
function hookWindow(body: string, language: string): { text: string; words: string[] } {
  const spans = wordSpans(body, language);
  const end = spans[HOOK_WORDS]?.index ?? body.length;
  return { text: body.slice(0, end), words: spans.slice(0, HOOK_WORDS).map((span) => span.word.toLowerCase()) };
}

function hookScore(body: string, language: string): number {
  if (!body) return 0;
  const window = hookWindow(body, language);
  const has = (set: ReadonlySet<string>) =>
    window.words.some((word) => set.has(word)) || WIDE_TERMS.some((term) => set.has(term) && window.text.includes(term));
  let score = 0;
  if (/[?？¿؟]/.test(window.text)) score += HOOK_SIGNALS.question;
  if (has(POWER_WORDS)) score += HOOK_SIGNALS.powerWord;
  if (has(SECOND_PERSON)) score += HOOK_SIGNALS.secondPerson;
  if (/\p{Nd}/u.test(window.text)) score += HOOK_SIGNALS.number;
  if (countEmoji(window.text) > 0) score += HOOK_SIGNALS.emoji;
  if (/[!！]/.test(window.text)) score += HOOK_SIGNALS.exclamation;
  return Math.min(1, score);
}

/** (perceived characters, score) corners of the length curve; linear in between. */
const LENGTH_CURVE: readonly (readonly [number, number])[] = [
  [0, 0],
  [15, 0.2],
  [60, 1],
  [150, 1],
  [300, 0.5],
  [600, 0.15],
  [2200, 0],
];

function lengthScore(body: string): number {
  return interpolate(LENGTH_CURVE, perceivedLength(body));
}

function interpolate(curve: readonly (readonly [number, number])[], x: number): number {
  let previous = curve[0] ?? ([0, 0] as const);
  for (const point of curve) {
    if (x <= point[0]) {
      const span = point[0] - previous[0];
      return span === 0 ? point[1] : previous[1] + ((x - previous[0]) / span) * (point[1] - previous[1]);
    }
    previous = point;
  }
  return previous[1];
}

const TAG_PARTS = { count: 0.4, relevance: 0.35, coverage: 0.25 } as const;
const TAG_VALUE = { relevant: 1, unknown: 0.6, generic: 0.3 } as const;

function hashtagScore(tags: readonly string[], relevant: RelevantTags): number {
  const keys = [...new Set(tags.map(tagKey))];
  if (keys.length === 0) return 0;
  const meanValue = keys.reduce((sum, key) => sum + tagValue(key, relevant), 0) / keys.length;
  const targets = [relevant.streamer, relevant.game].filter((tag): tag is string => tag !== null).map(tagKey);
  // Without a usable streamer or game there is nothing to cover; relevance alone decides.
  const coverage = targets.length ? targets.filter((target) => keys.includes(target)).length / targets.length : meanValue;
  return TAG_PARTS.count * countScore(keys.length) + TAG_PARTS.relevance * meanValue + TAG_PARTS.coverage * coverage;
}

function countScore(count: number): number {
  if (count >= 3 && count <= 5) return 1;
  if (count === 2 || count === 6) return 0.5;
  if (count === 1 || count === 7) return 0.25;
  return 0;
}

function tagValue(key: string, relevant: RelevantTags): number {
  if (isRelevantTag(key, relevant)) return TAG_VALUE.relevant;
  return isGenericHashtag(key) ? TAG_VALUE.generic : TAG_VALUE.unknown;
}

/** #xqcclips and #eldenringclips are about the clip too, so containing the streamer or game counts. */
function isRelevantTag(key: string, relevant: RelevantTags): boolean {
  if (relevant.relevantKeys.has(key)) return true;
  return [relevant.streamer, relevant.game].some((tag) => tag !== null && tag.length >= 3 && key.includes(tagKey(tag)));
}

const READABILITY_PENALTY = {
  shouting: 0.5,
  loud: 0.2,
  punctuationRun: 0.15,
  punctuationCap: 0.45,
  extraEmoji: 0.1,
  emojiCap: 0.4,
  elongation: 0.1,
  elongationCap: 0.2,
  repeatedWord: 0.15,
  repeatedWordCap: 0.3,
  duplicateTag: 0.2,
} as const;
/** Emoji beyond this many read as spam. */
const EMOJI_ALLOWANCE = 3;

function readabilityScore(body: string, text: string, tags: readonly string[]): number {
  if (!body) return 0;
  const p = READABILITY_PENALTY;
  let penalty = capsPenalty(body);
  const runs = body.match(/([!?！？])\1+|[!?！？]{3,}|\.{4,}/g)?.length ?? 0;
  penalty += Math.min(p.punctuationCap, runs * p.punctuationRun);
  penalty += Math.min(p.emojiCap, Math.max(0, countEmoji(text) - EMOJI_ALLOWANCE) * p.extraEmoji);
  const elongated = body.match(/(\p{L})\1{3,}/gu)?.length ?? 0;
  penalty += Math.min(p.elongationCap, elongated * p.elongation);
  penalty += Math.min(p.repeatedWordCap, repeatedWords(body) * p.repeatedWord);
  if (new Set(tags.map(tagKey)).size < tags.length) penalty += p.duplicateTag;
  return clamp01(1 - penalty);
}

/** Mostly capital letters reads as shouting; a few acronyms or a name in capitals do not. */
function capsPenalty(body: string): number {
  const cased = body.match(/[\p{Lu}\p{Ll}]/gu) ?? [];
  if (cased.length < 12) return 0;
  const upper = cased.filter((letter) => /\p{Lu}/u.test(letter)).length / cased.length;
  if (upper > 0.7) return READABILITY_PENALTY.shouting;
  return upper > 0.5 ? READABILITY_PENALTY.loud : 0;
}

/** Words of three or more letters used three times or more. */
function repeatedWords(body: string): number {
  const counts = new Map<string, number>();
  for (const word of words(body.toLowerCase(), 'en')) {
    if (word.length >= 3) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.values()].filter((count) => count >= 3).length;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** Ranks are shown as percentages; three decimals is plenty and keeps stored JSON tidy. */
function roundRank(value: number): number {
  return Math.round(clamp01(value) * 1000) / 1000;
}

interface Scored {
  description: string;
  base: number;
  words: ReadonlySet<string>;
}

/**
 * Scores a set, drops exact duplicates (same text ignoring case and spacing, first kept) and
 * blanks, and orders it best first. Picking greedily — each time the best score after the
 * near-duplicate penalty against those already picked — keeps the order consistent: a penalty
 * only ever grows as more is picked, so ranks come out non-increasing.
 */
export function rankDescriptions(candidates: readonly string[], context: ScoringContext): RankedDescription[] {
  const relevant = relevantHashtags(context);
  const remaining: Scored[] = uniqueCandidates(candidates).map((description) => ({
    description,
    base: scoreWith(description, relevant).total,
    words: bodyWordSet(description, relevant.language),
  }));
  const picked: Scored[] = [];
  const ranked: RankedDescription[] = [];
  while (remaining.length > 0) {
    const { index, score } = bestNext(remaining, picked);
    const [next] = remaining.splice(index, 1);
    if (!next) break;
    picked.push(next);
    ranked.push({ description: next.description, rank: roundRank(score) });
  }
  return ranked;
}

function uniqueCandidates(candidates: readonly string[]): string[] {
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const candidate of candidates) {
    const key = comparisonKey(candidate);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    unique.push(candidate.trim());
  }
  return unique;
}

function bestNext(remaining: readonly Scored[], picked: readonly Scored[]): { index: number; score: number } {
  let best = { index: 0, score: -1 };
  remaining.forEach((candidate, index) => {
    const duplicate = picked.some((other) => jaccard(candidate.words, other.words) > DUPLICATE_SIMILARITY);
    const score = duplicate ? candidate.base * DUPLICATE_FACTOR : candidate.base;
    if (score > best.score) best = { index, score };
  });
  return best;
}

function bodyWordSet(description: string, language: string): ReadonlySet<string> {
  return new Set(words(splitDescription(description).body.toLowerCase(), language));
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}
