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
}

export const DEFAULT_MEDIA: ClipMediaSpec = { width: 640, height: 360, fps: 30, seconds: 3 };

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
  return once(`clip-${width}x${height}-${fps}fps-${seconds}s.mp4`, (output) => [
    '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
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
