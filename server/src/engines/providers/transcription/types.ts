/** One spoken word with its timing in seconds from the start of the audio. */
export interface TranscriptWord {
  text: string;
  start: number;
  end: number;
  /** The engine's confidence (0–1) when it reports one; whisper.cpp through the binding does not. */
  probability?: number;
}

export interface Transcript {
  /** ISO 639-1 code (e.g. "en", "ja") detected or forced, null when the engine did not say. */
  language: string | null;
  words: TranscriptWord[];
  /** The words joined as text (spaces only where the script uses them). */
  text: string;
  /** True when nothing that looks like real speech is left after the quality guards. */
  noSpeech: boolean;
}

export interface TranscribeInput {
  /** Any file ffmpeg can read: the downloaded clip itself is fine. */
  audioPath: string;
  /** Language hint (streamer's language), ISO 639-1 or a tag like "pt-BR"; unknown values are ignored. */
  language?: string;
  /** Model name overriding the configured default (local: ggml file name part, openai: server model id). */
  model?: string;
  /** Terms the speech is likely to contain (a streamer's glossary), given to whisper as its prompt; see vocabulary.ts. */
  vocabulary?: readonly string[];
  signal?: AbortSignal;
  /** Fractions 0–1 as the engine gets through the audio (the local engine; a remote server says nothing until it answers). */
  onProgress?: (fraction: number) => void;
}

export interface Transcriber {
  readonly engine: TranscribeEngine;
  transcribe(input: TranscribeInput): Promise<Transcript>;
  /** Frees loaded models and native log forwarding; the transcriber is unusable afterwards. */
  close(): Promise<void>;
}

export type TranscribeEngine = 'local' | 'openai';

/**
 * Why a transcription failed, for callers that map it to a job error:
 * - model_missing: the local model file is not installed (message names the download command)
 * - model_invalid: the model file exists but whisper.cpp cannot load it
 * - audio: ffmpeg could not read or convert the input
 * - bad_request: the server refused our request (4xx other than 429); retrying cannot help
 * - upstream: 5xx / 429 / network failure that outlived the retries, or an unreadable response
 * - engine: the local engine failed or stopped responding
 * - aborted: the caller's signal fired
 */
export type TranscriptionErrorKind = 'model_missing' | 'model_invalid' | 'audio' | 'bad_request' | 'upstream' | 'engine' | 'aborted';

export class TranscriptionError extends Error {
  override name = 'TranscriptionError';
  readonly kind: TranscriptionErrorKind;
  /** HTTP status of the server's answer, when there was one. */
  readonly status: number | undefined;
  /**
   * For the server's log, never for users: the address that was called and the start of what came
   * back. The message says what failed in words a user may read.
   */
  readonly detail: string | undefined;

  constructor(kind: TranscriptionErrorKind, message: string, options: { status?: number; cause?: unknown; detail?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.detail = options.detail;
  }
}

export function isTranscriptionError(error: unknown, kind?: TranscriptionErrorKind): error is TranscriptionError {
  return error instanceof TranscriptionError && (kind === undefined || error.kind === kind);
}

export function abortedError(cause?: unknown): TranscriptionError {
  return new TranscriptionError('aborted', 'Transcription was cancelled', { cause });
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError(signal.reason);
}
