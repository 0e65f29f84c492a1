import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { rectSchema } from '@clipshift/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectCamera, isMediaError, probe, resolveMediaBinaries } from '../../server/src/engines/media/index.ts';
import { CAMERA_CONFIDENCE, type CameraDetection } from '../../server/src/engines/media/camera/detect.ts';
import { sampleFrames } from '../../server/src/engines/media/camera/frames.ts';
import { DETECTION_SET, FULL_HD_SOURCE, iou, makeDetectionSet, makeSource, type DetectionCase, type SourceSpec } from '../helpers/camera-sources.ts';

const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);

/** The goals of issue 22: the camera found (IoU ≥ 0.8) in 90% of camera sources, none reported in 90% of the others. */
const MIN_IOU = 0.8;
const MIN_FOUND = 0.9;
const MIN_NONE = 0.9;

/** Making the set is most of this file's time (≈30 short H.264 sources); a loaded two-core machine needs minutes. */
const GENERATION_TIMEOUT_MS = 900_000;

let dir: string;
let cases: DetectionCase[];

async function detect(testCase: DetectionCase, signal?: AbortSignal): Promise<CameraDetection> {
  const sourceInfo = await probe(ffprobe, testCase.file);
  return detectCamera({ ffmpeg, source: testCase.file, sourceInfo, signal });
}

function expectValidResult(result: CameraDetection): void {
  if (result.facecam) expect(rectSchema.safeParse(result.facecam).success).toBe(true);
  expect(rectSchema.safeParse(result.gameplay).success).toBe(true);
  expect(result.confidence).toBeGreaterThanOrEqual(0);
  expect(result.confidence).toBeLessThanOrEqual(1);
  expect(result.facecam !== null).toBe(result.confidence >= CAMERA_CONFIDENCE);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-camera-'));
  cases = await makeDetectionSet(ffmpeg, dir);
}, GENERATION_TIMEOUT_MS);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('camera detection over the detection set', () => {
  it('finds the camera in most camera sources and reports none in most gameplay-only ones', async () => {
    const rows: string[] = [];
    let found = 0;
    let none = 0;
    const withCamera = cases.filter((testCase) => testCase.truth);
    const without = cases.filter((testCase) => !testCase.truth);
    for (const testCase of cases) {
      const result = await detect(testCase);
      expectValidResult(result);
      if (testCase.truth) {
        const overlap = result.facecam ? iou(result.facecam, testCase.truth) : 0;
        if (overlap >= MIN_IOU) found += 1;
        rows.push(`${testCase.spec.name.padEnd(30)} IoU ${overlap.toFixed(2)}  confidence ${result.confidence.toFixed(2)}`);
      } else {
        if (!result.facecam) none += 1;
        rows.push(`${testCase.spec.name.padEnd(30)} ${result.facecam ? 'CAMERA REPORTED' : 'none'}  confidence ${result.confidence.toFixed(2)}`);
      }
    }
    console.log(
      [
        ...rows,
        `camera found (IoU ≥ ${MIN_IOU}): ${found}/${withCamera.length} (${((100 * found) / withCamera.length).toFixed(0)}%)`,
        `no camera reported: ${none}/${without.length} (${((100 * none) / without.length).toFixed(0)}%)`,
      ].join('\n'),
    );
    expect(withCamera.length).toBeGreaterThanOrEqual(20);
    expect(without.length).toBeGreaterThanOrEqual(10);
    expect(found / withCamera.length).toBeGreaterThanOrEqual(MIN_FOUND);
    expect(none / without.length).toBeGreaterThanOrEqual(MIN_NONE);
  });
});

describe('camera detection on particular sources', () => {
  it('finds the camera of a 1920x1080 source', async () => {
    const testCase = await makeSource(ffmpeg, FULL_HD_SOURCE, dir);
    const result = await detect(testCase);
    expectValidResult(result);
    expect(result.facecam).not.toBeNull();
    expect(iou(result.facecam!, testCase.truth!)).toBeGreaterThanOrEqual(MIN_IOU);
    expect(result.gameplay).toEqual({ x: 0, y: 0, w: 1, h: 1 });
  });

  it('decodes the whole clip when its keyframes are too few to sample, and still finds the camera', async () => {
    // One keyframe in 6 s: every seek lands on the first frame.
    const spec: SourceSpec = { ...DETECTION_SET.find((source) => source.name === 'cam-br-life-bordered')!, name: 'cam-br-life-one-keyframe', gop: 1000 };
    const testCase = await makeSource(ffmpeg, spec, dir);
    const info = await probe(ffprobe, testCase.file);
    const frames = await sampleFrames({ ffmpeg, source: testCase.file, durationSec: info.durationSec, width: 320, height: 180, samples: 16 });
    expect(frames.frames.length).toBeGreaterThanOrEqual(12);
    const result = await detect(testCase);
    expect(result.facecam).not.toBeNull();
    expect(iou(result.facecam!, testCase.truth!)).toBeGreaterThanOrEqual(MIN_IOU);
  });

  it('stops ffmpeg and rejects as aborted when the signal fires', async () => {
    const testCase = cases[0]!;
    const sourceInfo = await probe(ffprobe, testCase.file);
    const controller = new AbortController();
    const running = detectCamera({ ffmpeg, source: testCase.file, sourceInfo, signal: controller.signal });
    controller.abort(new Error('user cancelled'));
    const error: unknown = await running.catch((reason: unknown) => reason);
    expect(isMediaError(error, 'aborted')).toBe(true);

    const already = AbortSignal.abort();
    const late: unknown = await detectCamera({ ffmpeg, source: testCase.file, sourceInfo, signal: already }).catch((reason: unknown) => reason);
    expect(isMediaError(late, 'aborted')).toBe(true);
  });

  it('reports no camera for a picture too small to analyse, without running ffmpeg', async () => {
    const result = await detectCamera({ ffmpeg, source: path.join(dir, 'missing.mp4'), sourceInfo: { width: 48, height: 27, durationSec: 5, sampleAspectRatio: 1 } });
    expect(result).toEqual({ facecam: null, gameplay: { x: 0, y: 0, w: 1, h: 1 }, confidence: 0 });
  });

  it('fails as a media error for a file that is not a video', async () => {
    const error: unknown = await detectCamera({ ffmpeg, source: path.join(dir, 'missing.mp4'), sourceInfo: { width: 640, height: 360, durationSec: 5, sampleAspectRatio: 1 } }).catch(
      (reason: unknown) => reason,
    );
    expect(isMediaError(error, 'failed')).toBe(true);
  });
});
