import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Integrated loudness (LUFS) and true peak (dBTP) as ffmpeg's EBU R128 scanner reports them. */
export interface LoudnessReading {
  integrated: number;
  truePeak: number;
}

/**
 * The first audio stream of `file` through `ebur128=peak=true`, read from its summary: the
 * measurement the tests hold every output to, independent of the app's own measuring code.
 */
export async function ebur128(ffmpeg: string, file: string): Promise<LoudnessReading> {
  const { stderr } = await execFileAsync(ffmpeg, ['-hide_banner', '-nostats', '-i', file, '-map', '0:a:0', '-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-']);
  return ebur128Summary(stderr);
}

function ebur128Summary(stderr: string): LoudnessReading {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  const peak = /Peak:\s+(-?[\d.]+) dBFS/.exec(summary);
  if (!integrated || !peak) throw new Error(`ebur128 printed no summary: ${summary}`);
  return { integrated: Number(integrated[1]), truePeak: Number(peak[1]) };
}

/**
 * Test material as aevalsrc expressions (mono, 48 kHz; made stereo when written), each at some
 * nominal level that makeLoudnessSource then moves to the level asked for.
 * - tone: a steady 1 kHz sine, peak to loudness ratio about 3 dB.
 * - speech: a voice-like harmonic series with breath noise, in 4 Hz syllables of changing
 *   strength, with a 0.4 s pause every 1.5 s and a shout (one syllable three times as strong)
 *   every 2.5 s: peaks about 15 dB over the loudness.
 * - bursts: game hits: 150 ms noise bursts with a fast decay, every 1.5 s, over a quiet noise bed;
 *   their peaks stand about 21 dB over the integrated loudness, so one linear gain to -14 LUFS
 *   would put them far over -1 dBTP (the shape of the "-19.5 LUFS at -0.8 dBTP" clips).
 *   At -6 LUFS they clip at full scale: loud noise with bursts at 0 dBTP.
 */
export const MATERIALS = {
  tone: 'sin(2*PI*1000*t)/8',
  speech:
    '(0.5*sin(2*PI*150*t)+0.3*sin(2*PI*300*t)+0.15*sin(2*PI*450*t)+0.25*(2*random(0)-1))*pow(sin(PI*4*t),2)*(0.6+0.4*sin(2*PI*0.7*t))*lt(mod(t,1.5),1.1)*(1+2*between(mod(t,2.5),1,1.25))',
  bursts: '(2*random(0)-1)*(0.05+0.9*exp(-mod(t,1.5)/0.04)*lt(mod(t,1.5),0.15))',
} as const;
export type Material = keyof typeof MATERIALS;

export interface SourceOptions {
  ffmpeg: string;
  material: Material;
  /** Integrated loudness the source should have (LUFS); reached within 0.3 LU. */
  lufs: number;
  seconds: number;
  /** With a small picture (64x64) as a clip's source (.mp4); without, audio only (.m4a). */
  video: boolean;
}

const CALIBRATION_TOLERANCE_LU = 0.3;
const CALIBRATION_STEPS = 8;

/**
 * The material, stereo, through `gainDb`; stored as 16-bit samples before AAC, so anything over
 * full scale clips, as it does in a real hot recording.
 */
function audioChain(material: Material, seconds: number, gainDb: number): string {
  const expression = MATERIALS[material];
  const shaped = material === 'bursts' ? ',lowpass=f=5000' : '';
  return `aevalsrc='${expression}':s=48000:d=${seconds}${shaped},pan=stereo|c0=c0|c1=c0,volume=${gainDb.toFixed(3)}dB,aformat=sample_fmts=s16`;
}

/** The material through `gainDb`, encoded as the source will be (AAC, whose low-pass takes some loudness out of clipped material), and measured. */
async function encodedLoudness(ffmpeg: string, material: Material, seconds: number, gainDb: number, file: string): Promise<number> {
  await execFileAsync(ffmpeg, ['-y', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', audioChain(material, seconds, gainDb), '-c:a', 'aac', '-b:a', '192k', '-ar', '48000', file]);
  return (await ebur128(ffmpeg, file)).integrated;
}

/**
 * Writes the material at `lufs` to `file` (.m4a): a linear material needs one correction; clipping
 * (a loud dynamic source) makes loudness grow slower than gain, so each step is scaled by the
 * slope seen between the last two tries.
 */
async function writeCalibratedAudio(ffmpeg: string, material: Material, seconds: number, lufs: number, file: string): Promise<void> {
  let gain = 0;
  let measured = await encodedLoudness(ffmpeg, material, seconds, gain, file);
  let slope = 1;
  for (let step = 0; step < CALIBRATION_STEPS && Math.abs(measured - lufs) > CALIBRATION_TOLERANCE_LU; step += 1) {
    const next = gain + (lufs - measured) / slope;
    const reading = await encodedLoudness(ffmpeg, material, seconds, next, file);
    slope = Math.min(1, Math.max(0.05, (reading - measured) / (next - gain)));
    [gain, measured] = [next, reading];
  }
  if (Math.abs(measured - lufs) > CALIBRATION_TOLERANCE_LU) throw new Error(`${material} did not reach ${lufs} LUFS (${measured})`);
}

/** A source of `material` at `lufs` LUFS integrated: stereo AAC 48 kHz, with a small picture when asked. */
export async function makeLoudnessSource(file: string, options: SourceOptions): Promise<void> {
  if (!options.video) return writeCalibratedAudio(options.ffmpeg, options.material, options.seconds, options.lufs, file);
  const audio = `${file}.audio.m4a`;
  await writeCalibratedAudio(options.ffmpeg, options.material, options.seconds, options.lufs, audio);
  const picture = `testsrc2=size=64x64:rate=25:duration=${options.seconds}`;
  await execFileAsync(options.ffmpeg, [
    '-y', '-hide_banner', '-loglevel', 'error',
    '-i', audio, '-f', 'lavfi', '-i', picture,
    '-map', '1:v', '-map', '0:a', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-c:a', 'copy',
    file,
  ]);
  await rm(audio);
}

/** The Clip's `loudness` a render of `file` should have stored: the file's own ebur128 figures. */
export async function clipLoudnessOf(ffmpeg: string, file: string): Promise<{ integrated_lufs: number; true_peak_dbtp: number }> {
  const reading = await ebur128(ffmpeg, file);
  return { integrated_lufs: reading.integrated, true_peak_dbtp: reading.truePeak };
}
