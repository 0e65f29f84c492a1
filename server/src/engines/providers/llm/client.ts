import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import type { Logger } from '../../../platform/logger.ts';

/*
 * A minimal client for OpenAI-compatible chat completions (OpenAI, OpenRouter, Groq, vLLM, Ollama,
 * llama.cpp, LM Studio…). One request, one retry when the server says "busy" (429, 5xx) or the
 * connection drops, a timeout per attempt, and an answer validated before anyone reads it.
 *
 * URL rule (LLM_API_URL): the base is taken as given, minus trailing slashes, and
 *   - if it already ends with /chat/completions it is used as is;
 *   - if it ends with a version segment (/v1, /v1beta, /v2…) then /chat/completions is appended;
 *   - otherwise /v1/chat/completions is appended.
 * So "http://host:8080", "http://host:8080/v1" and "https://openrouter.ai/api/v1" all work, and a
 * provider with an unusual path can be given its full …/chat/completions URL.
 *
 * The API key travels only in the Authorization header: it is never logged, and it is scrubbed
 * from any error text a server might echo it in.
 */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ChatClientConfig {
  /** LLM_API_URL, see the URL rule above. */
  baseUrl: string;
  /** LLM_API_KEY; sent as a Bearer token when set (local servers usually need none). */
  apiKey: string | null;
  model: string;
  logger: Logger;
  /** Per attempt (default 30 s). */
  timeoutMs?: number;
  /** Injected in tests so retry waits do not really wait. */
  sleep?: Sleep;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** Ask for response_format {type: "json_object"}; the messages must then mention JSON. */
  jsonObject?: boolean;
  signal?: AbortSignal;
}

export interface ChatResult {
  content: string;
  model: string | null;
  finishReason: string | null;
}

/**
 * config: unusable configuration; http: a non-OK answer after retries; timeout / network: no
 * answer; invalid_response: an answer that is not a chat completion; refused: the model declined;
 * aborted: the caller cancelled.
 */
export type LlmErrorKind = 'config' | 'http' | 'timeout' | 'network' | 'invalid_response' | 'refused' | 'aborted';

export class LlmError extends Error {
  override name = 'LlmError';
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** The first try plus one retry: a description is not worth holding a clip's processing up for longer. */
const ATTEMPTS = 2;
const RETRY_DELAY_MS = 1_000;
/** A Retry-After longer than this is not waited for; the caller falls back instead. */
const MAX_RETRY_DELAY_MS = 10_000;
/** Server error text is quoted in reasons and logs; a whole HTML error page is not. */
const MAX_ERROR_TEXT = 200;

const defaultSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, { signal });
};

export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  if (/\/chat\/completions$/i.test(base)) return base;
  if (/\/v\d+[a-z0-9]*$/i.test(base)) return `${base}/chat/completions`;
  return `${base}/v1/chat/completions`;
}

const completionSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
});

const errorBodySchema = z.object({
  error: z.union([z.string(), z.object({ message: z.string().optional() }).loose()]),
});

export async function createChatCompletion(config: ChatClientConfig, request: ChatRequest): Promise<ChatResult> {
  const url = endpoint(config.baseUrl);
  const logger = config.logger.child({ provider: 'llm' });
  const sleep = config.sleep ?? defaultSleep;
  const body = JSON.stringify({
    model: config.model,
    messages: request.messages,
    ...(request.jsonObject ? { response_format: { type: 'json_object' } } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnce(config, url, body, request.signal);
    if (outcome.kind === 'done') return outcome.result;
    if (attempt >= ATTEMPTS || outcome.retryAfterMs > MAX_RETRY_DELAY_MS) throw outcome.error;
    logger.warn({ host: url.host, attempt, status: outcome.error.status, delayMs: outcome.retryAfterMs, reason: outcome.error.message }, 'LLM request failed; retrying');
    await sleepOrAbort(sleep, outcome.retryAfterMs, request.signal);
  }
}

/** Credentials in the URL would end up in error messages (undici quotes the URL); the key belongs in LLM_API_KEY. */
function endpoint(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(chatCompletionsUrl(baseUrl));
  } catch {
    throw new LlmError('config', 'LLM_API_URL is not an absolute URL');
  }
  if (url.username || url.password) throw new LlmError('config', 'LLM_API_URL must not contain credentials; put the key in LLM_API_KEY');
  return url;
}

type Attempt = { kind: 'done'; result: ChatResult } | { kind: 'retry'; error: LlmError; retryAfterMs: number };

async function attemptOnce(config: ChatClientConfig, url: URL, body: string, signal: AbortSignal | undefined): Promise<Attempt> {
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    // The timeout covers reading the body too: a server that stalls mid-answer is as dead as a silent one.
    const response = await fetch(url, {
      method: 'POST',
      headers: requestHeaders(config.apiKey),
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (response.ok) return { kind: 'done', result: await readCompletion(response, config.apiKey) };
    const error = new LlmError('http', `HTTP ${response.status}: ${await errorText(response, config.apiKey)}`, response.status);
    if (response.status === 429 || response.status >= 500) return { kind: 'retry', error, retryAfterMs: retryDelayMs(response) };
    throw error;
  } catch (error) {
    if (error instanceof LlmError) throw error;
    if (signal?.aborted) throw new LlmError('aborted', 'the request was cancelled');
    if (timeout.aborted) throw new LlmError('timeout', `no answer within ${timeoutMs} ms`);
    // A dropped or refused connection is often a restart in progress: worth the one retry.
    return { kind: 'retry', error: new LlmError('network', `network error: ${clip(scrub(causeMessage(error), config.apiKey))}`), retryAfterMs: RETRY_DELAY_MS };
  }
}

function requestHeaders(apiKey: string | null): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

/** fetch wraps the real reason (ECONNREFUSED…) in a generic "fetch failed". */
function causeMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : '';
  return cause ? `${error.message} (${cause})` : error.message;
}

/** OpenAI sends retry-after-ms as well as Retry-After; either is honoured, else a short pause. */
function retryDelayMs(response: Response): number {
  const ms = Number(response.headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const seconds = Number(response.headers.get('retry-after'));
  if (Number.isFinite(seconds) && seconds >= 0 && response.headers.has('retry-after')) return seconds * 1000;
  return RETRY_DELAY_MS;
}

async function sleepOrAbort(sleep: Sleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) throw new LlmError('aborted', 'the request was cancelled');
    throw error;
  }
}

async function readCompletion(response: Response, apiKey: string | null): Promise<ChatResult> {
  let json: unknown;
  try {
    json = await response.json();
  } catch (error) {
    // A broken body is the server's fault; a timeout or abort while reading is classified by the caller.
    if (error instanceof SyntaxError) throw new LlmError('invalid_response', 'the server did not answer with JSON');
    throw error;
  }
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) throw new LlmError('invalid_response', 'the answer is not a chat completion (no choices[0].message)');
  const choice = parsed.data.choices[0];
  const content = choice?.message.content ?? '';
  if (!content.trim() && choice?.message.refusal) throw new LlmError('refused', `the model refused: ${clip(scrub(choice.message.refusal, apiKey))}`);
  if (!content.trim()) throw new LlmError('invalid_response', 'the model answered with empty content');
  return { content, model: parsed.data.model ?? null, finishReason: choice?.finish_reason ?? null };
}

/** The server's own error message when it sends the usual {error:{message}} body, else the start of the body. */
async function errorText(response: Response, apiKey: string | null): Promise<string> {
  const text = await response.text().catch(() => '');
  let message = text;
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) message = typeof parsed.data.error === 'string' ? parsed.data.error : (parsed.data.error.message ?? text);
  } catch {
    // Not JSON: the raw text is the best there is.
  }
  return clip(scrub(message.trim() || response.statusText || 'no message', apiKey));
}

function clip(text: string): string {
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
}

/** Some servers quote the key they rejected; it must not reach a reason that gets logged. */
function scrub(text: string, apiKey: string | null): string {
  return apiKey ? text.split(apiKey).join('[redacted]') : text;
}
