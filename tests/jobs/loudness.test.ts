import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMediaError, probe, renderClip, resolveMediaBinaries } from '../../server/src/engines/media/index.ts';
import { AUDIO_ENCODE_ARGS } from '../../server/src/engines/media/encoders.ts';
import { bestTrial, firstPlan, LOUDNESS_TARGET, meetsTarget, nextPlan, normaliseFilter, parseEbur128Summary, planLoudness, type Trial } from '../../server/src/engines/media/loudness.ts';
import { TEMPORARY_MARKER } from '../../server/src/engines/media/render.ts';
import { trimInputArgs } from '../../server/src/engines/media/trim.ts';
import { ebur128, makeLoudnessSource, MATERIALS, type Material } from '../helpers/loudness.ts';

const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);
const execFileAsync = promisify(execFile);

/** ebur128's summary as ffmpeg 4.1 prints it at the end of a run. */
function summary(integrated: string, peak: string): string {
  return [
    '[Parsed_ebur128_0 @ 0x1] Summary:',
    '',
    '  Integrated loudness:',
    `    I:         ${integrated} LUFS`,
    '    Threshold: -31.1 LUFS',
    '',
    '  Loudness range:',
    '    LRA:         2.0 LU',
    '',
    '  True peak:',
    `    Peak:      ${peak} dBFS`,
    '',
  ].join('\n');
}

describe('loudness planning', () => {
  it('reads the last ebur128 summary and treats silence as nothing to normalise', () => {
    expect(parseEbur128Summary(`${summary('-40.0', '-30.0')}\n${summary('-21.1', '-18.1')}`)).toEqual({ integrated: -21.1, truePeak: -18.1 });
    expect(parseEbur128Summary(summary('-70.0', '-inf'))).toBeNull();
    const missing = (() => {
      try {
        return parseEbur128Summary('Conversion failed!');
      } catch (error) {
        return error;
      }
    })();
    expect(isMediaError(missing, 'failed')).toBe(true);
  });

  it('plans one gain when the peaks allow it, and the limiter when that gain would lift them over its ceiling', () => {
    // A steady tone: 16 dB up leaves its peak at -13.8 dBTP.
    expect(firstPlan({ integrated: -30, truePeak: -29.8 })).toEqual({ gainDb: 16, ceilingDb: null });
    // Game hits 21 dB over the loudness: 10 dB up would put them at +7 dBTP.
    expect(firstPlan({ integrated: -24, truePeak: -3 })).toEqual({ gainDb: 10, ceilingDb: -2 });
  });

  it('writes gain alone as a volume, and the limiter at four times the rate where the sample peaks are the true peaks', () => {
    expect(normaliseFilter({ gainDb: 16, ceilingDb: null })).toBe('volume=16.00dB');
    expect(normaliseFilter({ gainDb: 10, ceilingDb: -2 })).toBe('volume=10.00dB,aresample=192000,alimiter=limit=0.7943:attack=5:release=50:level=false,aresample=48000');
  });

  it('raises the gain by the shortfall, scaled by how far the loudness followed the last change of gain', () => {
    const first: Trial = { plan: { gainDb: 10, ceilingDb: -2 }, result: { integrated: -17.6, truePeak: -1.8 } };
    // No slope known yet: the whole shortfall.
    expect(nextPlan([first])).toEqual({ gainDb: expect.closeTo(13.6, 5), ceilingDb: -2 });
    // 3.6 dB of gain brought 1.8 LU: the limiter gives back half, so 1.8 LU more needs 3.6 dB.
    const second: Trial = { plan: { gainDb: 13.6, ceilingDb: -2 }, result: { integrated: -15.8, truePeak: -1.9 } };
    expect(nextPlan([first, second]).gainDb).toBeCloseTo(17.2, 5);
  });

  it('lowers the ceiling by what came out over -1.1 dBTP, and gives gain alone a limiter when its peaks come out over', () => {
    // Resampling and AAC took the peaks 1.3 dB over the limiter's -2: 0.4 dB too many.
    const overshoot: Trial = { plan: { gainDb: 16, ceilingDb: -2 }, result: { integrated: -14.1, truePeak: -0.7 } };
    const next = nextPlan([overshoot]);
    expect(next.ceilingDb).toBeCloseTo(-2.4, 5);
    expect(next.gainDb).toBeCloseTo(16.1, 5);
    const gainOnly: Trial = { plan: { gainDb: 9, ceilingDb: null }, result: { integrated: -14, truePeak: -0.9 } };
    expect(nextPlan([gainOnly])).toEqual({ gainDb: 9, ceilingDb: -2 });
  });

  it('keeps the trial whose peaks are within the limit over a louder one that is not', () => {
    const over: Trial = { plan: { gainDb: 16, ceilingDb: -2 }, result: { integrated: -14, truePeak: -0.5 } };
    const under: Trial = { plan: { gainDb: 15, ceilingDb: -3 }, result: { integrated: -15.2, truePeak: -1.6 } };
    expect(bestTrial([over, under])).toBe(under);
    expect(meetsTarget(over.result)).toBe(false);
    expect(meetsTarget({ integrated: -14.4, truePeak: -1.2 })).toBe(true);
  });
});

/*
 * The matrix of issue 20: three kinds of material at three input levels, each rendered with
 * "normalise" on, each output measured with ebur128: -14 ± 1 LUFS integrated, true peak at most
 * -1 dBTP. Horizontal clips with no captions or trim copy the picture and encode only the audio,
 * the same audio graph and encoder as every other render, so the sources are small and quick.
 */
const LEVELS = [-30, -23, -6] as const;
const SECONDS = 5;
const KINDS = Object.keys(MATERIALS) as Material[];

describe('loudness normalisation on real ffmpeg', { timeout: 120_000 }, () => {
  let dir: string;
  const sourceOf = (material: Material, lufs: number) => path.join(dir, `${material}${lufs}.mp4`);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-loudness-'));
    for (const material of KINDS) {
      await Promise.all(LEVELS.map((lufs) => makeLoudnessSource(sourceOf(material, lufs), { ffmpeg, material, lufs, seconds: SECONDS, video: true })));
    }
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const material of KINDS) {
    for (const lufs of LEVELS) {
      it(`brings ${material} at ${lufs} LUFS to -14 ± 1 LUFS with true peak ≤ -1 dBTP`, async () => {
        const source = sourceOf(material, lufs);
        expect(Math.abs((await ebur128(ffmpeg, source)).integrated - lufs)).toBeLessThanOrEqual(0.5);
        const output = path.join(dir, `${material}${lufs}-normalised.mp4`);
        const result = await renderClip({ ffmpeg, source, output, sourceInfo: await probe(ffprobe, source), layout: 'horizontal', audio: { normalize: true } });
        const measured = await ebur128(ffmpeg, output);
        expect(Math.abs(measured.integrated - LOUDNESS_TARGET.integrated), `${material} at ${lufs}: ${JSON.stringify(measured)}`).toBeLessThanOrEqual(1);
        expect(measured.truePeak, `${material} at ${lufs}: ${JSON.stringify(measured)}`).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeak);
        // What the clip will show is the output's own measurement.
        expect(result.loudness).toEqual(measured);
        expect((await probe(ffprobe, output)).audioCodec).toBe('aac');
      });
    }
  }

  it('keeps 48 kHz and leaves no trial audio behind', async () => {
    const output = path.join(dir, 'bursts-48k.mp4');
    await renderClip({ ffmpeg, source: sourceOf('bursts', -30), output, sourceInfo: await probe(ffprobe, sourceOf('bursts', -30)), layout: 'horizontal', audio: { normalize: true } });
    const { stdout } = await execFileAsync(ffprobe, ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=sample_rate', '-of', 'csv=p=0', output]);
    expect(stdout.trim()).toBe('48000');
    expect((await readdir(dir)).filter((name) => name.includes(TEMPORARY_MARKER))).toEqual([]);
  });

  it('limits a trimmed render in its one encode the same way', async () => {
    const source = sourceOf('bursts', -23);
    const output = path.join(dir, 'bursts-trimmed.mp4');
    // A trim makes it an encode (at the source's 64x64, so it stays quick): the path of every vertical render.
    const result = await renderClip({ ffmpeg, source, output, sourceInfo: await probe(ffprobe, source), layout: 'horizontal', trim: { start: 0.5, end: 4.5 }, audio: { normalize: true } });
    // One ffmpeg run made the video: the picture graph and the limited audio in one filtergraph.
    expect(result.args).toContain('libx264');
    expect(result.args.filter((arg) => arg === '-filter_complex')).toHaveLength(1);
    expect(result.args.join(' ')).toMatch(/\[0:a:0\]volume=[\d.]+dB,aresample=192000,alimiter=/);
    const measured = await ebur128(ffmpeg, output);
    expect(Math.abs(measured.integrated - LOUDNESS_TARGET.integrated)).toBeLessThanOrEqual(1);
    expect(measured.truePeak).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeak);
  });

  it('gives the render the very audio its last trial measured, untrimmed and trimmed', async () => {
    const source = sourceOf('bursts', -30);
    const decodedAudio = async (file: string) => (await execFileAsync(ffmpeg, ['-v', 'error', '-i', file, '-map', '0:a:0', '-f', 'md5', '-'])).stdout.trim();
    for (const trim of [null, { start: 0.5, end: 4.5 }]) {
      const plan = await planLoudness({ ffmpeg, source, trim, trialFile: path.join(dir, 'planning.m4a') });
      const trial = path.join(dir, 'trial.m4a');
      await execFileAsync(ffmpeg, ['-y', '-v', 'error', ...trimInputArgs(trim), '-i', source, '-map', '0:a:0', '-vn', '-af', normaliseFilter(plan!), ...AUDIO_ENCODE_ARGS, '-f', 'mp4', trial]);
      const output = path.join(dir, `bursts-same-${trim ? 'trimmed' : 'whole'}.mp4`);
      await renderClip({ ffmpeg, source, output, sourceInfo: await probe(ffprobe, source), layout: 'horizontal', trim, audio: { normalize: true } });
      expect(await decodedAudio(output)).toBe(await decodedAudio(trial));
    }
  });

  it('measures the output of a render that does not normalise', async () => {
    const source = sourceOf('speech', -23);
    const output = path.join(dir, 'speech-as-is.mp4');
    const result = await renderClip({ ffmpeg, source, output, sourceInfo: await probe(ffprobe, source), layout: 'horizontal' });
    expect(result.loudness).toEqual(await ebur128(ffmpeg, output));
    expect(Math.abs(result.loudness!.integrated - -23)).toBeLessThanOrEqual(0.5);
  });
});
