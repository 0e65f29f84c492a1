import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptWord } from '../../server/src/engines/providers/transcription/types.ts';
import { buildAss, captionFontsDir } from '../../server/src/engines/media/captions/ass.ts';
import { cmapRecords, fullUnicodeRanges, preferFullUnicodeCmap } from '../../server/src/engines/media/captions/cmap.ts';
import { CAPTION_FONTS, dominantScript, emojiFontHas, emojiRuns, fontFilePath, FONT_FAMILIES, selectableFonts, wordScript } from '../../server/src/engines/media/captions/fonts.ts';
import { renderCaptionFrame } from '../fakes/whisper/index.ts';

let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-caption-fonts-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

function timed(text: string, perWord = 0.5): TranscriptWord[] {
  return text.split(' ').map((word, index) => ({ text: word, start: index * perWord, end: (index + 1) * perWord }));
}

function firstDialogue(ass: string): string {
  return ass.split('\n').find((line) => line.startsWith('Dialogue: '))!.split(',').slice(9).join(',');
}

/** Renders the words' captions at 0.2 s with the fonts folder the app hands libass. */
async function render(name: string, words: TranscriptWord[], options: Parameters<typeof buildAss>[1] = {}): Promise<Buffer> {
  const file = path.join(workDir, `${name}.ass`);
  await writeFile(file, buildAss(words, options), 'utf8');
  return renderCaptionFrame(file, await captionFontsDir(), 0.2);
}

const WIDTH = 1080;
/** The rows captions sit in at the default vertical layout (bottom margin 520 of 1920). */
const BAND = { top: 1200, bottom: 1420 };

function litInBand(pixels: Buffer): number {
  let lit = 0;
  for (let y = BAND.top; y < BAND.bottom; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const offset = (y * WIDTH + x) * 3;
      if (pixels[offset]! + pixels[offset + 1]! + pixels[offset + 2]! > 120) lit++;
    }
  }
  return lit;
}

function differingInBand(a: Buffer, b: Buffer): number {
  let differing = 0;
  for (let offset = BAND.top * WIDTH * 3; offset < BAND.bottom * WIDTH * 3; offset += 3) {
    const delta = Math.abs(a[offset]! - b[offset]!) + Math.abs(a[offset + 1]! - b[offset + 1]!) + Math.abs(a[offset + 2]! - b[offset + 2]!);
    if (delta > 120) differing++;
  }
  return differing;
}

describe('caption fonts folder', () => {
  it('links every caption font, committed ones and those from npm packages, as TrueType files', async () => {
    const dir = await captionFontsDir();
    const files = await readdir(dir);
    for (const font of Object.values(CAPTION_FONTS)) {
      const name = path.basename(fontFilePath(font));
      expect(files).toContain(name);
      const bytes = await readFile(path.join(dir, name));
      expect(bytes.readUInt32BE(0)).toBe(0x00010000);
    }
    expect(await captionFontsDir()).toBe(dir);
  });

  it('ships the licence of each font taken from npm', async () => {
    for (const font of Object.values(CAPTION_FONTS)) {
      if (!('npmPackage' in font.source)) continue;
      const packageDir = path.dirname(path.dirname(fontFilePath(font)));
      expect(await readFile(path.join(packageDir, 'LICENSE_FONT'), 'utf8')).toContain('SIL Open Font License');
    }
  });

  it('is made again when something removed it', async () => {
    // A folder of its own: the shared one may be in use by other test files.
    const root = await mkdtemp(path.join(workDir, 'root-'));
    const dir = await captionFontsDir(root);
    expect(path.dirname(dir)).toBe(root);
    await rm(dir, { recursive: true, force: true });
    expect(await captionFontsDir(root)).toBe(dir);
    expect((await readdir(dir)).length).toBe(Object.keys(CAPTION_FONTS).length);
  });

  it('points the emoji font\'s BMP character map at its full-Unicode one, leaving the original alone', async () => {
    const original = await readFile(fontFilePath(CAPTION_FONTS.emoji));
    const records = cmapRecords(original);
    const full = records.find((record) => record.platform === 3 && record.encoding === 10)!;
    const bmp = records.find((record) => record.platform === 3 && record.encoding === 1)!;
    expect(bmp.subtable).not.toBe(full.subtable);
    const patched = cmapRecords(preferFullUnicodeCmap(original));
    expect(patched.find((record) => record.platform === 3 && record.encoding === 1)!.subtable).toBe(full.subtable);
    expect(cmapRecords(original)).toEqual(records);
    const linked = await readFile(path.join(await captionFontsDir(), path.basename(fontFilePath(CAPTION_FONTS.emoji))));
    expect(cmapRecords(linked)).toEqual(patched);
    const ranges = fullUnicodeRanges(original);
    expect(ranges.some(([first, last]) => first <= 0x1f525 && 0x1f525 <= last)).toBe(true);
  });
});

describe('Korean captions', () => {
  it('are written in Noto Sans KR, with Latin words switched to Noto Sans', () => {
    const ass = buildAss(timed('안녕하세요 여러분 Valorant 시작합니다'));
    expect(ass).toContain(`Style: Caption,${FONT_FAMILIES.korean},`);
    expect(FONT_FAMILIES.korean).toBe('Noto Sans KR');
    expect(firstDialogue(ass)).toContain('{\\fnNoto Sans\\fs80}Valorant{\\fnNoto Sans KR\\fs80}');
  });

  it('are drawn by libass, not as empty boxes', async () => {
    const korean = await render('korean', timed('안녕하세요 여러분'));
    const blank = await render('blank', []);
    expect(litInBand(blank)).toBe(0);
    expect(litInBand(korean)).toBeGreaterThan(3000);
    // A font without Hangul draws every syllable as the same empty box; drawn, two syllables differ.
    const ga = await render('korean-ga', timed('가'));
    const bwelk = await render('korean-bwelk', timed('뷁'));
    expect(differingInBand(ga, bwelk)).toBeGreaterThan(300);
  });
});

describe('emoji in captions', () => {
  it('are switched to the emoji font and back, joiners and skin tones kept with their picture', () => {
    const event = firstDialogue(buildAss(timed('lol😂 nice 👍🏽')));
    expect(event).toContain('lol{\\fnNoto Emoji}😂{\\fnNoto Sans}');
    expect(emojiRuns('hi 👨‍👩‍👧 ok')).toEqual([
      { text: 'hi ', emoji: false },
      { text: '👨‍👩‍👧', emoji: true },
      { text: ' ok', emoji: false },
    ]);
    expect(emojiRuns('👍🏽')).toEqual([{ text: '👍🏽', emoji: true }]);
    expect(emojiRuns('plain text')).toEqual([{ text: 'plain text', emoji: false }]);
  });

  it('go back to the word\'s own font inside a word in another script, and through a caption font chosen by the user', () => {
    expect(firstDialogue(buildAss(timed('今日 は 最高🔥 です')))).toContain('最高{\\fnNoto Emoji}🔥{\\fnNoto Sans SC}');
    expect(firstDialogue(buildAss(timed('gg 🔥 시작합니다 좋아🔥')))).toContain('좋아{\\fnNoto Emoji}🔥{\\fnNoto Sans KR}');
    expect(firstDialogue(buildAss(timed('gg 🔥'), { fontName: 'Noto Sans SC' }))).toContain('{\\fnNoto Emoji}🔥{\\fnNoto Sans SC}');
  });

  it('leaves out an emoji the font lacks instead of drawing a box', () => {
    expect(emojiFontHas(0x1f525)).toBe(true);
    expect(emojiFontHas(0x1f602)).toBe(true);
    expect(emojiFontHas(0x1fc00)).toBe(false);
    expect(/\p{Extended_Pictographic}/u.test('\u{1FC00}')).toBe(true);
    const event = firstDialogue(buildAss(timed('gg🔥\u{1FC00}')));
    expect(event).toContain('gg{\\fnNoto Emoji}🔥{\\fnNoto Sans}');
    expect(event).not.toContain('\u{1FC00}');
    expect(firstDialogue(buildAss(timed('gg \u{1FC00}')))).not.toContain('Noto Emoji');
  });

  it('do not count as letters when the script of a caption or a word is chosen', () => {
    expect(wordScript('❤️')).toBeNull();
    expect(wordScript('🔥🔥')).toBeNull();
    expect(dominantScript('좋아 ❤️❤️❤️❤️')).toBe('korean');
    // No switch to the Latin font around an emoji-only word in a Korean caption.
    expect(firstDialogue(buildAss(timed('좋아요 ❤️ 최고')))).not.toContain('\\fnNoto Sans\\');
  });

  it('draws each emoji as its picture, not as an empty box', async () => {
    // A character no font has: libass's empty box, the same for every missing glyph.
    const box = await render('emoji-box', timed('\u{10FFFD}'));
    const drawn = await Promise.all(['😂', '🔥', '👍'].map((emoji) => render(`emoji-${emoji.codePointAt(0)}`, timed(emoji))));
    for (const pixels of drawn) {
      expect(litInBand(pixels)).toBeGreaterThan(500);
      expect(differingInBand(pixels, box)).toBeGreaterThan(500);
    }
    expect(differingInBand(drawn[1]!, drawn[2]!)).toBeGreaterThan(300);
  });
});

describe('fonts offered to caption styles', () => {
  it('lists each text font with its scripts, Korean included, and not the emoji font', () => {
    const fonts = selectableFonts();
    expect(fonts.map((font) => font.family)).toEqual(['Noto Sans', 'Noto Sans SC', 'Noto Sans KR', 'Noto Sans Arabic', 'Noto Sans Devanagari']);
    expect(fonts.find((font) => font.family === 'Noto Sans KR')!.scripts).toEqual(['Kore']);
    for (const font of fonts) expect(font.scripts.length).toBeGreaterThan(0);
  });
});
