import { createRequire } from 'node:module';
import { MediaError } from './errors.ts';

export interface MediaBinaries {
  ffmpeg: string;
  ffprobe: string;
}

const require = createRequire(import.meta.url);

/**
 * ffmpeg/ffprobe from npm (@ffmpeg-installer, @ffprobe-installer) unless FFMPEG_PATH/FFPROBE_PATH
 * say otherwise. An empty or blank variable counts as unset, as in env.ts (tests pass process.env
 * as is). The installer packages are only loaded without an override: they throw at import time
 * on platforms they ship no binary for, where an override must still work.
 */
export function resolveMediaBinaries(env: { FFMPEG_PATH?: string | undefined; FFPROBE_PATH?: string | undefined }): MediaBinaries {
  return {
    ffmpeg: env.FFMPEG_PATH?.trim() || installedBinary('@ffmpeg-installer/ffmpeg', 'FFMPEG_PATH'),
    ffprobe: env.FFPROBE_PATH?.trim() || installedBinary('@ffprobe-installer/ffprobe', 'FFPROBE_PATH'),
  };
}

function installedBinary(packageName: string, variable: string): string {
  let loaded: unknown;
  try {
    loaded = require(packageName);
  } catch (error) {
    // @ffmpeg-installer throws a bare string, not an Error.
    const reason = error instanceof Error ? error.message : String(error);
    throw new MediaError(`${packageName} has no binary for this machine (${reason}); set ${variable}`, 'unavailable', '', { cause: error });
  }
  if (!hasPath(loaded)) throw new MediaError(`${packageName} did not report a binary path; set ${variable}`, 'unavailable');
  return loaded.path;
}

function hasPath(value: unknown): value is { path: string } {
  return typeof value === 'object' && value !== null && 'path' in value && typeof value.path === 'string';
}
