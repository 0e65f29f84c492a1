import { clearBand, clearHalfWidth, safeZoneRects, type LogoPosition, type SafeZone, type ZoneRect } from '@clipshift/shared';
import { escapeAssText, formatAssTime } from './ass.ts';
import type { CaptionFrame } from './style.ts';

/*
 * What a render draws over the picture besides the words: the hook (a title card over the first
 * seconds) as ASS events in the captions' own file, and the streamer's logo as an image overlaid in
 * a corner. Both keep clear of the chosen platform's interface, as the captions do.
 */

export interface HookCard {
  text: string;
  seconds: number;
}

/** Pixels at a short side of 1080. */
const HOOK_SIZE = 76;
const HOOK_BOX_PADDING = 18;
/** Below the top bar: the card's top edge, at least this far down (share of the height). */
const HOOK_MIN_TOP = 0.1;
const FADE_IN_MS = 150;
const FADE_OUT_MS = 250;
const EDGE_MARGIN = 40;

/**
 * The hook's style line and its one event: bold text on an opaque box (the caption style's
 * highlight colour), centred, its top below the zone's top bar, its width inside the button
 * columns beside it; it fades in and out over the first `seconds` of the render.
 */
export function hookAssLines(hook: HookCard, frame: CaptionFrame, zone: SafeZone, font: string, boxColour: string, below = 0): { style: string; event: string } {
  const scale = Math.min(frame.width, frame.height) / 1080;
  const size = Math.round(HOOK_SIZE * scale);
  const rects = safeZoneRects(zone, frame);
  const band = clearBand(rects, frame);
  // Below a logo in a top corner too (`below`), so neither hides the other.
  const top = Math.round(Math.max(band.top + EDGE_MARGIN * scale, frame.height * HOOK_MIN_TOP, below + EDGE_MARGIN * scale));
  const halfWidth = clearHalfWidth(rects, frame, top, top + size * 3);
  const margin = Math.max(Math.round(EDGE_MARGIN * scale), Math.round(frame.width / 2 - halfWidth + HOOK_BOX_PADDING * scale));
  const style = [
    'Hook',
    font,
    size,
    '&H00111111',
    '&H00111111',
    `&H00${boxColour.slice(4, 6)}${boxColour.slice(2, 4)}${boxColour.slice(0, 2)}`,
    '&H00000000',
    -1, 0, 0, 0,
    100, 100, 0, 0,
    3,
    Math.round(HOOK_BOX_PADDING * scale),
    0,
    8,
    margin,
    margin,
    top,
    1,
  ].join(',');
  const event = `Dialogue: 1,${formatAssTime(0)},${formatAssTime(hook.seconds)},Hook,,0,0,0,,{\\fad(${FADE_IN_MS},${FADE_OUT_MS})\\q0}${escapeAssText(hook.text.trim())}`;
  return { style: `Style: ${style}`, event };
}

/** The captions' ASS with the hook's style and event added. */
export function withHook(ass: string, lines: { style: string; event: string }): string {
  const withStyle = ass.replace(/^(Style: Caption,.*)$/m, (line) => `${line}\n${lines.style}`);
  return `${withStyle.trimEnd()}\n${lines.event}\n`;
}

export interface LogoPlacement {
  /** ffmpeg overlay expressions (main_w/main_h: the picture; overlay_w/overlay_h: the logo). */
  x: string;
  y: string;
  /** The logo is scaled to fit a box this many pixels wide and tall, keeping its shape. */
  box: number;
  /** The lowest row its box may reach when it sits at the top (0 at the bottom): a hook starts below it. */
  reaches: number;
}

/** The logo fits a box of this share of the frame's short side. */
const LOGO_SHARE = 0.18;

/** The side columns (button columns) a block between `top` and `bottom` must keep left of, on the right. */
function rightLimit(rects: readonly ZoneRect[], frame: { width: number }, top: number, bottom: number): number {
  let limit = frame.width;
  for (const rect of rects) {
    const column = rect.x > frame.width / 2 && rect.y < bottom && rect.y + rect.h > top;
    if (column) limit = Math.min(limit, rect.x);
  }
  return limit;
}

/**
 * Where the logo goes in its corner: inside the margins, below the zone's top bar or above its
 * bottom area, and left of a button column that reaches its height.
 */
export function logoPlacement(position: LogoPosition, frame: CaptionFrame, zone: SafeZone): LogoPlacement {
  const scale = Math.min(frame.width, frame.height) / 1080;
  const margin = Math.round(EDGE_MARGIN * scale);
  const box = Math.round(Math.min(frame.width, frame.height) * LOGO_SHARE);
  const rects = safeZoneRects(zone, frame);
  const band = clearBand(rects, frame);
  const atTop = position.startsWith('top');
  const top = atTop ? Math.round(band.top + margin) : Math.round(band.bottom - margin - box);
  const right = rightLimit(rects, frame, top, top + box);
  const y = atTop ? String(top) : `${Math.round(band.bottom - margin)}-overlay_h`;
  const x = position.endsWith('left') ? String(margin) : `${Math.round(right - margin)}-overlay_w`;
  return { x, y, box, reaches: atTop ? top + box : 0 };
}
