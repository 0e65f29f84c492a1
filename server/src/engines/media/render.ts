import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../platform/logger.ts';
import { renderDuration, renderEncodes, timed } from '../../platform/metrics.ts';
import { AUDIO_ENCODE_ARGS, ENCODE_ARGS, ENCODERS, OUTPUT_TAIL_ARGS, withEncoderSuffix, type EncoderSpec } from './encoders.ts';
import { MediaError } from './errors.ts';
import {
  assFilter,
  buildVerticalFilter,
  captionSteps,
  escapeFilterValue,
  VERTICAL_HEIGHT,
  VERTICAL_WIDTH,
  type LayoutSource,
  type SubtitleOverlay,
  type VerticalLayout,
  type VerticalLayoutSpec,
} from './filters.ts';
import { measureLoudness, normaliseFilter, planLoudness, type LoudnessPlan, type LoudnessReading } from './loudness.ts';
import { inRenderSlot, renderEncoder, renderThreadsNow } from './planner.ts';
import type { ProbeResult } from './probe.ts';
import { runFfmpeg, type ProgressCallback, type RunResult } from './run.ts';
import { outputDuration, trimInputArgs, type Trim } from './trim.ts';

/** Marks temporary outputs, so a clean-up after a hard crash can recognise (and delete) them. */
export const TEMPORARY_MARKER = '.tmp-';

export function isTemporaryOutput(file: string): boolean {
  return path.basename(file).includes(TEMPORARY_MARKER);
}

/** A fresh temporary name beside `output`, recognisable by its marker, ending in `extension`. */
function temporaryName(output: string, extension: string): string {
  return `${output}${TEMPORARY_MARKER}${randomBytes(4).toString('hex')}${extension}`;
}

/**
 * Writes through a temporary name in the same folder (same file system, so the rename is atomic)
 * and renames into place only on success, so a crash or cancel never leaves a file that looks
 * finished. The temporary name keeps the extension, so tools that look at it still recognise it.
 */
export async function writeAtomically<T>(output: string, write: (temporary: string) => Promise<T>): Promise<T> {
  const temporary = temporaryName(output, path.extname(output));
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

/** The ffmpeg arguments of a vertical render. */
function verticalArgs(source: string, output: string, layout: VerticalLayout | VerticalLayoutSpec, info: LayoutSource, subtitles?: SubtitleOverlay): string[] {
  return clipArgs({ source, output, layout, info, subtitles });
}

/** How a clip is framed: vertical 1080x1920 with a layout, or the source's own picture. */
export type ClipLayout = VerticalLayout | 'horizontal';

/** Everything that decides the ffmpeg command of a render. */
export interface ClipArgsInput {
  source: string;
  output: string;
  layout: ClipLayout | VerticalLayoutSpec;
  info: LayoutSource;
  subtitles?: SubtitleOverlay | undefined;
  trim?: Trim | null | undefined;
  /** How the audio is normalised (planLoudness); null/absent: audio as it is. */
  loudness?: LoudnessPlan | null | undefined;
  /** The encoder and the threads of the render plan; absent: libx264 with ffmpeg's own threading. */
  encoding?: Encoding | undefined;
  /** An end card after the clip; absent: the video ends with the clip. */
  outro?: Outro | null | undefined;
}

/** The end card: the clip's last frame held, dimmed, the logo large in its middle; the sound runs out in silence. */
export interface Outro {
  seconds: number;
  /** When the clip's own picture ends (seconds on the render's timeline). */
  afterSec: number;
  /** A local picture file, or null for the dimmed frame alone. */
  logo: string | null;
  /** Whether the source has sound to pad. */
  audio: boolean;
}

/** The end card's dimming, and the share of the frame's short side its logo fits in. */
const OUTRO_DIM = 0.6;
const OUTRO_LOGO_SHARE = 0.45;

/**
 * The picture graph with the end card after it: the last frame cloned for the card's seconds,
 * dimmed from `afterSec` on, the logo centred over it. It continues the graph's [v] output.
 */
export function withOutro(graph: string, outro: Outro, frame: { width: number; height: number }): string {
  const from = `gte(t,${outro.afterSec.toFixed(3)})`;
  const held = `tpad=stop_mode=clone:stop_duration=${outro.seconds.toFixed(3)},drawbox=x=0:y=0:w=iw:h=ih:color=black@${OUTRO_DIM}:t=fill:enable='${from}'`;
  const body = graph.replace(/\[v\]$/, '[outbody]');
  if (!outro.logo) return `${body};[outbody]${held},format=yuv420p[v]`;
  const box = Math.round(Math.min(frame.width, frame.height) * OUTRO_LOGO_SHARE);
  return [
    body,
    `[outbody]${held}[outheld]`,
    `movie=filename=${escapeFilterValue(outro.logo)},scale=${box}:${box}:force_original_aspect_ratio=decrease,format=rgba[outlogo]`,
    `[outheld][outlogo]overlay=x=(main_w-overlay_w)/2:y=(main_h-overlay_h)/2:enable='${from}',format=yuv420p[v]`,
  ].join(';');
}

/** The output's sample rate (AUDIO_ENCODE_ARGS): the end card's silence is counted in its samples. */
const OUTPUT_SAMPLE_RATE = 48_000;

/**
 * The audio graph's part for the end card: its seconds of silence after the sound. ffmpeg 4.1's
 * apad counts samples, so the rate is fixed first (the filters before it may have changed it).
 */
function outroPad(outro: Outro): string {
  return `aresample=${OUTPUT_SAMPLE_RATE},apad=pad_len=${Math.round(outro.seconds * OUTPUT_SAMPLE_RATE)}`;
}

/** How the picture is encoded: which encoder, and how many threads each stage of ffmpeg gets. */
export interface Encoding {
  encoder: EncoderSpec;
  /** Decoder, filtergraph and (CPU encoders) encoder threads; absent: ffmpeg decides (all cores). */
  threads?: number | undefined;
}

/** The thread bounds of a planned render: the decoder (an input option), the graph and a CPU encoder. */
function threadArgs(encoding: Encoding): { global: string[]; input: string[]; output: string[] } {
  if (encoding.threads === undefined) return { global: [], input: [], output: [] };
  const count = String(encoding.threads);
  return { global: ['-filter_complex_threads', count], input: ['-threads', count], output: encoding.encoder.cpuEncoder ? ['-threads', count] : [] };
}

/** Horizontal output: the source's own picture, captions burned when there are any. */
function horizontalGraph(subtitles: SubtitleOverlay | undefined): string {
  return `[0:v]${[...(subtitles ? [captionSteps(subtitles)] : []), 'format=yuv420p'].join(',')}[v]`;
}

/**
 * The picture's filtergraph, input [0:v], output [v]: the one builder behind renders and previews,
 * so a preview shows exactly what the render will.
 */
export function clipVideoGraph(layout: ClipLayout | VerticalLayoutSpec, info: LayoutSource, subtitles?: SubtitleOverlay): string {
  return layout === 'horizontal' ? horizontalGraph(subtitles) : buildVerticalFilter(layout, info, subtitles);
}

/**
 * One encode from the source: input seeking for the trim, the picture graph, and the audio either
 * copied through the encoder (0:a:0? — the first audio stream when there is one; a silent source
 * gives a video-only file) or normalised inside the same graph.
 */
export function clipArgs(input: ClipArgsInput): string[] {
  if (input.loudness && keepsSourcePicture(input)) return normalisedRemuxArgs(input, input.loudness);
  const encoding = input.encoding ?? { encoder: ENCODERS.libx264 };
  const threads = threadArgs(encoding);
  const picture = clipVideoGraph(input.layout, input.info, input.subtitles);
  const outro = input.outro ?? null;
  const video = withEncoderSuffix(outro ? withOutro(picture, outro, outputFrame(input.layout, input.info)) : picture, encoding.encoder);
  // Normalised, or padded under the end card: the sound goes through the graph; else it is only re-encoded.
  const audioSteps = [...(input.loudness ? [normaliseFilter(input.loudness)] : []), ...(outro?.audio ? [outroPad(outro)] : [])];
  const graph = audioSteps.length ? `${video};[0:a:0]${audioSteps.join(',')}[a]` : video;
  const audioMap = audioSteps.length ? '[a]' : '0:a:0?';
  return [
    ...encoding.encoder.globalArgs,
    ...threads.global,
    ...trimInputArgs(input.trim),
    ...threads.input,
    '-i', input.source,
    '-filter_complex', graph,
    '-map', '[v]', '-map', audioMap,
    ...encoding.encoder.videoArgs,
    ...OUTPUT_TAIL_ARGS,
    ...threads.output,
    '-f', 'mp4', input.output,
  ];
}

/** A horizontal clip with no captions and no trim shows the source's picture as it is. */
function keepsSourcePicture(input: Pick<ClipArgsInput, 'layout' | 'subtitles' | 'trim' | 'outro'>): boolean {
  return input.layout === 'horizontal' && !input.subtitles && !input.trim && !input.outro;
}

/**
 * Only the audio changes: the video stream is copied untouched (no generation lost) and the audio
 * normalised and encoded, so a normalised horizontal clip keeps the source's picture bit for bit.
 */
function normalisedRemuxArgs(input: ClipArgsInput, loudness: LoudnessPlan): string[] {
  const graph = `[0:a:0]${normaliseFilter(loudness)}[a]`;
  return ['-i', input.source, '-filter_complex', graph, '-map', '0:v:0', '-map', '[a]', '-c:v', 'copy', ...AUDIO_ENCODE_ARGS, '-movflags', '+faststart', '-f', 'mp4', input.output];
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

export interface AudioOptions {
  /** Loudness-normalise to -14 LUFS integrated, true peak ≤ -1 dBTP. */
  normalize: boolean;
}

export interface ClipRender extends CommonRender {
  sourceInfo: ProbeResult;
  layout: ClipLayout | VerticalLayoutSpec;
  /** Burned-in captions; none (or null) renders without. Timed on the output (see shiftWords for a trim). */
  captions?: SubtitleOverlay | null | undefined;
  /** Seconds of the source to keep; none renders it whole. */
  trim?: Trim | null | undefined;
  audio?: AudioOptions | null | undefined;
  /** An end card of this many seconds after the clip (the brand's), with this logo; none: the video ends with the clip. */
  outro?: { seconds: number; logo: string | null } | null | undefined;
  /** Called when every render slot is taken and this render waits in line (progress says so). */
  onWaiting?: (() => void) | undefined;
}

/** The render's end card on its timeline; null without one. */
function outroOf(options: ClipRender): Outro | null {
  if (!options.outro || options.outro.seconds <= 0) return null;
  const afterSec = outputDuration(options.sourceInfo.durationSec, options.trim);
  return { seconds: options.outro.seconds, afterSec, logo: options.outro.logo, audio: Boolean(options.sourceInfo.audioCodec) };
}

/** Only a horizontal clip with nothing to change is copied rather than encoded. */
function isPlainRemux(options: ClipRender): boolean {
  return keepsSourcePicture({ layout: options.layout, subtitles: options.captions ?? undefined, trim: options.trim, outro: outroOf(options) }) && !options.audio?.normalize;
}

/** Normalisation is asked for and there is audio to normalise. */
function normalises(options: ClipRender): boolean {
  return Boolean(options.audio?.normalize && options.sourceInfo.audioCodec);
}

/**
 * The share of a normalising render's progress that its planning covers (the source's measurement;
 * the audio-only trials are short). It reads the audio alone, but without a share the render would
 * sit at 0 % for all of it (seconds on a long clip) and look stuck.
 */
export const MEASURE_SHARE = 0.1;

/** One progress callback cut in two: the first pass's fractions, then the second's, in order. */
function progressInTwo(onProgress: ProgressCallback | undefined, firstShare: number): { first: ProgressCallback | undefined; second: ProgressCallback | undefined } {
  if (!onProgress) return { first: undefined, second: undefined };
  return {
    first: (fraction) => onProgress(fraction * firstShare),
    second: (fraction) => onProgress(firstShare + fraction * (1 - firstShare)),
  };
}

/** The audio passes that plan normalisation, when it is asked for and there is audio to normalise. */
function planIfNormalising(options: ClipRender, outputSec: number, onProgress: ProgressCallback | undefined): Promise<LoudnessPlan | null> {
  if (!normalises(options)) return Promise.resolve(null);
  const trialFile = temporaryName(options.output, '.m4a');
  return planLoudness({ ffmpeg: options.ffmpeg, source: options.source, trim: options.trim, trialFile, durationSec: outputSec, onProgress, signal: options.signal, logger: options.logger });
}

/** A render's result, with what its audio measured (null: no audio, or silence). */
export interface ClipRenderResult extends RenderResult {
  loudness: LoudnessReading | null;
}

/** The rendered file's loudness, as the clip shows it: measured on the video itself. */
function measureOutput(options: ClipRender): Promise<LoudnessReading | null> {
  if (!options.sourceInfo.audioCodec) return Promise.resolve(null);
  return measureLoudness({ ffmpeg: options.ffmpeg, source: options.output, signal: options.signal, logger: options.logger });
}

/**
 * The one way a clip is rendered (download runs, subtitle jobs, re-renders): always from the kept
 * source in a single encode (layout, trim, captions, loudness), written atomically over `output`.
 * Normalisation plans first, on the audio alone (loudness.ts), then applies its filter inside that
 * encode. An encode runs in one of the process's render slots (planner.ts) with the plan's threads
 * and the configured encoder; a plain remux copies streams and needs no slot. The finished file's
 * loudness is measured and returned.
 */
export async function renderClip(options: ClipRender): Promise<ClipRenderResult> {
  const result = await renderClipFile(options);
  return { ...result, loudness: await measureOutput(options) };
}

function renderClipFile(options: ClipRender): Promise<RenderResult> {
  const record = (outcome: 'success' | 'failure', seconds: number) => renderDuration.observe({ outcome }, seconds);
  if (isPlainRemux(options)) return timed(record, () => remuxHorizontal({ ...options, durationSec: options.sourceInfo.durationSec }));
  // The picture copied as it is (only the audio normalised): no video encode, no slot needed.
  if (keepsSourcePicture({ layout: options.layout, subtitles: options.captions ?? undefined, trim: options.trim, outro: outroOf(options) })) return timed(record, () => encodeClip(options));
  let waited = false;
  const onWait = () => {
    waited = true;
    options.onWaiting?.();
  };
  return inRenderSlot(
    () => {
      // Out of the line: the progress shows rendering again from 0.
      if (waited) options.onProgress?.(0);
      return timed(record, () => encodeClip(options));
    },
    { signal: options.signal, onWait },
  );
}

async function encodeClip(options: ClipRender): Promise<RenderResult> {
  const { encoder } = await renderEncoder(options.ffmpeg);
  const encoding: Encoding = { encoder, threads: renderThreadsNow() };
  const outputSec = outputDuration(options.sourceInfo.durationSec, options.trim);
  const progress = normalises(options) ? progressInTwo(options.onProgress, MEASURE_SHARE) : { first: undefined, second: options.onProgress };
  const loudness = await planIfNormalising(options, outputSec, progress.first);
  const result = await writeAtomically(options.output, async (temporary) => {
    const outro = outroOf(options);
    const args = clipArgs({
      source: options.source,
      output: temporary,
      layout: options.layout,
      info: options.sourceInfo,
      subtitles: options.captions ?? undefined,
      trim: options.trim,
      loudness,
      encoding,
      outro,
    });
    // The end card is part of the output: progress counts it.
    return { args, ...(await runFfmpeg(options.ffmpeg, args, { ...runOptions(options, outputSec + (outro?.seconds ?? 0)), onProgress: progress.second })) };
  });
  if (result.args[result.args.indexOf('-c:v') + 1] !== 'copy') renderEncodes.inc({ encoder: encoder.name });
  return result;
}

export interface PreviewOptions {
  ffmpeg: string;
  source: string;
  sourceInfo: ProbeResult;
  layout: ClipLayout | VerticalLayoutSpec;
  captions?: SubtitleOverlay | null | undefined;
  /** The render's trim: captions are timed from its start. */
  trim?: Trim | null | undefined;
  /** Seconds from the source's start. */
  t: number;
  output: string;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  logger?: Logger | undefined;
}

const PREVIEW_TIMEOUT_MS = 60_000;

/**
 * Input seeking resets timestamps to 0 at `t`; captions are timed on the render's timeline, so the
 * frame is moved to where the render shows it (t - trim start) before the graph sees it. Only the
 * timestamps change: the pixels go through the very same graph.
 */
function atRenderTime(graph: string, offsetSec: number): string {
  if (offsetSec === 0) return graph;
  return graph.replace(/^\[0:v\]/, `[0:v]setpts=PTS+${offsetSec.toFixed(3)}/TB,`);
}

/**
 * One frame at `t` exactly as renderClip would show it (same graph builder, captions included), as
 * a JPEG: 1080x1920, or the source's size for horizontal.
 */
export async function previewFrame(options: PreviewOptions): Promise<RenderResult> {
  const at = thumbnailTime(options.t, options.sourceInfo.durationSec);
  const graph = atRenderTime(clipVideoGraph(options.layout, options.sourceInfo, options.captions ?? undefined), at - (options.trim?.start ?? 0));
  return writeAtomically(options.output, async (temporary) => {
    const args = ['-ss', at.toFixed(3), '-i', options.source, '-filter_complex', graph, '-map', '[v]', '-frames:v', '1', '-q:v', '2', '-f', 'image2', '-update', '1', temporary];
    const run = await runFfmpeg(options.ffmpeg, args, { signal: options.signal, timeoutMs: options.timeoutMs ?? PREVIEW_TIMEOUT_MS, logger: options.logger });
    await assertNotEmpty(temporary, `No frame at ${at.toFixed(2)} s to preview`);
    return { args, ...run };
  });
}

/** The picture captions are drawn for: the vertical frame, or the source's own size. */
export function outputFrame(layout: ClipLayout | VerticalLayoutSpec, sourceInfo: Pick<ProbeResult, 'width' | 'height'>): { width: number; height: number; vertical: boolean } {
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

/** Twitch renders clip thumbnails near the start; a frame a little in avoids black openings. */
const CLIP_THUMBNAIL_AT_SEC = 1;

/** A clip's card picture, taken from its rendered video (so it shows the layout and trim). */
export function clipThumbnail(options: Pick<ThumbnailOptions, 'ffmpeg' | 'source' | 'output' | 'durationSec' | 'signal'>): Promise<RenderResult> {
  return makeThumbnail({ ...options, atSec: CLIP_THUMBNAIL_AT_SEC, width: DEFAULT_THUMBNAIL_WIDTH });
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
