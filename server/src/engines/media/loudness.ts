import { z } from 'zod';
import type { Logger } from '../../platform/logger.ts';
import { MediaError } from './errors.ts';
import { runFfmpeg } from './run.ts';
import { trimInputArgs, type Trim } from './trim.ts';

/** The level short-video platforms normalise to: -14 LUFS integrated, true peak at most -1 dBTP. */
export const LOUDNESS_TARGET = { integrated: -14, truePeak: -1, range: 11 } as const;

/** What loudnorm's first pass measured; fed back to its second pass for linear normalisation. */
export interface LoudnessMeasurement {
  integrated: number;
  truePeak: number;
  range: number;
  threshold: number;
  offset: number;
}

/** The first pass only reads audio, but a stuck process must still end. */
const MEASURE_TIMEOUT_MS = 5 * 60_000;

const TARGET_OPTIONS = `I=${LOUDNESS_TARGET.integrated}:TP=${LOUDNESS_TARGET.truePeak}:LRA=${LOUDNESS_TARGET.range}`;

const reportSchema = z.object({
  input_i: z.string(),
  input_tp: z.string(),
  input_lra: z.string(),
  input_thresh: z.string(),
  target_offset: z.string(),
});

export interface MeasureOptions {
  ffmpeg: string;
  source: string;
  trim?: Trim | null | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  logger?: Logger | undefined;
}

/**
 * loudnorm's first pass over the (trimmed) audio only: `-vn`, so no video is decoded and it takes
 * a small fraction of the render. Null for silence (integrated -inf): there is nothing to raise.
 */
export async function measureLoudness(options: MeasureOptions): Promise<LoudnessMeasurement | null> {
  const args = [...trimInputArgs(options.trim), '-i', options.source, '-map', '0:a:0', '-vn', '-af', `loudnorm=${TARGET_OPTIONS}:print_format=json`, '-f', 'null', '-'];
  // loudnorm prints its report at the info level, after everything else.
  const run = await runFfmpeg(options.ffmpeg, args, { signal: options.signal, timeoutMs: options.timeoutMs ?? MEASURE_TIMEOUT_MS, logger: options.logger, logLevel: 'info' });
  return parseLoudnormReport(run.stderrTail);
}

/** The last JSON report in loudnorm's output; null when the input was silent. */
export function parseLoudnormReport(stderr: string): LoudnessMeasurement | null {
  const json = [...stderr.matchAll(/\{[^{}]*"input_i"[^{}]*\}/g)].at(-1)?.[0];
  if (!json) throw new MediaError('loudnorm printed no measurement', 'failed', stderr);
  const report = reportSchema.parse(JSON.parse(json));
  const values = [report.input_i, report.input_tp, report.input_lra, report.input_thresh, report.target_offset].map(Number);
  if (!values.every(Number.isFinite)) return null;
  const [integrated, truePeak, range, threshold, offset] = values as [number, number, number, number, number];
  return { integrated, truePeak, range, threshold, offset };
}

/**
 * The second pass with the first pass's figures: linear (one gain for the whole clip) when that
 * reaches the target without exceeding the true peak; loudnorm itself falls back to dynamic
 * otherwise, which still lands within the target's tolerance.
 */
export function loudnormFilter(measured: LoudnessMeasurement): string {
  const measuredOptions = [
    `measured_I=${measured.integrated}`,
    `measured_TP=${measured.truePeak}`,
    `measured_LRA=${measured.range}`,
    `measured_thresh=${measured.threshold}`,
    `offset=${measured.offset}`,
  ].join(':');
  return `loudnorm=${TARGET_OPTIONS}:${measuredOptions}:linear=true:print_format=none`;
}

/**
 * loudnorm in the ffmpeg 4.x this app ships fills a 3 s window before it applies anything, so a
 * shorter (trimmed) clip came out barely changed even in linear mode. Linear normalisation is one
 * gain for the whole clip: a short clip whose peaks allow it gets that gain as a plain volume.
 */
const LOUDNORM_WINDOW_SEC = 3;

/** The second pass's audio filter for a clip of `durationSec` seconds. */
export function normaliseFilter(measured: LoudnessMeasurement, durationSec: number | undefined): string {
  const gain = LOUDNESS_TARGET.integrated - measured.integrated;
  const fitsPeak = measured.truePeak + gain <= LOUDNESS_TARGET.truePeak;
  if (durationSec !== undefined && durationSec < LOUDNORM_WINDOW_SEC && fitsPeak) return `volume=${gain.toFixed(2)}dB`;
  return loudnormFilter(measured);
}
