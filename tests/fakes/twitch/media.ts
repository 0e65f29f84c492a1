import { execFile } from 'node:child_process';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ClipMediaSpec {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  /** A streamer's camera in the bottom-left corner (an orange frame with a face-coloured square), so split layouts have something to show. */
  camera?: boolean;
}

/** Where the camera corner sits, as the fractions a facecam region uses (rest-api.md "Studio"). */
export function cameraRegion(spec: Pick<ClipMediaSpec, 'width' | 'height'>): { x: number; y: number; w: number; h: number } {
  const box = cameraBox(spec);
  return { x: box.x / spec.width, y: box.y / spec.height, w: box.width / spec.width, h: box.height / spec.height };
}

/** A quarter of the width, 16:9, a small margin from the bottom-left corner; even pixel sizes. */
function cameraBox(spec: Pick<ClipMediaSpec, 'width' | 'height'>): { x: number; y: number; width: number; height: number } {
  const width = Math.round(spec.width / 8) * 2;
  const height = Math.round((width * 9) / 16 / 2) * 2;
  const margin = Math.round(spec.width / 80) * 2;
  return { x: margin, y: spec.height - height - margin, width, height };
}

/** The camera as a filtergraph over the gameplay input [0:v]: the result is [v]. */
function cameraGraph(spec: ClipMediaSpec): string {
  const box = cameraBox(spec);
  const face = Math.round(box.height / 2 / 2) * 2;
  return [
    `color=c=0xD9822B:size=${box.width}x${box.height}:rate=${spec.fps}:duration=${spec.seconds},`
      + `drawbox=x=${(box.width - face) / 2}:y=${(box.height - face) / 2}:w=${face}:h=${face}:color=0xF5D0A9:t=fill,`
      + `drawbox=x=0:y=0:w=iw:h=ih:color=white:t=4[cam]`,
    `[0:v][cam]overlay=x=${box.x}:y=${box.y}:shortest=1[v]`,
  ].join(';');
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

/** A small real clip like the ones Twitch serves: testsrc2 + a sine tone, H.264 + AAC, +faststart. */
export function clipMedia(spec: ClipMediaSpec = DEFAULT_MEDIA): Promise<string> {
  const { width, height, fps, seconds } = spec;
  const picture = spec.camera ? ['-filter_complex', cameraGraph(spec), '-map', '[v]', '-map', '1:a'] : [];
  return once(`clip-${width}x${height}-${fps}fps-${seconds}s${spec.camera ? '-camera' : ''}.mp4`, (output) => [
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
