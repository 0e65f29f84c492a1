import path from 'node:path';
import { mediaRoot } from '../../platform/storage/index.ts';

export { mediaRoot };

/**
 * A clip's files are stored under the key <user id>/<clip row id>/{source.mp4, video.mp4, thumb.jpg}
 * (DATA_DIR/media/<key> on local disk, the same key in a bucket). A clip is prepared in a scratch
 * folder, DATA_DIR/media/.work/<instance id>/…, and only its finished files are put into storage.
 */
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

export type ClipFile = keyof typeof CLIP_FILES;

export const CLIP_CONTENT_TYPES: Record<ClipFile, string> = {
  source: 'video/mp4',
  video: 'video/mp4',
  thumbnail: 'image/jpeg',
};

/** files_dir as stored: the key prefix of the clip's files, so DATA_DIR (or the bucket) can move. */
export function clipFilesDir(userId: string, clipRowId: string): string {
  return `${userId}/${clipRowId}`;
}

export function clipKey(filesDir: string, file: ClipFile): string {
  return `${filesDir}/${CLIP_FILES[file]}`;
}

/** Every file a clip may have in storage. */
export function clipKeys(filesDir: string): string[] {
  return (Object.keys(CLIP_FILES) as ClipFile[]).map((file) => clipKey(filesDir, file));
}
