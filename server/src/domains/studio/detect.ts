import { FULL_FRAME, type ClipDetection, type Detection, type Rect, type StreamerDetection } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { conflict } from '../../platform/errors.ts';
import { findClipWithMedia, newestClipsWithMedia, type ClipRow } from '../clips/service.ts';
import { findStreamer } from '../streamers/service.ts';
import { detectionOf } from './pipeline.ts';
import { imageSlots, sourceOf, type ImageRun } from './preview.ts';

/** A streamer's camera is looked for in this many of its newest clips. */
export const STREAMER_DETECTION_CLIPS = 5;

async function detectIn(deps: AppDeps, clip: ClipRow, run: ImageRun): Promise<Detection> {
  // One ffmpeg process, like a preview: it shares the preview slots, so a burst of calls waits its turn.
  return imageSlots.run(async () => {
    const { source, info } = await sourceOf(deps, clip, run);
    return detectionOf(deps, { path: source, info }, run.signal);
  });
}

/** What detection finds in one clip's source; nothing is saved. */
export async function detectClip(deps: AppDeps, userId: string, clipId: string, run: ImageRun): Promise<ClipDetection> {
  const clip = await findClipWithMedia(deps.db, userId, clipId);
  const found = await detectIn(deps, clip, run);
  return { ...found, gameplay: FULL_FRAME, layout: found.facecam ? 'split' : 'blur' };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The streamer's camera over several clips: found in most of them → the median rectangle (a camera
 * seldom moves between streams, and the median ignores one odd clip), with confidence scaled by the
 * share of clips that agree; else none.
 */
export function combinedDetection(found: readonly Detection[]): Detection {
  const cameras = found.filter((detection): detection is Detection & { facecam: Rect } => detection.facecam !== null);
  if (cameras.length === 0 || cameras.length * 2 < found.length) {
    const sure = found.length ? found.reduce((sum, detection) => sum + detection.confidence, 0) / found.length : 0;
    return { facecam: null, confidence: round(sure) };
  }
  const x = median(cameras.map((camera) => camera.facecam.x));
  const y = median(cameras.map((camera) => camera.facecam.y));
  const w = Math.min(median(cameras.map((camera) => camera.facecam.w)), 1 - x);
  const h = Math.min(median(cameras.map((camera) => camera.facecam.h)), 1 - y);
  const confidence = (cameras.reduce((sum, camera) => sum + camera.confidence, 0) / cameras.length) * (cameras.length / found.length);
  return { facecam: { x: round(x), y: round(y), w: round(w), h: round(h) }, confidence: round(confidence) };
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** What detection finds over the streamer's newest clips; nothing is saved. 409 when it has none to look at. */
export async function detectStreamer(deps: AppDeps, userId: string, name: string, run: ImageRun): Promise<StreamerDetection> {
  const streamer = await findStreamer(deps.db, userId, name);
  const clips = await newestClipsWithMedia(deps.db, userId, streamer.id, STREAMER_DETECTION_CLIPS);
  if (clips.length === 0) throw conflict(`No clips of ${streamer.name} to look at yet`);
  const found: Detection[] = [];
  for (const clip of clips) found.push(await detectIn(deps, clip, run));
  return { ...combinedDetection(found), clips_checked: clips.length };
}
