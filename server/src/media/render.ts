import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logs/logger.ts';
import { assFilter, buildVerticalFilter, ENCODE_ARGS, type SubtitleOverlay, type VerticalLayout } from './filters.ts';
import type { ProbeResult } from './probe.ts';
import { runFfmpeg } from './run.ts';

/**
 * Writes through a temporary name in the same folder and renames into place only on success, so
 * a crash or cancel never leaves a file that looks finished.
 */
export async function writeAtomically(output: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const extension = path.extname(output);
  const temporary = `${output}.tmp-${randomBytes(4).toString('hex')}${extension}`;
  try {
    await write(temporary);
    await rename(temporary, output);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

interface CommonRender {
  ffmpeg: string;
  source: string;
  output: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  timeoutMs?: number;
  logger?: Logger;
}

export interface VerticalRender extends CommonRender {
  layout: VerticalLayout;
  sourceInfo: ProbeResult;
  subtitles?: SubtitleOverlay;
}

/** The ffmpeg arguments of a vertical render (exported so the benchmark runs the very same command). */
export function verticalArgs(source: string, output: string, layout: VerticalLayout, info: ProbeResult, subtitles?: SubtitleOverlay): string[] {
  return ['-i', source, '-filter_complex', buildVerticalFilter(layout, info, subtitles), '-map', '[v]', '-map', '0:a:0?', ...ENCODE_ARGS, output];
}

/** 1080x1920 H.264 + AAC in one encode from the source: layout, captions and format in one graph. */
export async function renderVertical(options: VerticalRender): Promise<void> {
  await writeAtomically(options.output, (temporary) =>
    runFfmpeg(options.ffmpeg, verticalArgs(options.source, temporary, options.layout, options.sourceInfo, options.subtitles), {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      durationSec: options.sourceInfo.durationSec,
      onProgress: options.onProgress,
      logger: options.logger,
    }),
  );
}

export interface HorizontalRender extends CommonRender {
  sourceInfo: ProbeResult;
  /** Captions force an encode; without them the source streams are copied untouched. */
  subtitles?: SubtitleOverlay;
}

/** The source as it is (remux, no re-encode), or re-encoded once at its own size to burn captions. */
export async function renderHorizontal(options: HorizontalRender): Promise<void> {
  const args = options.subtitles
    ? ['-i', options.source, '-vf', `${assFilter(options.subtitles)},format=yuv420p`, '-map', '0:v:0', '-map', '0:a:0?', ...ENCODE_ARGS, '__OUT__']
    : ['-i', options.source, '-map', '0', '-c', 'copy', '-movflags', '+faststart', '__OUT__'];
  await writeAtomically(options.output, (temporary) =>
    runFfmpeg(options.ffmpeg, args.map((arg) => (arg === '__OUT__' ? temporary : arg)), {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      durationSec: options.sourceInfo.durationSec,
      onProgress: options.onProgress,
      logger: options.logger,
    }),
  );
}

export interface ThumbnailOptions {
  ffmpeg: string;
  source: string;
  output: string;
  atSec: number;
  width?: number;
  signal?: AbortSignal;
}

/** A JPEG of one frame near `atSec`, `width` pixels wide (480 by default). */
export async function makeThumbnail(options: ThumbnailOptions): Promise<void> {
  const at = Math.max(0, options.atSec);
  await writeAtomically(options.output, (temporary) =>
    runFfmpeg(
      options.ffmpeg,
      ['-ss', at.toFixed(3), '-i', options.source, '-frames:v', '1', '-vf', `scale=${options.width ?? 480}:-2`, '-q:v', '3', '-f', 'image2', temporary],
      { signal: options.signal, timeoutMs: 60_000 },
    ),
  );
}
