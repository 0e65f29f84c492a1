import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../platform/logger.ts';
import { MediaError } from './errors.ts';
import { assFilter, buildVerticalFilter, ENCODE_ARGS, VERTICAL_HEIGHT, VERTICAL_WIDTH, type LayoutSource, type SubtitleOverlay, type VerticalLayout } from './filters.ts';
import type { ProbeResult } from './probe.ts';
import { runFfmpeg, type ProgressCallback, type RunResult } from './run.ts';

/** Marks temporary outputs, so a clean-up after a hard crash can recognise (and delete) them. */
export const TEMPORARY_MARKER = '.tmp-';

export function isTemporaryOutput(file: string): boolean {
  return path.basename(file).includes(TEMPORARY_MARKER);
}

/**
 * Writes through a temporary name in the same folder (same file system, so the rename is atomic)
 * and renames into place only on success, so a crash or cancel never leaves a file that looks
 * finished. The temporary name keeps the extension, so tools that look at it still recognise it.
 */
export async function writeAtomically<T>(output: string, write: (temporary: string) => Promise<T>): Promise<T> {
  const extension = path.extname(output);
  const temporary = `${output}${TEMPORARY_MARKER}${randomBytes(4).toString('hex')}${extension}`;
  try {
    const result = await write(temporary);
    await rename(temporary, output);
    return result;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

interface CommonRender {
  ffmpeg: string;
  source: string;
  output: string;
  signal?: AbortSignal | undefined;
  onProgress?: ProgressCallback | undefined;
  timeoutMs?: number | undefined;
  logger?: Logger | undefined;
}

/** What ran: the ffmpeg arguments (after the global ones) and how long it took. */
export interface RenderResult extends RunResult {
  args: string[];
}

export interface VerticalRender extends CommonRender {
  layout?: VerticalLayout;
  sourceInfo: ProbeResult;
  subtitles?: SubtitleOverlay | undefined;
}

/** The ffmpeg arguments of a vertical render (exported so the benchmark runs the very same command). */
export function verticalArgs(source: string, output: string, layout: VerticalLayout, info: LayoutSource, subtitles?: SubtitleOverlay): string[] {
  // 0:a:0? — the first audio stream when there is one; a silent source gives a video-only file.
  return ['-i', source, '-filter_complex', buildVerticalFilter(layout, info, subtitles), '-map', '[v]', '-map', '0:a:0?', ...ENCODE_ARGS, '-f', 'mp4', output];
}

/** 1080x1920 H.264 + AAC in one encode from the source: layout, captions and format in one graph. */
export async function renderVertical(options: VerticalRender): Promise<RenderResult> {
  return writeAtomically(options.output, async (temporary) => {
    const args = verticalArgs(options.source, temporary, options.layout ?? 'blur', options.sourceInfo, options.subtitles);
    return { args, ...(await runFfmpeg(options.ffmpeg, args, runOptions(options, options.sourceInfo.durationSec))) };
  });
}

function runOptions(options: CommonRender, durationSec: number | undefined) {
  return { signal: options.signal, timeoutMs: options.timeoutMs, durationSec, onProgress: options.onProgress, logger: options.logger };
}

export interface RemuxOptions extends CommonRender {
  /** Only for progress fractions. */
  durationSec?: number | undefined;
}

/** Copying streams takes seconds even for long clips; more than this means a stuck process. */
const REMUX_TIMEOUT_MS = 5 * 60_000;

/**
 * The source's video and audio streams copied untouched (no re-encode, no quality loss) into a
 * web-ready MP4 with the index in front. Data tracks are left out: the MP4 muxer rejects some of
 * them and no player needs them.
 */
export async function remuxHorizontal(options: RemuxOptions): Promise<RenderResult> {
  return writeAtomically(options.output, async (temporary) => {
    const args = ['-i', options.source, '-map', '0:v', '-map', '0:a?', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', temporary];
    const run = await runFfmpeg(options.ffmpeg, args, { ...runOptions(options, options.durationSec), timeoutMs: options.timeoutMs ?? REMUX_TIMEOUT_MS });
    return { args, ...run };
  });
}

export interface HorizontalRender extends CommonRender {
  sourceInfo: ProbeResult;
  /** Captions force an encode; without them the source streams are copied untouched. */
  subtitles?: SubtitleOverlay | undefined;
}

/** The source as it is (remux, no re-encode), or re-encoded once at its own size to burn captions. */
export async function renderHorizontal(options: HorizontalRender): Promise<RenderResult> {
  if (!options.subtitles) return remuxHorizontal({ ...options, durationSec: options.sourceInfo.durationSec });
  const filter = `${assFilter(options.subtitles)},format=yuv420p`;
  return writeAtomically(options.output, async (temporary) => {
    const args = ['-i', options.source, '-vf', filter, '-map', '0:v:0', '-map', '0:a:0?', ...ENCODE_ARGS, '-f', 'mp4', temporary];
    return { args, ...(await runFfmpeg(options.ffmpeg, args, runOptions(options, options.sourceInfo.durationSec))) };
  });
}

/** How a clip is framed: vertical 1080x1920 with a layout, or the source's own picture. */
export type ClipLayout = VerticalLayout | 'horizontal';

export interface ClipRender extends CommonRender {
  sourceInfo: ProbeResult;
  layout: ClipLayout;
  /** Burned-in captions; none (or null) renders without. */
  captions?: SubtitleOverlay | null | undefined;
}

/**
 * The one way a clip is rendered (download runs, subtitle jobs): always from the kept source in a
 * single encode, written atomically over `output`.
 */
export function renderClip(options: ClipRender): Promise<RenderResult> {
  const { layout, captions, ...common } = options;
  const subtitles = captions ?? undefined;
  if (layout === 'horizontal') return renderHorizontal({ ...common, subtitles });
  return renderVertical({ ...common, layout, subtitles });
}

/** The picture captions are drawn for: the vertical frame, or the source's own size. */
export function outputFrame(layout: ClipLayout, sourceInfo: Pick<ProbeResult, 'width' | 'height'>): { width: number; height: number; vertical: boolean } {
  if (layout === 'horizontal') return { width: sourceInfo.width, height: sourceInfo.height, vertical: false };
  return { width: VERTICAL_WIDTH, height: VERTICAL_HEIGHT, vertical: true };
}

export interface ThumbnailOptions {
  ffmpeg: string;
  source: string;
  output: string;
  atSec: number;
  /** Pixels; the height follows the picture's aspect (480 by default). */
  width?: number | undefined;
  /** The clip's length: `atSec` is clamped inside it (a seek past the end yields no frame). */
  durationSec?: number | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  logger?: Logger | undefined;
}

const DEFAULT_THUMBNAIL_WIDTH = 480;
const THUMBNAIL_TIMEOUT_MS = 60_000;
/** Keep the seek this far before the end: the last frame starts up to one frame duration earlier. */
const END_MARGIN_SEC = 0.1;

/** Where to take the frame: `atSec` clamped to [0, duration - margin] when the duration is known. */
export function thumbnailTime(atSec: number, durationSec?: number): number {
  const latest = durationSec && durationSec > 0 ? Math.max(0, durationSec - END_MARGIN_SEC) : Number.POSITIVE_INFINITY;
  return Math.min(Math.max(0, Number.isFinite(atSec) ? atSec : 0), latest);
}

/** A JPEG of one frame near `atSec`, `width` pixels wide (480 by default). */
export async function makeThumbnail(options: ThumbnailOptions): Promise<RenderResult> {
  const at = thumbnailTime(options.atSec, options.durationSec);
  const width = options.width ?? DEFAULT_THUMBNAIL_WIDTH;
  return writeAtomically(options.output, async (temporary) => {
    // -ss before -i seeks by index and then decodes up to the exact time: fast and frame-accurate.
    const args = ['-ss', at.toFixed(3), '-i', options.source, '-map', '0:v:0', '-frames:v', '1', '-vf', `scale=${width}:-2`, '-q:v', '3', '-f', 'image2', '-update', '1', temporary];
    const run = await runFfmpeg(options.ffmpeg, args, { signal: options.signal, timeoutMs: options.timeoutMs ?? THUMBNAIL_TIMEOUT_MS, logger: options.logger });
    await assertNotEmpty(temporary, `No frame at ${at.toFixed(2)} s to make a thumbnail from`);
    return { args, ...run };
  });
}

/** ffmpeg exits 0 without writing anything when, e.g., the seek lands past the last frame. */
async function assertNotEmpty(file: string, message: string): Promise<void> {
  const size = await stat(file).then((stats) => stats.size, () => 0);
  if (size === 0) throw new MediaError(message, 'empty_output');
}
