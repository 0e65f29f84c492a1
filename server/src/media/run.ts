import { spawn } from 'node:child_process';
import type { Logger } from '../logs/logger.ts';
import { MediaError } from './errors.ts';

export interface RunOptions {
  signal?: AbortSignal;
  /** Kill ffmpeg after this long (default 15 minutes). */
  timeoutMs?: number;
  /** Length of the output in seconds, to turn ffmpeg's position into a fraction. */
  durationSec?: number;
  onProgress?: (fraction: number) => void;
  logger?: Logger;
}

const DEFAULT_TIMEOUT_MS = 15 * 60_000;
/** Enough of stderr to explain a failure without keeping megabytes of it. */
const STDERR_TAIL_CHARS = 4_000;

/** ffmpeg's -progress output: out_time_us (newer) or out_time_ms (4.x, also microseconds). */
function positionSeconds(line: string): number | null {
  const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim());
  return match ? Number(match[1]) / 1_000_000 : null;
}

function lastMeaningfulLine(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.at(-1) ?? 'no output';
}

/**
 * Runs ffmpeg with an argument array (never a shell), reporting progress from `-progress pipe:1`,
 * killed on timeout or abort. Rejects with a MediaError carrying the end of stderr.
 */
export function runFfmpeg(ffmpegPath: string, args: readonly string[], options: RunOptions = {}): Promise<void> {
  const { signal, durationSec, onProgress } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new MediaError('ffmpeg was cancelled before it started', 'aborted'));
      return;
    }
    const child = spawn(ffmpegPath, ['-hide_banner', '-nostdin', '-y', '-progress', 'pipe:1', '-nostats', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdoutBuffer = '';
    let ended: MediaError | null = null;
    const stop = (reason: MediaError) => {
      ended ??= reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(new MediaError(`ffmpeg took longer than ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s and was stopped`, 'timeout')), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const onAbort = () => stop(new MediaError('ffmpeg was cancelled', 'aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdoutBuffer += chunk;
      const lines = stdoutBuffer.split('\n');
      stdoutBuffer = lines.pop() ?? '';
      for (const line of lines) {
        const position = positionSeconds(line);
        if (position !== null && durationSec && durationSec > 0) onProgress?.(Math.min(1, Math.max(0, position / durationSec)));
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.on('error', (error) => stop(new MediaError(`ffmpeg could not start: ${error.message}`, 'failed')));
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (ended) return reject(ended);
      if (code !== 0) {
        options.logger?.debug({ stderr }, 'ffmpeg failed');
        return reject(new MediaError(`ffmpeg failed (exit ${code}): ${lastMeaningfulLine(stderr)}`, 'failed', stderr));
      }
      onProgress?.(1);
      resolve();
    });
  });
}
