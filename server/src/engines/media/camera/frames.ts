import { MediaError } from '../errors.ts';
import { ffmpegBytes } from '../run.ts';

/** Grey frames of a clip at analysis size, one byte a pixel, row after row. */
export interface FrameSet {
  width: number;
  height: number;
  frames: Uint8Array[];
}

export interface SampleRequest {
  ffmpeg: string;
  source: string;
  durationSec: number;
  /** Analysis size (even numbers). */
  width: number;
  height: number;
  samples: number;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** Under this many different frames the change over time says too little, so every frame is decoded instead. */
const MIN_DISTINCT_FRAMES = 6;

/**
 * Samples frames spread over the clip. First with one seek per sample to the keyframe before it
 * (`-noaccurate_seek`), decoding one frame each: a 60 s 1080p60 clip costs ~16 frames of decoding
 * instead of 3600. Keyframes can be sparser than the samples (short clips, long GOPs), so
 * samples land on the same keyframe; then, if too few different frames came back, the clip is
 * decoded whole and sampled at an even rate.
 */
export async function sampleFrames(request: SampleRequest): Promise<FrameSet> {
  const seeked = await decode(request, seekArgs(request));
  if (seeked.frames.length >= Math.min(MIN_DISTINCT_FRAMES, request.samples)) return seeked;
  return decode(request, evenRateArgs(request));
}

/** When each sample is taken: the middles of equal slices of the clip. */
export function sampleTimes(durationSec: number, samples: number): number[] {
  return Array.from({ length: samples }, (_, index) => (durationSec * (index + 0.5)) / samples);
}

/** Grey frames, raw, one after another on stdout. */
const OUTPUT_ARGS: readonly string[] = ['-map', '[frames]', '-an', '-sn', '-dn', '-vsync', '0', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'];

function analysisFilter(request: SampleRequest): string {
  return `scale=${request.width}:${request.height}:flags=area,format=gray`;
}

/**
 * One input per sample, each opened at the keyframe before its time and read for a fraction of a
 * second only; `trim` keeps its first frame and `concat` puts them in a row.
 */
export function seekArgs(request: SampleRequest): string[] {
  const times = request.durationSec > 0 ? sampleTimes(request.durationSec, request.samples) : [0];
  const inputs = times.flatMap((time) => ['-noaccurate_seek', '-ss', time.toFixed(3), '-t', '0.5', '-i', request.source]);
  const firsts = times.map((_, index) => `[${index}:v:0]trim=end_frame=1,setpts=PTS-STARTPTS[s${index}]`);
  const joined = `${times.map((_, index) => `[s${index}]`).join('')}concat=n=${times.length}:v=1:a=0,${analysisFilter(request)}[frames]`;
  return [...inputs, '-filter_complex', [...firsts, joined].join(';'), ...OUTPUT_ARGS];
}

/** The whole clip decoded, `samples` frames kept at an even rate (the first ones if the length is unknown). */
export function evenRateArgs(request: SampleRequest): string[] {
  const pick = request.durationSec > 0 ? `fps=${(request.samples / request.durationSec).toFixed(6)}` : 'select=not(mod(n\\,15))';
  return ['-i', request.source, '-filter_complex', `[0:v:0]${pick},${analysisFilter(request)}[frames]`, '-frames:v', String(request.samples), ...OUTPUT_ARGS];
}

async function decode(request: SampleRequest, args: string[]): Promise<FrameSet> {
  const bytes = await ffmpegBytes(request.ffmpeg, args, { signal: request.signal, timeoutMs: request.timeoutMs });
  const size = request.width * request.height;
  if (bytes.length < size) throw new MediaError('ffmpeg decoded no frame of the video', 'empty_output');
  return { width: request.width, height: request.height, frames: distinctFrames(bytes, size) };
}

/** Splits the stream into frames, dropping repeats (two samples that snapped to the same keyframe). */
function distinctFrames(bytes: Buffer, size: number): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (let offset = 0; offset + size <= bytes.length; offset += size) {
    const frame = new Uint8Array(bytes.buffer, bytes.byteOffset + offset, size);
    if (!frames.some((seen) => Buffer.compare(seen, frame) === 0)) frames.push(frame);
  }
  return frames;
}
