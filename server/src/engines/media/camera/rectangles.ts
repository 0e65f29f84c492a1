import type { Evidence } from './evidence.ts';

/** A rectangle in analysis pixels: columns x0..x1-1, rows y0..y1-1 (x1, y1 exclusive). */
export interface PixelRect {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface Candidate extends PixelRect {
  /** Mean support of the sides inside the frame (0..1). */
  score: number;
  /** Weakest inside side's support. */
  weakest: number;
  /** Sides inside the frame (2 in a corner, 3 along an edge, 4 floating). */
  innerSides: number;
  /**
   * Strongest line (boundary evidence, or an edge in most frames) that runs through the rectangle
   * and on outside it (its lower support of the two): an overlay hides the gameplay behind it, so
   * gameplay's lines stop at its edge.
   */
  through: number;
  /** Weakest support of a side's end (its first or last fifth): low when a side runs on past a shorter box. */
  ends: number;
}

/** Evidence at or above this marks a boundary pixel. */
const BOUNDARY = 0.3;
/** Gaps this long (pixels) may interrupt a line segment. */
const GAP = 3;
/** At most this many line positions per axis go into the rectangle search. */
const MAX_LINES = 120;
/** Corners may be rounded or blurred: this many pixels at each end of a side are not judged. */
const CORNER = 2;
/** A line must run on at least this far outside a rectangle to count as running through it. */
const MIN_OUTSIDE = 8;
/** Parallel lines this many pixels away are compared with a side. */
const PARALLEL_NEAR = 4;
const PARALLEL_FAR = 8;
/** Crowding of the bands beside a side (mean support) that costs nothing. */
const CLUTTER_ALLOWANCE = 0.45;
/** Below this own support a side is too weak to bother comparing. */
const MIN_OWN_SUPPORT = 0.5;

export interface SearchLimits {
  /** Smallest and largest width and height, as fractions of the frame. */
  minSide: number;
  maxWidth: number;
  maxHeight: number;
  /** Width / height in source pixels. */
  minAspect: number;
  maxAspect: number;
  /** Pixel aspect of the analysis frame relative to the source (analysis px per source px, x over y). */
  pixelAspect: number;
  /** The rectangle must come this close (fraction) to a frame edge. */
  edgeReach: number;
  /** A side counts only with at least this support. */
  minSupport: number;
}

/** Pixels of one axis whose value reaches `threshold`, widened by one pixel across (scaling can blur a boundary over two). */
function boundaryMask(evidence: Float32Array, width: number, height: number, across: number, threshold = BOUNDARY): Uint8Array {
  const mask = new Uint8Array(evidence.length);
  for (let index = 0; index < evidence.length; index += 1) {
    const x = index % width;
    const y = (index - x) / width;
    const canBefore = across === 1 ? x > 0 : y > 0;
    const canAfter = across === 1 ? x + 1 < width : y + 1 < height;
    const best = Math.max(evidence[index]!, canBefore ? evidence[index - across]! : 0, canAfter ? evidence[index + across]! : 0);
    mask[index] = best >= threshold ? 1 : 0;
  }
  return mask;
}

/** Running counts of boundary pixels along each line, so a side's support is two look-ups. */
interface LineCounts {
  lines: number;
  /** Number of positions along a line. */
  length: number;
  counts: Int32Array;
}

function lineCounts(mask: Uint8Array, width: number, height: number, axis: 'vertical' | 'horizontal'): LineCounts {
  const [lines, length] = axis === 'vertical' ? [width, height] : [height, width];
  const counts = new Int32Array(lines * (length + 1));
  for (let line = 0; line < lines; line += 1) {
    for (let position = 0; position < length; position += 1) {
      const index = axis === 'vertical' ? position * width + line : line * width + position;
      counts[line * (length + 1) + position + 1] = counts[line * (length + 1) + position]! + mask[index]!;
    }
  }
  return { lines, length, counts };
}

function support(lines: LineCounts, line: number, from: number, to: number): number {
  return coverage(lines, line, Math.min(to, from + CORNER), to - CORNER);
}

/** Fraction of boundary pixels on `line` from `start` to `end` (exclusive). */
function coverage(lines: LineCounts, line: number, start: number, end: number): number {
  if (line < 0 || line >= lines.lines || end <= start) return 0;
  const base = line * (lines.length + 1);
  return (lines.counts[base + end]! - lines.counts[base + start]!) / (end - start);
}

/** The weaker of a side's two ends (first and last fifth, corners left out). */
function endSupport(lines: LineCounts, line: number, from: number, to: number): number {
  const start = from + CORNER;
  const end = to - CORNER;
  const fifth = Math.max(2, Math.round((end - start) / 5));
  return Math.min(coverage(lines, line, start, start + fifth), coverage(lines, line, end - fifth, end));
}

/**
 * A side's support, less how crowded with lines its surroundings are: in a grid of tiles or cells
 * every line is supported, and so are its parallel neighbours on both sides. Bands PARALLEL_NEAR..
 * PARALLEL_FAR pixels away on each side are measured (nearer ones belong to the side itself: a
 * border is a few lines, blurred by scaling); the less crowded band counts, since gameplay on one
 * side may be busy, and only crowding over CLUTTER_ALLOWANCE costs anything, since a camera's
 * picture has edges of its own.
 */
function sideStrength(lines: LineCounts, line: number, from: number, to: number): number {
  const own = support(lines, line, from, to);
  if (own < MIN_OWN_SUPPORT) return own;
  let before = 0;
  let after = 0;
  for (let offset = PARALLEL_NEAR; offset <= PARALLEL_FAR; offset += 1) {
    before += support(lines, line - offset, from, to);
    after += support(lines, line + offset, from, to);
  }
  const band = PARALLEL_FAR - PARALLEL_NEAR + 1;
  return Math.max(0, own - Math.max(0, Math.min(before, after) / band - CLUTTER_ALLOWANCE));
}

/**
 * Positions along one axis where some boundary line segment at least `minLength` long runs
 * (gaps of up to GAP allowed), strongest first, neighbours within two pixels merged.
 */
function linePositions(evidence: Float32Array, mask: Uint8Array, width: number, height: number, axis: 'vertical' | 'horizontal', minLength: number): number[] {
  const [lines, length] = axis === 'vertical' ? [width, height] : [height, width];
  const found: { position: number; strength: number }[] = [];
  for (let line = 1; line < lines; line += 1) {
    let best = 0;
    let runStart = -1;
    let lastHit = -GAP - 2;
    let strength = 0;
    let runStrength = 0;
    for (let position = 0; position < length; position += 1) {
      const index = axis === 'vertical' ? position * width + line : line * width + position;
      if (!mask[index]) continue;
      if (position - lastHit > GAP + 1) {
        runStart = position;
        runStrength = 0;
      }
      lastHit = position;
      runStrength += evidence[index]!;
      const runLength = position - runStart + 1;
      if (runLength >= minLength && runLength > best) {
        best = runLength;
        strength = runStrength;
      }
    }
    if (best >= minLength) found.push({ position: line, strength });
  }
  found.sort((a, b) => b.strength - a.strength);
  const kept: number[] = [];
  for (const line of found) {
    if (kept.length >= MAX_LINES) break;
    if (kept.some((position) => Math.abs(position - line.position) <= 2)) continue;
    kept.push(line.position);
  }
  return kept;
}

interface Side {
  axis: 'vertical' | 'horizontal';
  line: number;
  from: number;
  to: number;
}

/** The sides of a rectangle that lie inside the frame (those on the frame's edge need no line). */
function innerSides(rect: PixelRect, width: number, height: number): Side[] {
  const sides: Side[] = [];
  if (rect.x0 > 0) sides.push({ axis: 'vertical', line: rect.x0, from: rect.y0, to: rect.y1 });
  if (rect.x1 < width) sides.push({ axis: 'vertical', line: rect.x1, from: rect.y0, to: rect.y1 });
  if (rect.y0 > 0) sides.push({ axis: 'horizontal', line: rect.y0, from: rect.x0, to: rect.x1 });
  if (rect.y1 < height) sides.push({ axis: 'horizontal', line: rect.y1, from: rect.x0, to: rect.x1 });
  return sides;
}

/**
 * Every rectangle whose sides lie on boundary lines (or on the frame's edges) and fits the
 * limits, with how well its inside sides are supported; best first.
 */
export function findRectangles(evidence: Evidence, limits: SearchLimits): Candidate[] {
  const { width, height } = evidence;
  const verticalMask = boundaryMask(evidence.vertical, width, height, 1);
  const horizontalMask = boundaryMask(evidence.horizontal, width, height, width);
  const minWidth = Math.ceil(limits.minSide * width);
  const minHeight = Math.ceil(limits.minSide * height);
  const columns = [0, width, ...linePositions(evidence.vertical, verticalMask, width, height, 'vertical', minHeight)].sort((a, b) => a - b);
  const rows = [0, height, ...linePositions(evidence.horizontal, horizontalMask, width, height, 'horizontal', minWidth)].sort((a, b) => a - b);
  const verticalLines = lineCounts(verticalMask, width, height, 'vertical');
  const horizontalLines = lineCounts(horizontalMask, width, height, 'horizontal');
  const reachX = limits.edgeReach * width;
  const reachY = limits.edgeReach * height;
  const candidates: Candidate[] = [];
  for (const x0 of columns) {
    for (const x1 of columns) {
      const w = x1 - x0;
      if (w < minWidth || w > limits.maxWidth * width) continue;
      for (const y0 of rows) {
        for (const y1 of rows) {
          const h = y1 - y0;
          if (h < minHeight || h > limits.maxHeight * height) continue;
          const aspect = w / h / limits.pixelAspect;
          if (aspect < limits.minAspect || aspect > limits.maxAspect) continue;
          if (x0 > reachX && width - x1 > reachX && y0 > reachY && height - y1 > reachY) continue;
          const inner = innerSides({ x0, x1, y0, y1 }, width, height);
          if (inner.length < 2) continue;
          const sides = inner.map((side) => sideStrength(side.axis === 'vertical' ? verticalLines : horizontalLines, side.line, side.from, side.to));
          const weakest = Math.min(...sides);
          if (weakest < limits.minSupport) continue;
          const score = sides.reduce((sum, value) => sum + value, 0) / sides.length;
          const ends = Math.min(...inner.map((side) => endSupport(side.axis === 'vertical' ? verticalLines : horizontalLines, side.line, side.from, side.to)));
          candidates.push({ x0, x1, y0, y1, score, weakest, innerSides: sides.length, ends, through: 0 });
        }
      }
    }
  }
  candidates.sort((a, b) => b.score - a.score);
  const verticalEdges = lineCounts(boundaryMask(evidence.verticalSteps, width, height, 1, LASTING_EDGE), width, height, 'vertical');
  const horizontalEdges = lineCounts(boundaryMask(evidence.horizontalSteps, width, height, width, LASTING_EDGE), width, height, 'horizontal');
  for (const candidate of candidates.slice(0, THROUGH_CHECKS)) {
    candidate.through = Math.max(throughLines(candidate, verticalLines, horizontalLines), throughLines(candidate, verticalEdges, horizontalEdges));
  }
  return candidates;
}

/**
 * An edge of the picture present in at least this fraction of frames: gameplay's own lines (colour
 * bars, a horizon) that a shape crossing them now and then keeps out of the boundary evidence.
 */
const LASTING_EDGE = 0.5;

/** Only the best this many candidates get their (costlier) through-lines measured; the rest are not judged. */
export const THROUGH_CHECKS = 300;

/** The line through the rectangle that also runs on outside it best (see Candidate.through). */
function throughLines(rect: PixelRect, verticalLines: LineCounts, horizontalLines: LineCounts): number {
  let strongest = 0;
  const check = (lines: LineCounts, line: number, from: number, to: number) => {
    const inside = coverage(lines, line, from, to);
    if (inside <= strongest) return;
    const span = to - from;
    const before = from >= MIN_OUTSIDE ? coverage(lines, line, Math.max(0, from - span), from) : 0;
    const after = lines.length - to >= MIN_OUTSIDE ? coverage(lines, line, to, Math.min(lines.length, to + span)) : 0;
    strongest = Math.max(strongest, Math.min(inside, Math.max(before, after)));
  };
  for (let x = rect.x0 + PARALLEL_NEAR; x <= rect.x1 - PARALLEL_NEAR; x += 1) check(verticalLines, x, rect.y0, rect.y1);
  for (let y = rect.y0 + PARALLEL_NEAR; y <= rect.y1 - PARALLEL_NEAR; y += 1) check(horizontalLines, y, rect.x0, rect.x1);
  return strongest;
}
