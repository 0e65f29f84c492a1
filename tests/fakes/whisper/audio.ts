import { execFile } from 'node:child_process';
import { mkdir, rename, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Shared by every test file of a run (and across runs): made once, reused. */
const MEDIA_DIR = path.join(os.tmpdir(), 'clipshift-fake-whisper-media');

export async function ffmpegBinary(): Promise<string> {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  const installer = await import('@ffmpeg-installer/ffmpeg');
  return installer.default.path;
}

/** A clip like Twitch's: H.264 video + AAC audio holding a loud 440 Hz tone (stands in for a voice). */
export function toneClip(seconds = 3): Promise<string> {
  return generate(`tone-${seconds}s.mp4`, (output) => [
    '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=30:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '64k', '-shortest', '-f', 'mp4', output,
  ]);
}

/** The same clip with digital silence as its audio. */
export function silentClip(seconds = 3): Promise<string> {
  return generate(`silent-${seconds}s.mp4`, (output) => [
    '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=30:duration=${seconds}`,
    '-f', 'lavfi', '-i', `anullsrc=channel_layout=stereo:sample_rate=44100`,
    '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '64k', '-shortest', '-f', 'mp4', output,
  ]);
}

/** Video only, no audio stream at all. */
export function videoOnlyClip(seconds = 2): Promise<string> {
  return generate(`video-only-${seconds}s.mp4`, (output) => [
    '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=30:duration=${seconds}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mp4', output,
  ]);
}

/** Renders captions onto a black 1080x1920 frame with ffmpeg's libass, as the real render does; RGB24 pixels. */
export async function renderCaptionFrame(assPath: string, fontsDir: string, atSeconds: number): Promise<Buffer> {
  const ffmpeg = await ffmpegBinary();
  const filter = `subtitles=filename=${escapeFilterPath(assPath)}:fontsdir=${escapeFilterPath(fontsDir)}`;
  const { stdout } = await run(
    ffmpeg,
    [
      '-nostdin', '-hide_banner', '-loglevel', 'error',
      '-f', 'lavfi', '-i', 'color=c=black:s=1080x1920:d=10',
      '-vf', filter, '-ss', String(atSeconds), '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

/** Escapes a path for an ffmpeg filter argument (':' and '\' and quotes are special there). */
function escapeFilterPath(file: string): string {
  return file.replace(/\\/g, '\\\\').replace(/:/g, '\\:').replace(/'/g, "\\'");
}

async function generate(name: string, argsFor: (output: string) => string[]): Promise<string> {
  const file = path.join(MEDIA_DIR, name);
  try {
    if ((await stat(file)).size > 0) return file;
  } catch {
    // Not made yet.
  }
  await mkdir(MEDIA_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.tmp.mp4`;
  await run(await ffmpegBinary(), ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...argsFor(partial)]);
  await rename(partial, file);
  return file;
}
