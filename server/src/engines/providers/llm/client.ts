import { z } from 'zod';
import type { Logger } from '../../../platform/logger.ts';
import { sendWithRetries, withBufferedBody, type RetryPolicy } from '../http/retry.ts';
import { defaultSleep, messageWithCause, type ProviderRuntime, type Sleep } from '../http/runtime.ts';

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
  const runtime: ProviderRuntime = { logger: config.logger.child({ provider: 'llm' }), sleep: config.sleep ?? defaultSleep, now: Date.now };
  const body = JSON.stringify({
    model: config.model,
    messages: request.messages,
    ...(request.jsonObject ? { response_format: { type: 'json_object' } } : {}),
  });
  const send = async (signal: AbortSignal) =>
    // Read whole within the attempt: its timeout covers the body too (a server that stalls
    // mid-answer is as dead as a silent one), and a body that breaks off is retried like a drop.
    withBufferedBody(await fetch(url, { method: 'POST', headers: requestHeaders(config.apiKey), body, signal }));
  const response = await sendWithRetries(runtime, { what: 'LLM request', signal: request.signal, send }, retryPolicy(config, url));
  if (!response.ok) throw new LlmError('http', await statusReason(response, config.apiKey), response.status);
  return readCompletion(response, config.apiKey);
}

/**
 * One retry when the server says "busy" (429, 5xx) after its Retry-After, or when the connection
 * drops (often a restart in progress); a timeout is not retried.
 */
function retryPolicy(config: ChatClientConfig, url: URL): RetryPolicy {
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    retryMessage: 'LLM request failed; retrying',
    retryFields: ({ attempt, waitMs, failure }) => ({ host: url.host, attempt, status: failure.status, delayMs: waitMs, reason: failure.reason }),
    attempts: ATTEMPTS,
    timeoutMs,
    backoffMs: () => RETRY_DELAY_MS,
    tooManyRequests: 'retry',
    serverDelay: { maxMs: MAX_RETRY_DELAY_MS, beyondMax: 'give_up' },
    retryTimeouts: false,
    describeAnswer: (response) => statusReason(response, config.apiKey),
    describeNetworkError: (error) => `network error: ${clip(scrub(messageWithCause(error), config.apiKey))}`,
    aborted: () => new LlmError('aborted', 'the request was cancelled'),
    exhausted: (_what, _attempts, failure) => {
      if (failure.timedOut) return new LlmError('timeout', `no answer within ${timeoutMs} ms`);
      return new LlmError(failure.status === undefined ? 'network' : 'http', failure.reason, failure.status);
    },
  };
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

function requestHeaders(apiKey: string | null): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

async function readCompletion(response: Response, apiKey: string | null): Promise<ChatResult> {
  let json: unknown;
  try {
    json = await response.json();
  } catch (error) {
    // The body is already read (withBufferedBody): what fails here is the server's JSON.
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

async function statusReason(response: Response, apiKey: string | null): Promise<string> {
  return `HTTP ${response.status}: ${await errorText(response, apiKey)}`;
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
