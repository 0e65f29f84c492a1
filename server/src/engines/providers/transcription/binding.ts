/*
 * The part of @fugood/whisper.node (whisper.cpp N-API binding) this app uses, typed narrowly.
 * The package ships its TypeScript sources rather than declarations, so it is loaded through a
 * variable specifier (not type-checked as part of this project) and checked at run time instead.
 */

export interface NativeTranscribeOptions {
  /** ISO code or "auto" (whisper.cpp's default would be "en"). */
  language: string;
  tokenTimestamps: boolean;
  /** 1 = one segment per token: the only way the binding exposes token timings. */
  maxLen: number;
  maxThreads: number;
  /** whisper.cpp's initial_prompt: text taken as said before the audio. */
  prompt?: string;
  onProgress?: (percent: number) => void;
}

interface NativeSegment {
  text: string;
  /** Milliseconds. */
  t0: number;
  t1: number;
}

export interface NativeTranscribeResult {
  language?: string;
  result: string;
  segments: NativeSegment[];
  isAborted: boolean;
}

export interface NativeWhisperContext {
  transcribeData(audio: ArrayBuffer, options: NativeTranscribeOptions): { stop: () => Promise<void>; promise: Promise<NativeTranscribeResult> };
  release(): Promise<void>;
}

export interface WhisperBinding {
  initWhisper(options: { filePath: string; useGpu?: boolean }): Promise<NativeWhisperContext>;
  toggleNativeLog(enable: boolean): Promise<void>;
  addNativeLogListener(listener: (level: string, text: string) => void): { remove: () => void };
}

const PACKAGE = '@fugood/whisper.node';

let loading: Promise<WhisperBinding> | null = null;

/** Loads the binding once per process. */
export function loadWhisperBinding(): Promise<WhisperBinding> {
  loading ??= importBinding().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

async function importBinding(): Promise<WhisperBinding> {
  const specifier: string = PACKAGE;
  const loaded: unknown = await import(specifier);
  const candidate = hasBindingShape(loaded) ? loaded : isObject(loaded) && hasBindingShape(loaded.default) ? loaded.default : null;
  if (!candidate) throw new Error(`${PACKAGE} does not export initWhisper/toggleNativeLog/addNativeLogListener`);
  return candidate;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function hasBindingShape(value: unknown): value is WhisperBinding {
  return (
    isObject(value) &&
    typeof value.initWhisper === 'function' &&
    typeof value.toggleNativeLog === 'function' &&
    typeof value.addNativeLogListener === 'function'
  );
}

/** Checks the native result at the boundary, so a changed binding fails loudly instead of subtly. */
export function assertTranscribeResult(value: unknown): asserts value is NativeTranscribeResult {
  const valid =
    isObject(value) &&
    typeof value.result === 'string' &&
    Array.isArray(value.segments) &&
    value.segments.every(
      (segment: unknown) => isObject(segment) && typeof segment.text === 'string' && typeof segment.t0 === 'number' && typeof segment.t1 === 'number',
    );
  if (!valid) throw new Error(`${PACKAGE} returned an unexpected transcription result`);
}
