import type { Env } from '../../platform/env.ts';
import type { Logger } from '../../platform/logger.ts';
import { LlmError } from '../providers/llm/index.ts';
import { generateSuggestions, HOOK_MAX_LENGTH } from './generator.ts';
import { composeDescription, fitHashtags, relevantHashtags, splitDescription, type RelevantTags } from './hashtags.ts';
import { DEFAULT_LLM_MODEL, generateWithLlm, type LlmConfig, type ModelAnswer } from './llm.ts';
import { rankDescriptions, type RankedDescription } from './scorer.ts';
import { isStopWord } from './stopwords.ts';
import { comparisonKey, perceivedLength, tidyWhitespace, words } from './text.ts';
import type { DescriptionInput } from './types.ts';

/** The product always offers a choice: at least this many suggestions per clip. */
const MIN_SUGGESTIONS = 3;

interface SuggestOptions {
  /** A chat model to write the candidates; null or absent uses the built-in generator. */
  llm?: LlmConfig | null;
  logger: Logger;
  /** The clip job's signal: a cancelled job rejects instead of falling back. */
  signal?: AbortSignal;
  /**
   * The streamer's recent suggestion texts (captions and hooks of their other clips), newest first:
   * none of them is offered again while anything else fits, and their templates are used last.
   */
  avoid?: readonly string[];
}

interface DescriptionSuggestions {
  /** Best first, ranks 0..1, each at most 2200 characters with 3-5 hashtags. */
  descriptions: RankedDescription[];
  /** A title-card line for the clip's first seconds (at most HOOK_MAX_LENGTH), about what the descriptions are about. */
  hook: string;
  /** Who wrote the candidates; 'llm' even when a few built-in ones topped the list up. */
  source: 'llm' | 'builtin';
  /** Why a configured model was not used (already logged as a warning). */
  fallbackReason?: string;
}

/**
 * Description suggestions for a processed clip: written by the configured chat model or, without
 * one or when it fails, by the built-in generator; made to fit the product rules; ranked by the scorer.
 */
export async function suggestDescriptions(input: DescriptionInput, options: SuggestOptions): Promise<DescriptionSuggestions> {
  const avoid = options.avoid ?? [];
  const relevant = relevantHashtags(input);
  const generated = generateSuggestions(input, relevant, avoid);
  const builtin = generated.descriptions.map((candidate) => candidate.description);
  if (!options.llm) return { descriptions: rankDescriptions(builtin, input), hook: generated.hook, source: 'builtin' };

  const outcome = await modelCandidates(input, relevant, options.llm, options, avoid);
  if ('fallbackReason' in outcome) {
    options.logger.warn({ provider: 'llm', model: options.llm.model, fallbackReason: outcome.fallbackReason }, 'LLM description suggestions failed; using the built-in generator');
    return { descriptions: rankDescriptions(builtin, input), hook: generated.hook, source: 'builtin', fallbackReason: outcome.fallbackReason };
  }
  const topUp = topUpFrom(builtin, outcome.candidates, input);
  const hook = usableModelHook(outcome.hook, outcome.candidates, relevant.language, avoid);
  options.logger.debug({ provider: 'llm', fromModel: outcome.candidates.length, toppedUp: topUp.length, modelHook: hook !== null }, 'LLM description suggestions ready');
  return { descriptions: rankDescriptions([...outcome.candidates, ...topUp], input), hook: hook ?? generated.hook, source: 'llm' };
}

type ModelOutcome = ModelAnswer | { fallbackReason: string };

async function modelCandidates(input: DescriptionInput, relevant: RelevantTags, config: LlmConfig, options: SuggestOptions, avoid: readonly string[]): Promise<ModelOutcome> {
  try {
    const answer = await generateWithLlm(input, relevant, config, { logger: options.logger, signal: options.signal }, avoid);
    const repeats = captionKeys(avoid);
    const fitted = answer.candidates.map((text) => fitDescription(text, relevant)).filter((text): text is string => text !== null);
    const candidates = uniqueTexts(fitted).filter((text) => !repeats.has(captionKey(text)));
    return candidates.length ? { candidates, hook: answer.hook } : { fallbackReason: 'the model returned no usable descriptions' };
  } catch (error) {
    // A cancelled job is not a model failure: stop rather than spend time on a fallback nobody will save.
    options.signal?.throwIfAborted();
    if (error instanceof LlmError && error.kind === 'aborted') throw error;
    return { fallbackReason: scrubKey(reasonOf(error), config.apiKey) };
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The client already scrubs; this is the last line before a reason is logged and returned. */
function scrubKey(text: string, apiKey: string | null): string {
  return apiKey ? text.split(apiKey).join('[redacted]') : text;
}

/**
 * Any candidate made to fit the rules: one caption plus a block of 3-5 normalised, deduplicated
 * hashtags (tags in the sentence keep their word), within 2200 characters with the tags kept.
 * A candidate with no caption text at all is unusable (null).
 */
export function fitDescription(text: string, relevant: RelevantTags): string | null {
  const { body, tags } = splitDescription(text);
  const caption = tidyWhitespace(body);
  if (!caption) return null;
  return composeDescription(caption, fitHashtags(tags, relevant));
}

function captionKey(text: string): string {
  return comparisonKey(splitDescription(text).body);
}

function captionKeys(texts: readonly string[]): ReadonlySet<string> {
  return new Set(texts.map(captionKey));
}

/**
 * The model's hook when it fits a title card (HOOK_MAX_LENGTH), is not one the streamer already
 * has, and shares a word that carries meaning with one of its captions (so hook and description are
 * about the same thing); otherwise null, and the built-in hook stands in.
 */
function usableModelHook(hook: string | null, captions: readonly string[], language: string, avoid: readonly string[]): string | null {
  if (!hook || perceivedLength(hook) > HOOK_MAX_LENGTH || captionKeys(avoid).has(comparisonKey(hook))) return null;
  const hookWords = meaningfulWords(hook, language);
  const agrees = captions.some((caption) => meaningfulWords(splitDescription(caption).body, language).some((word) => hookWords.includes(word)));
  return agrees ? hook : null;
}

function meaningfulWords(text: string, language: string): string[] {
  return words(text.normalize('NFKC').toLowerCase(), language).filter((word) => /\p{N}/u.test(word) || (word.length >= 3 && !isStopWord(word, language)));
}

function uniqueTexts(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  return texts.filter((text) => {
    const key = comparisonKey(text);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The best built-in candidates not already offered, just enough to reach MIN_SUGGESTIONS. */
function topUpFrom(builtin: readonly string[], existing: readonly string[], input: DescriptionInput): string[] {
  const needed = MIN_SUGGESTIONS - existing.length;
  if (needed <= 0) return [];
  const taken = new Set(existing.map(comparisonKey));
  return rankDescriptions(builtin, input)
    .map((ranked) => ranked.description)
    .filter((text) => !taken.has(comparisonKey(text)))
    .slice(0, needed);
}

/** The chat model from LLM_API_URL / LLM_API_KEY / LLM_MODEL, or null (built-in generator) without a URL. */
export function llmConfigFromEnv(env: Pick<Env, 'LLM_API_URL' | 'LLM_API_KEY' | 'LLM_MODEL'>): LlmConfig | null {
  if (!env.LLM_API_URL) return null;
  return { baseUrl: env.LLM_API_URL, apiKey: env.LLM_API_KEY ?? null, model: env.LLM_MODEL ?? DEFAULT_LLM_MODEL };
}
