import { MIN_REGION_SIDE, type Rect } from '@clipshift/shared';

/** A corner a region is resized by. */
export type Corner = 'nw' | 'ne' | 'sw' | 'se';
export const CORNERS: readonly Corner[] = ['nw', 'ne', 'sw', 'se'];

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
/** Four decimals: finer than a pixel of any source, and no 0.30000000000000004 sent to the server. */
const tidy = (value: number) => Math.round(value * 10_000) / 10_000;

function tidyRect(rect: Rect): Rect {
  const w = tidy(rect.w);
  const h = tidy(rect.h);
  return { x: Math.min(tidy(rect.x), tidy(1 - w)), y: Math.min(tidy(rect.y), tidy(1 - h)), w, h };
}

/** `rect` moved by (dx, dy) fractions of the frame, kept whole inside the frame. */
export function moveRect(rect: Rect, dx: number, dy: number): Rect {
  return tidyRect({ ...rect, x: clamp(rect.x + dx, 0, 1 - rect.w), y: clamp(rect.y + dy, 0, 1 - rect.h) });
}

/**
 * `rect` with one corner dragged by (dx, dy): the opposite corner stays put, the sides never get
 * smaller than MIN_REGION_SIDE and the corner never leaves the frame.
 */
export function resizeRect(rect: Rect, corner: Corner, dx: number, dy: number): Rect {
  let left = rect.x;
  let top = rect.y;
  let right = rect.x + rect.w;
  let bottom = rect.y + rect.h;
  if (corner === 'nw' || corner === 'sw') left = clamp(left + dx, 0, right - MIN_REGION_SIDE);
  else right = clamp(right + dx, left + MIN_REGION_SIDE, 1);
  if (corner === 'nw' || corner === 'ne') top = clamp(top + dy, 0, bottom - MIN_REGION_SIDE);
  else bottom = clamp(bottom + dy, top + MIN_REGION_SIDE, 1);
  return tidyRect({ x: left, y: top, w: right - left, h: bottom - top });
}

/** The keyboard's step: arrows move by it, shift+arrows resize by it (from the bottom-right corner). */
export const KEY_STEP = 0.01;

const KEY_DELTAS: Record<string, [number, number]> = {
  ArrowLeft: [-KEY_STEP, 0],
  ArrowRight: [KEY_STEP, 0],
  ArrowUp: [0, -KEY_STEP],
  ArrowDown: [0, KEY_STEP],
};

/** The region after an arrow key (with shift: resized), or null for any other key. */
export function rectAfterKey(rect: Rect, key: string, resize: boolean): Rect | null {
  const delta = KEY_DELTAS[key];
  if (!delta) return null;
  return resize ? resizeRect(rect, 'se', delta[0], delta[1]) : moveRect(rect, delta[0], delta[1]);
}

const percent = (value: number) => `${Math.round(value * 100)}%`;

/** "left 70%, top 5%, 25% wide, 30% high": what a screen reader hears of a region. */
export function describeRect(rect: Rect): string {
  return `left ${percent(rect.x)}, top ${percent(rect.y)}, ${percent(rect.w)} wide, ${percent(rect.h)} high`;
}
