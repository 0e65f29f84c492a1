import { describe, expect, it } from 'vitest';
import { clearBand, clearHalfWidth, safeZoneFractions, safeZoneRects, SAFE_ZONE_PLATFORMS } from './safe-zones.ts';
import { CAPTION_PRESET_STYLES, CAPTION_PRESETS, captionStyleInput, captionStyleSchema, completeCaptionStyle, completeClipEdit, storedCaptionStyle } from './studio.ts';

/** A style as stored before the automatic look: only the first eight fields. */
const OLD_BOLD = { preset: 'bold', font: 'Noto Sans', size: 96, primary_color: '#FFFFFF', highlight_color: '#39FF14', outline_color: '#000000', position: 0.62, uppercase: true } as const;

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((issue) => issue.message) ?? [];

describe('caption style fields of the automatic look', () => {
  it('gives every preset a complete style, karaoke and punch built on the new fields', () => {
    for (const preset of CAPTION_PRESETS) expect(captionStyleSchema.parse(CAPTION_PRESET_STYLES[preset])).toEqual(CAPTION_PRESET_STYLES[preset]);
    expect(CAPTION_PRESET_STYLES.karaoke).toMatchObject({ animation: 'pop', emphasis: 'none' });
    expect(CAPTION_PRESET_STYLES.punch).toMatchObject({ animation: 'bounce', emphasis: 'keywords', emoji: 'auto' });
    expect(CAPTION_PRESET_STYLES.punch.max_words).toBeLessThanOrEqual(3);
    // The first presets keep the look they had: no animation, no emphasis, their old outline and shadow.
    expect(CAPTION_PRESET_STYLES.classic).toMatchObject({ animation: 'none', emphasis: 'none', stroke_width: 5, shadow: 2, safe_zone: 'all' });
  });

  it('reads a style stored before these fields, filling them from its preset', () => {
    expect(storedCaptionStyle.parse(OLD_BOLD)).toEqual({ ...CAPTION_PRESET_STYLES.bold, size: 96 });
    expect(completeCaptionStyle(OLD_BOLD)).toEqual({ ...CAPTION_PRESET_STYLES.bold, size: 96 });
    expect(completeCaptionStyle(null)).toBeNull();
    // The strict schema (what the API answers with) would refuse it as it is stored.
    expect(captionStyleSchema.safeParse(OLD_BOLD).success).toBe(false);
    expect(completeClipEdit({ trim_start: 1, caption_style: OLD_BOLD })).toEqual({ trim_start: 1, caption_style: { ...CAPTION_PRESET_STYLES.bold, size: 96 } });
    expect(completeClipEdit({ trim_start: 1 })).toEqual({ trim_start: 1 });
  });

  it('takes the preset\'s value for each field a request leaves out', () => {
    expect(captionStyleInput.parse({ preset: 'punch' })).toEqual(CAPTION_PRESET_STYLES.punch);
    expect(captionStyleInput.parse({ preset: 'classic', animation: 'slide', emphasis_color: '#ff00aa' })).toEqual({ ...CAPTION_PRESET_STYLES.classic, animation: 'slide', emphasis_color: '#FF00AA' });
    expect(captionStyleInput.parse({ preset: 'karaoke', safe_zone: 'tiktok', max_words: 1 })).toMatchObject({ ...CAPTION_PRESET_STYLES.karaoke, safe_zone: 'tiktok', max_words: 1 });
  });

  it('refuses out-of-range values with messages that say the range', () => {
    const refused = (fields: Record<string, unknown>) => messages(captionStyleInput.safeParse({ preset: 'classic', ...fields }));
    expect(refused({ stroke_width: 13 })).toEqual(['stroke_width must be a whole number of pixels from 0 to 12']);
    expect(refused({ stroke_width: 2.5 })).toEqual(['stroke_width must be a whole number of pixels from 0 to 12']);
    expect(refused({ shadow: -1 })).toEqual(['shadow must be a whole number of pixels from 0 to 10']);
    expect(refused({ max_words: 0 })).toEqual(['max_words must be a whole number from 1 to 8']);
    expect(refused({ max_words: 9 })).toEqual(['max_words must be a whole number from 1 to 8']);
    expect(refused({ animation: 'spin' })).toEqual(['animation must be none, pop, bounce or slide']);
    expect(refused({ emphasis: 'all' })).toEqual(['emphasis must be none or keywords']);
    expect(refused({ emphasis_color: 'red' })).toEqual(['Colours must be #RRGGBB']);
    expect(refused({ emoji: 'yes' })).toEqual(['emoji must be none, keep or auto']);
    expect(refused({ safe_zone: 'snapchat' })).toEqual(['safe_zone must be all, tiktok, youtube, instagram or none']);
    expect(messages(captionStyleInput.safeParse({ preset: 'fancy' }))).toEqual(['Caption preset must be classic, bold, boxed, minimal, karaoke or punch']);
  });
});

describe('safe zones', () => {
  const frame = { width: 1080, height: 1920 };

  it('has each platform\'s top bar, button column and bottom area inside the frame; all is their union, none is empty', () => {
    for (const platform of SAFE_ZONE_PLATFORMS) {
      const rects = safeZoneFractions(platform);
      expect(rects).toHaveLength(3);
      for (const rect of rects) {
        expect(rect.x + rect.w).toBeLessThanOrEqual(1);
        expect(rect.y + rect.h).toBeLessThanOrEqual(1);
      }
    }
    expect(safeZoneFractions('all')).toHaveLength(9);
    expect(safeZoneFractions('none')).toEqual([]);
  });

  it('scales the rectangles to a frame, and gives a horizontal frame none', () => {
    const [top] = safeZoneRects('tiktok', frame);
    expect(top).toEqual({ x: 0, y: 0, w: 1080, h: expect.closeTo(149.76, 2) });
    expect(safeZoneRects('all', { width: 1920, height: 1080 })).toEqual([]);
  });

  it('finds the free band between the bars and the half-width clear of the button columns', () => {
    const all = safeZoneRects('all', frame);
    const band = clearBand(all, frame);
    expect(band.top).toBeCloseTo(0.078 * 1920, 3);
    expect(band.bottom).toBeCloseTo(0.79 * 1920, 3);
    // YouTube's column starts furthest left (86 % of the width).
    expect(clearHalfWidth(all, frame, 1200, 1400)).toBeCloseTo(0.86 * 1080 - 540, 3);
    // Above every column nothing narrows the block.
    expect(clearHalfWidth(all, frame, 200, 500)).toBe(540);
    expect(clearBand([], frame)).toEqual({ top: 0, bottom: 1920 });
  });
});
