import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { z } from 'zod';
import { MediaError } from './errors.ts';

const execFileAsync = promisify(execFile);

export interface ProbeResult {
  durationSec: number;
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
});

const probeSchema = z.object({
  streams: z.array(streamSchema),
  format: z.object({ duration: z.string().optional(), bit_rate: z.string().optional(), format_name: z.string() }),
});

/** "30000/1001" → 29.97; "0/0" → 0. */
function parseRate(rate: string | undefined): number {
  if (!rate) return 0;
  const [numerator, denominator] = rate.split('/').map(Number);
  if (!numerator || !denominator) return 0;
  return numerator / denominator;
}

export async function probe(ffprobePath: string, file: string, signal?: AbortSignal): Promise<ProbeResult> {
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync(ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file], { signal, maxBuffer: 8 * 1024 * 1024 }));
  } catch (error) {
    if (signal?.aborted) throw new MediaError('ffprobe was cancelled', 'aborted');
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new MediaError(`ffprobe could not read the file: ${stderr.trim().split('\n').at(-1) ?? (error as Error).message}`, 'invalid_input', stderr);
  }
  const parsed = probeSchema.parse(JSON.parse(stdout));
  const video = parsed.streams.find((stream) => stream.codec_type === 'video');
  if (!video?.width || !video.height) throw new MediaError('The file has no video stream', 'invalid_input');
  const audio = parsed.streams.find((stream) => stream.codec_type === 'audio');
  const duration = Number(parsed.format.duration ?? video.duration ?? 0);
  return {
    durationSec: Number.isFinite(duration) ? duration : 0,
    width: video.width,
    height: video.height,
    fps: parseRate(video.avg_frame_rate) || parseRate(video.r_frame_rate),
    videoCodec: video.codec_name ?? 'unknown',
    audioCodec: audio?.codec_name ?? null,
    pixelFormat: video.pix_fmt ?? null,
    profile: video.profile ?? null,
    bitRate: parsed.format.bit_rate ? Number(parsed.format.bit_rate) : null,
    sizeBytes: (await stat(file)).size,
    formatName: parsed.format.format_name,
  };
}
