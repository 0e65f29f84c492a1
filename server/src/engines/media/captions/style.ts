import { safeZoneRects, type CaptionPreset, type CaptionStyle } from '@clipshift/shared';
import type { AssOptions } from './ass.ts';

/** The picture captions are drawn on. */
export interface CaptionFrame {
  width: number;
  height: number;
  vertical: boolean;
}

interface PresetLook {
  borderStyle: AssOptions['borderStyle'];
  /** With the box: its padding around the text, pixels at a short side of 1080 (else the style's stroke_width). */
  boxPadding?: number;
}

/** What a preset looks like beyond the style's fields: how the text is set off from the picture. */
export const PRESET_LOOKS: Readonly<Record<CaptionPreset, PresetLook>> = {
  classic: { borderStyle: 1 },
  bold: { borderStyle: 1 },
  // An opaque box in the outline colour; a shadow would draw a second, offset box.
  boxed: { borderStyle: 3, boxPadding: 14 },
  minimal: { borderStyle: 1 },
  karaoke: { borderStyle: 1 },
  punch: { borderStyle: 1 },
};

/** Side margin at a short side of 1080: the vertical frame's, and a wider one for 16:9. */
const MARGIN_VERTICAL = 100;
const MARGIN_HORIZONTAL = 120;
/** Line budgets (display units) that read well: a TikTok-width line, and a subtitle-width one for 16:9. */
const MAX_UNITS_VERTICAL = 26;
const MAX_UNITS_HORIZONTAL = 40;
/**
 * libass sizes a font by ascender + descender (1.36 em for Noto Sans) and one display unit of bold
 * Noto Sans is about 0.57 em: at 80 px on 880 px between the vertical margins that is 26 units.
 */
const UNITS_PER_PIXEL_AT_SIZE = 1.36 / 0.57;

/**
 * A caption style as ASS options for a frame. Sizes are pixels on a frame whose short side is 1080
 * (the vertical output's width), so a horizontal 1920x1080 render shows them at the same size. The
 * line budget shrinks for large sizes so lines stay inside the side margins instead of libass
 * wrapping them into a third line. The safe zone applies to vertical frames only (safeZoneRects):
 * platforms show horizontal video letterboxed, below their interface.
 */
export function assOptionsForStyle(style: CaptionStyle, frame: CaptionFrame, language?: string | null, glossary: readonly string[] = []): Partial<AssOptions> {
  const scale = Math.min(frame.width, frame.height) / 1080;
  const look = PRESET_LOOKS[style.preset];
  const fontSize = Math.round(style.size * scale);
  const marginH = Math.round((frame.vertical ? MARGIN_VERTICAL : MARGIN_HORIZONTAL) * scale);
  const fitting = Math.floor(((frame.width - 2 * marginH) * UNITS_PER_PIXEL_AT_SIZE) / Math.max(1, fontSize));
  return {
    playResX: frame.width,
    playResY: frame.height,
    fontSize,
    fontName: style.font,
    textColor: style.primary_color.slice(1),
    highlightColor: style.highlight_color.slice(1),
    outlineColor: style.outline_color.slice(1),
    borderStyle: look.borderStyle,
    outline: Math.round((look.boxPadding ?? style.stroke_width) * scale),
    shadow: look.boxPadding === undefined ? Math.round(style.shadow * scale) : 0,
    position: style.position,
    uppercase: style.uppercase,
    language: language ?? null,
    marginH,
    maxLineWidth: Math.max(8, Math.min(frame.vertical ? MAX_UNITS_VERTICAL : MAX_UNITS_HORIZONTAL, fitting)),
    animation: style.animation,
    emphasisColor: style.emphasis === 'keywords' ? style.emphasis_color.slice(1) : null,
    glossary,
    maxWords: style.max_words,
    emoji: style.emoji === 'none' ? 'none' : 'image',
    autoEmoji: style.emoji === 'auto',
    keepClear: safeZoneRects(style.safe_zone, frame),
  };
}
