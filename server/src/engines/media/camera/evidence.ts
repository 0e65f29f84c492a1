import type { FrameSet } from './frames.ts';

/**
 * What the frames say about each boundary between two neighbouring pixels, over time. Maps are
 * width x height, row after row; a "vertical" value at (x, y) is about the boundary between
 * pixels x-1 and x of row y, a "horizontal" one about rows y-1 and y of column x.
 */
export interface Evidence {
  width: number;
  height: number;
  /** Standard deviation over time of each pixel (grey levels). */
  spread: Float32Array;
  /** Boundary strength across vertical boundaries (x-1 | x), 0..1. */
  vertical: Float32Array;
  /** Boundary strength across horizontal boundaries (y-1 / y), 0..1. */
  horizontal: Float32Array;
  /** Fraction of frames with a step across each vertical / horizontal boundary: the picture's lasting edges. */
  verticalSteps: Float32Array;
  horizontalSteps: Float32Array;
}

/** Change over time below this (grey levels, standard deviation, after smoothing) is grain, not content. */
const STILL_SPREAD = 2;
/** From still to fully moving over this many grey levels above STILL_SPREAD. */
const MOVING_RANGE = 4;
/** A step between neighbours larger than this (grey levels) is an edge in that frame. */
const EDGE_STEP = 8;
/** Pixels averaged along a boundary (each side of the centre) before comparing across it: takes grain out. */
const ALONG = 2;
/** A boundary is compared with the parallel ones this many pixels away on each side. */
const RIDGE_NEAR = 2;
const RIDGE_FAR = 4;

type Axis = 'vertical' | 'horizontal';

/**
 * Two kinds of boundary evidence, the stronger one counting:
 * - independence: neighbours whose changes over time are uncorrelated belong to different
 *   pictures (gameplay and camera change independently; a still border beside a moving picture
 *   counts too): 1 - correlation of the two deviations, scaled by how much of the pair moves.
 * - a lasting edge: a step between the neighbours in nearly every frame while the pair stays put
 *   (a drawn border, or a still camera edge against still gameplay).
 * Both are measured on frames averaged a few pixels along the boundary, so grain (independent
 * from pixel to pixel) averages out while the boundary stays sharp; then they are sharpened into
 * ridges: a boundary must stand out from the parallel ones beside it.
 */
export function boundaryEvidence(set: FrameSet): Evidence {
  const mean = meanFrame(set);
  const vertical = axisEvidence(set, mean, 'vertical');
  const horizontal = axisEvidence(set, mean, 'horizontal');
  return {
    width: set.width,
    height: set.height,
    spread: pixelSpread(set, mean),
    vertical: vertical.evidence,
    horizontal: horizontal.evidence,
    verticalSteps: vertical.steps,
    horizontalSteps: horizontal.steps,
  };
}

function meanFrame(set: FrameSet): Float32Array {
  const mean = new Float32Array(set.width * set.height);
  for (const frame of set.frames) for (let index = 0; index < mean.length; index += 1) mean[index]! += frame[index]!;
  for (let index = 0; index < mean.length; index += 1) mean[index]! /= set.frames.length;
  return mean;
}

function pixelSpread(set: FrameSet, mean: Float32Array): Float32Array {
  const spread = new Float32Array(mean.length);
  for (const frame of set.frames) {
    for (let index = 0; index < mean.length; index += 1) {
      const deviation = frame[index]! - mean[index]!;
      spread[index]! += deviation * deviation;
    }
  }
  for (let index = 0; index < spread.length; index += 1) spread[index] = Math.sqrt(spread[index]! / set.frames.length);
  return spread;
}

/** `frame` averaged over 2*ALONG+1 pixels along the boundaries of `axis` (down columns for vertical boundaries). */
function smoothAlong(frame: ArrayLike<number>, width: number, height: number, axis: Axis, out: Float32Array): void {
  const [lines, length, lineStep, pixelStep] = axis === 'vertical' ? [width, height, 1, width] : [height, width, width, 1];
  for (let line = 0; line < lines; line += 1) {
    const base = line * lineStep;
    let sum = 0;
    let count = 0;
    for (let position = 0; position < Math.min(ALONG, length); position += 1) {
      sum += frame[base + position * pixelStep]!;
      count += 1;
    }
    for (let position = 0; position < length; position += 1) {
      const enter = position + ALONG;
      const leave = position - ALONG - 1;
      if (enter < length) {
        sum += frame[base + enter * pixelStep]!;
        count += 1;
      }
      if (leave >= 0) {
        sum -= frame[base + leave * pixelStep]!;
        count -= 1;
      }
      out[base + position * pixelStep] = sum / count;
    }
  }
}

/** Evidence for every boundary of one axis: value at index i is about the pair (i - across, i). */
function axisEvidence(set: FrameSet, mean: Float32Array, axis: Axis): { evidence: Float32Array; steps: Float32Array } {
  const { width, height } = set;
  const size = width * height;
  const across = axis === 'vertical' ? 1 : width;
  const smoothMean = new Float32Array(size);
  smoothAlong(mean, width, height, axis, smoothMean);
  const smooth = new Float32Array(size);
  const energy = new Float32Array(size);
  const cross = new Float32Array(size);
  const steps = new Float32Array(size);
  for (const frame of set.frames) {
    smoothAlong(frame, width, height, axis, smooth);
    for (let index = 0; index < size; index += 1) {
      const here = smooth[index]! - smoothMean[index]!;
      energy[index]! += here * here;
      if (!hasPrevious(index, axis, width)) continue;
      const previous = index - across;
      cross[index]! += here * (smooth[previous]! - smoothMean[previous]!);
      if (Math.abs(smooth[index]! - smooth[previous]!) > EDGE_STEP) steps[index]! += 1;
    }
  }
  const evidence = new Float32Array(size);
  const frames = set.frames.length;
  for (let index = 0; index < size; index += 1) {
    steps[index]! /= frames;
    if (!hasPrevious(index, axis, width)) continue;
    evidence[index] = pairEvidence(energy[index - across]!, energy[index]!, cross[index]!, steps[index]!, frames);
  }
  return { evidence: ridges(evidence, width, height, axis), steps };
}

function hasPrevious(index: number, axis: Axis, width: number): boolean {
  return axis === 'vertical' ? index % width > 0 : index >= width;
}

function pairEvidence(energyA: number, energyB: number, cross: number, stepFraction: number, frames: number): number {
  const moving = Math.sqrt(Math.max(energyA, energyB) / frames);
  const stillness = Math.min(1, Math.max(0, (moving - STILL_SPREAD) / MOVING_RANGE));
  const total = energyA + energyB;
  const independence = total > 0 ? Math.min(1, Math.max(0, 1 - (2 * cross) / total)) * stillness : 0;
  const lasting = stepFraction >= 0.9 ? (1 - stillness) * stepFraction : 0;
  return Math.max(independence, lasting);
}

/**
 * How much each boundary stands out from the parallel ones beside it: its value minus the
 * strongest neighbour two to four steps away on the quieter side. A step from a quiet area into a
 * busy one still counts; a line in a regular grid (tiles, cells: neighbours on both sides) does not.
 */
function ridges(map: Float32Array, width: number, height: number, axis: Axis): Float32Array {
  const out = new Float32Array(map.length);
  const across = axis === 'vertical' ? 1 : width;
  const limit = axis === 'vertical' ? width : height;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const index = y * width + x;
      const position = axis === 'vertical' ? x : y;
      let before = 0;
      let after = 0;
      for (let step = RIDGE_NEAR; step <= RIDGE_FAR; step += 1) {
        if (position - step >= 0) before = Math.max(before, map[index - step * across]!);
        if (position + step < limit) after = Math.max(after, map[index + step * across]!);
      }
      out[index] = Math.max(0, map[index]! - Math.min(before, after));
    }
  }
  return out;
}
