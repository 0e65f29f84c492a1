import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import type { Logger } from '../../../platform/logger.ts';
import { decodePcm, SAMPLE_RATE, wavFile } from './audio.ts';
import { applyQualityGuards, audioLevels, type SpeechSegment } from './guards.ts';
import { languageCode, normalizeLanguageHint } from './languages.ts';
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
  /** One request may take this long (default 5 minutes: a CPU server transcribing a full minute). */
  requestTimeoutMs?: number;
  /** Injectable so tests do not really wait between retries. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const DEFAULT_ATTEMPTS = 3;
const DEFAULT_REQUEST_TIMEOUT_MS = 5 * 60_000;
/** A server asking us to wait longer than this is treated as down for this job. */
const MAX_RETRY_AFTER_MS = 30_000;

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
  const body = await postWithRetries(config, { wav: wavFile(pcm), model: input.model ?? config.defaultModel, language: hint }, input.signal);
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
}

async function postWithRetries(config: OpenAiEngineConfig, request: UploadRequest, signal: AbortSignal | undefined): Promise<VerboseJson> {
  const attempts = config.attempts ?? DEFAULT_ATTEMPTS;
  const url = transcriptionsUrl(config.apiUrl);
  for (let attempt = 1; ; attempt++) {
    const outcome = await postOnce(config, url, request, signal);
    if (outcome.kind === 'ok') return outcome.body;
    if (attempt >= attempts) throw outcome.error;
    const waitMs = outcome.retryAfterMs ?? Math.min(500 * 2 ** (attempt - 1), 10_000);
    config.logger?.warn({ attempt, status: outcome.error.status, waitMs, err: outcome.error.message }, 'transcription server failed, retrying');
    await sleep(config, waitMs, signal);
  }
}

type Outcome =
  | { kind: 'ok'; body: VerboseJson }
  | { kind: 'retry'; error: TranscriptionError; retryAfterMs?: number };

async function postOnce(config: OpenAiEngineConfig, url: string, request: UploadRequest, signal: AbortSignal | undefined): Promise<Outcome> {
  const timeout = AbortSignal.timeout(config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: authHeaders(config.apiKey), body: formData(request), signal: combined });
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal.reason);
    const reason = timeout.aborted ? `no answer within ${Math.round((config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) / 1000)} s` : networkReason(error);
    return { kind: 'retry', error: new TranscriptionError('upstream', `Transcription server ${url} unreachable: ${reason}`, { cause: error }) };
  }
  const text = await readBody(response, signal);
  if (response.ok) return { kind: 'ok', body: parseBody(text, url) };
  const error = statusError(response.status, serverMessage(text), url);
  if (response.status === 429 || response.status >= 500) {
    return { kind: 'retry', error, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
  }
  throw error;
}

function formData(request: UploadRequest): FormData {
  const form = new FormData();
  form.append('file', new Blob([request.wav], { type: 'audio/wav' }), 'audio.wav');
  form.append('model', request.model);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'word');
  form.append('timestamp_granularities[]', 'segment');
  if (request.language) form.append('language', request.language);
  return form;
}

function authHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

async function readBody(response: Response, signal: AbortSignal | undefined): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal.reason);
    throw new TranscriptionError('upstream', `Transcription server answer broke off: ${networkReason(error)}`, { status: response.status, cause: error });
  }
}

function parseBody(text: string, url: string): VerboseJson {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TranscriptionError('upstream', `Transcription server ${url} did not answer with JSON: ${text.slice(0, 200)}`, { cause: error });
  }
  const parsed = verboseJsonSchema.safeParse(json);
  if (!parsed.success) {
    throw new TranscriptionError('upstream', `Transcription server ${url} answered with an unexpected shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** OpenAI's `{ error: { message } }`, a `{ detail }` (FastAPI servers), or the text itself. */
function serverMessage(text: string): string {
  try {
    const json: unknown = JSON.parse(text);
    const shaped = z
      .object({ error: z.union([z.string(), z.object({ message: z.string() })]).optional(), detail: z.unknown().optional(), message: z.string().optional() })
      .safeParse(json);
    if (shaped.success) {
      const { error, detail, message } = shaped.data;
      if (typeof error === 'string') return error;
      if (error) return error.message;
      if (message) return message;
      if (detail !== undefined) return typeof detail === 'string' ? detail : JSON.stringify(detail);
    }
  } catch {
    // Not JSON: the raw text is the message.
  }
  return text.trim().slice(0, 300) || '(empty answer)';
}

function statusError(status: number, message: string, url: string): TranscriptionError {
  const kind = status === 429 || status >= 500 ? 'upstream' : 'bad_request';
  return new TranscriptionError(kind, `Transcription server ${url} answered ${status}: ${message}`, { status });
}

/** Retry-After in seconds or as an HTTP date; capped so one job never waits for long. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS) : undefined;
}

async function sleep(config: OpenAiEngineConfig, ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await (config.sleep ? config.sleep(ms, signal) : delay(ms, undefined, { signal }));
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal.reason);
    throw error;
  }
}

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : '';
  return cause ? `${error.message} (${cause})` : error.message;
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
