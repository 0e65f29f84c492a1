import { z } from 'zod';
import { createLogger, type Logger } from '../../../platform/logger.ts';
import { exponentialBackoff, sendWithRetries, type RetryPolicy } from '../http/retry.ts';
import { defaultSleep, messageWithCause, type ProviderRuntime, type Sleep } from '../http/runtime.ts';
import { decodePcm, SAMPLE_RATE, wavFile } from './audio.ts';
import { applyQualityGuards, audioLevels, type SpeechSegment } from './guards.ts';
import { languageCode, normalizeLanguageHint } from './languages.ts';
import { vocabularyPrompt } from './vocabulary.ts';
import {
  abortedError,
  throwIfAborted,
  TranscriptionError,
  type Transcriber,
  type TranscribeInput,
  type Transcript,
  type TranscriptWord,
} from './types.ts';

export interface OpenAiEngineConfig {
  /** TRANSCRIBE_API_URL: the server root ("http://host:8000"); a trailing /v1 is accepted too. */
  apiUrl: string;
  /** TRANSCRIBE_API_KEY, sent as a Bearer token when set. */
  apiKey?: string;
  /** The server's model id (e.g. "whisper-1"), used when a request names no model. */
  defaultModel: string;
  ffmpegPath: string;
  logger?: Logger;
  /** Attempts for 5xx, 429 and network failures, the first included (default 3). */
  attempts?: number;
  /** The time one request is given, from the length of its audio (default DEFAULT_TRANSCRIPTION_BUDGET). */
  budget?: TranscriptionBudget;
  /** One request may take this long, whatever its audio (overrides the budget). */
  requestTimeoutMs?: number;
  /** Injectable so tests do not really wait between retries. */
  sleep?: Sleep;
}

const DEFAULT_ATTEMPTS = 3;

/** The time one transcription request is given: time to get going, plus so much per second of audio. */
export interface TranscriptionBudget {
  startMs: number;
  perAudioSecondMs: number;
}

/**
 * A CPU server with a large model transcribes about as fast as the audio plays; four times that
 * leaves room for a busy one. A 30 s clip gets 2.5 minutes, a full minute 4.5.
 */
const DEFAULT_TRANSCRIPTION_BUDGET: TranscriptionBudget = { startMs: 30_000, perAudioSecondMs: 4_000 };
/** However long the audio, a request that has not answered after this is taken as hung. */
const MAX_REQUEST_TIMEOUT_MS = 5 * 60_000;

/** The time one request with `audioSeconds` of audio is given. */
function transcriptionTimeoutMs(audioSeconds: number, budget: TranscriptionBudget = DEFAULT_TRANSCRIPTION_BUDGET): number {
  return Math.min(MAX_REQUEST_TIMEOUT_MS, budget.startMs + Math.ceil(audioSeconds * budget.perAudioSecondMs));
}
/** A server asking us to wait longer than this is treated as down for this job. */
const MAX_RETRY_AFTER_MS = 30_000;
/** Where retries are logged when the caller gave no logger. */
const SILENT = createLogger('silent');

const wordSchema = z.object({
  word: z.string(),
  start: z.number(),
  end: z.number(),
  probability: z.number().optional(),
});

const segmentSchema = z.object({
  start: z.number(),
  end: z.number(),
  text: z.string().default(''),
  avg_logprob: z.number().optional(),
  no_speech_prob: z.number().optional(),
  // faster-whisper based servers put the words inside the segments.
  words: z.array(wordSchema).nullish(),
});

const verboseJsonSchema = z.object({
  text: z.string().default(''),
  language: z.string().nullish(),
  words: z.array(wordSchema).nullish(),
  segments: z.array(segmentSchema).nullish(),
});

type VerboseJson = z.infer<typeof verboseJsonSchema>;

export function createOpenAiTranscriber(config: OpenAiEngineConfig): Transcriber {
  return {
    engine: 'openai',
    transcribe: (input) => transcribeRemotely(config, input),
    close: async () => undefined,
  };
}

/** `${apiUrl}/v1/audio/transcriptions`, whether or not the configured URL already ends in /v1. */
export function transcriptionsUrl(apiUrl: string): string {
  const base = apiUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${base}/v1/audio/transcriptions`;
}

async function transcribeRemotely(config: OpenAiEngineConfig, input: TranscribeInput): Promise<Transcript> {
  throwIfAborted(input.signal);
  // Upload 16 kHz mono WAV rather than the clip: ~2 MB a minute, far under the 25 MB API limit,
  // and the same samples feed the silence guard.
  const pcm = await decodePcm(config.ffmpegPath, input.audioPath, input.signal);
  const hint = normalizeLanguageHint(input.language);
  if (pcm.length < SAMPLE_RATE / 10) return { language: hint ?? null, words: [], text: '', noSpeech: true };
  const upload = { wav: wavFile(pcm), model: input.model ?? config.defaultModel, language: hint, prompt: vocabularyPrompt(input.vocabulary) };
  const timeoutMs = config.requestTimeoutMs ?? transcriptionTimeoutMs(pcm.length / SAMPLE_RATE, config.budget);
  const body = await postWithRetries(config, upload, timeoutMs, input.signal);
  const segments = (body.segments ?? []).map(toSpeechSegment);
  return applyQualityGuards({
    words: wordsOf(body),
    language: languageCode(body.language) ?? hint ?? null,
    levels: audioLevels(pcm),
    segments: segments.length > 0 ? segments : undefined,
  });
}

interface UploadRequest {
  wav: Uint8Array<ArrayBuffer>;
  model: string;
  language: string | undefined;
  prompt: string | undefined;
}

async function postWithRetries(config: OpenAiEngineConfig, request: UploadRequest, timeoutMs: number, signal: AbortSignal | undefined): Promise<VerboseJson> {
  const url = transcriptionsUrl(config.apiUrl);
  const runtime: ProviderRuntime = { logger: config.logger ?? SILENT, sleep: config.sleep ?? defaultSleep, now: Date.now };
  const send = (attemptSignal: AbortSignal) => fetch(url, { method: 'POST', headers: authHeaders(config.apiKey), body: formData(request), signal: attemptSignal });
  const response = await sendWithRetries(runtime, { what: 'Transcription', signal, send }, retryPolicy(config, url, timeoutMs, signal));
  const text = await readBody(response, url, signal);
  if (!response.ok) throw statusError(response.status, text, url);
  return parseBody(text, url);
}

/**
 * 5xx, 429 and network failures (timeouts included) are retried, after the server's Retry-After when
 * it sends one. Reasons are in words a user may read; the address and the answer's start ride along
 * as the error's detail, for the server's log (the retry lines log them too).
 */
function retryPolicy(config: OpenAiEngineConfig, url: string, timeoutMs: number, signal: AbortSignal | undefined): RetryPolicy {
  let lastDetail = url;
  return {
    retryMessage: 'transcription server failed, retrying',
    retryFields: ({ attempt, waitMs, failure }) => ({ attempt, status: failure.status, waitMs, err: failure.reason, detail: lastDetail }),
    attempts: config.attempts ?? DEFAULT_ATTEMPTS,
    timeoutMs,
    backoffMs: exponentialBackoff(500),
    tooManyRequests: 'retry',
    serverDelay: { maxMs: MAX_RETRY_AFTER_MS, beyondMax: 'wait_max' },
    describeAnswer: async (response) => {
      const error = statusError(response.status, await readBody(response, url, signal), url);
      lastDetail = error.detail ?? url;
      return error.message;
    },
    describeNetworkError: (error, timedOut) => {
      lastDetail = `${url}: ${timedOut ? 'timed out' : messageWithCause(error)}`;
      return `The transcription server could not be reached (${timedOut ? `no answer within ${seconds(timeoutMs)}` : networkFailure(error)})`;
    },
    aborted: () => abortedError(signal?.reason),
    exhausted: (_what, _attempts, failure) => new TranscriptionError('upstream', failure.reason, { status: failure.status, cause: failure.cause, detail: lastDetail }),
  };
}

/** "0.4 s" for the short budgets of tests, "150 s" for real ones. */
function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** What a failed connection was, in words: the codes fetch's cause carries (connect ECONNREFUSED 10.0.0.5:8000…) without the address. */
function networkFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? (error.cause as NodeJS.ErrnoException) : undefined;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its name does not resolve';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case undefined:
    default:
      return 'a network error';
  }
}

function formData(request: UploadRequest): FormData {
  const form = new FormData();
  form.append('file', new Blob([request.wav], { type: 'audio/wav' }), 'audio.wav');
  form.append('model', request.model);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'word');
  form.append('timestamp_granularities[]', 'segment');
  if (request.language) form.append('language', request.language);
  if (request.prompt) form.append('prompt', request.prompt);
  return form;
}

function authHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

async function readBody(response: Response, url: string, signal: AbortSignal | undefined): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal.reason);
    throw new TranscriptionError('upstream', 'The transcription server’s answer broke off', { status: response.status, cause: error, detail: `${url}: ${messageWithCause(error)}` });
  }
}

/** How much of an answer the server's log keeps. */
const DETAIL_BODY_CHARS = 200;

/** "<url> answered 502: <the answer's start>", for the server's log. */
function answerDetail(url: string, status: number, text: string): string {
  return `${url} answered ${status}: ${text.trim().slice(0, DETAIL_BODY_CHARS) || '(empty answer)'}`;
}

function parseBody(text: string, url: string): VerboseJson {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TranscriptionError('upstream', 'The transcription server’s answer could not be read (it is not JSON)', { cause: error, detail: answerDetail(url, 200, text) });
  }
  const parsed = verboseJsonSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? ` at ${issue.path.join('.') || '(root)'}` : '';
    throw new TranscriptionError('upstream', `The transcription server’s answer has an unexpected shape${where}`, { detail: answerDetail(url, 200, text) });
  }
  return parsed.data;
}

/** Longest reason of the server's own that a user is shown. */
const MAX_SERVER_REASON_CHARS = 200;

/**
 * The server's own reason from a JSON error: OpenAI's `{ error: { message } }`, `{ error }`,
 * `{ message }` or a FastAPI `{ detail }` string; one line, bounded. Anything else it sent (an
 * HTML page of a proxy, a stack) is no reason to show a user: undefined.
 */
function serverReason(text: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const shaped = z
    .object({ error: z.union([z.string(), z.object({ message: z.string() })]).optional(), detail: z.unknown().optional(), message: z.string().optional() })
    .safeParse(json);
  if (!shaped.success) return undefined;
  const { error, detail, message } = shaped.data;
  const reason = typeof error === 'string' ? error : (error?.message ?? message ?? (typeof detail === 'string' ? detail : undefined));
  const line = reason?.split(/\r?\n/, 1)[0]?.trim();
  return line ? line.slice(0, MAX_SERVER_REASON_CHARS) : undefined;
}

function statusError(status: number, text: string, url: string): TranscriptionError {
  const kind = status === 429 || status >= 500 ? 'upstream' : 'bad_request';
  const reason = serverReason(text);
  const message = `The transcription server answered HTTP ${status}${reason ? `: ${reason}` : ''}`;
  return new TranscriptionError(kind, message, { status, detail: answerDetail(url, status, text) });
}

function toSpeechSegment(segment: z.infer<typeof segmentSchema>): SpeechSegment {
  return { start: segment.start, end: segment.end, text: segment.text, noSpeechProb: segment.no_speech_prob, avgLogprob: segment.avg_logprob };
}

/** Top-level words (OpenAI), else words inside segments (faster-whisper servers), else estimated. */
function wordsOf(body: VerboseJson): TranscriptWord[] {
  const raw = body.words?.length ? body.words : (body.segments ?? []).flatMap((segment) => segment.words ?? []);
  if (raw.length > 0) {
    return raw.map((word) => ({ text: word.word.trim(), start: word.start, end: word.end, probability: word.probability }));
  }
  return (body.segments ?? []).flatMap(estimateWordTimes);
}

/**
 * A server that ignores timestamp_granularities still gives segment times: spread them over the
 * segment's words by length, so captions stay roughly in sync rather than missing entirely.
 */
function estimateWordTimes(segment: z.infer<typeof segmentSchema>): TranscriptWord[] {
  const words = segment.text.trim().split(/\s+/u).filter(Boolean);
  const totalChars = words.reduce((sum, word) => sum + Array.from(word).length, 0);
  if (totalChars === 0) return [];
  const duration = Math.max(0, segment.end - segment.start);
  let cursor = segment.start;
  return words.map((word) => {
    const share = (Array.from(word).length / totalChars) * duration;
    const timed = { text: word, start: cursor, end: cursor + share };
    cursor += share;
    return timed;
  });
}
