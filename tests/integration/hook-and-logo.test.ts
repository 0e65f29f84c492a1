import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAPTION_PRESET_STYLES, safeZoneRects, type CaptionStyle, type LogoPosition, type ZoneRect } from '@clipshift/shared';
import { writeCaptionOverlay } from '../../server/src/domains/studio/captions.ts';
import { previewFrame, probe, renderClip, resolveMediaBinaries, type ProbeResult, type SubtitleOverlay } from '../../server/src/engines/media/index.ts';
import { renderTestLimitMs } from '../helpers/limits.ts';

const execFileAsync = promisify(execFile);
const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);

/*
 * The hook (a title card over the first seconds) and the streamer's logo, drawn by the real ffmpeg
 * on a flat grey 9:16 picture: every pixel that is not that grey is theirs. The hook's box takes the
 * caption style's highlight colour (pure cyan here) and the logo is pure orange, so each is counted
 * apart.
 */
const WIDTH = 1080;
const HEIGHT = 1920;
const SECONDS = 6;
const GREY = 128;
const VERTICAL = { width: WIDTH, height: HEIGHT, vertical: true };

type Test = (r: number, g: number, b: number) => boolean;
const isCyan: Test = (r, g, b) => r < 60 && g > 200 && b > 200;
/** The logo's orange over grey: at opacity α its red is 128 + 127α and its blue 128 - 128α. */
const isOrangeish: Test = (r, g, b) => r > GREY + 20 && b < GREY - 20;
const isDrawn: Test = (r, g, b) => Math.max(Math.abs(r - GREY), Math.abs(g - GREY), Math.abs(b - GREY)) > 24;

let dir: string;
let grey: string;
let greyInfo: ProbeResult;
let logo: string;

function count(pixels: Buffer, test: Test, rect: ZoneRect = { x: 0, y: 0, w: WIDTH, h: HEIGHT }): number {
  let hits = 0;
  for (let y = Math.floor(rect.y); y < Math.min(HEIGHT, Math.ceil(rect.y + rect.h)); y++) {
    for (let x = Math.floor(rect.x); x < Math.min(WIDTH, Math.ceil(rect.x + rect.w)); x++) {
      const at = (y * WIDTH + x) * 3;
      if (test(pixels[at]!, pixels[at + 1]!, pixels[at + 2]!)) hits++;
    }
  }
  return hits;
}

/** The mean red of the pixels passing `test`. */
function meanRed(pixels: Buffer, test: Test): number {
  let sum = 0;
  let hits = 0;
  for (let at = 0; at < pixels.length; at += 3) {
    if (!test(pixels[at]!, pixels[at + 1]!, pixels[at + 2]!)) continue;
    sum += pixels[at]!;
    hits++;
  }
  return hits ? sum / hits : 0;
}

/** The centre of the pixels passing `test`. */
function centre(pixels: Buffer, test: Test): { x: number; y: number } {
  let [sx, sy, hits] = [0, 0, 0];
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const at = (y * WIDTH + x) * 3;
      if (!test(pixels[at]!, pixels[at + 1]!, pixels[at + 2]!)) continue;
      [sx, sy, hits] = [sx + x, sy + y, hits + 1];
    }
  }
  return { x: sx / hits, y: sy / hits };
}

let made = 0;
async function overlay(style: CaptionStyle, extra: { hook?: { text: string; seconds: number }; logo?: { position: LogoPosition; opacity: number } }): Promise<SubtitleOverlay> {
  const result = await writeCaptionOverlay({
    words: [],
    style,
    frame: VERTICAL,
    trimStart: 0,
    assPath: path.join(dir, `overlay-${made++}.ass`),
    hook: extra.hook,
    logo: extra.logo ? { image: logo, ...extra.logo } : null,
  });
  expect(result).not.toBeNull();
  return result!;
}

/** The preview's frame at t (the render's graph), decoded losslessly. */
async function frameAt(drawn: SubtitleOverlay, t: number): Promise<Buffer> {
  const output = path.join(dir, `frame-${made++}.png`);
  await previewFrame({ ffmpeg, source: grey, sourceInfo: greyInfo, layout: { kind: 'blur' }, captions: drawn, t, output });
  const { stdout } = await execFileAsync(ffmpeg, ['-v', 'error', '-i', output, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', maxBuffer: WIDTH * HEIGHT * 4 });
  return stdout;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-hook-logo-'));
  grey = path.join(dir, 'grey.mp4');
  logo = path.join(dir, 'logo.png');
  await execFileAsync(ffmpeg, ['-y', '-v', 'error', '-f', 'lavfi', '-i', `color=c=0x808080:size=${WIDTH}x${HEIGHT}:rate=25:duration=${SECONDS}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', grey]);
  // A wide logo: it must keep its shape in the square box it is fitted into.
  await execFileAsync(ffmpeg, ['-y', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=0xFF8000:size=400x200', '-frames:v', '1', logo]);
  greyInfo = await probe(ffprobe, grey);
}, 120_000);

describe('hook title and logo', { timeout: renderTestLimitMs(6) }, () => {
  const style: CaptionStyle = { ...CAPTION_PRESET_STYLES.classic, highlight_color: '#00FFFF' };

  it('shows the hook over the first seconds and not after, clear of every platform interface', async () => {
    const drawn = await overlay(style, { hook: { text: 'He did NOT see that coming', seconds: 2 } });
    const during = await frameAt(drawn, 1);
    expect(count(during, isCyan)).toBeGreaterThan(20_000);
    const after = await frameAt(drawn, 3);
    expect(count(after, isDrawn)).toBe(0);
    for (const rect of safeZoneRects('all', VERTICAL)) expect(count(during, isDrawn, rect)).toBe(0);
    // In the upper part of the frame, centred.
    const middle = centre(during, isCyan);
    expect(middle.y).toBeLessThan(HEIGHT * 0.35);
    expect(Math.abs(middle.x - WIDTH / 2)).toBeLessThan(60);
  });

  it('sits the logo in its corner at its opacity, keeping its shape, out of the platform interface', async () => {
    const strong = await frameAt(await overlay(style, { logo: { position: 'top-right', opacity: 1 } }), 1);
    const box = Math.round(WIDTH * 0.18);
    // Fitted into the square box: as wide as the box, half as tall.
    expect(count(strong, isOrangeish)).toBeGreaterThan(box * (box / 2) * 0.9);
    expect(count(strong, isOrangeish)).toBeLessThan(box * (box / 2) * 1.1);
    const top = centre(strong, isOrangeish);
    expect(top.x).toBeGreaterThan(WIDTH * 0.75);
    expect(top.y).toBeLessThan(HEIGHT * 0.2);
    for (const rect of safeZoneRects('all', VERTICAL)) expect(count(strong, isDrawn, rect)).toBe(0);

    const faint = await frameAt(await overlay(style, { logo: { position: 'top-right', opacity: 0.5 } }), 1);
    // Half opaque: its red halfway between the grey and full orange.
    expect(meanRed(strong, isOrangeish)).toBeGreaterThan(240);
    expect(Math.abs(meanRed(faint, isOrangeish) - (GREY + 127 * 0.5))).toBeLessThan(12);

    const bottomLeft = centre(await frameAt(await overlay(style, { logo: { position: 'bottom-left', opacity: 1 } }), 1), isOrangeish);
    expect(bottomLeft.x).toBeLessThan(WIDTH * 0.25);
    expect(bottomLeft.y).toBeGreaterThan(HEIGHT * 0.6);
    // Bottom right: left of the button column, above the caption area.
    const bottomRight = await frameAt(await overlay(style, { logo: { position: 'bottom-right', opacity: 1 } }), 1);
    expect(centre(bottomRight, isOrangeish).x).toBeGreaterThan(WIDTH * 0.55);
    for (const rect of safeZoneRects('all', VERTICAL)) expect(count(bottomRight, isDrawn, rect)).toBe(0);
  });

  it('starts the hook below a logo in a top corner, so neither hides the other', async () => {
    const both = await frameAt(await overlay(style, { hook: { text: 'He did NOT see that coming', seconds: 2 }, logo: { position: 'top-right', opacity: 1 } }), 1);
    const rows = (test: Test) => {
      const found: number[] = [];
      for (let y = 0; y < HEIGHT; y++) if (count(both, test, { x: 0, y, w: WIDTH, h: 1 }) > 0) found.push(y);
      return { top: Math.min(...found), bottom: Math.max(...found) };
    };
    expect(rows(isCyan).top).toBeGreaterThan(rows(isOrangeish).bottom);
  });

  it('renders hook and logo in the one encode, the render matching the preview', async () => {
    const drawn = await overlay(style, { hook: { text: 'Wait for it', seconds: 1.5 }, logo: { position: 'top-left', opacity: 0.8 } });
    const output = path.join(dir, 'render.mp4');
    await renderClip({ ffmpeg, source: grey, output, sourceInfo: greyInfo, layout: { kind: 'blur' }, captions: drawn });
    const frame = async (t: number) =>
      (await execFileAsync(ffmpeg, ['-v', 'error', '-ss', String(t), '-i', output, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', maxBuffer: WIDTH * HEIGHT * 4 })).stdout;
    const early = await frame(0.8);
    const late = await frame(4);
    expect(count(early, isCyan)).toBeGreaterThan(5000);
    expect(count(late, isCyan)).toBe(0);
    expect(count(early, isOrangeish)).toBeGreaterThan(5000);
    expect(count(late, isOrangeish)).toBeGreaterThan(5000);
  });

  it('adds the end card after the clip in the same encode: the last frame dimmed, the logo large in the middle, the sound padded', async () => {
    const toned = path.join(dir, 'toned.mp4');
    await execFileAsync(ffmpeg, [
      '-y', '-v', 'error', '-f', 'lavfi', '-i', `color=c=0x808080:size=${WIDTH}x${HEIGHT}:rate=25:duration=3`,
      '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', toned,
    ]);
    const info = await probe(ffprobe, toned);
    const output = path.join(dir, 'outro.mp4');
    await renderClip({ ffmpeg, source: toned, output, sourceInfo: info, layout: { kind: 'blur' }, outro: { seconds: 2, logo } });
    const rendered = await probe(ffprobe, output);
    expect(rendered.durationSec).toBeGreaterThan(4.8);
    expect(rendered.durationSec).toBeLessThan(5.3);
    const { stdout: streams } = await execFileAsync(ffprobe, ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=duration', '-of', 'csv=p=0', output]);
    expect(Number(streams.trim())).toBeGreaterThan(4.8);
    const frame = async (t: number) =>
      (await execFileAsync(ffmpeg, ['-v', 'error', '-ss', String(t), '-i', output, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', maxBuffer: WIDTH * HEIGHT * 4 })).stdout;
    const clip = await frame(2);
    const card = await frame(4);
    expect(count(clip, isOrangeish)).toBe(0);
    expect(count(clip, isDrawn)).toBe(0);
    // The logo fills most of a box 45 % of the width, centred; the grey around it is dimmed.
    const box = WIDTH * 0.45;
    expect(count(card, isOrangeish)).toBeGreaterThan(box * (box / 2) * 0.8);
    const middle = centre(card, isOrangeish);
    expect(Math.abs(middle.x - WIDTH / 2)).toBeLessThan(20);
    expect(Math.abs(middle.y - HEIGHT / 2)).toBeLessThan(20);
    const corner = (card[0]! + card[1]! + card[2]!) / 3;
    expect(corner).toBeLessThan(GREY * 0.6);
  });
});
