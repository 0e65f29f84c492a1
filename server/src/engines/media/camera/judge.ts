import type { FrameSet } from './frames.ts';
import type { Evidence } from './evidence.ts';
import { THROUGH_CHECKS, type Candidate, type PixelRect } from './rectangles.ts';

/** A candidate with what decides whether it is a camera. */
export interface Judged extends Candidate {
  /** Fraction of the inside that changes over time (a person moving; a HUD box barely does). */
  activity: number;
  /** Fraction of the inside sides visible as an edge frame by frame: its lower quartile over the frames. */
  presence: number;
  /** 0..1: how much this looks like a camera on its own, before rivals are considered. */
  strength: number;
}

/** A pixel whose standard deviation over time exceeds this (grey levels) shows content changing. */
const MOVING_SPREAD = 6;
/**
 * A webcam's picture is mostly still (a room) around a moving person; an inside where nearly every
 * pixel changes is more likely gameplay (cells, a morphing shape) drawing a rectangle. Only a
 * discount, since a camera can be busy too (a colour-cycling light), and alone it still wins.
 */
const BUSY_PENALTY = 0.5;
/** A step across a side larger than this (grey levels) makes it visible in a frame. */
const VISIBLE_STEP = 8;
/** Candidates judged in full (the rest score too low to matter). */
const JUDGED = THROUGH_CHECKS;

/** Counts of moving pixels above and left of each position, so any rectangle's activity is four look-ups. */
function movingCounts(evidence: Evidence): Int32Array {
  const { width, height, spread } = evidence;
  const counts = new Int32Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y += 1) {
    let row = 0;
    for (let x = 0; x < width; x += 1) {
      row += spread[y * width + x]! > MOVING_SPREAD ? 1 : 0;
      counts[(y + 1) * (width + 1) + x + 1] = counts[y * (width + 1) + x + 1]! + row;
    }
  }
  return counts;
}

function activity(counts: Int32Array, width: number, rect: PixelRect): number {
  const stride = width + 1;
  // A pixel in from each side: the sides themselves blur into their neighbours.
  const [x0, x1, y0, y1] = [rect.x0 + 1, rect.x1 - 1, rect.y0 + 1, rect.y1 - 1];
  const area = (x1 - x0) * (y1 - y0);
  if (area <= 0) return 0;
  const moving = counts[y1 * stride + x1]! - counts[y0 * stride + x1]! - counts[y1 * stride + x0]! + counts[y0 * stride + x0]!;
  return moving / area;
}

/**
 * How much of the inside sides shows as an edge frame by frame, in the worse frames (lower
 * quartile): a camera's edge is there in every frame (its picture differs from the gameplay beside
 * it), while rectangles that only the statistics over time draw (a shape that shows up at the
 * same place in some frames) are missing from the others.
 * Compares two pixels either side, so a boundary blurred over two pixels by scaling still counts.
 */
function presence(set: FrameSet, rect: PixelRect): number {
  const { width, height } = set;
  const perFrame: number[] = [];
  for (const frame of set.frames) {
    let visible = 0;
    let judged = 0;
    const look = (a: number, b: number, c: number, d: number) => {
      judged += 1;
      if (Math.abs(frame[a]! + frame[b]! - frame[c]! - frame[d]!) > 2 * VISIBLE_STEP) visible += 1;
    };
    for (let y = rect.y0 + 2; y < rect.y1 - 2; y += 1) {
      const row = y * width;
      if (rect.x0 >= 2 && rect.x0 + 1 < width) look(row + rect.x0 - 2, row + rect.x0 - 1, row + rect.x0, row + rect.x0 + 1);
      if (rect.x1 >= 2 && rect.x1 + 1 < width) look(row + rect.x1 - 2, row + rect.x1 - 1, row + rect.x1, row + rect.x1 + 1);
    }
    for (let x = rect.x0 + 2; x < rect.x1 - 2; x += 1) {
      if (rect.y0 >= 2 && rect.y0 + 1 < height) look((rect.y0 - 2) * width + x, (rect.y0 - 1) * width + x, rect.y0 * width + x, (rect.y0 + 1) * width + x);
      if (rect.y1 >= 2 && rect.y1 + 1 < height) look((rect.y1 - 2) * width + x, (rect.y1 - 1) * width + x, rect.y1 * width + x, (rect.y1 + 1) * width + x);
    }
    if (judged > 0) perFrame.push(visible / judged);
  }
  perFrame.sort((a, b) => a - b);
  return perFrame[Math.floor(perFrame.length / 4)] ?? 0;
}

function ramp(value: number, from: number, to: number): number {
  return Math.min(1, Math.max(0, (value - from) / (to - from)));
}

/**
 * A candidate's own strength: well-supported sides (mean and weakest), an inside that changes,
 * and sides that show in most frames. Each factor ramps from "not a camera" to "fully camera".
 */
function strengthOf(candidate: Candidate, activityValue: number, presenceValue: number): number {
  return (
    ramp(candidate.score, 0.65, 0.9) *
    ramp(candidate.weakest, 0.45, 0.75) *
    ramp(candidate.ends, 0.1, 0.5) *
    (1 - ramp(candidate.through, 0.6, 0.9)) *
    ramp(activityValue, 0.05, 0.2) *
    (1 - BUSY_PENALTY * ramp(activityValue, 0.7, 0.95)) *
    ramp(presenceValue, 0.2, 0.5)
  );
}

export function judge(set: FrameSet, evidence: Evidence, candidates: readonly Candidate[]): Judged[] {
  const counts = movingCounts(evidence);
  return candidates
    .slice(0, JUDGED)
    .map((candidate) => {
      const activityValue = activity(counts, evidence.width, candidate);
      const presenceValue = presence(set, candidate);
      return { ...candidate, activity: activityValue, presence: presenceValue, strength: strengthOf(candidate, activityValue, presenceValue) };
    })
    .sort((a, b) => b.strength - a.strength || b.score - a.score);
}

function intersects(a: PixelRect, b: PixelRect): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

export interface Verdict {
  best: Judged | null;
  /** The strongest candidate elsewhere (not overlapping the best). */
  rival: Judged | null;
  confidence: number;
}

/**
 * The strongest candidate, discounted by the strongest one elsewhere in the frame: one camera
 * stands out, while a texture that makes rectangles everywhere (a grid of cells) has many alike.
 */
export function verdict(judged: readonly Judged[]): Verdict {
  const best = judged[0] ?? null;
  if (!best || best.strength <= 0) return { best: null, rival: null, confidence: 0 };
  const rival = judged.find((candidate) => !intersects(candidate, best)) ?? null;
  const margin = best.strength - (rival?.strength ?? 0);
  const confidence = best.strength * ramp(margin, 0, 0.2);
  return { best, rival, confidence };
}
