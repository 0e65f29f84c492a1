import { describe, expect, it } from 'vitest';
import { MIN_REGION_SIDE, rectSchema } from '@clipshift/shared';
import { describeRect, moveRect, rectAfterKey, resizeRect } from './region-geometry';

const rect = { x: 0.2, y: 0.3, w: 0.4, h: 0.3 };

describe('region geometry', () => {
  it('moves a region and keeps it whole inside the frame', () => {
    expect(moveRect(rect, 0.1, -0.1)).toEqual({ x: 0.3, y: 0.2, w: 0.4, h: 0.3 });
    expect(moveRect(rect, 5, 5)).toEqual({ x: 0.6, y: 0.7, w: 0.4, h: 0.3 });
    expect(moveRect(rect, -5, -5)).toEqual({ x: 0, y: 0, w: 0.4, h: 0.3 });
  });

  it('resizes by a corner with the opposite corner fixed, never below the smallest side', () => {
    expect(resizeRect(rect, 'se', 0.1, 0.1)).toEqual({ x: 0.2, y: 0.3, w: 0.5, h: 0.4 });
    expect(resizeRect(rect, 'nw', -0.1, -0.1)).toEqual({ x: 0.1, y: 0.2, w: 0.5, h: 0.4 });
    expect(resizeRect(rect, 'ne', -1, -1)).toEqual({ x: 0.2, y: 0, w: MIN_REGION_SIDE, h: 0.6 });
    expect(resizeRect(rect, 'sw', 1, 1)).toEqual({ x: 0.55, y: 0.3, w: MIN_REGION_SIDE, h: 0.7 });
  });

  it('keeps every result valid for the server, however wild the drag', () => {
    for (const [dx, dy] of [[3, 3], [-3, 2], [0.333, -0.777], [1e-9, 0.1]] as const) {
      for (const corner of ['nw', 'ne', 'sw', 'se'] as const) expect(rectSchema.safeParse(resizeRect(rect, corner, dx, dy)).success).toBe(true);
      expect(rectSchema.safeParse(moveRect({ x: 0.9, y: 0.95, w: 0.1, h: 0.05 }, dx, dy)).success).toBe(true);
    }
  });

  it('moves with arrow keys and resizes with shift, ignoring other keys', () => {
    expect(rectAfterKey(rect, 'ArrowRight', false)).toEqual({ x: 0.21, y: 0.3, w: 0.4, h: 0.3 });
    expect(rectAfterKey(rect, 'ArrowDown', true)).toEqual({ x: 0.2, y: 0.3, w: 0.4, h: 0.31 });
    expect(rectAfterKey(rect, 'Enter', false)).toBeNull();
  });

  it('describes a region in words', () => {
    expect(describeRect(rect)).toBe('left 20%, top 30%, 40% wide, 30% high');
  });
});
