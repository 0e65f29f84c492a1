import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Rect } from '@clipshift/shared';
import { cameraGraph as livePicture, placement, type CameraSpec } from '../../helpers/camera-sources.ts';

const run = promisify(execFile);

export interface ClipMediaSpec {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  /**
   * A streamer's camera over the gameplay: a live picture (a person moving in a room, under sensor
   * noise) in a fixed rectangle, as detection expects one. `true` puts it in the bottom-left corner
   * with a white border (DEFAULT_CAMERA); a FakeCamera places and sizes it.
   */
  camera?: boolean | FakeCamera | undefined;
}

/** Where a fake clip's camera sits and how it looks: camera-sources.ts's CameraSpec, with defaults for all but the anchor. */
export type FakeCamera = Pick<CameraSpec, 'anchor'> & Partial<CameraSpec>;

/** A quarter of the width with its white border, a small margin from the bottom-left corner. */
export const DEFAULT_CAMERA: CameraSpec = { anchor: 'bottom-left', width: 0.24, aspect: 16 / 9, margin: 1 / 40, border: 4, borderColors: ['#ffffff'], look: 0 };

/** The camera a spec asks for, every field settled; null for none. */
function cameraOf(spec: Pick<ClipMediaSpec, 'camera'>): CameraSpec | null {
  if (!spec.camera) return null;
  if (spec.camera === true) return DEFAULT_CAMERA;
  return { width: 0.24, aspect: 16 / 9, margin: 0, border: 0, look: 0, ...spec.camera };
}

/** Where the camera is (border included), as the fractions a facecam region uses (rest-api.md "Studio"); null without one. */
export function cameraRegion(spec: Pick<ClipMediaSpec, 'width' | 'height' | 'camera'>): Rect | null {
  const camera = cameraOf(spec);
  if (!camera) return null;
  const box = placement(camera, spec.width, spec.height);
  return { x: box.x / spec.width, y: box.y / spec.height, w: box.w / spec.width, h: box.h / spec.height };
}

/** The camera overlaid on the gameplay input [0:v]: the result is [v]. */
function cameraOverlay(spec: ClipMediaSpec, camera: CameraSpec): string {
  const box = placement(camera, spec.width, spec.height);
  return [
    `${livePicture(camera, box.pictureW, box.pictureH, spec.fps)}[cam]`,
    `[0:v][cam]overlay=x=${box.x}:y=${box.y}:shortest=1,format=yuv420p[v]`,
  ].join(';');
}

/** Names a camera in a media file's name, so that each placement and look gets a file of its own. */
function cameraTag(camera: CameraSpec | null): string {
  if (!camera) return '';
  return `-camera-${createHash('sha256').update(JSON.stringify(camera, Object.keys(camera).sort())).digest('hex').slice(0, 12)}`;
}

/**
 * What the fake serves unless told otherwise. 15 frames a second: every download in the suite renders
 * its clips to 1080x1920 for real, and the encode costs by the frame; the pipeline does not care.
 */
export const DEFAULT_MEDIA: ClipMediaSpec = { width: 640, height: 360, fps: 15, seconds: 3 };

/** Shared by every fake in this process (and by name across processes): generated once, reused by every clip. */
const MEDIA_DIR = path.join(os.tmpdir(), 'clipshift-fake-twitch-media');
const generated = new Map<string, Promise<string>>();

export async function ffmpegPath(): Promise<string> {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  const installer = await import('@ffmpeg-installer/ffmpeg');
  return installer.default.path;
}

/** A small real clip like the ones Twitch serves: testsrc2 (with the spec's camera over it) + a sine tone, H.264 + AAC, +faststart. */
export function clipMedia(spec: ClipMediaSpec = DEFAULT_MEDIA): Promise<string> {
  const { width, height, fps, seconds } = spec;
  const camera = cameraOf(spec);
  const picture = camera ? ['-filter_complex', cameraOverlay(spec, camera), '-map', '[v]', '-map', '1:a'] : [];
  return once(`clip-${width}x${height}-${fps}fps-${seconds}s${cameraTag(camera)}.mp4`, (output) => [
    '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
    ...picture,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', String(fps),
    '-c:a', 'aac', '-b:a', '64k', '-shortest', '-movflags', '+faststart', '-f', 'mp4', output,
  ]);
}

/** A 480x272 JPEG, served for thumbnail_url so the demo shows pictures without a network. */
export function thumbnailMedia(): Promise<string> {
  return once('preview-480x272.jpg', (output) => [
    '-f', 'lavfi', '-i', 'testsrc2=size=480x272:rate=1:duration=1', '-frames:v', '1', '-f', 'image2', output,
  ]);
}

function once(name: string, argsFor: (output: string) => string[]): Promise<string> {
  let file = generated.get(name);
  if (!file) {
    file = produce(name, argsFor);
    generated.set(name, file);
    file.catch(() => generated.delete(name));
  }
  return file;
}

/**
 * Reuses a file another worker already made; otherwise runs ffmpeg into a unique temporary name and
 * renames it, so a parallel worker never reads half a file.
 */
async function produce(name: string, argsFor: (output: string) => string[]): Promise<string> {
  const target = path.join(MEDIA_DIR, name);
  const existing = await stat(target).catch(() => null);
  if (existing && existing.size > 0) return target;
  await mkdir(MEDIA_DIR, { recursive: true });
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  try {
    await run(await ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...argsFor(temporary)]);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return target;
}
