import type { Logger } from '../../platform/logger.ts';
import { ffmpegStdout, runFfmpeg } from './run.ts';

/** What FFMPEG_ENCODER may name: a concrete H.264 encoder, or `auto` (probe, else libx264). */
export const ENCODER_SETTINGS = ['auto', 'libx264', 'h264_nvenc', 'h264_vaapi', 'h264_qsv'] as const;
export type EncoderSetting = (typeof ENCODER_SETTINGS)[number];
export type EncoderName = Exclude<EncoderSetting, 'auto'>;

/** The render device VA-API encodes on (the first GPU's render node). */
export const VAAPI_DEVICE = '/dev/dri/renderD128';

export interface EncoderSpec {
  name: EncoderName;
  /** Before the first input: the device a hardware encoder needs. */
  globalArgs: readonly string[];
  /** Appended to the end of the picture's graph (before its [v] label): uploads frames for VA-API. */
  graphSuffix: string;
  /** The video codec and its quality settings. */
  videoArgs: readonly string[];
  /** Whether `-threads` bounds the encoder's CPU work (a hardware encoder barely uses the CPU). */
  cpuEncoder: boolean;
}

/**
 * Quality settings of every encoder, in one table (README "Rendering on many cores / GPUs").
 * libx264 keeps today's settings exactly (veryfast + CRF 21, ENCODE_ARGS below). The
 * hardware ones aim at the same visual quality: constant-quality modes around 23, High profile,
 * 8-bit 4:2:0 (QSV and VA-API take nv12, which ffmpeg converts to at the end of the graph).
 */
export const ENCODERS: Record<EncoderName, EncoderSpec> = {
  libx264: {
    name: 'libx264',
    globalArgs: [],
    graphSuffix: '',
    videoArgs: ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21', '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
    cpuEncoder: true,
  },
  h264_nvenc: {
    name: 'h264_nvenc',
    globalArgs: [],
    graphSuffix: '',
    videoArgs: ['-c:v', 'h264_nvenc', '-preset', 'p5', '-rc', 'vbr', '-cq', '23', '-b:v', '0', '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
    cpuEncoder: false,
  },
  h264_qsv: {
    name: 'h264_qsv',
    globalArgs: [],
    graphSuffix: '',
    videoArgs: ['-c:v', 'h264_qsv', '-preset', 'medium', '-global_quality', '23', '-profile:v', 'high'],
    cpuEncoder: false,
  },
  h264_vaapi: {
    name: 'h264_vaapi',
    globalArgs: ['-vaapi_device', VAAPI_DEVICE],
    graphSuffix: ',format=nv12,hwupload',
    videoArgs: ['-c:v', 'h264_vaapi', '-qp', '23', '-profile:v', 'high'],
    cpuEncoder: false,
  },
};

/** AAC at 48 kHz: what every render's audio is encoded as. */
export const AUDIO_ENCODE_ARGS = ['-c:a', 'aac', '-b:a', '160k', '-ar', '48000'] as const;

/**
 * Web-ready output whatever the encoder: AAC audio; the first filtered video frame comes after the
 * graph's warm-up, audio packets queue meanwhile and ffmpeg 4.x's default limit can overflow ("Too
 * many packets buffered for output stream"); the index in front.
 */
export const OUTPUT_TAIL_ARGS = [...AUDIO_ENCODE_ARGS, '-max_muxing_queue_size', '1024', '-movflags', '+faststart'] as const;

/**
 * The libx264 settings of every rendered output: H.264 High, yuv420p, AAC, web-ready.
 * veryfast + CRF 21: on 2 cores a 1080x1920 60 fps encode runs near real time; medium takes about
 * twice as long for files roughly 10-15% smaller, and TikTok transcodes every upload anyway, so a
 * clean file made quickly beats a small one made slowly. CRF 21 survives that second generation.
 */
export const ENCODE_ARGS = [...ENCODERS.libx264.videoArgs, ...OUTPUT_TAIL_ARGS] as const;

/** What `auto` tries, in order: the dedicated encoders first. */
const AUTO_ORDER: readonly EncoderName[] = ['h264_nvenc', 'h264_qsv', 'h264_vaapi'];

/** The picture graph (…[v]) with the encoder's upload step put in before its output label. */
export function withEncoderSuffix(graph: string, encoder: EncoderSpec): string {
  if (!encoder.graphSuffix) return graph;
  return graph.replace(/\[v\]$/, `${encoder.graphSuffix}[v]`);
}

export interface EncoderChoice {
  encoder: EncoderSpec;
  /** Why this one (for the log and the benchmark). */
  reason: string;
}

const LIST_TIMEOUT_MS = 15_000;
const TEST_ENCODE_TIMEOUT_MS = 30_000;

/** The video encoders this ffmpeg build lists (`ffmpeg -hide_banner -encoders`). */
export async function listedEncoders(ffmpeg: string): Promise<Set<string>> {
  const output = await ffmpegStdout(ffmpeg, ['-hide_banner', '-encoders'], { timeoutMs: LIST_TIMEOUT_MS });
  const names = new Set<string>();
  for (const line of output.split('\n')) {
    // " V....D libx264   libx264 H.264 / AVC…"; the legend's " V..... = Video" names nothing.
    const match = /^\s*V[A-Z.]{5}\s+([\w-]+)\s/.exec(line);
    if (match) names.add(match[1]!);
  }
  return names;
}

/**
 * A tenth of a second of a generated picture through the encoder exactly as a render would use it
 * (device, upload, quality settings), written nowhere: a listed encoder may still lack its GPU,
 * driver or device node, and only a real encode says so. Resolves with null when it works, or with
 * the reason it does not.
 */
export async function testEncode(ffmpeg: string, encoder: EncoderSpec): Promise<string | null> {
  const graph = withEncoderSuffix('[0:v]format=yuv420p[v]', encoder);
  const args = [...encoder.globalArgs, '-f', 'lavfi', '-i', 'testsrc2=size=256x256:rate=30:duration=0.1', '-filter_complex', graph, '-map', '[v]', ...encoder.videoArgs, '-f', 'null', '-'];
  try {
    await runFfmpeg(ffmpeg, args, { timeoutMs: TEST_ENCODE_TIMEOUT_MS });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * `auto`: the first listed hardware encoder whose test encode works, else libx264 with one log
 * line naming what was tried. An explicit encoder that fails its test encode falls back to
 * libx264 with a warning saying why (a render must not fail because a GPU went missing).
 */
export async function chooseEncoder(ffmpeg: string, setting: EncoderSetting, logger?: Logger): Promise<EncoderChoice> {
  if (setting === 'libx264') return { encoder: ENCODERS.libx264, reason: 'FFMPEG_ENCODER=libx264' };
  let listed: Set<string>;
  try {
    listed = await listedEncoders(ffmpeg);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    logger?.warn(`FFMPEG_ENCODER=${setting}: could not list ffmpeg's encoders (${why}); using libx264`);
    return { encoder: ENCODERS.libx264, reason: `encoder list failed: ${why}` };
  }
  if (setting !== 'auto') {
    const problem = listed.has(setting) ? await testEncode(ffmpeg, ENCODERS[setting]) : `this ffmpeg (${ffmpeg}) has no ${setting} encoder`;
    if (problem === null) {
      logger?.info(`FFMPEG_ENCODER=${setting}: test encode works; renders use ${setting}`);
      return { encoder: ENCODERS[setting], reason: `FFMPEG_ENCODER=${setting}` };
    }
    logger?.warn(`WARNING: FFMPEG_ENCODER=${setting} does not work here (${problem}); using libx264`);
    return { encoder: ENCODERS.libx264, reason: `${setting} failed: ${problem}` };
  }
  const tried: string[] = [];
  for (const name of AUTO_ORDER) {
    if (!listed.has(name)) continue;
    tried.push(name);
    if ((await testEncode(ffmpeg, ENCODERS[name])) === null) {
      logger?.info(`FFMPEG_ENCODER=auto: ${name} works here; renders use it`);
      return { encoder: ENCODERS[name], reason: `auto: ${name} passed its test encode` };
    }
  }
  const what = tried.length > 0 ? tried.join(', ') : `none listed by ${ffmpeg}`;
  logger?.info(`FFMPEG_ENCODER=auto: no hardware H.264 encoder works here (tried ${what}); using libx264`);
  return { encoder: ENCODERS.libx264, reason: `auto: tried ${what}` };
}
