import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAss, shiftWords } from '../../server/src/engines/media/captions/ass.ts';
import { isMediaError, previewFrame, probe, renderClip, resolveMediaBinaries, type ProbeResult, type SubtitleOverlay, type VerticalLayoutSpec } from '../../server/src/engines/media/index.ts';
import { buildVerticalFilter, coverCrop, splitBandHeight, VERTICAL_HEIGHT, VERTICAL_WIDTH } from '../../server/src/engines/media/filters.ts';
import { LOUDNESS_TARGET, measureLoudness } from '../../server/src/engines/media/loudness.ts';
import { MEASURE_SHARE } from '../../server/src/engines/media/render.ts';
import { MediaAbortError } from '../../server/src/engines/media/errors.ts';
import type { Rect } from '@clipshift/shared';
import { renderTestLimitMs } from '../helpers/limits.ts';
import { ebur128 as ebur128Of } from '../helpers/loudness.ts';

const execFileAsync = promisify(execFile);
const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);
const FONTS_DIR = path.resolve(import.meta.dirname, '../../server/assets/fonts');

/*
 * The synthetic "stream": a grey moving test pattern (no saturated colour anywhere), a pure red
 * block where the streamer's camera sits (top left) and a pure green strip on the right edge, so a
 * saturated colour in an output can only come from one of the two.
 */
const WIDTH = 640;
const HEIGHT = 360;
const FPS = 25;
const SECONDS = 4;
const CAMERA: Rect = { x: 0, y: 0, w: 0.25, h: 1 / 3 };
/** The right part of the picture, green strip included (its cover crops keep the strip). */
const GAMEPLAY: Rect = { x: 0.6, y: 0, w: 0.4, h: 1 };

/** A 1 kHz tone at about `loudness` LUFS: sine's default amplitude 1/8 is about -21 LUFS. */
const tone = (loudness: number) => `sine=frequency=1000:sample_rate=48000:duration=${SECONDS},volume=${loudness + 21}dB`;
/** A quiet tone (about -26 LUFS) with full-scale clicks: a linear gain to -14 would clip them. */
const clicks = `aevalsrc=0.0354*sin(2*PI*1000*t)+if(lt(mod(t\\,0.5)\\,0.002)\\,0.9\\,0):s=48000:d=${SECONDS}`;

/** The picture, with `audio` (a lavfi source) as its sound or none. */
async function makeStream(file: string, audio: string | null): Promise<void> {
  const picture = [
    `testsrc2=size=${WIDTH}x${HEIGHT}:rate=${FPS}:duration=${SECONDS}`,
    'hue=s=0',
    `drawbox=x=0:y=0:w=${WIDTH * CAMERA.w}:h=${HEIGHT * CAMERA.h}:color=red:t=fill`,
    `drawbox=x=${WIDTH - 80}:y=0:w=80:h=${HEIGHT}:color=lime:t=fill`,
  ].join(',');
  const args = ['-y', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', picture];
  if (audio !== null) args.push('-f', 'lavfi', '-i', audio);
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', String(FPS));
  if (audio !== null) args.push('-c:a', 'aac', '-b:a', '192k', '-shortest');
  await execFileAsync(ffmpeg, [...args, file]);
}

interface RgbFrame {
  width: number;
  height: number;
  pixels: Buffer;
}

/** One decoded frame (video or JPEG) as RGB bytes. */
async function rgbFrame(file: string, atSec: number, width: number, height: number): Promise<RgbFrame> {
  const seek = atSec > 0 ? ['-ss', atSec.toFixed(3)] : [];
  const { stdout } = await execFileAsync(ffmpeg, ['-v', 'error', ...seek, '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
    maxBuffer: width * height * 4,
  });
  expect(stdout.length).toBe(width * height * 3);
  return { width, height, pixels: stdout };
}

type Colour = 'red' | 'green';

function isColour(frame: RgbFrame, index: number, colour: Colour): boolean {
  const [r, g, b] = [frame.pixels[index]!, frame.pixels[index + 1]!, frame.pixels[index + 2]!];
  return colour === 'red' ? r > 180 && g < 70 && b < 70 : g > 180 && r < 70 && b < 70;
}

/** Share (0..1) of the pixels of rows [from, to) that are clearly `colour`. */
function colourShare(frame: RgbFrame, colour: Colour, from = 0, to = frame.height): number {
  let hits = 0;
  for (let row = from; row < to; row += 1) {
    for (let column = 0; column < frame.width; column += 1) {
      if (isColour(frame, (row * frame.width + column) * 3, colour)) hits += 1;
    }
  }
  return hits / ((to - from) * frame.width);
}

/** MD5 of the video stream's packets: equal only if the stream was copied, not re-encoded. */
async function videoStreamHash(file: string): Promise<string> {
  const { stdout } = await execFileAsync(ffmpeg, ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-']);
  return stdout.trim();
}

async function durationOf(file: string): Promise<number> {
  const { stdout } = await execFileAsync(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

/** PSNR (average over Y, U, V) of two single pictures, as ffmpeg's psnr filter computes it. */
async function psnr(first: string, firstAt: number, second: string): Promise<number> {
  const { stderr } = await execFileAsync(ffmpeg, [
    '-hide_banner', '-nostats', '-ss', firstAt.toFixed(3), '-i', first, '-i', second,
    '-filter_complex', '[0:v]format=yuv420p,trim=end_frame=1[a];[1:v]format=yuv420p[b];[a][b]psnr', '-frames:v', '1', '-f', 'null', '-',
  ]);
  const match = /PSNR .* average:(\S+)/.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return match![1] === 'inf' ? Number.POSITIVE_INFINITY : Number(match![1]);
}

const ebur128 = (file: string) => ebur128Of(ffmpeg, file);

const split = (facecam: Rect | null, splitRatio = 0.35): VerticalLayoutSpec => ({ kind: 'split', facecam, gameplay: GAMEPLAY, splitRatio });

describe('studio layouts as filtergraphs', () => {
  const info = { width: 1920, height: 1080, fps: 30 };

  it('keeps the centred crop graph of today for focus 0.5 and moves the window with the focus', () => {
    expect(buildVerticalFilter({ kind: 'crop', focus: 0.5 }, info)).toBe(buildVerticalFilter('crop', info));
    expect(buildVerticalFilter({ kind: 'crop', focus: 0 }, info)).toContain('crop=608:1080:(iw-608)*0:');
    expect(buildVerticalFilter({ kind: 'crop', focus: 1 }, info)).toContain('crop=608:1080:(iw-608)*1:');
  });

  it('gives the facecam band the split ratio of 1920, even, within 0.2..0.6', () => {
    expect(splitBandHeight(0.35)).toBe(672);
    expect(splitBandHeight(0.5)).toBe(960);
    expect(splitBandHeight(0.01)).toBe(384);
    expect(splitBandHeight(0.9)).toBe(1152);
  });

  it('crops a region to the band aspect around its centre (cover, no distortion)', () => {
    // A 480x360 camera (4:3) into a 1080x672 band (wider): full width, height cut to 480*672/1080.
    expect(coverCrop(info, { x: 0, y: 0, w: 0.25, h: 1 / 3 }, 1080, 672)).toEqual({ width: 480, height: 299, x: 0, y: 31 });
    // A wide gameplay area into a tall band: full height, width cut around the centre.
    const gameplay = coverCrop(info, { x: 0, y: 0, w: 1, h: 1 }, 1080, 1248);
    expect(gameplay).toMatchObject({ height: 1080, width: 935, y: 0 });
    expect(gameplay.x).toBe(Math.round((1920 - 934.6) / 2));
    // Non-square pixels: the window is computed as displayed, returned in stored pixels.
    expect(coverCrop({ width: 1440, height: 1080, fps: 30, sampleAspectRatio: 4 / 3 }, { x: 0, y: 0, w: 1, h: 1 }, 1080, 1920).width).toBe(456);
  });

  it('stacks the two bands in split and scales the gameplay to the whole frame with facecam off', () => {
    const graph = buildVerticalFilter(split(CAMERA), info);
    expect(graph).toContain('scale=1080:672');
    expect(graph).toContain('scale=1080:1248');
    expect(graph).toContain('vstack=inputs=2');
    const off = buildVerticalFilter(split(null), info);
    expect(off).not.toContain('vstack');
    expect(off).toContain('scale=1080:1920');
  });
});

describe('studio caption timing', () => {
  it('moves words onto a trimmed timeline, dropping those before the cut', () => {
    const words = [
      { text: 'gone', start: 0.2, end: 0.8 },
      { text: 'cut', start: 0.9, end: 1.4 },
      { text: 'kept', start: 1.5, end: 2 },
    ];
    expect(shiftWords(words, 1)).toEqual([
      { text: 'cut', start: 0, end: expect.closeTo(0.4, 5) },
      { text: 'kept', start: 0.5, end: 1 },
    ]);
    expect(shiftWords(words, 0)).toEqual(words);
  });
});

describe('studio renders with real ffmpeg', { timeout: renderTestLimitMs(2) }, () => {
  let dir: string;
  let stream: string;
  let streamInfo: ProbeResult;
  let quiet: string;
  let loud: string;
  let silent: string;
  let peaky: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-studio-'));
    [stream, quiet, loud, silent, peaky] = ['stream', 'quiet', 'loud', 'silent', 'peaky'].map((name) => path.join(dir, `${name}.mp4`)) as [string, string, string, string, string];
    await Promise.all([makeStream(stream, tone(-20)), makeStream(quiet, tone(-30)), makeStream(loud, tone(-6)), makeStream(silent, null), makeStream(peaky, clicks)]);
    streamInfo = await probe(ffprobe, stream);
  });

  it('fills the top band with the camera in split, and leaves it out with facecam off', async () => {
    const top = splitBandHeight(0.35);
    const output = path.join(dir, 'split.mp4');
    // A short section keeps the two full-size encodes quick.
    const trim = { start: 1, end: 2 };
    await renderClip({ ffmpeg, source: stream, output, sourceInfo: streamInfo, layout: split(CAMERA), trim });
    const frame = await rgbFrame(output, 0.5, VERTICAL_WIDTH, VERTICAL_HEIGHT);
    // A few rows of margin at the seam: the encoder's chroma blocks straddle it.
    expect(colourShare(frame, 'red', 0, top - 8)).toBeGreaterThan(0.97);
    expect(colourShare(frame, 'red', top + 8, VERTICAL_HEIGHT)).toBe(0);
    expect(colourShare(frame, 'green', top + 8, VERTICAL_HEIGHT)).toBeGreaterThan(0.05);

    const offOutput = path.join(dir, 'facecam-off.mp4');
    await renderClip({ ffmpeg, source: stream, output: offOutput, sourceInfo: streamInfo, layout: split(null), trim });
    const off = await rgbFrame(offOutput, 0.5, VERTICAL_WIDTH, VERTICAL_HEIGHT);
    expect(colourShare(off, 'red')).toBe(0);
    // The gameplay region fills the frame: its right edge (the green strip) reaches the bottom rows.
    expect(colourShare(off, 'green', VERTICAL_HEIGHT - 16, VERTICAL_HEIGHT)).toBeGreaterThan(0.05);
  });

  it('renders exactly the trimmed section, with its audio', async () => {
    const output = path.join(dir, 'trimmed.mp4');
    const result = await renderClip({ ffmpeg, source: stream, output, sourceInfo: streamInfo, layout: 'blur', trim: { start: 1, end: 2.6 } });
    expect(Math.abs((await durationOf(output)) - 1.6)).toBeLessThanOrEqual(0.1);
    expect((await probe(ffprobe, output)).audioCodec).toBe('aac');
    // Input seeking: -ss before -i.
    expect(result.args.indexOf('-ss')).toBeLessThan(result.args.indexOf('-i'));
  });

  it('previews the very frame the render shows at the same time, captions included (PSNR ≥ 35 dB)', async () => {
    const trim = { start: 1, end: 3.5 };
    const words = [
      { text: 'HELLO', start: 0.4, end: 1.4 },
      { text: 'THERE', start: 1.4, end: 2.2 },
      { text: 'CHAT', start: 2.2, end: 3 },
    ];
    const assPath = path.join(dir, 'trimmed.ass');
    await writeFile(assPath, buildAss(shiftWords(words, trim.start)), 'utf8');
    const captions: SubtitleOverlay = { assPath, fontsDir: FONTS_DIR };
    const layout = split(CAMERA);
    const rendered = path.join(dir, 'preview-rendered.mp4');
    await renderClip({ ffmpeg, source: stream, output: rendered, sourceInfo: streamInfo, layout, captions, trim });

    const t = 1.8; // frame 45 of the source, 20 frames into the trimmed render: "THERE" highlighted
    const preview = path.join(dir, 'preview.jpg');
    await previewFrame({ ffmpeg, source: stream, sourceInfo: streamInfo, layout, captions, trim, t, output: preview });
    const jpeg = await probe(ffprobe, preview);
    expect([jpeg.width, jpeg.height]).toEqual([VERTICAL_WIDTH, VERTICAL_HEIGHT]);
    const matching = await psnr(rendered, t - trim.start, preview);
    expect(matching).toBeGreaterThanOrEqual(35);

    // The comparison can fail: another frame (the pattern moves) brings the PSNR well down…
    const otherFrame = path.join(dir, 'preview-other-frame.jpg');
    await previewFrame({ ffmpeg, source: stream, sourceInfo: streamInfo, layout, captions, trim, t: t + 0.8, output: otherFrame });
    expect(await psnr(rendered, t - trim.start, otherFrame)).toBeLessThan(35);
    // …and the highlight on another word (the preview ignoring the trim's shift of the captions)
    // costs about 10 dB: small in a whole frame, far more than encoding noise.
    const otherCaption = path.join(dir, 'preview-other-caption.jpg');
    await previewFrame({ ffmpeg, source: stream, sourceInfo: streamInfo, layout, captions, t, output: otherCaption });
    expect(await psnr(rendered, t - trim.start, otherCaption)).toBeLessThan(matching - 5);
  });

  it('previews a horizontal clip at the source size', async () => {
    const preview = path.join(dir, 'horizontal.jpg');
    await previewFrame({ ffmpeg, source: stream, sourceInfo: streamInfo, layout: 'horizontal', t: 1, output: preview });
    const jpeg = await probe(ffprobe, preview);
    expect([jpeg.width, jpeg.height]).toEqual([WIDTH, HEIGHT]);
  });

  it('crop focus 0 shows the left of the picture, focus 1 the right', async () => {
    const frameAt = async (focus: number) => {
      const output = path.join(dir, `focus-${focus}.jpg`);
      await previewFrame({ ffmpeg, source: stream, sourceInfo: streamInfo, layout: { kind: 'crop', focus }, t: 1, output });
      return rgbFrame(output, 0, VERTICAL_WIDTH, VERTICAL_HEIGHT);
    };
    const [left, right] = await Promise.all([frameAt(0), frameAt(1)]);
    expect(colourShare(left, 'red')).toBeGreaterThan(0.1);
    expect(colourShare(left, 'green')).toBe(0);
    expect(colourShare(right, 'green')).toBeGreaterThan(0.1);
    expect(colourShare(right, 'red')).toBe(0);
  });

  for (const [name, level] of [
    ['quiet', -30],
    ['loud', -6],
  ] as const) {
    it(`normalises a ${name} source (${level} LUFS) to -14 ± 1 LUFS with true peak ≤ -1 dBTP`, async () => {
      const source = name === 'quiet' ? quiet : loud;
      expect(Math.abs((await ebur128(source)).integrated - level)).toBeLessThan(1.5);
      const output = path.join(dir, `normalised-${name}.mp4`);
      const result = await renderClip({ ffmpeg, source, output, sourceInfo: await probe(ffprobe, source), layout: 'crop', audio: { normalize: true } });
      // A steady tone needs one gain and no limiter.
      expect(result.args.join(' ')).toMatch(/\[0:a:0\]volume=-?[\d.]+dB\[a\]/);
      const measured = await ebur128(output);
      expect(Math.abs(measured.integrated - LOUDNESS_TARGET.integrated)).toBeLessThanOrEqual(1);
      expect(measured.truePeak).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeak);
      expect(result.loudness).toEqual(measured);
    });
  }

  it('normalises a trimmed section shorter than 3 s to -14 ± 1 LUFS', async () => {
    const output = path.join(dir, 'normalised-short.mp4');
    await renderClip({ ffmpeg, source: quiet, output, sourceInfo: await probe(ffprobe, quiet), layout: 'blur', trim: { start: 1, end: 3 }, audio: { normalize: true } });
    const measured = await ebur128(output);
    expect(Math.abs(measured.integrated - LOUDNESS_TARGET.integrated)).toBeLessThanOrEqual(1);
    expect(measured.truePeak).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeak);
  });

  it('reaches the target where one linear gain cannot (loud clicks in a quiet source) through the true-peak limiter', async () => {
    const before = await ebur128(peaky);
    expect(before.truePeak + (LOUDNESS_TARGET.integrated - before.integrated)).toBeGreaterThan(LOUDNESS_TARGET.truePeak);
    const output = path.join(dir, 'normalised-peaky.mp4');
    const result = await renderClip({ ffmpeg, source: peaky, output, sourceInfo: await probe(ffprobe, peaky), layout: 'crop', audio: { normalize: true } });
    expect(result.args.join(' ')).toContain('alimiter');
    const measured = await ebur128(output);
    expect(Math.abs(measured.integrated - LOUDNESS_TARGET.integrated)).toBeLessThanOrEqual(1);
    expect(measured.truePeak).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeak);
  });

  it('measures loudness in a pass that can be stopped and has a time limit', async () => {
    const cancelled = await measureLoudness({ ffmpeg, source: quiet, signal: AbortSignal.abort() }).catch((caught: unknown) => caught);
    expect(cancelled).toBeInstanceOf(MediaAbortError);
    const late = await measureLoudness({ ffmpeg, source: quiet, timeoutMs: 1 }).catch((caught: unknown) => caught);
    expect(isMediaError(late, 'timeout')).toBe(true);
    const measured = await measureLoudness({ ffmpeg, source: quiet, trim: { start: 1, end: 3 } });
    expect(Math.abs(measured!.integrated - -30)).toBeLessThan(1.5);
  });

  it('a stopped normalising render leaves no output', async () => {
    const output = path.join(dir, 'normalised-stopped.mp4');
    // Stopped once the encode reports progress (the measuring pass is over, the output is being
    // written), so the clean-up of a half-written file is what is tested.
    const stop = new AbortController();
    const error = await renderClip({
      ffmpeg,
      source: quiet,
      output,
      sourceInfo: await probe(ffprobe, quiet),
      layout: 'blur',
      audio: { normalize: true },
      signal: stop.signal,
      onProgress: (fraction) => fraction > MEASURE_SHARE && stop.abort(),
    }).catch((caught: unknown) => caught);
    expect(stop.signal.aborted).toBe(true);
    expect(error).toBeInstanceOf(MediaAbortError);
    expect(existsSync(output)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('normalised-stopped'))).toEqual([]);
  });

  it('counts the measuring pass in a normalising render\'s progress, then the encode, always forward', async () => {
    // ffmpeg behind a script that notes each command line before running it, so a progress report
    // can tell whether the encode has started yet.
    const log = path.join(dir, 'ffmpeg-calls.log');
    const wrapper = path.join(dir, 'ffmpeg-noting.sh');
    await writeFile(log, '');
    await writeFile(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${ffmpeg}' "$@"\n`);
    await chmod(wrapper, 0o755);
    const output = path.join(dir, 'normalised-progress.mp4');
    const encodeStarted = () => readFileSync(log, 'utf8').split('\n').some((line) => line.includes(output));
    const reports: { fraction: number; encoding: boolean }[] = [];
    await renderClip({
      ffmpeg: wrapper,
      source: quiet,
      output,
      sourceInfo: await probe(ffprobe, quiet),
      layout: 'blur',
      audio: { normalize: true },
      onProgress: (fraction) => reports.push({ fraction, encoding: encodeStarted() }),
    });
    const measuring = reports.filter((report) => !report.encoding).map((report) => report.fraction);
    const encoding = reports.filter((report) => report.encoding).map((report) => report.fraction);
    // The measuring pass moves the bar within its share; the encode takes it on from there to 1.
    expect(measuring.length).toBeGreaterThan(0);
    expect(Math.max(...measuring)).toBeGreaterThan(0);
    expect(Math.max(...measuring)).toBeLessThanOrEqual(MEASURE_SHARE);
    expect(Math.min(...encoding)).toBeGreaterThanOrEqual(MEASURE_SHARE);
    expect(encoding.at(-1)).toBe(1);
    const fractions = reports.map((report) => report.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });

  it('copies a horizontal clip\'s picture untouched when only its audio is normalised', async () => {
    const output = path.join(dir, 'horizontal-normalised.mp4');
    const result = await renderClip({ ffmpeg, source: quiet, output, sourceInfo: await probe(ffprobe, quiet), layout: 'horizontal', audio: { normalize: true } });
    expect(result.args).not.toContain('libx264');
    expect(result.args.join(' ')).toMatch(/-map 0:v:0 .*-c:v copy/);
    expect(await videoStreamHash(output)).toBe(await videoStreamHash(quiet));
    expect(Math.abs((await ebur128(output)).integrated - LOUDNESS_TARGET.integrated)).toBeLessThanOrEqual(1);
  });

  it('encodes a horizontal clip at its own size when it is trimmed', async () => {
    const output = path.join(dir, 'horizontal-trimmed.mp4');
    const result = await renderClip({ ffmpeg, source: quiet, output, sourceInfo: await probe(ffprobe, quiet), layout: 'horizontal', trim: { start: 0.5, end: 2 }, audio: { normalize: true } });
    expect(result.args).toContain('libx264');
    expect(await probe(ffprobe, output)).toMatchObject({ width: WIDTH, height: HEIGHT });
    expect(Math.abs((await durationOf(output)) - 1.5)).toBeLessThanOrEqual(0.1);
  });

  it('leaves a source without audio as it is when asked to normalise', async () => {
    const output = path.join(dir, 'normalised-silent.mp4');
    const result = await renderClip({ ffmpeg, source: silent, output, sourceInfo: await probe(ffprobe, silent), layout: 'blur', audio: { normalize: true } });
    expect(result.args.join(' ')).not.toContain('volume=');
    expect((await probe(ffprobe, output)).audioCodec).toBeNull();
    expect(result.loudness).toBeNull();
  });
});
