import type { ChildProcess } from 'node:child_process';
import type { Logger } from '../../platform/logger.ts';
import { MediaAbortError, MediaError } from './errors.ts';
import { spawnTied } from '../../platform/processes.ts';

export type ProgressCallback = (fraction: number) => void;

export interface RunOptions {
  /** Aborting kills ffmpeg at once and rejects with MediaAbortError (kind 'aborted'). */
  signal?: AbortSignal | undefined;
  /** Kill ffmpeg after this long (default 15 minutes) and reject with kind 'timeout'. */
  timeoutMs?: number | undefined;
  /** Length of the output in seconds, to turn ffmpeg's position into a fraction. */
  durationSec?: number | undefined;
  /** Non-decreasing fractions in [0, 1), then exactly 1 once ffmpeg has exited successfully. */
  onProgress?: ProgressCallback | undefined;
  logger?: Logger | undefined;
  /** 'info' for filters that report at that level (ebur128's loudness summary); warnings otherwise. */
  logLevel?: 'warning' | 'info' | undefined;
}

export interface RunResult {
  elapsedMs: number;
  /** What ffmpeg wrote to stderr (warnings only), for logs. */
  stderrTail: string;
}

const DEFAULT_TIMEOUT_MS = 15 * 60_000;
const DEFAULT_PROBE_TIMEOUT_MS = 60_000;
/** Enough of stderr to explain a failure without keeping megabytes of warnings from a broken stream. */
const STDERR_TAIL_CHARS = 8_000;

/**
 * Prepended to every ffmpeg call: progress as key=value lines on stdout, nothing read from stdin,
 * and stderr limited to warnings and errors, so its tail is the reason of a failure rather than
 * the banner and stream listing.
 */
function globalArgs(logLevel: 'warning' | 'info'): string[] {
  return ['-hide_banner', '-nostdin', '-y', '-loglevel', logLevel, '-progress', 'pipe:1', '-nostats'];
}

/**
 * Runs ffmpeg with an argument array (never a shell, so paths need no quoting), reporting progress
 * from `-progress pipe:1`, killed on timeout or abort. Rejects with a MediaError carrying the end
 * of stderr; settles only after the process is gone, so the caller can delete its output safely.
 */
export async function runFfmpeg(ffmpegPath: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const started = performance.now();
  const fullArgs = [...globalArgs(options.logLevel ?? 'warning'), ...args];
  options.logger?.debug({ args: fullArgs }, 'ffmpeg started');
  const onStdout = createProgressParser(options.durationSec, options.onProgress);
  try {
    const stderrTail = await runSupervised('ffmpeg', ffmpegPath, fullArgs, {
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      onStdout: (chunk) => onStdout(chunk.toString('utf8')),
    });
    options.onProgress?.(1);
    const elapsedMs = Math.round(performance.now() - started);
    options.logger?.debug({ elapsedMs }, 'ffmpeg finished');
    return { elapsedMs, stderrTail };
  } catch (error) {
    options.logger?.debug({ err: error, stderr: error instanceof MediaError ? error.stderrTail : undefined }, 'ffmpeg did not finish');
    throw error;
  }
}

/** Runs ffprobe and returns its stdout; same supervision (abort, timeout, stderr tail) as ffmpeg. */
export async function runFfprobe(ffprobePath: string, args: readonly string[], options: Pick<RunOptions, 'signal' | 'timeoutMs'> = {}): Promise<string> {
  const chunks: Buffer[] = [];
  await runSupervised('ffprobe', ffprobePath, ['-hide_banner', '-loglevel', 'error', ...args], {
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    onStdout: (chunk) => chunks.push(chunk),
  });
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs ffmpeg for what it prints (`-encoders`, `-version`), not to make a file; same supervision. */
export async function ffmpegStdout(ffmpegPath: string, args: readonly string[], options: Pick<RunOptions, 'signal' | 'timeoutMs'> = {}): Promise<string> {
  return (await ffmpegBytes(ffmpegPath, args, options)).toString('utf8');
}

/** Runs ffmpeg for the bytes it writes to stdout (raw frames for analysis); same supervision. */
export async function ffmpegBytes(ffmpegPath: string, args: readonly string[], options: Pick<RunOptions, 'signal' | 'timeoutMs'> = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await runSupervised('ffmpeg', ffmpegPath, ['-nostdin', '-loglevel', 'error', ...args], {
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    onStdout: (chunk) => chunks.push(chunk),
  });
  return Buffer.concat(chunks);
}

/**
 * Turns `-progress` key=value lines into fractions of durationSec. A chunk can end mid-line, so the
 * unfinished line waits for the next chunk. Fractions stay below 1 and never go back: ffmpeg says
 * `progress=end` before the +faststart pass rewrites the file, so 1 only comes after a clean exit.
 */
export function createProgressParser(durationSec: number | undefined, onProgress: ProgressCallback | undefined): (chunk: string) => void {
  let pending = '';
  let reported = 0;
  return (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    if (!onProgress || !durationSec || durationSec <= 0) return;
    for (const line of lines) {
      const seconds = positionSeconds(line);
      if (seconds === null) continue;
      const fraction = Math.min(0.999, seconds / durationSec);
      if (fraction <= reported) continue;
      reported = fraction;
      onProgress(fraction);
    }
  };
}

/** out_time_us (ffmpeg ≥ 4.2) or out_time_ms (4.x; despite its name also microseconds); "N/A" early on. */
function positionSeconds(line: string): number | null {
  const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim());
  return match ? Number(match[1]) / 1_000_000 : null;
}

/** Lines that end every failed run and say nothing about why. */
const GENERIC_LINES = /^(Conversion failed!?|Exiting normally.*)$/;
const SUMMARY_LINES = 2;

/** The reason of a failure: ffmpeg prints it last, just before its generic "Conversion failed!". */
export function summariseStderr(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !GENERIC_LINES.test(line));
  return lines.slice(-SUMMARY_LINES).join(' — ') || 'no error output';
}

interface SuperviseOptions {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  onStdout: (chunk: Buffer) => void;
}

type StopReason = 'aborted' | 'timeout';

/**
 * Spawns the tool and settles on 'close' (process exited and pipes drained), never earlier: after
 * a kill, no late write can land in a file the caller is about to delete. Resolves with the
 * stderr tail on exit code 0.
 */
function runSupervised(tool: 'ffmpeg' | 'ffprobe', binary: string, args: readonly string[], options: SuperviseOptions): Promise<string> {
  if (options.signal?.aborted) return Promise.reject(new MediaAbortError(`${tool} was cancelled before it started`, { cause: options.signal.reason }));

  return new Promise((resolve, reject) => {
    const child = spawnTied(binary, args);
    trackChild(child);
    let stderr = '';
    let stopReason: StopReason | undefined;
    let spawnError: Error | undefined;

    // SIGKILL rather than SIGTERM: on SIGTERM ffmpeg finalises the file (trailer, faststart pass)
    // first, which only delays the stop for an output that is going to be deleted anyway.
    const stop = (reason: StopReason) => {
      stopReason ??= reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);

    child.stdout?.on('data', options.onStdout);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    // A failed spawn (ENOENT, EACCES) emits 'error' and then 'close' with no exit code.
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const failure = exitFailure({ tool, binary, code, signal, stopReason, spawnError, stderr, timeoutMs: options.timeoutMs, abortReason: options.signal?.reason });
      if (failure) reject(failure);
      else resolve(stderr);
    });
  });
}

interface ExitFacts {
  tool: string;
  binary: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stopReason: StopReason | undefined;
  spawnError: Error | undefined;
  stderr: string;
  timeoutMs: number;
  abortReason: unknown;
}

/** How the child ended → the error callers see (undefined: success). */
function exitFailure(facts: ExitFacts): MediaError | undefined {
  if (facts.spawnError) return new MediaError(`${facts.tool} could not start (${facts.binary}): ${facts.spawnError.message}`, 'unavailable', '', { cause: facts.spawnError });
  if (facts.stopReason === 'aborted') return new MediaAbortError(`${facts.tool} was cancelled`, { cause: facts.abortReason });
  if (facts.stopReason === 'timeout') return new MediaError(`${facts.tool} took longer than ${formatSeconds(facts.timeoutMs)} and was stopped`, 'timeout', facts.stderr);
  if (facts.code === 0) return undefined;
  const how = facts.code === null ? `killed by ${facts.signal ?? 'a signal'}` : `exit ${facts.code}`;
  return new MediaError(`${facts.tool} failed (${how}): ${summariseStderr(facts.stderr)}`, 'failed', facts.stderr);
}

/** "0.3 s" for short limits (tests), "1200 s" for real ones. */
function formatSeconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/**
 * Children still running when the server process exits normally are killed with it, so a
 * shutdown never leaves an encoder behind eating the CPU. (A SIGKILLed server cannot do this:
 * there the kernel kills them, see spawnTied.)
 */
const liveChildren = new Set<ChildProcess>();

function trackChild(child: ChildProcess): void {
  if (liveChildren.size === 0) process.once('exit', killLiveChildren);
  liveChildren.add(child);
  child.once('close', () => {
    liveChildren.delete(child);
    if (liveChildren.size === 0) process.removeListener('exit', killLiveChildren);
  });
}

function killLiveChildren(): void {
  for (const child of liveChildren) child.kill('SIGKILL');
}
