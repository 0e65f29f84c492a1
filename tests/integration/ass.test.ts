import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptWord } from '../../server/src/engines/providers/transcription/types.ts';
import {
  buildAss,
  DEFAULT_ASS_OPTIONS,
  displayWidth,
  escapeAssText,
  fontsDir,
  formatAssTime,
  layoutCaptions,
  writeAssFile,
} from '../../server/src/engines/media/captions/ass.ts';
import { dominantScript, FONT_FAMILIES, FONT_FILES } from '../../server/src/engines/media/captions/fonts.ts';
import { assOptionsForStyle, PRESET_LOOKS } from '../../server/src/engines/media/captions/style.ts';
import { CAPTION_PRESET_STYLES, type CaptionStyle } from '@clipshift/shared';
import { renderCaptionFrame } from '../fakes/whisper/index.ts';

let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-ass-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** Words of `text` at `perWord` seconds each from `start`, with no pauses. */
function timed(text: string, start = 0, perWord = 0.3): TranscriptWord[] {
  return text.split(' ').map((word, index) => ({ text: word, start: start + index * perWord, end: start + (index + 1) * perWord }));
}

interface Dialogue {
  start: string;
  end: string;
  style: string;
  text: string;
}

function dialogues(ass: string): Dialogue[] {
  return ass
    .split('\n')
    .filter((line) => line.startsWith('Dialogue: '))
    .map((line) => {
      const fields = line.slice('Dialogue: '.length).split(',');
      return { start: fields[1]!, end: fields[2]!, style: fields[3]!, text: fields.slice(9).join(',') };
    });
}

/** The Style line as a name → value map, read through its Format line. */
function style(ass: string): Record<string, string> {
  const lines = ass.split('\n');
  const format = lines.find((line) => line.startsWith('Format: Name'))!.slice('Format: '.length).split(', ');
  const values = lines.find((line) => line.startsWith('Style: '))!.slice('Style: '.length).split(',');
  return Object.fromEntries(format.map((name, index) => [name, values[index]!]));
}

function scriptInfo(ass: string, key: string): string | undefined {
  return ass.split('\n').find((line) => line.startsWith(`${key}: `))?.slice(key.length + 2);
}

/** Dialogue text without override blocks, with its escapes undone: what libass shows. */
function visibleText(text: string): string {
  return text.replace(/\{[^}]*\}/g, '').replace(/\\([{}])/g, '$1').replace(/\u2060/g, '');
}

const HIGHLIGHT = /\{\\1c&H00E5FF&\}(.*?)\{\\1c&HFFFFFF&\}/;

function highlighted(text: string): string | undefined {
  const match = HIGHLIGHT.exec(text)?.[1];
  return match === undefined ? undefined : visibleText(match);
}

describe('ASS time and text', () => {
  it('formats times as h:mm:ss.cc, rounding to centiseconds', () => {
    expect(formatAssTime(0)).toBe('0:00:00.00');
    expect(formatAssTime(1.234)).toBe('0:00:01.23');
    expect(formatAssTime(59.999)).toBe('0:01:00.00');
    expect(formatAssTime(3661.257)).toBe('1:01:01.26');
    expect(formatAssTime(-0.5)).toBe('0:00:00.00');
  });

  it('escapes braces, backslashes and line breaks so spoken text cannot become tags', () => {
    expect(escapeAssText('{\\b1}bold')).toBe('\\{\\\u2060b1\\}bold');
    expect(escapeAssText('line\\Nbreak')).toBe('line\\\u2060Nbreak');
    expect(escapeAssText('two\nlines\r\tend')).toBe('two lines  end');
    const ass = buildAss([{ text: '{\\pos(0,0)}', start: 0, end: 1 }, { text: 'a\\N', start: 1, end: 2 }]);
    for (const { text } of dialogues(ass)) {
      // Only our own colour tags remain as override blocks.
      expect(text.replace(/\{\\1c&H[0-9A-F]{6}&\}/g, '')).not.toMatch(/(^|[^\\])\{/);
      expect(text).not.toMatch(/\\N/);
    }
  });

  it('measures display width: CJK is wider, marks are zero-width', () => {
    expect(displayWidth('hello')).toBeCloseTo(4.1);
    expect(displayWidth('日本語')).toBeCloseTo(5.4);
    expect(displayWidth('e\u0301')).toBe(1);
  });
});

describe('ASS document', () => {
  it('is a 1080x1920 script with a large bold bottom-centred style above the TikTok interface', () => {
    const ass = buildAss(timed('Hello there chat'));
    expect(scriptInfo(ass, 'ScriptType')).toBe('v4.00+');
    expect(scriptInfo(ass, 'PlayResX')).toBe('1080');
    expect(scriptInfo(ass, 'PlayResY')).toBe('1920');
    expect(scriptInfo(ass, 'ScaledBorderAndShadow')).toBe('yes');
    const captionStyle = style(ass);
    expect(captionStyle.Name).toBe('Caption');
    expect(captionStyle.Fontname).toBe('Noto Sans');
    expect(Number(captionStyle.Fontsize)).toBeGreaterThanOrEqual(60);
    expect(captionStyle.Bold).toBe('-1');
    expect(captionStyle.Alignment).toBe('2');
    expect(Number(captionStyle.MarginV)).toBeGreaterThanOrEqual(480);
    expect(Number(captionStyle.MarginV)).toBeLessThanOrEqual(560);
    expect(Number(captionStyle.Outline)).toBeGreaterThan(0);
    expect(Number(captionStyle.Shadow)).toBeGreaterThan(0);
    expect(captionStyle.PrimaryColour).toBe('&H00FFFFFF');
  });

  it('has no events for no words', () => {
    expect(dialogues(buildAss([]))).toEqual([]);
  });

  it('highlights each word in exactly one event, from its start to the next word, with no gaps', () => {
    const words = timed('this is the play of the year');
    const events = dialogues(buildAss(words));
    expect(events.map((event) => highlighted(event.text))).toEqual(words.map((word) => word.text));
    events.forEach((event, index) => {
      expect(event.start).toBe(formatAssTime(words[index]!.start));
      expect(event.text.match(/\\1c&H00E5FF&/g)).toHaveLength(1);
      if (index > 0) expect(event.start).toBe(events[index - 1]!.end);
      // The whole caption stays visible, only the colour moves.
      expect(visibleText(event.text).replace('\\N', ' ')).toBe('this is the play of the year');
    });
  });

  it('keeps every caption to two lines within the width budget', () => {
    const sentence =
      'so I was walking down the road with my whole squad and then out of nowhere this guy jumps out with a shotgun and ' +
      'we all just start screaming because nobody had any armor left at all and somehow we still won that fight';
    const captions = layoutCaptions(timed(sentence, 0, 0.25));
    expect(captions.length).toBeGreaterThan(3);
    for (const caption of captions) {
      expect(caption.lines.length).toBeLessThanOrEqual(2);
      for (const line of caption.lines) {
        expect(displayWidth(line.map((word) => word.text).join(' '))).toBeLessThanOrEqual(DEFAULT_ASS_OPTIONS.maxLineWidth);
      }
    }
    expect(captions.flatMap((caption) => caption.lines.flat().map((word) => word.text)).join(' ')).toBe(sentence);
    for (const { text } of dialogues(buildAss(timed(sentence, 0, 0.25)))) {
      expect(text.split('\\N').length).toBeLessThanOrEqual(2);
    }
  });

  it('starts a new caption after a pause and after a sentence end', () => {
    const words: TranscriptWord[] = [
      ...timed('no way', 0),
      ...timed('he actually did it', 2.5),
      { text: 'Wow.', start: 3.8, end: 4.1 },
      ...timed('Next round', 4.2),
    ];
    const captions = layoutCaptions(words);
    expect(captions.map((caption) => caption.lines.flat().map((word) => word.text).join(' '))).toEqual([
      'no way',
      'he actually did it Wow.',
      'Next round',
    ]);
    // A caption before a long pause lingers briefly instead of staying up through the silence.
    expect(captions[0]!.end).toBeCloseTo(0.6 + DEFAULT_ASS_OPTIONS.lingerSeconds);
    // Close captions hand over without a blank frame.
    expect(captions[1]!.end).toBe(captions[2]!.start);
  });

  it('balances two lines and fits fewer CJK characters per line', () => {
    const japanese = '今日は本当にありがとうございました皆さんまた明日も配信するのでよろしくお願いします';
    const words = Array.from(japanese).map((char, index) => ({ text: char, start: index * 0.1, end: (index + 1) * 0.1 }));
    const captions = layoutCaptions(words);
    for (const caption of captions) {
      expect(caption.lines.length).toBeLessThanOrEqual(2);
      for (const line of caption.lines) expect(line.length).toBeLessThanOrEqual(Math.floor(DEFAULT_ASS_OPTIONS.maxLineWidth / 1.8));
    }
    const ass = buildAss(words);
    // No spaces are put between Japanese words.
    expect(visibleText(dialogues(ass)[0]!.text)).not.toContain(' ');
  });
});

describe('fonts per script', () => {
  it('ships a TrueType font for each script, with its licence, under 15 MB', async () => {
    const files = await readdir(fontsDir);
    let total = 0;
    for (const file of Object.values(FONT_FILES)) {
      expect(files).toContain(file);
      const bytes = await readFile(path.join(fontsDir, file));
      total += bytes.length;
      expect(bytes.readUInt32BE(0) === 0x00010000 || bytes.toString('ascii', 0, 4) === 'OTTO').toBe(true);
    }
    for (const file of files) total += file.endsWith('.ttf') ? 0 : (await stat(path.join(fontsDir, file))).size;
    expect(total).toBeLessThan(15 * 1024 * 1024);
    expect(files.filter((file) => /^OFL.*\.txt$/.test(file)).length).toBeGreaterThanOrEqual(Object.keys(FONT_FILES).length);
    expect(await readFile(path.join(fontsDir, 'OFL-NotoSans.txt'), 'utf8')).toContain('SIL Open Font License');
  });

  it('picks the font from the transcript script', () => {
    expect(style(buildAss(timed('Привет как дела'))).Fontname).toBe(FONT_FAMILIES.latin);
    expect(style(buildAss(timed('héllo ça va'))).Fontname).toBe('Noto Sans');
    expect(style(buildAss(timed('今日 は 配信 です'))).Fontname).toBe('Noto Sans SC');
    expect(style(buildAss(timed('大家 好 我们 开始 吧'))).Fontname).toBe('Noto Sans SC');
    expect(style(buildAss(timed('مرحبا بكم في البث'))).Fontname).toBe('Noto Sans Arabic');
    expect(style(buildAss(timed('नमस्ते दोस्तों'))).Fontname).toBe('Noto Sans Devanagari');
    expect(dominantScript('GG 今日は最高でした')).toBe('cjk');
  });

  it('switches font for a word in another script inside a caption', () => {
    const ass = buildAss(timed('今日 は Valorant です'));
    const event = dialogues(ass)[0]!;
    expect(event.text).toContain('{\\fnNoto Sans\\fs80}Valorant{\\fnNoto Sans SC\\fs80}');
  });

  it('leaves Arabic in logical order and lets libass detect the right-to-left direction', () => {
    const words = timed('مرحبا بكم في البث اليوم');
    const ass = buildAss(words);
    expect(style(ass).Encoding).toBe('-1');
    expect(style(buildAss(timed('hello there'))).Encoding).toBe('1');
    const first = dialogues(ass)[0]!;
    expect(visibleText(first.text)).toBe('مرحبا بكم في البث اليوم');
    expect(highlighted(first.text)).toBe('مرحبا');
    // Arabic letters look small at the Latin size: the style is scaled up.
    expect(Number(style(ass).Fontsize)).toBeGreaterThan(DEFAULT_ASS_OPTIONS.fontSize);
  });
});

describe('rendering with the bundled fonts', () => {
  /** Bounding box of the lit pixels and the count of highlight-yellow ones. */
  function analyse(pixels: Buffer): { top: number; bottom: number; yellow: number; white: number } {
    let top = Number.POSITIVE_INFINITY;
    let bottom = -1;
    let yellow = 0;
    let white = 0;
    for (let offset = 0; offset < pixels.length; offset += 3) {
      const [r, g, b] = [pixels[offset]!, pixels[offset + 1]!, pixels[offset + 2]!];
      if (r + g + b < 120) continue;
      const y = Math.floor(offset / 3 / 1080);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      if (r > 200 && g > 180 && b < 90) yellow++;
      if (r > 220 && g > 220 && b > 220) white++;
    }
    return { top, bottom, yellow, white };
  }

  it.each([
    ['Latin', 'So I just clutched a one versus five'],
    ['Japanese', '今日 は 本当 に ありがとう ございました'],
    ['Arabic', 'مرحبا بكم في البث اليوم'],
    ['Cyrillic', 'Привет как дела'],
  ])('draws %s captions with a highlighted word above the bottom interface', async (_name, text) => {
    const file = path.join(workDir, `render-${_name}.ass`);
    await writeAssFile(file, timed(text, 0, 0.5));
    const pixels = await renderCaptionFrame(file, fontsDir, 0.6);
    expect(pixels.length).toBe(1080 * 1920 * 3);
    const { top, bottom, yellow, white } = analyse(pixels);
    expect(yellow).toBeGreaterThan(200);
    expect(white).toBeGreaterThan(500);
    expect(bottom).toBeLessThanOrEqual(1920 - 480);
    expect(top).toBeGreaterThan(1920 / 2);
  });
});

describe('caption styles', () => {
  const VERTICAL = { width: 1080, height: 1920, vertical: true };
  const HORIZONTAL = { width: 1920, height: 1080, vertical: false };
  const styled = (changes: Partial<CaptionStyle>, frame = VERTICAL, language?: string) =>
    assOptionsForStyle({ ...CAPTION_PRESET_STYLES.classic, ...changes }, frame, language);

  it('centres every event on the chosen position of the frame height', () => {
    const ass = buildAss(timed('this is the play of the year'), styled({ position: 0.3 }));
    expect(style(ass).Alignment).toBe('5');
    const events = dialogues(ass);
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) expect(event.text.startsWith('{\\an5\\pos(540,576)}')).toBe(true);
    const horizontal = buildAss(timed('hello there'), styled({ position: 0.85 }, HORIZONTAL));
    expect(dialogues(horizontal)[0]!.text.startsWith('{\\an5\\pos(960,918)}')).toBe(true);
    // Without a position (the default options) the block sits above the bottom interface as before.
    expect(style(buildAss(timed('hello there'))).Alignment).toBe('2');
    expect(dialogues(buildAss(timed('hello there')))[0]!.text).not.toContain('\\pos');
  });

  it('keeps a block at the very top or bottom whole on screen, moving it in only as far as needed', () => {
    const edge = 1920 * 0.02;
    const y = (ass: string) => Number(/\\pos\(\d+,(\d+)\)/.exec(dialogues(ass)[0]!.text)![1]);
    // One line of 80 px with a 5 px outline: half a block is 45 px.
    // Without a safe zone only the frame's edges count.
    const free = { safe_zone: 'none' } as const;
    expect(y(buildAss(timed('hi'), styled({ ...free, position: 0 })))).toBe(Math.round(45 + edge));
    expect(y(buildAss(timed('hi'), styled({ ...free, position: 1 })))).toBe(Math.round(1920 - 45 - edge));
    // Two lines need twice the room.
    const twoLines = buildAss(timed('this caption is long enough to need a second line of text'), styled({ ...free, position: 0 }));
    expect(y(twoLines)).toBe(Math.round(85 + edge));
    // Away from the edges (and the platforms' interface) the position is exact.
    expect(y(buildAss(timed('hi'), styled({ position: 0.5 })))).toBe(960);
  });

  it('gives each preset its look: outline and shadow widths, an opaque box for boxed', () => {
    const look = (preset: CaptionStyle['preset']) => style(buildAss(timed('hello there'), assOptionsForStyle(CAPTION_PRESET_STYLES[preset], VERTICAL)));
    expect(look('classic')).toMatchObject({ BorderStyle: '1', Outline: '5', Shadow: '2' });
    expect(look('bold')).toMatchObject({ BorderStyle: '1', Outline: '8', Shadow: '3' });
    expect(look('minimal')).toMatchObject({ BorderStyle: '1', Outline: '2', Shadow: '0' });
    const boxed = look('boxed');
    expect(boxed).toMatchObject({ BorderStyle: '3', Shadow: '0' });
    expect(Number(boxed.Outline)).toBe(PRESET_LOOKS.boxed.boxPadding);
    // The box is drawn in the outline colour (#111111, blue first).
    expect(boxed.OutlineColour).toBe('&H00111111');
    expect(Number(look('bold').Outline)).toBeGreaterThan(Number(look('classic').Outline));
  });

  it('writes the colours and the size in pixels on a frame whose short side is 1080', () => {
    const vertical = style(buildAss(timed('hello there'), styled({ size: 90, primary_color: '#00FF00', highlight_color: '#0000FF', outline_color: '#FF0000' })));
    expect(vertical).toMatchObject({ Fontsize: '90', PrimaryColour: '&H0000FF00', SecondaryColour: '&H00FF0000', OutlineColour: '&H000000FF' });
    expect(style(buildAss(timed('hello there'), styled({ size: 90 }, HORIZONTAL))).Fontsize).toBe('90');
    // A 720p horizontal render scales everything by 720/1080.
    const small = assOptionsForStyle({ ...CAPTION_PRESET_STYLES.bold, size: 90 }, { width: 1280, height: 720, vertical: false });
    expect(small).toMatchObject({ fontSize: 60, outline: 5, shadow: 2 });
    const highlight = dialogues(buildAss(timed('hello there'), styled({ highlight_color: '#0000FF' })))[0]!.text;
    expect(highlight).toContain('{\\1c&HFF0000&}hello');
  });

  it('keeps lines inside the side margins: wider margins for 16:9, fewer units per line for large text', () => {
    const horizontal = styled({}, HORIZONTAL);
    expect(horizontal.marginH).toBe(120);
    expect(horizontal.maxLineWidth).toBe(40);
    expect(styled({}).maxLineWidth).toBe(DEFAULT_ASS_OPTIONS.maxLineWidth);
    const large = styled({ size: 140 });
    expect(large.maxLineWidth).toBeLessThan(16);
    const sentence = 'so I was walking down the road with my whole squad and then out of nowhere';
    for (const caption of layoutCaptions(timed(sentence), large)) {
      for (const line of caption.lines) {
        if (line.length > 1) expect(displayWidth(line.map((word) => word.text).join(' '))).toBeLessThanOrEqual(large.maxLineWidth!);
      }
    }
  });

  it('upper-cases by the transcript language before laying out the lines', () => {
    const ass = buildAss(timed('istanbul iyi straße'), styled({ uppercase: true }, VERTICAL, 'tr'));
    expect(visibleText(dialogues(ass)[0]!.text)).toBe('İSTANBUL İYİ STRASSE');
    // Whisper's English name works too, and other languages keep the plain I.
    expect(visibleText(dialogues(buildAss(timed('istanbul'), styled({ uppercase: true }, VERTICAL, 'turkish')))[0]!.text)).toBe('İSTANBUL');
    expect(visibleText(dialogues(buildAss(timed('istanbul'), styled({ uppercase: true }, VERTICAL, 'english')))[0]!.text)).toBe('ISTANBUL');
    expect(visibleText(dialogues(buildAss(timed('istanbul'), styled({ uppercase: false })))[0]!.text)).toBe('istanbul');
  });

  it('uses the style font as the base and still switches words of other scripts to their font', () => {
    const ass = buildAss(timed('GG 페이커 wins'), styled({ font: 'Noto Sans' }));
    expect(style(ass).Fontname).toBe('Noto Sans');
    const text = dialogues(ass)[0]!.text;
    expect(text).toContain('{\\fnNoto Sans KR\\fs80}페이커{\\fnNoto Sans\\fs80}');
    expect(text).not.toContain('{\\fnNoto Sans KR\\fs80}GG');
    // A CJK style font keeps Japanese in it and gives a Latin word the Latin font.
    const japanese = dialogues(buildAss(timed('今日 は Valorant です'), styled({ font: 'Noto Sans SC' })))[0]!.text;
    expect(japanese).toContain('{\\fnNoto Sans\\fs80}Valorant{\\fnNoto Sans SC\\fs80}');
    expect(japanese).not.toContain('\\fnNoto Sans SC\\fs80}今日');
  });

  it('draws a caption centred on its position, in its colour (rendered with libass)', async () => {
    const file = path.join(workDir, 'positioned.ass');
    const green = { primary_color: '#00FF00', highlight_color: '#00FF00', outline_color: '#000000' } as const;
    await writeAssFile(file, timed('hello there chat', 0, 0.5), styled({ ...green, position: 0.3 }));
    const pixels = await renderCaptionFrame(file, fontsDir, 0.6);
    let top = Number.POSITIVE_INFINITY;
    let bottom = -1;
    for (let offset = 0; offset < pixels.length; offset += 3) {
      if (pixels[offset + 1]! > 180 && pixels[offset]! < 80 && pixels[offset + 2]! < 80) {
        const y = Math.floor(offset / 3 / 1080);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
    expect(bottom).toBeGreaterThan(top);
    // The glyphs' box is not the line box, but its middle lies within a few pixels of 0.3 × 1920.
    expect(Math.abs((top + bottom) / 2 - 576)).toBeLessThan(20);
  });
});
