import type { CaptionStyle } from '@clipshift/shared';
import type { AssOptions } from './ass.ts';

/** The picture captions are drawn on. */
export interface CaptionFrame {
  width: number;
  height: number;
  vertical: boolean;
}

/**
 * A caption style as ASS options for a frame. Sizes are pixels on a frame whose short side is 1080
 * (the vertical output's width), so a horizontal 1920x1080 render shows them at the same size.
 */
export function assOptionsForStyle(style: CaptionStyle, frame: CaptionFrame): Partial<AssOptions> {
  const scale = Math.min(frame.width, frame.height) / 1080;
  return {
    playResX: frame.width,
    playResY: frame.height,
    fontSize: Math.round(style.size * scale),
    fontName: style.font,
    textColor: style.primary_color.slice(1),
    highlightColor: style.highlight_color.slice(1),
    outlineColor: style.outline_color.slice(1),
    ...(frame.vertical ? {} : { marginH: Math.round(120 * scale), maxLineWidth: 40 }),
  };
}
