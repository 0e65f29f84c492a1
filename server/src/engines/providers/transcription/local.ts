import { stat } from 'node:fs/promises';
import os from 'node:os';
import type { Logger } from '../../../platform/logger.ts';
import { decodePcm, pcmArrayBuffer, SAMPLE_RATE } from './audio.ts';
import {
  assertTranscribeResult,
  loadWhisperBinding,
  type NativeTranscribeOptions,
  type NativeTranscribeResult,
  type NativeWhisperContext,
  type WhisperBinding,
} from './binding.ts';
import { applyQualityGuards, audioLevels } from './guards.ts';
import { languageCode, normalizeLanguageHint } from './languages.ts';
import { modelNotInstalledMessage, modelPath } from './models.ts';
import { piecesToWords, repairBrokenCharacters, type TimedPiece } from './tokens.ts';
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

export interface LocalEngineConfig {
  /** WHISPER_MODELS_DIR: holds ggml-{name}.bin files. */
  modelsDir: string;
  /** WHISPER_MODEL: used when a request names no model. */
  defaultModel: string;
  ffmpegPath: string;
  /** CPU threads for one transcription (default: all cores, at most 8). */
  threads?: number;
  logger?: Logger;
  /**
   * How long a running transcription may go without a progress report before it is declared dead.
   * whisper.cpp reports progress once per 30 s window, so this must exceed one window's work on
   * the slowest machine and model (default 10 minutes).
   */
  stallTimeoutMs?: number;
}

const DEFAULT_STALL_TIMEOUT_MS = 10 * 60_000;

/*
 * Loaded models, process-wide and keyed by file path: a model (1.6 GB for large-v3-turbo) loads once
 * and serves every later job. The file's size and mtime are part of the entry, so a re-downloaded
 * model is picked up without a restart.
 */
interface LoadedModel {
  file: string;
  context: NativeWhisperContext;
  /** Tail of this model's queue: whisper.cpp runs one transcription per context at a time. */
  tail: Promise<void>;
}

interface CacheEntry {
  signature: string;
  model: Promise<LoadedModel>;
}

const modelCache = new Map<string, CacheEntry>();

export function createLocalTranscriber(config: LocalEngineConfig): Transcriber {
  const threads = config.threads ?? Math.max(1, Math.min(8, os.availableParallelism()));
  const stallTimeoutMs = config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  return {
    engine: 'local',
    transcribe: (input) => transcribeLocally(config, input, { threads, stallTimeoutMs }),
    close: releaseWhisperModels,
  };
}

async function transcribeLocally(
  config: LocalEngineConfig,
  input: TranscribeInput,
  tuning: { threads: number; stallTimeoutMs: number },
): Promise<Transcript> {
  throwIfAborted(input.signal);
  const name = input.model ?? config.defaultModel;
  const file = modelPath(config.modelsDir, name);
  const signature = await installedModelSignature(file, name);
  const pcm = await decodePcm(config.ffmpegPath, input.audioPath, input.signal);
  const hint = normalizeLanguageHint(input.language);
  // Under 0.1 s whisper.cpp refuses to run: nothing can be said in that.
  if (pcm.length < SAMPLE_RATE / 10) return { language: hint ?? null, words: [], text: '', noSpeech: true };

  await forwardNativeLogs(await bindingOrError(), config.logger);
  const model = await acquireModel(file, signature, config.logger);
  throwIfAborted(input.signal);
  const request = { language: hint, vocabulary: input.vocabulary, threads: tuning.threads };
  const native = await runExclusive(model, input.signal, () => startNative(model, pcm, request, tuning.stallTimeoutMs, input.onProgress));
  const duration = pcm.length / SAMPLE_RATE;
  const words = clampToDuration(piecesToWords(repairBrokenCharacters(toPieces(native), native.result)), duration);
  return applyQualityGuards({ words, language: languageCode(native.language) ?? hint ?? null, levels: audioLevels(pcm) });
}

/** The model file's identity (size and mtime), or the "not installed" error naming the download command. */
async function installedModelSignature(file: string, name: string): Promise<string> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a file');
    return `${info.size}:${info.mtimeMs}`;
  } catch (error) {
    throw new TranscriptionError('model_missing', modelNotInstalledMessage(name), { cause: error });
  }
}

function acquireModel(file: string, signature: string, logger: Logger | undefined): Promise<LoadedModel> {
  const cached = modelCache.get(file);
  if (cached?.signature === signature) return cached.model;
  if (cached) evict(file, cached);
  const entry: CacheEntry = { signature, model: loadModel(file, logger) };
  modelCache.set(file, entry);
  entry.model.catch(() => {
    if (modelCache.get(file) === entry) modelCache.delete(file);
  });
  return entry.model;
}

/** The native binding, or an engine error saying why it cannot load (missing libgomp, wrong platform…). */
async function bindingOrError(): Promise<WhisperBinding> {
  try {
    return await loadWhisperBinding();
  } catch (error) {
    throw new TranscriptionError('engine', `The whisper.cpp binding could not be loaded: ${errorMessage(error)}`, { cause: error });
  }
}

async function loadModel(file: string, logger: Logger | undefined): Promise<LoadedModel> {
  const binding = await bindingOrError();
  const started = Date.now();
  try {
    // The binding reads the model synchronously inside this call: the event loop pauses for the
    // load (seconds for large models), once per process thanks to the cache.
    const context = await binding.initWhisper({ filePath: file });
    logger?.info({ model: file, ms: Date.now() - started }, 'whisper model loaded');
    return { file, context, tail: Promise.resolve() };
  } catch (error) {
    throw new TranscriptionError(
      'model_invalid',
      `Whisper model file ${file} could not be loaded (damaged, incomplete or not a whisper.cpp ggml model): ${errorMessage(error)}`,
      { cause: error },
    );
  }
}

function evict(file: string, entry: CacheEntry): void {
  if (modelCache.get(file) === entry) modelCache.delete(file);
  // release() only drops the binding's reference: a transcription still running keeps the model
  // alive until it ends, so this is safe at any time.
  entry.model.then((model) => model.context.release()).catch(() => undefined);
}

/** Frees every loaded model and stops forwarding native logs (shutdown, tests). */
export async function releaseWhisperModels(): Promise<void> {
  const entries = [...modelCache.entries()];
  for (const [file, entry] of entries) evict(file, entry);
  await Promise.allSettled(entries.map(([, entry]) => entry.model));
  await stopNativeLogs();
}

/*
 * Native log forwarding: whisper.cpp otherwise prints dozens of raw lines to stderr per load and
 * run. While enabled, the binding's log callback keeps the event loop alive, hence stopNativeLogs.
 */
let nativeLogs: { binding: WhisperBinding; remove: () => void } | null = null;
/** The most recent logger given: native lines are process-wide, not per transcriber. */
let nativeLogger: Logger | undefined;

async function forwardNativeLogs(binding: WhisperBinding, logger: Logger | undefined): Promise<void> {
  if (logger) nativeLogger = logger;
  if (nativeLogs) return;
  // Without a logger the lines are dropped: raw stderr output would break the JSON log stream.
  const subscription = binding.addNativeLogListener((level, text) => {
    const line = text.trim();
    if (!line || !nativeLogger) return;
    if (level === 'error' || level === 'warn') nativeLogger.warn({ whisper: level }, line);
    else nativeLogger.debug({ whisper: level }, line);
  });
  nativeLogs = { binding, remove: subscription.remove };
  await binding.toggleNativeLog(true);
}

async function stopNativeLogs(): Promise<void> {
  const current = nativeLogs;
  nativeLogs = null;
  nativeLogger = undefined;
  if (!current) return;
  current.remove();
  await current.binding.toggleNativeLog(false);
}

/** A native run: its result for the caller, and `done` for the queue, which never rejects. */
interface NativeRun {
  result: Promise<NativeTranscribeResult>;
  done: Promise<void>;
}

/**
 * Waits for this model's earlier runs, then starts one. An abort rejects the caller at once, but
 * the queue slot is only freed when the native run really ends: whisper.cpp cannot be interrupted
 * mid-run through this binding, and a second run on the same context would just wait on its lock
 * inside a libuv thread.
 */
async function runExclusive(model: LoadedModel, signal: AbortSignal | undefined, start: () => NativeRun): Promise<NativeTranscribeResult> {
  const previous = model.tail;
  let releaseSlot!: () => void;
  model.tail = new Promise<void>((resolve) => {
    releaseSlot = resolve;
  });
  try {
    await abortable(previous, signal);
  } catch (error) {
    void previous.then(releaseSlot);
    throw error;
  }
  const run = start();
  void run.done.then(releaseSlot);
  return abortable(run.result, signal);
}

export interface NativeRequest {
  /** Normalised language hint; none lets whisper.cpp detect it. */
  language: string | undefined;
  vocabulary: readonly string[] | undefined;
  threads: number;
}

/** What the binding is asked for one run: word timings, the language, the glossary as initial prompt. */
export function nativeTranscribeOptions(request: NativeRequest, onProgress: (percent: number) => void): NativeTranscribeOptions {
  const prompt = vocabularyPrompt(request.vocabulary);
  return {
    // Without a hint whisper.cpp would assume English; "auto" runs its language detection.
    language: request.language ?? 'auto',
    tokenTimestamps: true,
    maxLen: 1,
    maxThreads: request.threads,
    ...(prompt ? { prompt } : {}),
    onProgress,
  };
}

/**
 * Starts whisper.cpp on the samples with a watchdog. The binding never settles its promise when
 * the native side fails (its error callback passes one argument where it expects two), so a run
 * that stops reporting progress is declared dead, and its context is dropped from the cache.
 */
function startNative(
  model: LoadedModel,
  pcm: Int16Array,
  request: NativeRequest,
  stallTimeoutMs: number,
  onProgress: TranscribeInput['onProgress'],
): NativeRun {
  let markDone!: () => void;
  const done = new Promise<void>((resolve) => {
    markDone = resolve;
  });
  const result = new Promise<NativeTranscribeResult>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      markDone();
      outcome();
    };
    const declareDead = () =>
      settle(() => {
        dropModel(model);
        reject(new TranscriptionError('engine', `whisper.cpp stopped responding (no progress for ${Math.round(stallTimeoutMs / 1000)} s)`));
      });
    const rearm = () => {
      if (settled) return;
      clearTimeout(timer);
      timer = setTimeout(declareDead, stallTimeoutMs);
    };
    rearm();
    try {
      const job = model.context.transcribeData(
        pcmArrayBuffer(pcm),
        nativeTranscribeOptions(request, (percent: number) => {
          rearm();
          onProgress?.(percent / 100);
        }),
      );
      job.promise.then(
        (value: unknown) =>
          settle(() => {
            try {
              assertTranscribeResult(value);
              resolve(value);
            } catch (error) {
              reject(new TranscriptionError('engine', errorMessage(error), { cause: error }));
            }
          }),
        (error: unknown) => settle(() => reject(new TranscriptionError('engine', `whisper.cpp failed: ${errorMessage(error)}`, { cause: error }))),
      );
    } catch (error) {
      settle(() => reject(new TranscriptionError('engine', `whisper.cpp could not start: ${errorMessage(error)}`, { cause: error })));
    }
  });
  return { result, done };
}

function dropModel(model: LoadedModel): void {
  for (const [file, entry] of modelCache) {
    void entry.model.then((loaded) => {
      if (loaded === model) evict(file, entry);
    });
  }
}

/** Resolves with the promise, or rejects as soon as the signal fires. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError(signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function toPieces(native: NativeTranscribeResult): TimedPiece[] {
  return native.segments.map((segment) => ({ text: segment.text, start: segment.t0 / 1000, end: segment.t1 / 1000 }));
}

/** whisper's last timestamp can point past the end of short audio (it thinks in 30 s windows). */
function clampToDuration(words: TranscriptWord[], duration: number): TranscriptWord[] {
  return words
    .map((word) => ({ ...word, start: Math.min(word.start, duration), end: Math.min(Math.max(word.end, word.start), duration) }))
    .filter((word) => word.start < duration);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
