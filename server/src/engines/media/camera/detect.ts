import { FULL_FRAME, MIN_REGION_SIDE, type Rect } from '@clipshift/shared';
import { MediaAbortError } from '../errors.ts';
import type { ProbeResult } from '../probe.ts';
import { boundaryEvidence } from './evidence.ts';
import { sampleFrames, type FrameSet } from './frames.ts';
import { judge, verdict } from './judge.ts';
import { findRectangles, type PixelRect, type SearchLimits } from './rectangles.ts';

/** What detectCamera found: where the streamer's camera overlay is, if anywhere. */
export interface CameraDetection {
  /** The camera overlay (border included), as fractions of the frame; null when there is none. */
  facecam: Rect | null;
  /** Where the game is: the whole frame (the camera is drawn over it). */
  gameplay: Rect;
  /** 0..1: how clearly the frames show a camera overlay. facecam is set exactly when this is at least CAMERA_CONFIDENCE. */
  confidence: number;
}

export interface DetectCameraRequest {
  ffmpeg: string;
  source: string;
  sourceInfo: Pick<ProbeResult, 'width' | 'height' | 'durationSec' | 'sampleAspectRatio'>;
  signal?: AbortSignal | undefined;
  /** Frames sampled across the clip (default 16, 4 to 32). */
  samples?: number | undefined;
  timeoutMs?: number | undefined;
}

/** Confidence from which a camera is reported. */
export const CAMERA_CONFIDENCE = 0.5;
export const DEFAULT_CAMERA_SAMPLES = 16;
/** Analysis width: a camera a twelfth of the frame wide is still 40 pixels. */
const ANALYSIS_WIDTH = 480;
/** Pictures smaller than this (either side) are not analysed. */
const MIN_ANALYSIS_SIDE = 64;
/** Takes longer than this only if something is wrong: the work is a few dozen decoded frames. */
const DETECT_TIMEOUT_MS = 120_000;

/**
 * What a camera overlay can look like: from about a sixteenth to under half the frame wide, from
 * tall portrait to wide (1:2 to 2.6:1), near a frame edge or corner (streams put it there), its
 * inside sides supported at least half their length.
 */
const LIMITS: Omit<SearchLimits, 'pixelAspect'> = {
  minSide: 0.06,
  maxWidth: 0.45,
  maxHeight: 0.6,
  minAspect: 0.5,
  maxAspect: 2.6,
  edgeReach: 0.12,
  minSupport: 0.5,
};

const NO_CAMERA: CameraDetection = { facecam: null, gameplay: FULL_FRAME, confidence: 0 };

/**
 * Finds the streamer's camera overlay in a clip: a rectangle whose edges stay put while what is
 * inside and around it changes independently (see docs/decisions/0038-camera-detection.md). One
 * ffmpeg run decodes ~16 frames spread over the clip at 480 pixels wide; the rest is arithmetic.
 */
export async function detectCamera(request: DetectCameraRequest): Promise<CameraDetection> {
  const size = analysisSize(request.sourceInfo);
  if (!size) return NO_CAMERA;
  const samples = Math.round(Math.min(32, Math.max(4, request.samples ?? DEFAULT_CAMERA_SAMPLES)));
  const set = await sampleFrames({
    ffmpeg: request.ffmpeg,
    source: request.source,
    durationSec: request.sourceInfo.durationSec,
    width: size.width,
    height: size.height,
    samples,
    signal: request.signal,
    timeoutMs: request.timeoutMs ?? DETECT_TIMEOUT_MS,
  });
  if (request.signal?.aborted) throw new MediaAbortError('Camera detection was cancelled', { cause: request.signal.reason });
  return detectCameraInFrames(set, pixelAspect(request.sourceInfo, size));
}

/** The analysis itself, on frames already decoded (grey, analysis size); exported for tests and the benchmark. */
export function detectCameraInFrames(set: FrameSet, sourcePixelAspect = 1): CameraDetection {
  if (set.frames.length < 2) return NO_CAMERA;
  const evidence = boundaryEvidence(set);
  const candidates = findRectangles(evidence, { ...LIMITS, pixelAspect: sourcePixelAspect });
  const { best, confidence } = verdict(judge(set, evidence, candidates));
  const rounded = Math.round(confidence * 1000) / 1000;
  if (!best || confidence < CAMERA_CONFIDENCE) return { ...NO_CAMERA, confidence: rounded };
  return { facecam: toFraction(best, set.width, set.height), gameplay: FULL_FRAME, confidence: rounded };
}

interface Size {
  width: number;
  height: number;
}

/** The frame as displayed (square pixels), scaled to ANALYSIS_WIDTH at most, even sides. */
function analysisSize(info: DetectCameraRequest['sourceInfo']): Size | null {
  const displayWidth = info.width * (info.sampleAspectRatio || 1);
  if (!(displayWidth > 0 && info.height > 0)) return null;
  const width = even(Math.min(ANALYSIS_WIDTH, displayWidth));
  const height = even((width * info.height) / displayWidth);
  return width >= MIN_ANALYSIS_SIDE && height >= MIN_ANALYSIS_SIDE ? { width, height } : null;
}

/** Analysis pixels per displayed pixel, across over down (1 unless rounding to even sides stretched it). */
function pixelAspect(info: DetectCameraRequest['sourceInfo'], size: Size): number {
  const displayWidth = info.width * (info.sampleAspectRatio || 1);
  return size.width / displayWidth / (size.height / info.height);
}

function even(value: number): number {
  return 2 * Math.floor(value / 2);
}

/** Pixel rectangle → fractions of the frame, kept inside the rules of rectSchema. */
function toFraction(rect: PixelRect, width: number, height: number): Rect {
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  const w = round(Math.max(MIN_REGION_SIDE, (rect.x1 - rect.x0) / width));
  const h = round(Math.max(MIN_REGION_SIDE, (rect.y1 - rect.y0) / height));
  return { x: round(Math.min(rect.x0 / width, 1 - w)), y: round(Math.min(rect.y0 / height, 1 - h)), w, h };
}
