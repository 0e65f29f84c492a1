import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local OpenAI-compatible chat server: POST /v1/chat/completions with the checks the real API
 * makes (Bearer key, known model, well-formed messages, the word "json" when response_format is
 * json_object) and its error bodies, answering a chat.completion whose message content carries
 * the configured captions and hook. Real HTTP on 127.0.0.1, port chosen by the OS.
 */

/**
 * How the assistant's message content is written:
 * json_object: {"descriptions": [...], "hook": "..."} (what the app asks for; no "hook" when it is set to null)
 * fenced: a sentence, then the same JSON inside a ```json fence
 * bare_array: just the JSON array of captions (no hook)
 * invalid_json: JSON cut off mid-string with finish_reason "length"
 * prose: a numbered list in plain text, no JSON at all
 * empty: content null with a refusal
 */
export type FakeLlmReply = 'json_object' | 'fenced' | 'bare_array' | 'invalid_json' | 'prose' | 'empty';

/** server_error: 500 with OpenAI's body; rate_limit: 429 with Retry-After and x-ratelimit-* headers. */
export type FakeLlmFailure = 'server_error' | 'rate_limit';

export interface FakeLlmOptions {
  /** The key clients must send as a Bearer token; null accepts requests without one (local servers). */
  apiKey?: string | null;
  /** Models the server knows (default ["gpt-4o-mini"]). */
  models?: string[];
  /** Candidates the assistant answers with (default a realistic set of five). */
  candidates?: string[];
  /** The hook it answers with (default DEFAULT_HOOK); null leaves "hook" out, as a model that ignores the ask. */
  hook?: string | null;
}

export interface RecordedChatRequest {
  method: string;
  path: string;
  /** The Authorization header as received, or null. */
  authorization: string | null;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  model: string | null;
  messages: { role: string; content: string }[];
  responseFormat: unknown;
  /** Response status, filled in when the response is sent. */
  status: number;
}

export interface FailureOptions {
  /** How many consecutive requests fail (default 1). */
  times?: number;
  /** rate_limit only: the Retry-After seconds to announce (default 1). */
  retryAfterSeconds?: number;
}

export interface FakeLlm {
  /** e.g. http://127.0.0.1:43123 (no /v1: the client must add it). */
  url: string;
  /** url + /v1, the form OpenAI documents as base URL. */
  baseUrl: string;
  apiKey: string | null;
  /** The first known model. */
  model: string;
  requests: RecordedChatRequest[];
  /** Requests that reached /v1/chat/completions. */
  completions(): RecordedChatRequest[];
  setCandidates(candidates: readonly string[]): void;
  /** The hook of the next answers; null leaves it out. */
  setHook(hook: string | null): void;
  setReply(reply: FakeLlmReply): void;
  /** The next request(s) fail this way. */
  failNext(kind: FakeLlmFailure, options?: FailureOptions): void;
  /** Answers are held back this long (to exercise client timeouts). */
  setDelay(ms: number): void;
  /** Behave like servers that do not support response_format: 400 when it is present. */
  rejectResponseFormat(reject: boolean): void;
  /** Back to the defaults, requests cleared. */
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_CANDIDATES: readonly string[] = [
  'Would you have kept calm here? xQc vs the final boss of Elden Ring 😱 #xQc #EldenRing #bossfight #clutch',
  'POV: you finally beat the boss that took 300 tries 🔥 #xQc #EldenRing #soulslike',
  'xQc in Elden Ring: one hit left and chat could not breathe #xQc #EldenRing #twitch',
  '"I can\'t believe that worked!" — the clutch nobody saw coming #xQc #EldenRing #clutch #gaming',
  'Wait for the last second of this fight 👀 #xQc #EldenRing #eldenringclips #fyp',
];

/** A title card about the same moment as DEFAULT_CANDIDATES (the boss, xQc). */
export const DEFAULT_HOOK = 'xQc vs the final boss 😱';

interface QueuedFailure {
  kind: FakeLlmFailure;
  remaining: number;
  retryAfterSeconds: number;
}

interface State {
  candidates: string[];
  hook: string | null;
  reply: FakeLlmReply;
  failures: QueuedFailure[];
  delayMs: number;
  rejectResponseFormat: boolean;
}

const ROLES = new Set(['system', 'user', 'assistant', 'developer', 'tool']);

function initialState(options: FakeLlmOptions): State {
  return { candidates: [...(options.candidates ?? DEFAULT_CANDIDATES)], hook: options.hook === undefined ? DEFAULT_HOOK : options.hook, reply: 'json_object', failures: [], delayMs: 0, rejectResponseFormat: false };
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const apiKey = options.apiKey === undefined ? `sk-fake-${randomUUID().replaceAll('-', '')}` : options.apiKey;
  const models = options.models ?? ['gpt-4o-mini'];
  const requests: RecordedChatRequest[] = [];
  let state = initialState(options);
  const context = { apiKey, models, requests, state: () => state };

  const server = createServer((req, res) => {
    handle(context, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, (error as Error).message, 'server_error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    apiKey,
    model: models[0] ?? 'gpt-4o-mini',
    requests,
    completions: () => requests.filter((request) => request.path === '/v1/chat/completions'),
    setCandidates: (candidates) => void (state.candidates = [...candidates]),
    setHook: (hook) => void (state.hook = hook),
    setReply: (reply) => void (state.reply = reply),
    failNext: (kind, failure = {}) =>
      void state.failures.push({ kind, remaining: failure.times ?? 1, retryAfterSeconds: failure.retryAfterSeconds ?? 1 }),
    setDelay: (ms) => void (state.delayMs = ms),
    rejectResponseFormat: (reject) => void (state.rejectResponseFormat = reject),
    reset: () => {
      state = initialState(options);
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

interface Context {
  apiKey: string | null;
  models: string[];
  requests: RecordedChatRequest[];
  state: () => State;
}

async function handle(context: Context, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const text = await readBody(req);
  const body = parseJson(text);
  const record: RecordedChatRequest = {
    method: req.method ?? 'GET',
    path,
    authorization: req.headers.authorization ?? null,
    body: body === undefined ? text : body,
    model: isRecord(body) && typeof body.model === 'string' ? body.model : null,
    messages: isRecord(body) && Array.isArray(body.messages) ? body.messages.filter(isMessage) : [],
    responseFormat: isRecord(body) ? body.response_format : undefined,
    status: 0,
  };
  context.requests.push(record);
  res.on('finish', () => {
    record.status = res.statusCode;
  });

  if (path !== '/v1/chat/completions') return sendError(res, 404, `Invalid URL (${req.method} ${path})`, 'invalid_request_error');
  if (req.method !== 'POST') return sendError(res, 405, `Method ${req.method} not allowed`, 'invalid_request_error');
  if (!authorized(context, req, res)) return;
  const state = context.state();
  if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
  if (res.destroyed) return;
  if (failIfQueued(state, res)) return;
  if (body === undefined || !isRecord(body)) return sendError(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
  if (!validRequest(context, state, body, res)) return;
  sendCompletion(res, record.model ?? '', state);
}

function authorized(context: Context, req: IncomingMessage, res: ServerResponse): boolean {
  if (context.apiKey === null) return true;
  const header = req.headers.authorization;
  if (!header) {
    sendError(res, 401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.", 'invalid_request_error');
    return false;
  }
  const presented = /^Bearer (.+)$/.exec(header)?.[1] ?? header;
  if (presented !== context.apiKey) {
    // Echoes the key it rejected, as some compatible servers do: the client must scrub it.
    sendError(res, 401, `Incorrect API key provided: ${presented}.`, 'invalid_request_error', 'invalid_api_key');
    return false;
  }
  return true;
}

function failIfQueued(state: State, res: ServerResponse): boolean {
  const failure = state.failures[0];
  if (!failure) return false;
  failure.remaining -= 1;
  if (failure.remaining <= 0) state.failures.shift();
  if (failure.kind === 'rate_limit') {
    res.setHeader('retry-after', String(failure.retryAfterSeconds));
    res.setHeader('x-ratelimit-limit-requests', '500');
    res.setHeader('x-ratelimit-remaining-requests', '0');
    res.setHeader('x-ratelimit-reset-requests', `${failure.retryAfterSeconds}s`);
    sendError(res, 429, 'Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 500, Used 500, Requested 1.', 'requests', 'rate_limit_exceeded');
  } else {
    sendError(res, 500, 'The server had an error while processing your request. Sorry about that!', 'server_error');
  }
  return true;
}

function validRequest(context: Context, state: State, body: Record<string, unknown>, res: ServerResponse): boolean {
  if (typeof body.model !== 'string' || !body.model) {
    sendError(res, 400, 'you must provide a model parameter', 'invalid_request_error');
    return false;
  }
  if (!context.models.includes(body.model)) {
    sendError(res, 404, `The model \`${body.model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found');
    return false;
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0 || !body.messages.every(isMessage)) {
    sendError(res, 400, "Invalid 'messages': expected a non-empty array of {role, content} objects.", 'invalid_request_error');
    return false;
  }
  return validResponseFormat(state, body.response_format, body.messages, res);
}

function validResponseFormat(state: State, format: unknown, messages: { content: string }[], res: ServerResponse): boolean {
  if (format === undefined) return true;
  if (state.rejectResponseFormat) {
    sendError(res, 400, "Unrecognized request argument supplied: response_format", 'invalid_request_error');
    return false;
  }
  const type = isRecord(format) ? format.type : undefined;
  if (type !== 'text' && type !== 'json_object' && type !== 'json_schema') {
    sendError(res, 400, "Invalid value for 'response_format.type'.", 'invalid_request_error');
    return false;
  }
  if (type === 'json_object' && !messages.some((message) => /json/i.test(message.content))) {
    sendError(res, 400, "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", 'invalid_request_error');
    return false;
  }
  return true;
}

function sendCompletion(res: ServerResponse, model: string, state: State): void {
  const { content, refusal, finishReason } = replyContent(state);
  const completionTokens = Math.ceil((content ?? refusal ?? '').length / 4);
  sendJson(res, 200, {
    id: `chatcmpl-${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: `${model}-2024-07-18`,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal, annotations: [] }, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: 412, completion_tokens: completionTokens, total_tokens: 412 + completionTokens },
    service_tier: 'default',
    system_fingerprint: 'fp_fake0001',
  });
}

function replyContent(state: State): { content: string | null; refusal: string | null; finishReason: string } {
  const answer = { descriptions: state.candidates, ...(state.hook === null ? {} : { hook: state.hook }) };
  const json = JSON.stringify(answer);
  switch (state.reply) {
    case 'json_object':
      return { content: json, refusal: null, finishReason: 'stop' };
    case 'fenced':
      return { content: `Here are ${state.candidates.length} captions for the clip:\n\n\`\`\`json\n${JSON.stringify(answer, null, 2)}\n\`\`\`\n`, refusal: null, finishReason: 'stop' };
    case 'bare_array':
      return { content: JSON.stringify(state.candidates), refusal: null, finishReason: 'stop' };
    case 'invalid_json':
      return { content: json.slice(0, Math.max(20, Math.floor(json.length / 2))), refusal: null, finishReason: 'length' };
    case 'prose':
      return { content: state.candidates.map((candidate, index) => `${index + 1}. ${candidate}`).join('\n'), refusal: null, finishReason: 'stop' };
    case 'empty':
      return { content: null, refusal: "I'm sorry, I can't help with that.", finishReason: 'stop' };
  }
}

function sendError(res: ServerResponse, status: number, message: string, type: string, code: string | null = null): void {
  sendJson(res, status, { error: { message, type, param: null, code } });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-request-id': `req_${randomUUID().replaceAll('-', '')}` });
  res.end(payload);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMessage(value: unknown): value is { role: string; content: string } {
  return isRecord(value) && typeof value.role === 'string' && ROLES.has(value.role) && typeof value.content === 'string';
}
