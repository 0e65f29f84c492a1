import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DESCRIPTION_MAX_LENGTH, descriptionStats } from '@clipshift/shared';
import { llmConfigFromEnv, suggestDescriptions, type DescriptionInput } from '../../server/src/engines/descriptions/index.ts';
import { fitDescription } from '../../server/src/engines/descriptions/suggest.ts';
import { DUPLICATE_FACTOR, SCORE_WEIGHTS, jaccard, rankDescriptions, scoreDescription, type RankedDescription } from '../../server/src/engines/descriptions/scorer.ts';
import { dedupeHashtags, fitHashtags, isGenericHashtag, normalizeHashtag, relevantHashtags, splitDescription, tagKey } from '../../server/src/engines/descriptions/hashtags.ts';
import { generateDescriptions, generateSuggestions, HOOK_MAX_LENGTH } from '../../server/src/engines/descriptions/generator.ts';
import { perceivedLength } from '../../server/src/engines/descriptions/text.ts';
import { type LlmConfig } from '../../server/src/engines/descriptions/llm.ts';
import { loadEnv } from '../../server/src/platform/env.ts';
import { createLogger, type Logger } from '../../server/src/platform/logger.ts';
import { chatCompletionsUrl } from '../../server/src/engines/providers/llm/client.ts';
import { DEFAULT_CANDIDATES, DEFAULT_HOOK, startFakeLlm, type FakeLlm } from '../fakes/llm/index.ts';
import { waitUntil } from '../helpers/wait.ts';

const CLIP: DescriptionInput = {
  title: 'Insane 1v5 clutch on the final boss',
  streamer: 'xQc',
  gameName: 'Elden Ring',
  transcript: null,
  language: 'en',
};
const TRANSCRIPT = "Okay okay, here we go. No way! I can't believe that actually worked! Chat, did you see that? The boss is dead.";
const silent = createLogger('silent');

/** Hashtag names in a description, as the shared counter finds them. */
function tagsOf(text: string): string[] {
  return [...text.matchAll(/(^|\s)#([\p{L}\p{M}\p{N}_]+)/gu)].map((match) => match[2] ?? '');
}

function tagKeysOf(text: string): string[] {
  return tagsOf(text).map(tagKey);
}

/** The product rules every suggestion set must meet, whoever wrote it. */
function expectValidSuggestions(descriptions: readonly RankedDescription[]): void {
  expect(descriptions.length).toBeGreaterThanOrEqual(3);
  const texts = descriptions.map((item) => item.description);
  expect(new Set(texts.map((text) => text.toLowerCase())).size).toBe(texts.length);
  for (const { description, rank } of descriptions) {
    expect(description.length).toBeLessThanOrEqual(DESCRIPTION_MAX_LENGTH);
    expect(description.trim()).not.toBe('');
    const { hashtags } = descriptionStats(description);
    expect(hashtags, description).toBeGreaterThanOrEqual(3);
    expect(hashtags, description).toBeLessThanOrEqual(5);
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThanOrEqual(1);
    expect(Math.round(rank * 1000) / 1000).toBe(rank);
  }
  const ranks = descriptions.map((item) => item.rank);
  expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
}

function expectEndsWithHashtags(description: string): void {
  const lastToken = description.trim().split(/\s+/).pop() ?? '';
  expect(lastToken.startsWith('#'), description).toBe(true);
}

function captureLogs(): { logger: Logger; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: createLogger('trace', sink), text: () => lines.join('') };
}

describe('hashtags', () => {
  it('normalises names into tags: letters, digits and underscore, any script, PascalCase for several words', () => {
    expect(normalizeHashtag('Counter-Strike 2')).toBe('CounterStrike2');
    expect(normalizeHashtag("Baldur's Gate 3")).toBe('BaldursGate3');
    expect(normalizeHashtag('league of legends')).toBe('LeagueOfLegends');
    expect(normalizeHashtag('#xQc')).toBe('xQc');
    expect(normalizeHashtag('Pokémon')).toBe('Pokémon');
    expect(normalizeHashtag('モンスターハンター ワイルズ')).toBe('モンスターハンターワイルズ');
    expect(normalizeHashtag('some_streamer')).toBe('some_streamer');
    expect(normalizeHashtag('2024')).toBeNull();
    expect(normalizeHashtag('!!!')).toBeNull();
    expect(normalizeHashtag('')).toBeNull();
  });

  it('dedupes case-insensitively, keeping the first spelling', () => {
    expect(dedupeHashtags(['xQc', 'XQC', 'EldenRing', 'eldenring', 'clutch'])).toEqual(['xQc', 'EldenRing', 'clutch']);
  });

  it('derives relevant tags from the streamer, the game’s community and the title’s known terms, never its common words', () => {
    const relevant = relevantHashtags(CLIP);
    expect(relevant.streamer).toBe('xQc');
    // Spelled as the community spells it (community-tags.ts), with its clip tag.
    expect(relevant.game).toBe('eldenring');
    expect(relevant.community).toEqual(['eldenringclips']);
    expect(relevant.keywords).toEqual(['1v5', 'clutch', 'boss']);
    // Stop words and adjectives of the title ("Insane", "final") are never tags.
    for (const common of ['the', 'on', 'insane', 'final']) expect(relevant.keywords).not.toContain(common);
    expect(relevant.nonGame).toBe(false);
    // No target platform known: the clip's source is the reach tag.
    expect(relevant.generic).toEqual(['twitchclips', 'twitch']);
    // A game the table does not know keeps its name as the tag.
    expect(relevantHashtags({ ...CLIP, gameName: 'Hollow Knight: Silksong' }).game).toBe('HollowKnightSilksong');
  });

  it('uses the reach tags of the clip’s target platforms: #fyp on TikTok, #shorts on YouTube, #reels on Instagram and Facebook', () => {
    expect(relevantHashtags({ ...CLIP, platforms: ['tiktok'] }).generic).toEqual(['fyp', 'foryou']);
    expect(relevantHashtags({ ...CLIP, platforms: ['youtube'] }).generic).toEqual(['shorts']);
    expect(relevantHashtags({ ...CLIP, platforms: ['tiktok', 'youtube', 'instagram', 'facebook'] }).generic).toEqual(['fyp', 'shorts', 'reels', 'foryou', 'instagramreels', 'facebookreels']);
    const tags = generateDescriptions({ ...CLIP, platforms: ['youtube'] }).flatMap((item) => tagKeysOf(item.description));
    expect(tags).toContain('shorts');
    expect(tags).not.toContain('fyp');
  });

  it('takes names the speech repeats as keywords, not its common nouns, and knows a category that is not a game', () => {
    const relevant = relevantHashtags({ ...CLIP, title: 'Late night talk', gameName: 'Just Chatting', transcript: 'Where is Gerald? The raccoon is back. Look at the raccoon! Gerald stole my pizza, and Gerald is still here.' });
    expect(relevant.keywords).toEqual(['Gerald']);
    expect(relevant.game).toBe('justchatting');
    expect(relevant.nonGame).toBe(true);
    // A name in a title: capitalised inside a sentence-case title, never its first word or a shouted one.
    expect(relevantHashtags({ ...CLIP, title: 'Shroud meets Tarik at TwitchCon', streamer: 'shroud', gameName: 'VALORANT' }).keywords).toEqual(['Tarik', 'TwitchCon']);
    expect(relevantHashtags({ ...CLIP, title: 'He Did NOT See That Coming', gameName: 'VALORANT' }).keywords).toEqual([]);
  });

  it('fits any tag list to 3-5: the clip’s common words go, reach tags are dropped first, the clip’s own tags fill up', () => {
    const relevant = relevantHashtags(CLIP);
    const fitted = fitHashtags(['fyp', 'xQc', 'viral', 'EldenRing', 'clutch', 'foryou', 'boss', 'xqc'], relevant);
    expect(fitted).toEqual(['fyp', 'xQc', 'EldenRing', 'clutch', 'boss']);
    expect(fitted.filter(isGenericHashtag).length).toBeLessThanOrEqual(1);
    expect(fitHashtags(['clutch'], relevant)).toEqual(['clutch', 'xQc', 'eldenring']);
    expect(fitHashtags([], relevant)).toEqual(['xQc', 'eldenring', '1v5']);
    // A model's #insane, #final and #the are words of the title, not what people search.
    expect(fitHashtags(['insane', 'final', 'the', 'soulslike', 'EldenRing'], relevant)).toEqual(['soulslike', 'EldenRing', 'xQc']);
  });

  it('splits a description into caption and tags, turning inline tags back into words', () => {
    expect(splitDescription('Watch #xQc lose it 😂 #EldenRing, #clutch')).toEqual({ body: 'Watch xQc lose it 😂', tags: ['xQc', 'EldenRing', 'clutch'] });
    expect(splitDescription('#fyp #viral')).toEqual({ body: '', tags: ['fyp', 'viral'] });
  });
});

describe('built-in generator', () => {
  it('writes at least 3 distinct candidates within the rules, tagged with the streamer and the game', () => {
    const generated = generateDescriptions(CLIP);
    expect(generated.length).toBeGreaterThanOrEqual(3);
    const texts = generated.map((item) => item.description);
    expect(new Set(texts).size).toBe(texts.length);
    for (const text of texts) {
      expect(text.length).toBeLessThanOrEqual(DESCRIPTION_MAX_LENGTH);
      const { hashtags } = descriptionStats(text);
      expect(hashtags).toBeGreaterThanOrEqual(3);
      expect(hashtags).toBeLessThanOrEqual(5);
      expectEndsWithHashtags(text);
      const keys = tagKeysOf(text);
      expect(keys).toContain('xqc');
      expect(keys).toContain('eldenring');
      for (const stopWord of ['the', 'on', 'a']) expect(keys).not.toContain(stopWord);
      // Reach tags are used sparingly when the clip has enough tags of its own.
      expect(tagsOf(text).filter(isGenericHashtag).length).toBeLessThanOrEqual(1);
    }
  });

  it('uses different styles: a hook question, a punchy caption with emoji, a context line', () => {
    const generated = generateDescriptions(CLIP);
    const byStyle = new Map(generated.map((item) => [item.style, item.description]));
    expect(byStyle.get('question')).toMatch(/^[^#]*\?/);
    expect(byStyle.get('punchy')).toMatch(/\p{Extended_Pictographic}/u);
    // The context line's wording varies between clips; it always names the streamer and the title.
    expect(byStyle.get('context')).toMatch(/xQc/);
    expect(byStyle.get('context')).toContain('Insane 1v5 clutch on the final boss');
    expect(byStyle.has('quote')).toBe(false);
    const contexts = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((clipId) => generateDescriptions({ ...CLIP, clipId }).find((item) => item.style === 'context')?.description));
    expect([...contexts].some((text) => text?.startsWith('xQc in Elden Ring: Insane 1v5 clutch on the final boss'))).toBe(true);
    expect(contexts.size).toBeGreaterThan(3);
  });

  it('proposes a hook for a title card: short, about the title, never a template the streamer just used', () => {
    const first = generateSuggestions({ ...CLIP, clipId: 'hook-1' });
    expect(perceivedLength(first.hook)).toBeLessThanOrEqual(HOOK_MAX_LENGTH);
    expect(first.hook).toMatch(/clutch/i);
    const long = generateSuggestions({ ...CLIP, title: 'I cannot believe this worked against the hardest boss of the whole game', clipId: 'hook-2' });
    expect(perceivedLength(long.hook)).toBeLessThanOrEqual(HOOK_MAX_LENGTH);
    expect(long.hook).toMatch(/I cannot believe/);
    expect(long.hook).not.toMatch(/\b(?:the|of)…/);
    for (const title of ['x'.repeat(90), '配信中にまさかの大逆転からの神プレイでチャット大騒ぎ伝説の瞬間', '']) {
      expect(perceivedLength(generateSuggestions({ ...CLIP, title, language: null }).hook), title).toBeLessThanOrEqual(HOOK_MAX_LENGTH);
    }
    // Every hook this clip could get, one by one, each avoided next time: all differ, then one comes back.
    const avoid: string[] = [];
    for (let index = 0; index < 8; index++) avoid.unshift(generateSuggestions({ ...CLIP, clipId: 'hook-1' }, undefined, avoid).hook);
    expect(new Set(avoid).size).toBe(8);
    expect(generateSuggestions({ ...CLIP, title: '配信中にまさかの大逆転！', streamer: 'kato', gameName: null, language: null }).hook).toMatch(/大逆転/);
  });

  it('is deterministic and never uses Math.random', () => {
    const random = vi.spyOn(Math, 'random');
    try {
      const first = generateDescriptions({ ...CLIP, transcript: TRANSCRIPT });
      const second = generateDescriptions({ ...CLIP, transcript: TRANSCRIPT });
      expect(second).toEqual(first);
      expect(random).not.toHaveBeenCalled();
    } finally {
      random.mockRestore();
    }
  });

  it('quotes the transcript when there is speech, and does without it otherwise', () => {
    const withSpeech = generateDescriptions({ ...CLIP, transcript: TRANSCRIPT });
    const quote = withSpeech.find((item) => item.style === 'quote');
    expect(quote?.description).toContain("I can't believe that actually worked!");
    expect(quote?.description).toMatch(/^“/);
    const noSpeech = generateDescriptions({ ...CLIP, transcript: '   ' });
    expect(noSpeech.some((item) => item.style === 'quote')).toBe(false);
    expect(noSpeech.length).toBeGreaterThanOrEqual(3);
  });

  it('tames a title shouted in capitals with "!!!" and keeps the streamer name as spelled', () => {
    const [first] = generateDescriptions({ ...CLIP, title: 'XQC DESTROYS THE FINAL BOSS!!!' });
    expect(first?.description).toContain('xQc destroys the final boss!');
    expect(first?.description).not.toContain('!!');
  });
});

describe('built-in suggestions: edge cases', () => {
  it('copes with an empty title', async () => {
    const { descriptions, source } = await suggestDescriptions({ ...CLIP, title: '   ' }, { logger: silent });
    expect(source).toBe('builtin');
    expectValidSuggestions(descriptions);
    for (const { description } of descriptions) expect(description).toContain('xQc');
  });

  it('keeps every suggestion within 2200 characters for a huge title and transcript', async () => {
    const title = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ');
    const transcript = Array.from({ length: 400 }, (_, i) => `This is sentence number ${i} of a very long monologue!`).join(' ');
    const { descriptions } = await suggestDescriptions({ ...CLIP, title, transcript }, { logger: silent });
    expectValidSuggestions(descriptions);
    for (const { description } of descriptions) expectEndsWithHashtags(description);
  });

  it('writes Japanese for a Japanese title without a language code, with no English stop-word tags', async () => {
    const input: DescriptionInput = { title: '配信中にまさかの大逆転！チャット大騒ぎ', streamer: 'kato_junichi0817', gameName: 'モンスターハンターワイルズ', transcript: null, language: null };
    expect(relevantHashtags(input).language).toBe('ja');
    const { descriptions } = await suggestDescriptions(input, { logger: silent });
    expectValidSuggestions(descriptions);
    for (const { description } of descriptions) {
      const keys = tagKeysOf(description);
      expect(keys).toContain('kato_junichi0817');
      expect(keys).toContain('モンスターハンターワイルズ');
      for (const key of keys) expect(['the', 'a', 'on', 'in', 'に', 'の']).not.toContain(key);
      expect(description).not.toMatch(/\b(?:Did you|Watch till|Would you|live on stream)\b/);
    }
    expect(descriptions.some(({ description }) => /[？。！]|最後まで/.test(description))).toBe(true);
  });

  it('writes German for a German clip and keeps German stop words out of the tags', async () => {
    const input: DescriptionInput = { title: 'Der krasseste Bosskampf aller Zeiten und die Reaktion', streamer: 'Papaplatte', gameName: 'Elden Ring', transcript: null, language: 'de' };
    const { descriptions } = await suggestDescriptions(input, { logger: silent });
    expectValidSuggestions(descriptions);
    for (const { description } of descriptions) {
      const keys = tagKeysOf(description);
      for (const stopWord of ['der', 'die', 'und', 'aller']) expect(keys).not.toContain(stopWord);
      expect(description).not.toMatch(/\b(?:Did you|Watch till|Would you)\b/);
    }
    expect(descriptions.map((item) => item.description).join('\n')).toMatch(/\b(?:du|Bis zum Ende|Stream)\b/);
  });

  it('guesses the language of a Latin title from its stop words when no code is given', () => {
    expect(relevantHashtags({ ...CLIP, title: 'El mejor momento de la partida con los amigos', language: null }).language).toBe('es');
    expect(relevantHashtags({ ...CLIP, language: 'en-gb' }).language).toBe('en');
  });
});

describe('scorer', () => {
  const tags = '#xQc #EldenRing #clutch #boss';
  const hooked = `Would you survive this? xQc takes on the final boss in Elden Ring 😱 ${tags}`;
  const flat = `xqc plays elden ring and fights the final boss of the game today ${tags}`;

  it('scores a hooked caption above a flat one', () => {
    const good = scoreDescription(hooked, CLIP);
    const plain = scoreDescription(flat, CLIP);
    expect(plain.hook).toBe(0);
    expect(good.hook).toBeGreaterThanOrEqual(0.7);
    expect(good.total).toBeGreaterThan(plain.total);
  });

  it('keeps every component within 0..1 and totals them with the documented weights', () => {
    expect(SCORE_WEIGHTS.hook + SCORE_WEIGHTS.length + SCORE_WEIGHTS.hashtags + SCORE_WEIGHTS.readability).toBeCloseTo(1, 10);
    for (const text of [hooked, flat, '', '#fyp', 'a'.repeat(3000)]) {
      const score = scoreDescription(text, CLIP);
      for (const value of [score.hook, score.length, score.hashtags, score.readability, score.total]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      const weighted = score.hook * SCORE_WEIGHTS.hook + score.length * SCORE_WEIGHTS.length + score.hashtags * SCORE_WEIGHTS.hashtags + score.readability * SCORE_WEIGHTS.readability;
      expect(score.total).toBeCloseTo(weighted, 10);
    }
  });

  it('penalises captions that are too short or too long', () => {
    const ideal = scoreDescription(hooked, CLIP);
    const short = scoreDescription(`Boss down 😱 ${tags}`, CLIP);
    const sentences = Array.from({ length: 12 }, (_, i) => `Round ${i + 1} went differently than planned.`).join(' ');
    const long = scoreDescription(`Would you survive this? ${sentences} ${tags}`, CLIP);
    expect(ideal.length).toBe(1);
    expect(short.length).toBeLessThan(0.5);
    expect(long.length).toBeLessThan(0.6);
    expect(ideal.total).toBeGreaterThan(short.total);
    expect(ideal.total).toBeGreaterThan(long.total);
  });

  it('penalises hashtag counts outside 3-5 and values relevant tags over reach-only tags', () => {
    const caption = 'Would you survive this? xQc takes on the final boss in Elden Ring 😱';
    const four = scoreDescription(`${caption} #xQc #EldenRing #clutch #boss`, CLIP);
    const one = scoreDescription(`${caption} #xQc`, CLIP);
    const none = scoreDescription(caption, CLIP);
    const eight = scoreDescription(`${caption} #xQc #EldenRing #clutch #boss #final #1v5 #insane #eldenringclips`, CLIP);
    const genericOnly = scoreDescription(`${caption} #fyp #viral #foryou`, CLIP);
    expect(four.hashtags).toBe(1);
    for (const worse of [one, none, eight, genericOnly]) {
      expect(worse.hashtags).toBeLessThan(four.hashtags);
      expect(worse.total).toBeLessThan(four.total);
    }
    expect(none.hashtags).toBe(0);
  });

  it('penalises shouting, punctuation runs and emoji spam', () => {
    const clean = scoreDescription(hooked, CLIP);
    const shouting = scoreDescription(`WOULD YOU SURVIVE THIS??? XQC TAKES ON THE FINAL BOSS IN ELDEN RING!!!!! ${tags}`, CLIP);
    const spam = scoreDescription(`Would you survive this? 😱😱😱🔥🔥🔥💀💀 xQc takes on the final boss ${tags}`, CLIP);
    expect(clean.readability).toBe(1);
    expect(shouting.readability).toBeLessThan(0.5);
    expect(spam.readability).toBeLessThan(clean.readability);
    expect(shouting.total).toBeLessThan(clean.total);
  });

  it('ranks a set best first within 0..1, drops exact duplicates and ranks near-duplicates down', () => {
    const nearDuplicate = hooked.replace('takes on', 'takes down');
    const words = (text: string) => new Set(splitDescription(text).body.toLowerCase().split(/\s+/));
    expect(jaccard(words(hooked), words(nearDuplicate))).toBeGreaterThan(0.8);
    const distinctWeaker = `xQc vs the Elden Ring final boss, one hit left and chat holding its breath ${tags}`;
    expect(scoreDescription(nearDuplicate, CLIP).total).toBeGreaterThan(scoreDescription(distinctWeaker, CLIP).total);

    const ranked = rankDescriptions([flat, hooked, nearDuplicate, distinctWeaker, hooked.toUpperCase().replace(/#\S+/g, (tag) => tag), `  ${hooked}  `, ''], CLIP);
    const texts = ranked.map((item) => item.description);
    expect(texts.filter((text) => text.toLowerCase() === hooked.toLowerCase())).toHaveLength(1);
    expect(texts[0]).toBe(hooked);
    expect(texts.indexOf(distinctWeaker)).toBeLessThan(texts.indexOf(nearDuplicate));
    const nearRank = ranked.find((item) => item.description === nearDuplicate)?.rank ?? -1;
    expect(nearRank).toBeCloseTo(scoreDescription(nearDuplicate, CLIP).total * DUPLICATE_FACTOR, 2);
    expectValidSuggestions(ranked.filter((item) => descriptionStats(item.description).hashtags >= 3));
    const ranks = ranked.map((item) => item.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
  });
});

describe('LLM-written suggestions (fake OpenAI-compatible server)', () => {
  let fake: FakeLlm;
  let sleeps: number[];

  beforeAll(async () => {
    fake = await startFakeLlm();
  });

  afterAll(async () => {
    await fake.close();
  });

  beforeEach(() => fake.reset());

  function config(overrides: Partial<LlmConfig> = {}): LlmConfig {
    sleeps = [];
    return {
      baseUrl: fake.baseUrl,
      apiKey: fake.apiKey,
      model: fake.model,
      timeoutMs: 5_000,
      sleep: async (ms) => void sleeps.push(ms),
      ...overrides,
    };
  }

  async function builtinOnly(input: DescriptionInput = CLIP): Promise<RankedDescription[]> {
    return (await suggestDescriptions(input, { logger: silent })).descriptions;
  }

  it('ranks the model’s candidates with the same scorer and sends a well-formed, authenticated request', async () => {
    const result = await suggestDescriptions({ ...CLIP, transcript: TRANSCRIPT }, { llm: config(), logger: silent });
    expect(result.source).toBe('llm');
    expect(result.fallbackReason).toBeUndefined();
    expectValidSuggestions(result.descriptions);
    expect(result.descriptions).toHaveLength(DEFAULT_CANDIDATES.length);
    // Same scorer: re-ranking the returned texts gives the same order and ranks.
    expect(rankDescriptions(result.descriptions.map((item) => item.description), { ...CLIP, transcript: TRANSCRIPT })).toEqual(result.descriptions);
    const captions = result.descriptions.map((item) => splitDescription(item.description).body);
    for (const candidate of DEFAULT_CANDIDATES) expect(captions).toContain(splitDescription(candidate).body);

    const [request] = fake.completions();
    expect(request?.status).toBe(200);
    expect(request?.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.model).toBe('gpt-4o-mini');
    expect(request?.responseFormat).toEqual({ type: 'json_object' });
    expect(request?.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(request?.messages[0]?.content).toMatch(/JSON/);
    expect(request?.messages[0]?.content).toMatch(/3 to 5/);
    expect(request?.messages[1]?.content).toContain(CLIP.title);
    expect(request?.messages[1]?.content).toContain("I can't believe that actually worked!");
  });

  it('accepts LLM_API_URL with or without /v1, with a trailing slash, or as the full endpoint', async () => {
    for (const baseUrl of [fake.url, `${fake.url}/`, fake.baseUrl, `${fake.baseUrl}/`, `${fake.baseUrl}/chat/completions`]) {
      const result = await suggestDescriptions(CLIP, { llm: config({ baseUrl }), logger: silent });
      expect(result.source, baseUrl).toBe('llm');
    }
    expect(fake.completions().every((request) => request.status === 200)).toBe(true);
    expect(chatCompletionsUrl('https://api.openai.com')).toBe('https://api.openai.com/v1/chat/completions');
    expect(chatCompletionsUrl('https://api.openai.com/v1/')).toBe('https://api.openai.com/v1/chat/completions');
    expect(chatCompletionsUrl('https://openrouter.ai/api/v1')).toBe('https://openrouter.ai/api/v1/chat/completions');
    expect(chatCompletionsUrl('http://localhost:11434')).toBe('http://localhost:11434/v1/chat/completions');
    expect(chatCompletionsUrl('https://example.com/v1beta/chat/completions')).toBe('https://example.com/v1beta/chat/completions');
  });

  it('tolerates a fenced JSON answer and a bare array', async () => {
    fake.setReply('fenced');
    const fenced = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(fenced.source).toBe('llm');
    expectValidSuggestions(fenced.descriptions);
    fake.setReply('bare_array');
    const bare = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(bare.source).toBe('llm');
    expect(bare.descriptions).toEqual(fenced.descriptions);
  });

  it('falls back to the built-in generator with a reason when the answer is not JSON', async () => {
    fake.setReply('invalid_json');
    const cutOff = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(cutOff.source).toBe('builtin');
    expect(cutOff.fallbackReason).toMatch(/valid JSON.*cut off/);
    expect(cutOff.descriptions).toEqual(await builtinOnly());

    fake.setReply('prose');
    const prose = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(prose.source).toBe('builtin');
    expect(prose.fallbackReason).toMatch(/valid JSON/);

    fake.setReply('empty');
    const refused = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(refused.source).toBe('builtin');
    expect(refused.fallbackReason).toMatch(/refused/);
  });

  it('retries a 500 once, then falls back with the reason when it persists', async () => {
    fake.failNext('server_error');
    const recovered = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(recovered.source).toBe('llm');
    expect(fake.completions().map((request) => request.status)).toEqual([500, 200]);
    expect(sleeps).toEqual([1000]);

    fake.reset();
    fake.failNext('server_error', { times: 5 });
    const failed = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(failed.source).toBe('builtin');
    expect(failed.fallbackReason).toMatch(/HTTP 500: The server had an error/);
    expect(fake.completions()).toHaveLength(2);
    expectValidSuggestions(failed.descriptions);
  });

  it('retries a 429 once after the announced Retry-After', async () => {
    fake.failNext('rate_limit', { retryAfterSeconds: 2 });
    const result = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(result.source).toBe('llm');
    expect(fake.completions().map((request) => request.status)).toEqual([429, 200]);
    expect(sleeps).toEqual([2000]);
  });

  it('does not retry other client errors (unknown model → 404)', async () => {
    const result = await suggestDescriptions(CLIP, { llm: config({ model: 'gpt-nonexistent' }), logger: silent });
    expect(result.source).toBe('builtin');
    expect(result.fallbackReason).toMatch(/HTTP 404: The model `gpt-nonexistent` does not exist/);
    expect(fake.completions()).toHaveLength(1);
  });

  it('asks again without response_format when the server rejects it', async () => {
    fake.rejectResponseFormat(true);
    const result = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(result.source).toBe('llm');
    const requests = fake.completions();
    expect(requests.map((request) => request.status)).toEqual([400, 200]);
    expect(requests[1]?.responseFormat).toBeUndefined();
  });

  it('gives up after the timeout and falls back', async () => {
    // The server would answer only after a minute: the built-in text comes back long before.
    fake.setDelay(60_000);
    const result = await suggestDescriptions(CLIP, { llm: config({ timeoutMs: 150 }), logger: silent });
    expect(result.source).toBe('builtin');
    expect(result.fallbackReason).toMatch(/no answer within 150 ms/);
  });

  it('rejects instead of falling back when the job is cancelled', async () => {
    fake.setDelay(1_000);
    const controller = new AbortController();
    const suggesting = suggestDescriptions(CLIP, { llm: config(), logger: silent, signal: controller.signal });
    // Cancelled while the server holds its answer: the request is certainly in flight.
    await waitUntil(() => fake.completions().length === 1, { message: 'the request to reach the server', intervalMs: 20 });
    controller.abort(new Error('job cancelled'));
    await expect(suggesting).rejects.toThrow(/cancelled/);
  });

  it('tops up with built-in candidates when the model returns fewer than 3 usable ones', async () => {
    const only = 'Would you have kept calm here? xQc vs the final boss 😱 #xQc #EldenRing #clutch';
    fake.setCandidates([only, '   ', '#fyp #viral #foryou', only.toUpperCase().toLowerCase().replace('would', 'Would')]);
    const result = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(result.source).toBe('llm');
    expectValidSuggestions(result.descriptions);
    expect(result.descriptions).toHaveLength(3);
    expect(result.descriptions.map((item) => item.description)).toContain(only);
    const builtin = new Set((await builtinOnly()).map((item) => item.description));
    expect(result.descriptions.filter((item) => builtin.has(item.description))).toHaveLength(2);
  });

  it('makes the model’s candidates fit: too long, too many or no hashtags, tags in the sentence', async () => {
    const long = `Would you survive this? ${'The fight keeps going and going. '.repeat(120)}#xQc #EldenRing #clutch`;
    fake.setCandidates([
      long,
      'Nobody expected this ending 😱 #xQc #EldenRing #clutch #boss #fyp #viral #foryou #gaming',
      'This is what 300 tries look like',
      'Watch #xQc finally beat the boss in #EldenRing 🔥',
    ]);
    const result = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
    expect(result.source).toBe('llm');
    expectValidSuggestions(result.descriptions);
    for (const { description } of result.descriptions) expectEndsWithHashtags(description);
    const texts = result.descriptions.map((item) => item.description);
    const truncated = texts.find((text) => text.startsWith('Would you survive this?'));
    expect(truncated?.length).toBeLessThanOrEqual(DESCRIPTION_MAX_LENGTH);
    expect(truncated).toMatch(/… #xQc #EldenRing #clutch$/);
    expect(texts).toContain('Nobody expected this ending 😱 #xQc #EldenRing #clutch #boss #fyp');
    expect(texts).toContain('This is what 300 tries look like #xQc #eldenring #1v5');
    expect(texts).toContain('Watch xQc finally beat the boss in EldenRing 🔥 #xQc #EldenRing #1v5');
  });

  it('uses the model’s hook when it fits a title card and shares the captions’ words; the built-in hook otherwise', async () => {
    const builtinHook = (await suggestDescriptions(CLIP, { logger: silent })).hook;
    expect((await suggestDescriptions(CLIP, { llm: config(), logger: silent })).hook).toBe(DEFAULT_HOOK);
    fake.setHook('"xQc vs the final boss" #fyp #xQc');
    expect((await suggestDescriptions(CLIP, { llm: config(), logger: silent })).hook).toBe('xQc vs the final boss');
    for (const unusable of [null, 'The final boss of Elden Ring finally falls after three hundred tries', 'Cooking pasta tonight 🍝']) {
      fake.setHook(unusable);
      const result = await suggestDescriptions(CLIP, { llm: config(), logger: silent });
      expect(result.source, String(unusable)).toBe('llm');
      expect(result.hook, String(unusable)).toBe(builtinHook);
    }
    fake.reset();
    fake.setReply('bare_array');
    expect((await suggestDescriptions(CLIP, { llm: config(), logger: silent })).hook).toBe(builtinHook);
  });

  it('asks for a hook, shows the model the streamer’s recent texts, and never offers one of them again', async () => {
    const avoid = [DEFAULT_HOOK, DEFAULT_CANDIDATES[0]!];
    const result = await suggestDescriptions(CLIP, { llm: config(), logger: silent, avoid });
    expect(result.source).toBe('llm');
    const captions = result.descriptions.map((item) => splitDescription(item.description).body);
    expect(captions).not.toContain(splitDescription(DEFAULT_CANDIDATES[0]!).body);
    expect(captions).toContain(splitDescription(DEFAULT_CANDIDATES[1]!).body);
    expect(result.hook).not.toBe(DEFAULT_HOOK);
    expect(perceivedLength(result.hook)).toBeLessThanOrEqual(HOOK_MAX_LENGTH);
    const [request] = fake.completions();
    expect(request?.messages[0]?.content).toMatch(/"hook"/);
    expect(request?.messages[0]?.content).toMatch(/at most 40 characters/);
    expect(request?.messages[0]?.content).toMatch(/avoid/);
    const details = JSON.parse(request?.messages[1]?.content.replace(/^[^{]*/, '') ?? '{}') as { avoid?: string[]; reach_hashtags?: string[] };
    expect(details.avoid).toEqual(avoid);
    expect(details.reach_hashtags).toEqual(['#twitchclips', '#twitch']);
  });

  it('sends no Authorization header without a key', async () => {
    const open = await startFakeLlm({ apiKey: null });
    try {
      const result = await suggestDescriptions(CLIP, { llm: config({ baseUrl: open.url, apiKey: null }), logger: silent });
      expect(result.source).toBe('llm');
      expect(open.completions()[0]?.authorization).toBeNull();
    } finally {
      await open.close();
    }
  });

  it('never logs the API key, even when the server echoes a rejected one', async () => {
    const logs = captureLogs();
    fake.failNext('server_error');
    const retried = await suggestDescriptions(CLIP, { llm: config(), logger: logs.logger });
    expect(retried.source).toBe('llm');

    const wrongKey = 'sk-wrong-0123456789abcdef';
    const rejected = await suggestDescriptions(CLIP, { llm: config({ apiKey: wrongKey }), logger: logs.logger });
    expect(rejected.source).toBe('builtin');
    expect(rejected.fallbackReason).toMatch(/HTTP 401: Incorrect API key provided: \[redacted\]/);
    expect(rejected.fallbackReason).not.toContain(wrongKey);

    const log = logs.text();
    expect(log).toContain('retrying');
    expect(log).toContain('using the built-in generator');
    expect(log).not.toContain(wrongKey);
    expect(log).not.toContain(fake.apiKey ?? 'unreachable');
  });
});

describe('configuration', () => {
  it('reads LLM_API_URL, LLM_API_KEY and LLM_MODEL, defaulting the model', () => {
    expect(llmConfigFromEnv(loadEnv({}))).toBeNull();
    expect(llmConfigFromEnv(loadEnv({ LLM_API_URL: 'http://127.0.0.1:8080/v1', LLM_API_KEY: 'sk-test' }))).toEqual({
      baseUrl: 'http://127.0.0.1:8080/v1',
      apiKey: 'sk-test',
      model: 'gpt-4o-mini',
    });
    expect(llmConfigFromEnv(loadEnv({ LLM_API_URL: 'http://127.0.0.1:11434', LLM_MODEL: 'llama3.1:8b' }))).toEqual({
      baseUrl: 'http://127.0.0.1:11434',
      apiKey: null,
      model: 'llama3.1:8b',
    });
  });

  it('fits a hand-written description the same way as a model’s', () => {
    const relevant = relevantHashtags(CLIP);
    expect(fitDescription('#fyp', relevant)).toBeNull();
    expect(fitDescription('GG  \n\n\n  wp #xqc #XQC', relevant)).toBe('GG\n\nwp #xqc #eldenring #1v5');
  });
});
