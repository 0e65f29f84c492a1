import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { isMediaError, probe, resolveMediaBinaries, type ProbeResult } from '../../server/src/engines/media/index.ts';
import { buildNaiveBlurFilter, buildVerticalFilter, cropWindow, escapeFilterValue, fitInside } from '../../server/src/engines/media/filters.ts';
import { createProgressParser, summariseStderr } from '../../server/src/engines/media/run.ts';
import { isTemporaryOutput, makeThumbnail, remuxHorizontal, renderHorizontal, renderVertical, thumbnailTime, writeAtomically } from '../../server/src/engines/media/render.ts';
import { MediaAbortError } from '../../server/src/engines/media/errors.ts';

const execFileAsync = promisify(execFile);
const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);
const FONTS_DIR = path.resolve(import.meta.dirname, '../../server/assets/fonts');

interface ClipSpec {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  audio?: boolean;
  /** Legacy `rotate` tag written into the MP4 (becomes its display matrix). */
  rotate?: number;
}

/** A tiny clip from ffmpeg's own generators: moving test pattern, optionally a 440 Hz tone. */
async function generate(file: string, { width, height, fps, seconds, audio = true, rotate }: ClipSpec): Promise<void> {
  const args = ['-y', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`];
  if (audio) args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`);
  args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p');
  if (audio) args.push('-c:a', 'aac', '-shortest');
  if (rotate === undefined) {
    await execFileAsync(ffmpeg, [...args, file]);
    return;
  }
  // ffmpeg 4.1 only writes the display matrix of a `rotate` tag when stream-copying.
  const upright = `${file}.upright.mp4`;
  await execFileAsync(ffmpeg, [...args, upright]);
  await execFileAsync(ffmpeg, ['-y', '-hide_banner', '-loglevel', 'error', '-i', upright, '-c', 'copy', '-metadata:s:v:0', `rotate=${rotate}`, file]);
}

/** Top-level MP4 boxes in order, to check +faststart (moov before mdat). */
async function topLevelBoxes(file: string): Promise<string[]> {
  const bytes = await readFile(file);
  const boxes: string[] = [];
  for (let offset = 0; offset + 8 <= bytes.length; ) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    if (size === 0) size = bytes.length - offset;
    boxes.push(type);
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

async function expectFaststart(file: string): Promise<void> {
  const boxes = await topLevelBoxes(file);
  expect(boxes).toContain('moov');
  expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
}

/** One decoded frame as 8-bit luminance, row after row. */
async function grayFrame(file: string, atSec: number, width: number, height: number): Promise<Buffer> {
  const { stdout } = await execFileAsync(ffmpeg, ['-v', 'error', '-ss', String(atSec), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], {
    encoding: 'buffer',
    maxBuffer: width * height * 2,
  });
  expect(stdout.length).toBe(width * height);
  return stdout;
}

/** Mean luminance (0-255) of rows [from, to) of a gray frame. */
function meanOfRows(frame: Buffer, width: number, from: number, to: number): number {
  let sum = 0;
  for (let index = from * width; index < to * width; index += 1) sum += frame[index]!;
  return sum / ((to - from) * width);
}

async function streamTypes(file: string): Promise<string[]> {
  const { stdout } = await execFileAsync(ffprobe, ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', file]);
  return stdout.trim().split('\n');
}

/** MD5 of a stream's packets as stored (stream copy, no decoding): equal only if nothing was re-encoded. */
async function packetHash(file: string, stream: string): Promise<string> {
  const { stdout } = await execFileAsync(ffmpeg, ['-v', 'error', '-i', file, '-map', stream, '-c', 'copy', '-f', 'md5', '-']);
  return stdout.trim();
}

function recordProgress(): { values: number[]; onProgress: (fraction: number) => void } {
  const values: number[] = [];
  return { values, onProgress: (fraction) => values.push(fraction) };
}

function expectProgressEndedAtOne(values: number[]): void {
  expect(values.some((fraction) => fraction > 0 && fraction < 1)).toBe(true);
  expect(values.at(-1)).toBe(1);
  expect(values.filter((fraction) => fraction === 1)).toHaveLength(1);
  expect(values).toEqual([...values].sort((a, b) => a - b));
}

describe('media pipeline with real ffmpeg', () => {
  let dir: string;
  let landscape: string;
  let landscapeInfo: ProbeResult;
  let silent: string;
  let fast: string;
  let portrait: string;
  let long: string;
  let longInfo: ProbeResult;
  let rotated: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-media-'));
    landscape = path.join(dir, 'landscape.mp4');
    silent = path.join(dir, 'silent.mp4');
    fast = path.join(dir, 'fast.mp4');
    portrait = path.join(dir, 'portrait.mp4');
    long = path.join(dir, 'long.mp4');
    rotated = path.join(dir, 'rotated.mp4');
    await Promise.all([
      generate(landscape, { width: 1280, height: 720, fps: 30, seconds: 2 }),
      generate(silent, { width: 640, height: 360, fps: 30, seconds: 1, audio: false }),
      generate(fast, { width: 320, height: 240, fps: 120, seconds: 1 }),
      generate(portrait, { width: 720, height: 1280, fps: 30, seconds: 1 }),
      generate(long, { width: 320, height: 180, fps: 30, seconds: 12 }),
      generate(rotated, { width: 320, height: 180, fps: 30, seconds: 1, audio: false, rotate: 90 }),
    ]);
    [landscapeInfo, longInfo] = await Promise.all([probe(ffprobe, landscape), probe(ffprobe, long)]);
  });

  describe('probe', () => {
    it('reads duration, geometry, codecs and rates', async () => {
      expect(landscapeInfo).toMatchObject({
        width: 1280,
        height: 720,
        videoCodec: 'h264',
        audioCodec: 'aac',
        pixelFormat: 'yuv420p',
        sampleAspectRatio: 1,
        rotation: 0,
        formatName: expect.stringContaining('mp4'),
      });
      expect(landscapeInfo.fps).toBeCloseTo(30, 1);
      expect(landscapeInfo.durationSec).toBeGreaterThan(1.9);
      expect(landscapeInfo.durationSec).toBeLessThan(2.2);
      expect(landscapeInfo.bitRate).toBeGreaterThan(0);
      expect(landscapeInfo.profile).toEqual(expect.any(String));
      expect(landscapeInfo.sizeBytes).toBe((await stat(landscape)).size);
    });

    it('reports a rotated stream with its displayed size', async () => {
      expect(await probe(ffprobe, rotated)).toMatchObject({ width: 180, height: 320, rotation: 90, audioCodec: null });
    });

    it('rejects what is not a video with a readable reason', async () => {
      const notVideo = path.join(dir, 'probe-not-a-video.mp4');
      await writeFile(notVideo, 'this is not a video');
      const error = await probe(ffprobe, notVideo).catch((caught: unknown) => caught);
      expect(isMediaError(error, 'invalid_input')).toBe(true);
      expect((error as Error).message).toMatch(/^ffprobe could not read the file: .*Invalid data/);
    });

    it('says so when the binary cannot be started', async () => {
      const error = await probe(path.join(dir, 'no-such-ffprobe'), landscape).catch((caught: unknown) => caught);
      expect(isMediaError(error, 'unavailable')).toBe(true);
      expect((error as Error).message).toMatch(/^ffprobe could not start \(.*no-such-ffprobe\): .*ENOENT/);
    });
  });

  describe('renderVertical', () => {
    for (const layout of ['blur', 'crop'] as const) {
      it(`renders the ${layout} layout as 1080x1920 H.264 High + AAC with faststart, in one encode, reporting progress`, async () => {
        const output = path.join(dir, `vertical-${layout}.mp4`);
        const progress = recordProgress();
        const result = await renderVertical({ ffmpeg, source: landscape, output, layout, sourceInfo: landscapeInfo, onProgress: progress.onProgress });
        const info = await probe(ffprobe, output);
        expect(info).toMatchObject({ width: 1080, height: 1920, videoCodec: 'h264', profile: 'High', pixelFormat: 'yuv420p', audioCodec: 'aac', sampleAspectRatio: 1 });
        expect(info.fps).toBeCloseTo(30, 1);
        expect(Math.abs(info.durationSec - landscapeInfo.durationSec)).toBeLessThan(0.1);
        await expectFaststart(output);
        expectProgressEndedAtOne(progress.values);
        // One ffmpeg run, reading the source itself, with the exact graph the pure builder returns.
        expect(result.args.filter((arg) => arg === '-i')).toHaveLength(1);
        expect(result.args[result.args.indexOf('-i') + 1]).toBe(landscape);
        expect(result.args[result.args.indexOf('-filter_complex') + 1]).toBe(buildVerticalFilter(layout, landscapeInfo));
        expect((await readdir(dir)).filter(isTemporaryOutput)).toEqual([]);
      });
    }

    it('fills the band above the picture with the blurred frame, not black', async () => {
      // The 16:9 picture covers rows 656-1264; rows 0-200 are background only.
      const blurred = await grayFrame(path.join(dir, 'vertical-blur.mp4'), 1, 1080, 1920);
      expect(meanOfRows(blurred, 1080, 0, 200)).toBeGreaterThan(25);
      expect(meanOfRows(blurred, 1080, 1720, 1920)).toBeGreaterThan(25);
      const cropped = await grayFrame(path.join(dir, 'vertical-crop.mp4'), 1, 1080, 1920);
      expect(meanOfRows(cropped, 1080, 0, 200)).toBeGreaterThan(25);
    });

    it('caps the frame rate at 60', async () => {
      const output = path.join(dir, 'fast-vertical.mp4');
      const info = await probe(ffprobe, fast);
      expect(info.fps).toBeCloseTo(120, 0);
      await renderVertical({ ffmpeg, source: fast, output, layout: 'blur', sourceInfo: info });
      expect((await probe(ffprobe, output)).fps).toBeCloseTo(60, 0);
    });

    it('renders a source without audio as a video-only file', async () => {
      const output = path.join(dir, 'silent-vertical.mp4');
      await renderVertical({ ffmpeg, source: silent, output, layout: 'blur', sourceInfo: await probe(ffprobe, silent) });
      expect(await probe(ffprobe, output)).toMatchObject({ width: 1080, height: 1920, audioCodec: null });
      expect(await streamTypes(output)).toEqual(['video']);
    });

    it('scales an already 9:16 source straight to 1080x1920, without a background that would be covered', async () => {
      const info = await probe(ffprobe, portrait);
      expect(buildVerticalFilter('blur', info)).not.toContain('split');
      const output = path.join(dir, 'portrait-vertical.mp4');
      await renderVertical({ ffmpeg, source: portrait, output, layout: 'blur', sourceInfo: info });
      expect(await probe(ffprobe, output)).toMatchObject({ width: 1080, height: 1920, audioCodec: 'aac' });
    });

    it('lays out a rotated source as it is displayed', async () => {
      const output = path.join(dir, 'rotated-vertical.mp4');
      await renderVertical({ ffmpeg, source: rotated, output, layout: 'crop', sourceInfo: await probe(ffprobe, rotated) });
      expect(await probe(ffprobe, output)).toMatchObject({ width: 1080, height: 1920, rotation: 0 });
    });

    it('burns ASS captions in the same graph, whatever characters the paths contain', async () => {
      const awkward = path.join(dir, "it's [odd], dir; with: quotes");
      await mkdir(awkward);
      const assPath = path.join(awkward, "captions 'v1'.ass");
      // A drawing (\p1) renders without any font: a black bar over rows 1500-1700 for the whole clip.
      await writeFile(
        assPath,
        [
          '[Script Info]',
          'ScriptType: v4.00+',
          'PlayResX: 1080',
          'PlayResY: 1920',
          '',
          '[V4+ Styles]',
          'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
          'Style: Default,Noto Sans,60,&H00000000,&H00000000,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,7,0,0,0,1',
          '',
          '[Events]',
          'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
          'Dialogue: 0,0:00:00.00,0:00:10.00,Default,,0,0,0,,{\\an7\\pos(0,1500)\\p1}m 0 0 l 1080 0 1080 200 0 200{\\p0}',
          '',
        ].join('\n'),
      );
      const output = path.join(awkward, 'captioned.mp4');
      const subtitles = { assPath, fontsDir: FONTS_DIR };
      const result = await renderVertical({ ffmpeg, source: landscape, output, layout: 'blur', sourceInfo: landscapeInfo, subtitles });
      expect(result.args.join(' ')).toContain('ass=filename=');
      const captioned = await grayFrame(output, 1, 1080, 1920);
      const plain = await grayFrame(path.join(dir, 'vertical-blur.mp4'), 1, 1080, 1920);
      expect(meanOfRows(plain, 1080, 1520, 1680)).toBeGreaterThan(40);
      expect(meanOfRows(captioned, 1080, 1520, 1680)).toBeLessThan(25);
      // Outside the bar the picture is the same render.
      expect(Math.abs(meanOfRows(captioned, 1080, 0, 1400) - meanOfRows(plain, 1080, 0, 1400))).toBeLessThan(2);
    });

    it('cancels a running render: rejects as an AbortError and leaves neither output nor temporary file', async () => {
      const work = await mkdtemp(path.join(dir, 'abort-'));
      const output = path.join(work, 'out.mp4');
      const controller = new AbortController();
      const render = renderVertical({ ffmpeg, source: long, output, layout: 'blur', sourceInfo: longInfo, signal: controller.signal, onProgress: () => controller.abort() });
      const error = await render.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MediaAbortError);
      expect(isMediaError(error, 'aborted')).toBe(true);
      expect((error as Error).name).toBe('AbortError');
      expect(await readdir(work)).toEqual([]);
    });

    it('does not start at all when the signal has already fired', async () => {
      const work = await mkdtemp(path.join(dir, 'pre-abort-'));
      const error = await renderVertical({ ffmpeg, source: long, output: path.join(work, 'out.mp4'), layout: 'crop', sourceInfo: longInfo, signal: AbortSignal.abort() }).catch((caught: unknown) => caught);
      expect(isMediaError(error, 'aborted')).toBe(true);
      expect(await readdir(work)).toEqual([]);
    });

    it('kills ffmpeg at its time limit and cleans up', async () => {
      const work = await mkdtemp(path.join(dir, 'timeout-'));
      const error = await renderVertical({ ffmpeg, source: long, output: path.join(work, 'out.mp4'), layout: 'blur', sourceInfo: longInfo, timeoutMs: 300 }).catch((caught: unknown) => caught);
      expect(isMediaError(error, 'timeout')).toBe(true);
      expect((error as Error).message).toBe('ffmpeg took longer than 0.3 s and was stopped');
      expect(await readdir(work)).toEqual([]);
    });

    it('reports a failing ffmpeg with a useful message and leaves nothing behind', async () => {
      const work = await mkdtemp(path.join(dir, 'bad-'));
      const notVideo = path.join(work, 'not-a-video.mp4');
      await writeFile(notVideo, 'this is not a video');
      const output = path.join(work, 'out.mp4');
      const error = await renderVertical({ ffmpeg, source: notVideo, output, layout: 'blur', sourceInfo: landscapeInfo }).catch((caught: unknown) => caught);
      expect(isMediaError(error, 'failed')).toBe(true);
      expect((error as Error).message).toMatch(/^ffmpeg failed \(exit \d+\): .*Invalid data/);
      expect((error as Error).message).not.toContain('Conversion failed');
      expect(await readdir(work)).toEqual(['not-a-video.mp4']);
    });
  });

  describe('horizontal output', () => {
    it('remuxes without re-encoding: same packets, codecs, size and streams, index in front', async () => {
      const output = path.join(dir, 'horizontal.mp4');
      const progress = recordProgress();
      const result = await remuxHorizontal({ ffmpeg, source: landscape, output, durationSec: landscapeInfo.durationSec, onProgress: progress.onProgress });
      expect(result.args).toEqual(expect.arrayContaining(['-c', 'copy']));
      expect(result.args).not.toContain('libx264');
      expect(await packetHash(output, '0:v:0')).toBe(await packetHash(landscape, '0:v:0'));
      expect(await packetHash(output, '0:a:0')).toBe(await packetHash(landscape, '0:a:0'));
      const info = await probe(ffprobe, output);
      for (const key of ['width', 'height', 'fps', 'videoCodec', 'audioCodec', 'pixelFormat', 'profile', 'sampleAspectRatio', 'rotation'] as const) {
        expect(info[key], key).toEqual(landscapeInfo[key]);
      }
      expect(info.durationSec).toBeCloseTo(landscapeInfo.durationSec, 1);
      expect(await streamTypes(output)).toEqual(await streamTypes(landscape));
      await expectFaststart(output);
      expect(progress.values.at(-1)).toBe(1);
    });

    it('renderHorizontal without captions is that same remux', async () => {
      const output = path.join(dir, 'horizontal-render.mp4');
      const result = await renderHorizontal({ ffmpeg, source: silent, output, sourceInfo: await probe(ffprobe, silent) });
      expect(result.args).toEqual(expect.arrayContaining(['-c', 'copy']));
      expect(await packetHash(output, '0:v:0')).toBe(await packetHash(silent, '0:v:0'));
      expect(await streamTypes(output)).toEqual(['video']);
    });
  });

  describe('makeThumbnail', () => {
    it('makes a JPEG of the asked width', async () => {
      const output = path.join(dir, 'thumb.jpg');
      await makeThumbnail({ ffmpeg, source: landscape, output, atSec: 1, width: 480 });
      const bytes = await readFile(output);
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(await probe(ffprobe, output)).toMatchObject({ width: 480, height: 270, videoCodec: 'mjpeg' });
    });

    it('clamps a time past the end inside the clip when the duration is known', async () => {
      const output = path.join(dir, 'thumb-late.jpg');
      await makeThumbnail({ ffmpeg, source: landscape, output, atSec: 60, width: 320, durationSec: landscapeInfo.durationSec });
      expect(await probe(ffprobe, output)).toMatchObject({ width: 320, height: 180 });
    });

    it('fails cleanly when there is no frame at the asked time', async () => {
      const work = await mkdtemp(path.join(dir, 'thumb-'));
      const error = await makeThumbnail({ ffmpeg, source: landscape, output: path.join(work, 'thumb.jpg'), atSec: 60 }).catch((caught: unknown) => caught);
      expect(isMediaError(error, 'empty_output')).toBe(true);
      expect(await readdir(work)).toEqual([]);
    });
  });
});

describe('media building blocks', () => {
  it('computes layout geometry and escapes filter values', () => {
    expect(fitInside(1920, 1080)).toEqual({ width: 1080, height: 608 });
    expect(fitInside(720, 1280)).toEqual({ width: 1080, height: 1920 });
    expect(fitInside(720, 1440)).toEqual({ width: 960, height: 1920 });
    expect(cropWindow(1920, 1080)).toEqual({ width: 608, height: 1080 });
    expect(cropWindow(1080, 2400)).toEqual({ width: 1080, height: 1920 });
    expect(escapeFilterValue("/data/it's: a [test], ok;")).toBe("/data/it\\\\\\'s\\\\: a \\[test\\]\\, ok\\;");
  });

  it('builds the blur graph: fps cap first, one split, background blurred at 1/8 size, captions after the layout', () => {
    const graph = buildVerticalFilter('blur', { width: 1920, height: 1080, fps: 120 }, { assPath: '/a/b.ass', fontsDir: '/fonts' });
    expect(graph.startsWith('[0:v]fps=60,split=2[bgsrc][fgsrc];')).toBe(true);
    expect(graph.match(/split/g)).toHaveLength(1);
    expect(graph).toContain('scale=135:240');
    expect(graph).toContain('boxblur=6:2');
    expect(graph).toContain('[fgsrc]scale=1080:608');
    expect(graph).toMatch(/overlay=\(W-w\)\/2:\(H-h\)\/2,ass=filename=\/a\/b\.ass:fontsdir=\/fonts,setsar=1,format=yuv420p\[v\]$/);
    expect(buildVerticalFilter('blur', { width: 1920, height: 1080, fps: 60 })).not.toContain('fps=');
  });

  it('builds the crop graph and respects non-square pixels', () => {
    expect(buildVerticalFilter('crop', { width: 1920, height: 1080, fps: 30 })).toBe('[0:v]crop=608:1080:(iw-608)/2:(ih-1080)/2,scale=1080:1920:flags=bicubic,setsar=1,format=yuv420p[v]');
    // 1440x1080 stored with 4:3 pixels is displayed 1920x1080: same 9:16 window, 456 stored pixels wide.
    expect(buildVerticalFilter('crop', { width: 1440, height: 1080, fps: 30, sampleAspectRatio: 4 / 3 })).toContain('crop=456:1080');
    expect(buildVerticalFilter('blur', { width: 1440, height: 1080, fps: 30, sampleAspectRatio: 4 / 3 })).toContain('[fgsrc]scale=1080:608');
  });

  it('builds the untuned full-size blur graph for the benchmark', () => {
    const graph = buildNaiveBlurFilter({ width: 1920, height: 1080, fps: 60 });
    expect(graph).toContain('crop=1080:1920,boxblur=48:2');
    expect(graph).not.toContain('135');
  });

  it('parses -progress output split across chunks, in microseconds whichever key', () => {
    const seen: number[] = [];
    const parse = createProgressParser(10, (fraction) => seen.push(fraction));
    parse('frame=1\nout_time_us=N/A\nout_time_ms=2500');
    parse('000\nout_time=00:00:02.500000\nprogress=continue\nout_time_us=5000000\n');
    parse('out_time_us=4000000\nout_time_us=12000000\nprogress=end\n');
    expect(seen).toEqual([0.25, 0.5, 0.999]);
    const silent = createProgressParser(undefined, (fraction) => seen.push(fraction));
    silent('out_time_us=1000000\n');
    expect(seen).toHaveLength(3);
  });

  it('summarises stderr by its last meaningful lines', () => {
    expect(summariseStderr('[h264] warning\nin.mp4: Invalid data found when processing input\nConversion failed!\n')).toBe('[h264] warning — in.mp4: Invalid data found when processing input');
    expect(summariseStderr('')).toBe('no error output');
  });

  it('clamps thumbnail times inside the clip', () => {
    expect(thumbnailTime(-3, 10)).toBe(0);
    expect(thumbnailTime(4, 10)).toBe(4);
    expect(thumbnailTime(30, 10)).toBeCloseTo(9.9);
    expect(thumbnailTime(30)).toBe(30);
    expect(thumbnailTime(Number.NaN, 10)).toBe(0);
  });

  it('writes atomically: the temporary file goes away when the write fails', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'clipshift-atomic-'));
    const output = path.join(work, 'video.mp4');
    let temporary = '';
    const failing = writeAtomically(output, async (file) => {
      temporary = file;
      await writeFile(file, 'half a file');
      throw new Error('disk full');
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(path.dirname(temporary)).toBe(work);
    expect(temporary.endsWith('.mp4')).toBe(true);
    expect(isTemporaryOutput(temporary)).toBe(true);
    expect(await readdir(work)).toEqual([]);
    await writeAtomically(output, (file) => writeFile(file, 'whole'));
    expect(await readdir(work)).toEqual(['video.mp4']);
  });

  it('resolves the binaries from npm unless overridden (blank counts as unset)', () => {
    const fromNpm = resolveMediaBinaries({ FFMPEG_PATH: ' ', FFPROBE_PATH: '' });
    expect(fromNpm.ffmpeg).toMatch(/ffmpeg$/);
    expect(fromNpm.ffprobe).toMatch(/ffprobe$/);
    expect(resolveMediaBinaries({ FFMPEG_PATH: '/opt/ffmpeg', FFPROBE_PATH: '/opt/ffprobe' })).toEqual({ ffmpeg: '/opt/ffmpeg', ffprobe: '/opt/ffprobe' });
  });
});
