import { rm } from 'node:fs/promises';
import type { Logger } from '../../platform/logger.ts';
import { AUDIO_ENCODE_ARGS } from './encoders.ts';
import { MediaError } from './errors.ts';
import { runFfmpeg, type ProgressCallback } from './run.ts';
import { trimInputArgs, type Trim } from './trim.ts';

/** The level short-video platforms normalise to: -14 LUFS integrated, true peak at most -1 dBTP. */
export const LOUDNESS_TARGET = { integrated: -14, truePeak: -1 } as const;

/** Integrated loudness (LUFS) and true peak (dBTP), as ffmpeg's EBU R128 scanner measures them. */
export interface LoudnessReading {
  integrated: number;
  truePeak: number;
}

/**
 * How a clip's audio is normalised: one gain for the whole clip, then, where that gain would
 * push peaks over the ceiling, a limiter holding them at `ceilingDb` (dBTP; null: gain alone).
 */
export interface LoudnessPlan {
  gainDb: number;
  ceilingDb: number | null;
}

/** A measuring pass only reads audio, but a stuck process must still end. */
const MEASURE_TIMEOUT_MS = 5 * 60_000;

/**
 * Below ebur128's absolute gate (-70 LUFS) nothing counts: the scanner reports exactly -70 for
 * digital silence, and there is nothing to raise.
 */
const SILENCE_LUFS = -70;

/** The summary at the end; the per-100 ms lines are logged at verbose, so a long clip does not push it out of the stderr tail. */
const EBUR128 = 'ebur128=peak=true:framelog=verbose';

export interface MeasureOptions {
  ffmpeg: string;
  source: string;
  trim?: Trim | null | undefined;
  /** Seconds of audio measured (after the trim), to turn ffmpeg's position into a fraction. */
  durationSec?: number | undefined;
  onProgress?: ProgressCallback | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  logger?: Logger | undefined;
}

/**
 * The (trimmed) first audio stream's integrated loudness and true peak: `-vn`, so no video is
 * decoded and it takes a small fraction of a render. Null for silence.
 */
export async function measureLoudness(options: MeasureOptions): Promise<LoudnessReading | null> {
  const args = [...trimInputArgs(options.trim), '-i', options.source, '-map', '0:a:0', '-vn', '-af', EBUR128, '-f', 'null', '-'];
  // ebur128 prints its summary at the info level, after everything else.
  const run = await runFfmpeg(options.ffmpeg, args, {
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? MEASURE_TIMEOUT_MS,
    logger: options.logger,
    logLevel: 'info',
    durationSec: options.durationSec,
    onProgress: options.onProgress,
  });
  return parseEbur128Summary(run.stderrTail);
}

/** The figures of ebur128's last summary; null when the audio was silent. */
export function parseEbur128Summary(stderr: string): LoudnessReading | null {
  const at = stderr.lastIndexOf('Summary:');
  const summary = at === -1 ? '' : stderr.slice(at);
  const integrated = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1];
  const peak = /Peak:\s+(-?[\d.]+|-inf|inf) dBFS/.exec(summary)?.[1];
  if (integrated === undefined || peak === undefined) throw new MediaError('ebur128 printed no measurement', 'failed', stderr);
  const reading = { integrated: Number(integrated === '-inf' ? -Infinity : integrated), truePeak: Number(peak.replace('inf', 'Infinity')) };
  return reading.integrated <= SILENCE_LUFS || !Number.isFinite(reading.truePeak) ? null : reading;
}

/** Where the limiter starts: 1 dB under the target, the room that resampling back to 48 kHz and AAC usually take. */
const START_CEILING_DB = LOUDNESS_TARGET.truePeak - 1;
/**
 * What a trial must reach to be the plan: the final encode repeats the trial's audio exactly, but
 * a small margin on both figures covers the trim's seek landing a packet apart.
 */
const LOUDNESS_TOLERANCE_LU = 0.5;
const PEAK_MARGIN_DB = 0.1;
/** Enough for the heaviest limiting seen (a -30 LUFS source whose bursts reach -9 dBTP): 4 tries. */
const MAX_TRIALS = 6;
/** A near-silent clip is not lifted by more than this: it would only raise its noise. */
const MAX_GAIN_DB = 40;
/** The limiter looks this far ahead (ms), so it turns the gain down before a peak, not on it. */
const LIMITER_ATTACK_MS = 5;
/** And gives the gain back over this (ms): short enough that a hit does not duck what follows. */
const LIMITER_RELEASE_MS = 50;
/** 4x oversampling (from 48 kHz): the limiter sees the peaks between samples that true peak counts. */
const OVERSAMPLED_RATE = 192_000;
const OUTPUT_RATE = 48_000;

/**
 * The audio filter of a plan. The limiter (alimiter, ffmpeg 4.1 has no true-peak limiter) runs at
 * 192 kHz, where sample peaks are the true peaks; `level=false` stops it from raising its output
 * back to full scale. It delays the audio by its 5 ms look-ahead, far below what anyone can hear
 * as out of sync.
 */
export function normaliseFilter(plan: LoudnessPlan): string {
  const gain = `volume=${plan.gainDb.toFixed(2)}dB`;
  if (plan.ceilingDb === null) return gain;
  const limit = dbToLinear(plan.ceilingDb).toFixed(4);
  const limiter = `alimiter=limit=${limit}:attack=${LIMITER_ATTACK_MS}:release=${LIMITER_RELEASE_MS}:level=false`;
  return [gain, `aresample=${OVERSAMPLED_RATE}`, limiter, `aresample=${OUTPUT_RATE}`].join(',');
}

function dbToLinear(db: number): number {
  return 10 ** (db / 20);
}

/** The first guess: the gain to the target, and the limiter only where that gain lifts the peaks over its ceiling. */
export function firstPlan(source: LoudnessReading): LoudnessPlan {
  const gainDb = Math.min(MAX_GAIN_DB, LOUDNESS_TARGET.integrated - source.integrated);
  return { gainDb, ceilingDb: source.truePeak + gainDb > START_CEILING_DB ? START_CEILING_DB : null };
}

/** A plan and what its audio measured once encoded. */
export interface Trial {
  plan: LoudnessPlan;
  result: LoudnessReading;
}

export function meetsTarget(result: LoudnessReading): boolean {
  return Math.abs(result.integrated - LOUDNESS_TARGET.integrated) <= LOUDNESS_TOLERANCE_LU && result.truePeak <= LOUDNESS_TARGET.truePeak - PEAK_MARGIN_DB;
}

/**
 * The next plan from the trials so far (the last one missed). Peaks over: gain alone gets the
 * limiter, and a limiter's ceiling comes down by the overshoot (resampling and AAC add a fraction
 * of a dB over it). Loudness off: the gain moves by the shortfall divided by how much the
 * loudness followed the gain between the last two trials, since a limiter that works harder
 * gives back less than each dB of gain.
 */
export function nextPlan(trials: readonly Trial[]): LoudnessPlan {
  const last = trials.at(-1);
  if (!last) throw new Error('nextPlan needs a trial');
  const { plan, result } = last;
  const peakCeiling = LOUDNESS_TARGET.truePeak - PEAK_MARGIN_DB;
  const overshootDb = result.truePeak - peakCeiling;
  const ceilingDb = overshootDb <= 0 ? plan.ceilingDb : plan.ceilingDb === null ? START_CEILING_DB : plan.ceilingDb - overshootDb;
  const shortfall = LOUDNESS_TARGET.integrated - result.integrated;
  const gainDb = Math.min(MAX_GAIN_DB, plan.gainDb + shortfall / loudnessPerGain(trials));
  return { gainDb, ceilingDb };
}

/** How much the integrated loudness moved per dB of gain between the last two trials (1 before there are two). */
function loudnessPerGain(trials: readonly Trial[]): number {
  const [before, last] = trials.slice(-2);
  if (!before || !last || Math.abs(last.plan.gainDb - before.plan.gainDb) < 0.05) return 1;
  const slope = (last.result.integrated - before.result.integrated) / (last.plan.gainDb - before.plan.gainDb);
  return Math.min(1, Math.max(0.1, slope));
}

/** The trial to use when none met the target: peaks within the limit first, then the closest loudness. */
export function bestTrial(trials: readonly Trial[]): Trial | undefined {
  const peakOk = (trial: Trial) => trial.result.truePeak <= LOUDNESS_TARGET.truePeak;
  const distance = (trial: Trial) => Math.abs(trial.result.integrated - LOUDNESS_TARGET.integrated);
  return [...trials].sort((a, b) => Number(peakOk(b)) - Number(peakOk(a)) || distance(a) - distance(b))[0];
}

export interface PlanOptions extends MeasureOptions {
  /** Where a trial's audio is written (and removed after): in the render's own folder. */
  trialFile: string;
}

/**
 * Measures the (trimmed) audio, then encodes the audio alone with a plan and measures that, until
 * the encoded audio is -14 ± 0.5 LUFS with true peak under -1 dBTP: the render then applies the
 * same filter and the same encoder to the same samples, so its audio is the trial's. Audio passes
 * only: the picture is still encoded once. Null for a silent source.
 */
export async function planLoudness(options: PlanOptions): Promise<LoudnessPlan | null> {
  const source = await measureLoudness(options);
  if (!source) return null;
  const trials: Trial[] = [];
  let plan = firstPlan(source);
  try {
    for (let count = 0; count < MAX_TRIALS; count += 1) {
      const result = await trialEncode(options, plan);
      if (!result) return plan;
      trials.push({ plan, result });
      if (meetsTarget(result)) return plan;
      plan = nextPlan(trials);
    }
  } finally {
    await rm(options.trialFile, { force: true });
  }
  options.logger?.warn({ trials }, 'loudness did not reach the target within the trials; using the closest');
  return bestTrial(trials)?.plan ?? plan;
}

/** The audio alone through the plan's filter and the renders' AAC settings, then measured. */
async function trialEncode(options: PlanOptions, plan: LoudnessPlan): Promise<LoudnessReading | null> {
  const args = [...trimInputArgs(options.trim), '-i', options.source, '-map', '0:a:0', '-vn', '-af', normaliseFilter(plan), ...AUDIO_ENCODE_ARGS, '-f', 'mp4', options.trialFile];
  await runFfmpeg(options.ffmpeg, args, { signal: options.signal, timeoutMs: options.timeoutMs ?? MEASURE_TIMEOUT_MS, logger: options.logger });
  // The trials' own measurements report no progress: the share the render gives planning is the source's.
  return measureLoudness({ ...options, source: options.trialFile, trim: null, onProgress: undefined });
}
