import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cropWindow,
  escapeFilterValue,
  fitInside,
  isMediaError,
  makeThumbnail,
  probe,
  renderHorizontal,
  renderVertical,
  resolveMediaBinaries,
  type ProbeResult,
} from '../../server/src/media/index.ts';

const execFileAsync = promisify(execFile);
const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);

async function generate(file: string, { width, height, fps, seconds, audio = true }: { width: number; height: number; fps: number; seconds: number; audio?: boolean }) {
  const args = ['-y', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`];
  if (audio) args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`);
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p');
  if (audio) args.push('-c:a', 'aac', '-shortest');
  await execFileAsync(ffmpeg, [...args, file]);
}

/** Top-level MP4 boxes in order, to check +faststart (moov before mdat). */
async function topLevelBoxes(file: string): Promise<string[]> {
  const bytes = await readFile(file);
  const boxes: string[] = [];
  for (let offset = 0; offset + 8 <= bytes.length; ) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    boxes.push(type);
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

/** Mean luminance (0-255) of rows [from, to) of one frame. */
async function meanLuma(file: string, atSec: number, width: number, height: number, from: number, to: number): Promise<number> {
  const { stdout } = await execFileAsync(ffmpeg, ['-v', 'error', '-ss', String(atSec), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], {
    encoding: 'buffer',
    maxBuffer: width * height * 2,
  });
  let sum = 0;
  for (let index = from * width; index < to * width; index += 1) sum += stdout[index]!;
  return sum / ((to - from) * width);
}

describe('media pipeline with real ffmpeg', () => {
  let dir: string;
  let landscape: string;
  let landscapeInfo: ProbeResult;
  let silent: string;
  let fast: string;
  let portrait: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-media-'));
    landscape = path.join(dir, 'landscape.mp4');
    silent = path.join(dir, 'silent.mp4');
    fast = path.join(dir, 'fast.mp4');
    portrait = path.join(dir, 'portrait.mp4');
    await Promise.all([
      generate(landscape, { width: 1280, height: 720, fps: 30, seconds: 2 }),
      generate(silent, { width: 640, height: 360, fps: 30, seconds: 1, audio: false }),
      generate(fast, { width: 320, height: 240, fps: 120, seconds: 1 }),
      generate(portrait, { width: 720, height: 1280, fps: 30, seconds: 1 }),
    ]);
    landscapeInfo = await probe(ffprobe, landscape);
  });

  it('probes a file', () => {
    expect(landscapeInfo).toMatchObject({ width: 1280, height: 720, videoCodec: 'h264', audioCodec: 'aac', formatName: expect.stringContaining('mp4') });
    expect(landscapeInfo.fps).toBeCloseTo(30, 1);
    expect(landscapeInfo.durationSec).toBeGreaterThan(1.9);
  });

  for (const layout of ['blur', 'crop'] as const) {
    it(`renders the ${layout} layout as 1080x1920 H.264 High + AAC with faststart, reporting progress`, async () => {
      const output = path.join(dir, `vertical-${layout}.mp4`);
      const progress: number[] = [];
      await renderVertical({ ffmpeg, source: landscape, output, layout, sourceInfo: landscapeInfo, onProgress: (fraction) => progress.push(fraction) });
      const result = await probe(ffprobe, output);
      expect(result).toMatchObject({ width: 1080, height: 1920, videoCodec: 'h264', profile: 'High', pixelFormat: 'yuv420p', audioCodec: 'aac' });
      expect(Math.abs(result.durationSec - landscapeInfo.durationSec)).toBeLessThan(0.15);
      const boxes = await topLevelBoxes(output);
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
      expect(progress.some((fraction) => fraction > 0 && fraction < 1)).toBe(true);
      expect(progress.at(-1)).toBe(1);
    });
  }

  it('fills the band above the picture with the blurred frame, not black', async () => {
    const output = path.join(dir, 'vertical-blur.mp4');
    // The 16:9 picture covers rows ~656-1264; rows 0-400 are background only.
    expect(await meanLuma(output, 1, 1080, 1920, 0, 400)).toBeGreaterThan(25);
    const cropped = path.join(dir, 'vertical-crop.mp4');
    expect(await meanLuma(cropped, 1, 1080, 1920, 0, 400)).toBeGreaterThan(25);
  });

  it('caps the frame rate at 60 and handles sources without audio or already portrait', async () => {
    const fastOut = path.join(dir, 'fast-vertical.mp4');
    await renderVertical({ ffmpeg, source: fast, output: fastOut, layout: 'blur', sourceInfo: await probe(ffprobe, fast) });
    expect((await probe(ffprobe, fastOut)).fps).toBeLessThanOrEqual(60);

    const silentOut = path.join(dir, 'silent-vertical.mp4');
    await renderVertical({ ffmpeg, source: silent, output: silentOut, layout: 'crop', sourceInfo: await probe(ffprobe, silent) });
    expect(await probe(ffprobe, silentOut)).toMatchObject({ width: 1080, height: 1920, audioCodec: null });

    const portraitOut = path.join(dir, 'portrait-vertical.mp4');
    await renderVertical({ ffmpeg, source: portrait, output: portraitOut, layout: 'blur', sourceInfo: await probe(ffprobe, portrait) });
    expect(await probe(ffprobe, portraitOut)).toMatchObject({ width: 1080, height: 1920 });
  });

  it('remuxes horizontal clips without re-encoding', async () => {
    const output = path.join(dir, 'horizontal.mp4');
    await renderHorizontal({ ffmpeg, source: landscape, output, sourceInfo: landscapeInfo });
    const hash = async (file: string) => (await execFileAsync(ffmpeg, ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-'])).stdout.trim();
    expect(await hash(output)).toBe(await hash(landscape));
    expect(await probe(ffprobe, output)).toMatchObject({ width: 1280, height: 720, videoCodec: 'h264', audioCodec: 'aac' });
    const boxes = await topLevelBoxes(output);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it('cancels a render: rejects as aborted and leaves neither output nor temporary file', async () => {
    const work = await mkdtemp(path.join(dir, 'abort-'));
    const output = path.join(work, 'out.mp4');
    const controller = new AbortController();
    const render = renderVertical({ ffmpeg, source: landscape, output, layout: 'blur', sourceInfo: landscapeInfo, signal: controller.signal, onProgress: () => controller.abort() });
    await expect(render).rejects.toSatisfy((error) => isMediaError(error, 'aborted'));
    expect(await readdir(work)).toEqual([]);
  });

  it('reports a failing ffmpeg with a useful message and leaves nothing behind', async () => {
    const work = await mkdtemp(path.join(dir, 'bad-'));
    const notVideo = path.join(work, 'not-a-video.mp4');
    await (await import('node:fs/promises')).writeFile(notVideo, 'this is not a video');
    await expect(probe(ffprobe, notVideo)).rejects.toSatisfy((error) => isMediaError(error, 'invalid_input'));
    const output = path.join(work, 'out.mp4');
    const error = await renderVertical({ ffmpeg, source: notVideo, output, layout: 'blur', sourceInfo: landscapeInfo }).catch((caught: unknown) => caught);
    expect(isMediaError(error, 'failed')).toBe(true);
    expect((error as Error).message).toMatch(/^ffmpeg failed \(exit \d+\): .*Invalid data/);
    expect(await readdir(work)).toEqual(['not-a-video.mp4']);
  });

  it('makes a JPEG thumbnail of the asked width', async () => {
    const output = path.join(dir, 'thumb.jpg');
    await makeThumbnail({ ffmpeg, source: landscape, output, atSec: 1, width: 480 });
    const bytes = await readFile(output);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await probe(ffprobe, output)).toMatchObject({ width: 480, height: 270 });
  });

  it('computes layout geometry and escapes filter values', () => {
    expect(fitInside(1920, 1080)).toEqual({ width: 1080, height: 608 });
    expect(fitInside(720, 1280)).toEqual({ width: 1080, height: 1920 });
    expect(cropWindow(1920, 1080)).toEqual({ width: 608, height: 1080 });
    expect(cropWindow(1080, 2400)).toEqual({ width: 1080, height: 1920 });
    expect(escapeFilterValue("/data/it's: a [test], ok;")).toBe("/data/it\\\\\\'s\\\\: a \\[test\\]\\, ok\\;");
  });
});
