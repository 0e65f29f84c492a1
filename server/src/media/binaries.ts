import { createRequire } from 'node:module';

export interface MediaBinaries {
  ffmpeg: string;
  ffprobe: string;
}

const require = createRequire(import.meta.url);

/** ffmpeg/ffprobe from npm (@ffmpeg-installer, @ffprobe-installer) unless FFMPEG_PATH/FFPROBE_PATH say otherwise. */
export function resolveMediaBinaries(env: { FFMPEG_PATH?: string; FFPROBE_PATH?: string }): MediaBinaries {
  return {
    ffmpeg: env.FFMPEG_PATH ?? (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
    ffprobe: env.FFPROBE_PATH ?? (require('@ffprobe-installer/ffprobe') as { path: string }).path,
  };
}
