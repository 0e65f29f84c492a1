import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAPTION_PRESET_STYLES, CAPTION_PRESETS, safeZoneRects, type CaptionStyle, type SafeZone, type ZoneRect } from '@clipshift/shared';
import type { TranscriptWord } from '../../server/src/engines/providers/transcription/types.ts';
import { writeAssFile } from '../../server/src/engines/media/captions/ass.ts';
import { captionFontsDir } from '../../server/src/engines/media/captions/fonts.ts';
import { chooseKeywords } from '../../server/src/engines/media/captions/keywords.ts';
import { assOptionsForStyle } from '../../server/src/engines/media/captions/style.ts';
import { autoEmojiFor, emojiImage } from '../../server/src/engines/media/captions/emoji.ts';
import { previewFrame, probe, renderClip, resolveMediaBinaries, type ProbeResult, type SubtitleOverlay } from '../../server/src/engines/media/index.ts';
import { clipVideoGraph } from '../../server/src/engines/media/render.ts';
import { renderTestLimitMs } from '../helpers/limits.ts';

const execFileAsync = promisify(execFile);
const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);

/*
 * Captions drawn by the real ffmpeg and libass on a flat grey 9:16 picture (no colour anywhere), so
 * every pixel that is not that grey is caption, and every saturated one is a highlight, an emphasis
 * or an emoji picture.
 */
const WIDTH = 1080;
const HEIGHT = 1920;
const FPS = 25;
const SECONDS = 4;
const GREY = 128;
const VERTICAL = { width: WIDTH, height: HEIGHT, vertical: true };

interface RgbFrame {
  pixels: Buffer;
}

let dir: string;
let grey: string;
let pattern: string;
let greyInfo: ProbeResult;
let patternInfo: ProbeResult;
let fontsDir: string;

/** Words said one after another, `perWord` seconds each, from `start`. */
function timed(text: string, start = 0.2, perWord = 0.5): TranscriptWord[] {
  return text.split(' ').map((word, index) => ({ text: word, start: start + index * perWord, end: start + (index + 1) * perWord - 0.05 }));
}

let written = 0;
async function captions(words: readonly TranscriptWord[], style: CaptionStyle, options: { glossary?: string[]; language?: string } = {}): Promise<SubtitleOverlay & { ass: string }> {
  const assPath = path.join(dir, `captions-${written++}.ass`);
  const images = await writeAssFile(assPath, words, assOptionsForStyle(style, VERTICAL, options.language ?? 'en', options.glossary ?? []));
  return { assPath, fontsDir, images, ass: await readFile(assPath, 'utf8') };
}

/**
 * The frame at `t` as the render's graph draws it (the very builder renders and previews use),
 * decoded losslessly: the frame's timestamp moved to `t` as previewFrame does.
 */
async function graphFrame(overlay: SubtitleOverlay, t: number): Promise<RgbFrame> {
  const graph = clipVideoGraph({ kind: 'blur' }, greyInfo, overlay).replace(/^\[0:v\]/, `[0:v]setpts=PTS+${t.toFixed(3)}/TB,`);
  const { stdout } = await execFileAsync(ffmpeg, ['-v', 'error', '-ss', t.toFixed(3), '-i', grey, '-filter_complex', graph, '-map', '[v]', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
    maxBuffer: WIDTH * HEIGHT * 4,
  });
  expect(stdout.length).toBe(WIDTH * HEIGHT * 3);
  return { pixels: stdout };
}

type Test = (r: number, g: number, b: number) => boolean;
const isCaption: Test = (r, g, b) => Math.max(Math.abs(r - GREY), Math.abs(g - GREY), Math.abs(b - GREY)) > 24;
const isSaturated: Test = (r, g, b) => Math.max(r, g, b) - Math.min(r, g, b) > 90;
const isMagenta: Test = (r, g, b) => r > 190 && b > 190 && g < 90;
const isCyan: Test = (r, g, b) => r < 90 && g > 170 && b > 170;

/** Pixels passing `test`, inside `rect` when given. */
function count(frame: RgbFrame, test: Test, rect: ZoneRect = { x: 0, y: 0, w: WIDTH, h: HEIGHT }): number {
  let hits = 0;
  for (let y = Math.floor(rect.y); y < Math.min(HEIGHT, Math.ceil(rect.y + rect.h)); y++) {
    for (let x = Math.floor(rect.x); x < Math.min(WIDTH, Math.ceil(rect.x + rect.w)); x++) {
      const at = (y * WIDTH + x) * 3;
      if (test(frame.pixels[at]!, frame.pixels[at + 1]!, frame.pixels[at + 2]!)) hits++;
    }
  }
  return hits;
}

/** The bounding box of the pixels passing `test`. */
function bbox(frame: RgbFrame, test: Test): { width: number; height: number } {
  let [left, top, right, bottom] = [WIDTH, HEIGHT, -1, -1];
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const at = (y * WIDTH + x) * 3;
      if (!test(frame.pixels[at]!, frame.pixels[at + 1]!, frame.pixels[at + 2]!)) continue;
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    }
  }
  return { width: right - left + 1, height: bottom - top + 1 };
}

/** PSNR (average over Y, U, V) of a video frame and a picture, as ffmpeg's psnr filter computes it. */
async function psnr(video: string, at: number, picture: string): Promise<number> {
  const { stderr } = await execFileAsync(ffmpeg, [
    '-hide_banner', '-nostats', '-ss', at.toFixed(3), '-i', video, '-i', picture,
    '-filter_complex', '[0:v]format=yuv420p,trim=end_frame=1[a];[1:v]format=yuv420p[b];[a][b]psnr', '-frames:v', '1', '-f', 'null', '-',
  ]);
  const match = /PSNR .* average:(\S+)/.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return match![1] === 'inf' ? Number.POSITIVE_INFINITY : Number(match![1]);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-caption-look-'));
  grey = path.join(dir, 'grey.mp4');
  pattern = path.join(dir, 'pattern.mp4');
  const encode = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', String(FPS)];
  await execFileAsync(ffmpeg, ['-y', '-v', 'error', '-f', 'lavfi', '-i', `color=c=0x808080:size=${WIDTH}x${HEIGHT}:rate=${FPS}:duration=${SECONDS}`, ...encode, grey]);
  // A moving grey pattern with a tone: what the preview-against-render comparison needs.
  await execFileAsync(ffmpeg, [
    '-y', '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=${FPS}:duration=${SECONDS},hue=s=0`,
    '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`, ...encode, '-c:a', 'aac', '-shortest', pattern,
  ]);
  [greyInfo, patternInfo] = await Promise.all([probe(ffprobe, grey), probe(ffprobe, pattern)]);
  fontsDir = await captionFontsDir();
}, 120_000);

describe('keywords the emphasis colours', () => {
  it('picks numbers, glossary terms, names away from a sentence start and each caption\'s most telling word', () => {
    const words = ['Then', 'Shroud', 'got', '3', 'kills', 'with', 'the', 'vandal', 'absolutely', 'wild'];
    const chosen = chooseKeywords(words, { glossary: ['Vandal'], language: 'en' });
    expect([...chosen].sort((a, b) => a - b).map((index) => words[index])).toEqual(['Shroud', '3', 'vandal', 'absolutely']);
    // A capital at a sentence's start says nothing; nor do stop words, however long.
    expect([...chooseKeywords(['Really', 'nice'], { language: 'en' })]).toEqual([]);
    expect([...chooseKeywords(['and', 'Tyler', 'came'], { startsSentence: true })]).toEqual([1]);
  });

  it('maps fitting words to an emoji in auto mode and finds a colour picture for each emoji', () => {
    expect(autoEmojiFor('INSANE!')).toBe('🔥');
    expect(autoEmojiFor('lol')).toBe('😂');
    expect(autoEmojiFor('table')).toBeNull();
    for (const emoji of ['🔥', '😂', '👍🏽', '❤️', '👨‍👩‍👧']) expect(emojiImage(emoji), emoji).toMatch(/\.png$/);
  });
});

describe('the caption look drawn by ffmpeg', { timeout: renderTestLimitMs(8) }, () => {
  const plain: CaptionStyle = { ...CAPTION_PRESET_STYLES.classic, highlight_color: '#00E5FF', safe_zone: 'none', position: 0.5 };

  it('grows the word being said and lets it settle (pop), while a still style keeps its size', async () => {
    const words = timed('hello there friends', 1.0);
    const popped = await captions(words, { ...plain, animation: 'pop' });
    expect(popped.ass).toContain('\\t(');
    // 0.08 s into "hello": near the top of the pop; 0.4 s in: settled.
    const [growing, settled] = await Promise.all([graphFrame(popped, 1.08), graphFrame(popped, 1.4)]);
    const big = bbox(growing, isCyan);
    const rest = bbox(settled, isCyan);
    expect(big.height).toBeGreaterThan(rest.height * 1.12);
    expect(big.width).toBeGreaterThan(rest.width * 1.12);

    const still = await captions(words, plain);
    const [early, late] = await Promise.all([graphFrame(still, 1.08), graphFrame(still, 1.4)]);
    expect(Math.abs(bbox(early, isCyan).height - bbox(late, isCyan).height)).toBeLessThanOrEqual(1);
  });

  it('draws a glossary term in the emphasis colour, and nothing in it without the emphasis', async () => {
    // "xqc" is no name (lower case), no number and too short to be the most telling word: only the glossary makes it a keyword.
    const words = timed('it is xqc', 0.5);
    const style: CaptionStyle = { ...plain, emphasis: 'keywords', emphasis_color: '#FF00FF' };
    const emphasised = await graphFrame(await captions(words, style, { glossary: ['xQc'] }), 0.6);
    expect(count(emphasised, isMagenta)).toBeGreaterThan(300);
    const withoutGlossary = await graphFrame(await captions(words, style), 0.6);
    expect(count(withoutGlossary, isMagenta)).toBe(0);
    const off = await graphFrame(await captions(words, { ...style, emphasis: 'none' }, { glossary: ['xQc'] }), 0.6);
    expect(count(off, isMagenta)).toBe(0);
  });

  it('draws the transcript\'s emoji as colour pictures with keep, and leaves them out with none', async () => {
    const white: CaptionStyle = { ...plain, highlight_color: '#FFFFFF' };
    const words = timed('so good 🔥', 0.5);
    const kept = await captions(words, { ...white, emoji: 'keep' });
    expect(kept.images).toHaveLength(1);
    const keptFrame = await graphFrame(kept, 0.8);
    // A picture, not an outline glyph or a box: hundreds of saturated pixels (white text and black outline have none).
    expect(count(keptFrame, isSaturated)).toBeGreaterThan(1500);
    const dropped = await captions(words, { ...white, emoji: 'none' });
    expect(dropped.images).toEqual([]);
    expect(dropped.ass).not.toContain('🔥');
    expect(count(await graphFrame(dropped, 0.8), isSaturated)).toBe(0);
    // The picture stands where the caption keeps its space: level with the words, to their right.
    const text = bbox(await graphFrame(dropped, 0.8), isCaption);
    const image = kept.images![0]!;
    expect(image.y + image.size / 2).toBeGreaterThan(HEIGHT / 2 - text.height);
    expect(image.y + image.size / 2).toBeLessThan(HEIGHT / 2 + text.height);
    expect(image.x).toBeGreaterThan(WIDTH / 2);
  });

  it('keeps every caption pixel out of the chosen platform\'s interface', async () => {
    // Low and wide: without a safe zone this caption runs into the bottom area and the button column.
    const words = timed('this caption is long enough to need a second line and then some more words', 0.2, 0.2);
    const low: CaptionStyle = { ...CAPTION_PRESET_STYLES.bold, position: 0.86, max_words: 8 };
    const entered = (frame: RgbFrame, zone: SafeZone) => safeZoneRects(zone, VERTICAL).reduce((sum, rect) => sum + count(frame, isCaption, rect), 0);
    const unguarded = await graphFrame(await captions(words, { ...low, safe_zone: 'none' }), 0.3);
    expect(entered(unguarded, 'all')).toBeGreaterThan(1000);
    for (const zone of ['tiktok', 'youtube', 'instagram', 'all'] as const) {
      const frame = await graphFrame(await captions(words, { ...low, safe_zone: zone, animation: 'bounce' }), 0.3);
      expect(count(frame, isCaption), zone).toBeGreaterThan(2000);
      expect(entered(frame, zone), zone).toBe(0);
    }
    // Mid-frame, the lines narrow to stay clear of the button column instead of moving. Wide
    // capitals make lines wider than the budget in letters expects.
    const wideWords = timed('WOW MOM WHOA MAMA WOW MOM WHOA MAMA', 0.2, 0.2);
    const middle: CaptionStyle = { ...CAPTION_PRESET_STYLES.bold, position: 0.6 };
    const narrowed = await graphFrame(await captions(wideWords, { ...middle, safe_zone: 'youtube' }), 0.3);
    expect(entered(narrowed, 'youtube')).toBe(0);
    const wide = await graphFrame(await captions(wideWords, { ...middle, safe_zone: 'none' }), 0.3);
    expect(entered(wide, 'youtube')).toBeGreaterThan(0);
  });

  it('previews exactly what the render shows for every preset (PSNR ≥ 35 dB), Turkish capitals included', async () => {
    const words = timed('Shroud hit 3 insane shots lol 😂 what a clutch', 0.1, 0.3);
    const t = 1.3;
    for (const preset of CAPTION_PRESETS) {
      const overlay = await captions(words, CAPTION_PRESET_STYLES[preset]);
      const rendered = path.join(dir, `render-${preset}.mp4`);
      await renderClip({ ffmpeg, source: pattern, output: rendered, sourceInfo: patternInfo, layout: { kind: 'blur' }, captions: overlay, trim: { start: 0, end: 2 } });
      const preview = path.join(dir, `preview-${preset}.jpg`);
      await previewFrame({ ffmpeg, source: pattern, sourceInfo: patternInfo, layout: { kind: 'blur' }, captions: overlay, trim: { start: 0, end: 2 }, t, output: preview });
      expect(await psnr(rendered, t, preview), preset).toBeGreaterThanOrEqual(35);
    }
    const turkish = await captions(timed('istanbul iyi akşamlar', 0.2, 0.4), CAPTION_PRESET_STYLES.bold, { language: 'tr' });
    expect(turkish.ass).toContain('İSTANBUL');
    expect(turkish.ass).toContain('İYİ');
    expect(turkish.ass).not.toMatch(/ISTANBUL|IYI/);
    const rendered = path.join(dir, 'render-tr.mp4');
    await renderClip({ ffmpeg, source: pattern, output: rendered, sourceInfo: patternInfo, layout: { kind: 'blur' }, captions: turkish, trim: { start: 0, end: 2 } });
    const preview = path.join(dir, 'preview-tr.jpg');
    await previewFrame({ ffmpeg, source: pattern, sourceInfo: patternInfo, layout: { kind: 'blur' }, captions: turkish, trim: { start: 0, end: 2 }, t: 0.5, output: preview });
    const matching = await psnr(rendered, 0.5, preview);
    expect(matching).toBeGreaterThanOrEqual(35);
    // The comparison can fail: the frame of another word costs several dB.
    const other = path.join(dir, 'preview-tr-other.jpg');
    await previewFrame({ ffmpeg, source: pattern, sourceInfo: patternInfo, layout: { kind: 'blur' }, captions: turkish, trim: { start: 0, end: 2 }, t: 1.1, output: other });
    expect(await psnr(rendered, 0.5, other)).toBeLessThan(matching - 3);
  });
});
