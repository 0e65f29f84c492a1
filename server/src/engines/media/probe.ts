import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { isMediaError, MediaError } from './errors.ts';
import { runFfprobe } from './run.ts';

export interface ProbeResult {
  durationSec: number;
  /** Width and height as displayed: swapped for a ±90° rotated stream, as ffmpeg autorotates it. */
  width: number;
  height: number;
  fps: number;
  videoCodec: string;
  audioCodec: string | null;
  pixelFormat: string | null;
  profile: string | null;
  bitRate: number | null;
  sizeBytes: number;
  formatName: string;
  /** Pixel width / pixel height as displayed (1 for square pixels, as on every Twitch clip). */
  sampleAspectRatio: number;
  /** Display rotation in degrees, counter-clockwise as ffprobe reports it (0, 90, 180, 270). */
  rotation: number;
}

const streamSchema = z.object({
  codec_type: z.string(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  avg_frame_rate: z.string().optional(),
  r_frame_rate: z.string().optional(),
  pix_fmt: z.string().optional(),
  profile: z.string().optional(),
  duration: z.string().optional(),
  sample_aspect_ratio: z.string().optional(),
  tags: z.object({ rotate: z.string().optional() }).optional(),
  side_data_list: z.array(z.object({ rotation: z.number().optional() })).optional(),
  disposition: z.object({ attached_pic: z.number().optional() }).optional(),
});

const probeSchema = z.object({
  streams: z.array(streamSchema).default([]),
  format: z.object({ duration: z.string().optional(), bit_rate: z.string().optional(), size: z.string().optional(), format_name: z.string() }),
});

type Stream = z.infer<typeof streamSchema>;
type Report = z.infer<typeof probeSchema>;

/** "30000/1001" → 29.97 (and "4:3" with ':'); "0/0" and missing → 0. */
function parseRatio(value: string | undefined, separator = '/'): number {
  if (!value) return 0;
  const [numerator, denominator] = value.split(separator).map(Number);
  if (!numerator || !denominator) return 0;
  return numerator / denominator;
}

function positiveNumber(value: string | undefined): number | null {
  const parsed = Number(value);
  return value !== undefined && Number.isFinite(parsed) && parsed > 0 ? parsed : null;
}

/**
 * Rotation of the display matrix, counter-clockwise as ffprobe reports it; the legacy `rotate` tag
 * of older files counts clockwise. Only 90 and 270 matter for the layout: they swap width and height.
 */
function rotationOf(video: Stream): number {
  const matrix = video.side_data_list?.find((side) => side.rotation !== undefined)?.rotation;
  const counterClockwise = matrix !== undefined ? matrix : -Number(video.tags?.rotate ?? 0);
  return Number.isFinite(counterClockwise) ? (((Math.round(counterClockwise / 90) * 90) % 360) + 360) % 360 : 0;
}

/** The picture stream: cover art in a file is also a "video" stream, and never the one we want. */
function mainVideoStream(streams: Stream[]): Stream | undefined {
  return streams.find((stream) => stream.codec_type === 'video' && !stream.disposition?.attached_pic);
}

async function readReport(ffprobePath: string, file: string, signal?: AbortSignal): Promise<Report> {
  let stdout: string;
  try {
    stdout = await runFfprobe(ffprobePath, ['-print_format', 'json', '-show_streams', '-show_format', file], { signal });
  } catch (error) {
    // Cancelled, timed out or not startable: say that, not "cannot read the file".
    if (!isMediaError(error, 'failed')) throw error;
    const reason = error.message.replace(/^ffprobe failed \([^)]*\): /, '');
    throw new MediaError(`ffprobe could not read the file: ${reason}`, 'invalid_input', error.stderrTail, { cause: error });
  }
  const parsed = probeSchema.safeParse(parseJson(stdout));
  if (!parsed.success) throw new MediaError('ffprobe gave an unreadable report for the file', 'invalid_input', stdout.slice(0, 2_000));
  return parsed.data;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Duration, geometry, codecs and rates of a media file, via `ffprobe -print_format json`. */
export async function probe(ffprobePath: string, file: string, signal?: AbortSignal): Promise<ProbeResult> {
  const report = await readReport(ffprobePath, file, signal);
  const video = mainVideoStream(report.streams);
  if (!video?.width || !video.height) throw new MediaError('The file has no video stream', 'invalid_input');
  const audio = report.streams.find((stream) => stream.codec_type === 'audio');
  const rotation = rotationOf(video);
  const sideways = rotation % 180 !== 0;
  const sampleAspect = parseRatio(video.sample_aspect_ratio, ':') || 1;
  return {
    durationSec: positiveNumber(report.format.duration) ?? positiveNumber(video.duration) ?? 0,
    width: sideways ? video.height : video.width,
    height: sideways ? video.width : video.height,
    fps: parseRatio(video.avg_frame_rate) || parseRatio(video.r_frame_rate),
    videoCodec: video.codec_name ?? 'unknown',
    audioCodec: audio?.codec_name ?? null,
    pixelFormat: video.pix_fmt ?? null,
    profile: video.profile ?? null,
    bitRate: positiveNumber(report.format.bit_rate),
    sizeBytes: positiveNumber(report.format.size) ?? (await stat(file)).size,
    formatName: report.format.format_name,
    sampleAspectRatio: sideways ? 1 / sampleAspect : sampleAspect,
    rotation,
  };
}
