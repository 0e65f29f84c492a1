import type { Env } from '../../platform/env.ts';
import type { Logger } from '../../platform/logger.ts';
import { LlmError } from '../providers/llm/index.ts';
import { generateDescriptions } from './generator.ts';
import { composeDescription, fitHashtags, relevantHashtags, splitDescription, type RelevantTags } from './hashtags.ts';
import { DEFAULT_LLM_MODEL, generateWithLlm, type LlmConfig } from './llm.ts';
import { rankDescriptions, type RankedDescription } from './scorer.ts';
import { comparisonKey, tidyWhitespace } from './text.ts';
import type { DescriptionInput } from './types.ts';

/** The product always offers a choice: at least this many suggestions per clip. */
const MIN_SUGGESTIONS = 3;

interface SuggestOptions {
  /** A chat model to write the candidates; null or absent uses the built-in generator. */
  llm?: LlmConfig | null;
  logger: Logger;
  /** The clip job's signal: a cancelled job rejects instead of falling back. */
  signal?: AbortSignal;
}

interface DescriptionSuggestions {
  /** Best first, ranks 0..1, each at most 2200 characters with 3-5 hashtags. */
  descriptions: RankedDescription[];
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
  const relevant = relevantHashtags(input);
  const builtin = generateDescriptions(input, relevant).map((generated) => generated.description);
  if (!options.llm) return { descriptions: rankDescriptions(builtin, input), source: 'builtin' };

  const outcome = await modelCandidates(input, relevant, options.llm, options);
  if ('fallbackReason' in outcome) {
    options.logger.warn({ provider: 'llm', model: options.llm.model, fallbackReason: outcome.fallbackReason }, 'LLM description suggestions failed; using the built-in generator');
    return { descriptions: rankDescriptions(builtin, input), source: 'builtin', fallbackReason: outcome.fallbackReason };
  }
  const topUp = topUpFrom(builtin, outcome.candidates, input);
  options.logger.debug({ provider: 'llm', fromModel: outcome.candidates.length, toppedUp: topUp.length }, 'LLM description suggestions ready');
  return { descriptions: rankDescriptions([...outcome.candidates, ...topUp], input), source: 'llm' };
}

type ModelOutcome = { candidates: string[] } | { fallbackReason: string };

async function modelCandidates(input: DescriptionInput, relevant: RelevantTags, config: LlmConfig, options: SuggestOptions): Promise<ModelOutcome> {
  try {
    const raw = await generateWithLlm(input, relevant, config, { logger: options.logger, signal: options.signal });
    const candidates = uniqueTexts(raw.map((text) => fitDescription(text, relevant)).filter((text): text is string => text !== null));
    return candidates.length ? { candidates } : { fallbackReason: 'the model returned no usable descriptions' };
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
