import path from 'node:path';

/**
 * Where clip files live: DATA_DIR/media/<user id>/<clip row id>/{source.mp4, video.mp4, thumb.jpg}.
 * A clip is prepared under DATA_DIR/media/.work/<instance id>/<run id>/<slug>/ and moved into place
 * whole, so the library never points at a half-written file.
 */
export const mediaRoot = (dataDir: string) => path.join(dataDir, 'media');
export const workRoot = (dataDir: string) => path.join(mediaRoot(dataDir), '.work');
/**
 * One process's scratch space, named after its instance id: recovery deletes exactly the folders
 * of dead processes and never one a live job is writing to.
 */
export const instanceWorkDir = (dataDir: string, instance: string) => path.join(workRoot(dataDir), instance);

export const CLIP_FILES = {
  source: 'source.mp4',
  video: 'video.mp4',
  thumbnail: 'thumb.jpg',
} as const;

/** files_dir as stored: relative to the media root, so DATA_DIR can move. */
export function clipFilesDir(userId: string, clipRowId: string): string {
  return `${userId}/${clipRowId}`;
}

export function clipFilePath(dataDir: string, filesDir: string, file: keyof typeof CLIP_FILES): string {
  return path.join(mediaRoot(dataDir), filesDir, CLIP_FILES[file]);
}
