import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { mediaRoot } from './files.ts';

export interface StorageUsage {
  /** Every file of the user's clips: sources, videos and thumbnails. */
  bytes: number;
  clips: number;
}

/**
 * What the user's clips take on disk, measured rather than summed from the rows: the rows record
 * the rendered video's size only, not the kept source or the thumbnail. A clip folder is
 * DATA_DIR/media/<user id>/<clip row id>/ (files.ts); nothing in it is a link.
 */
export async function storageUsage(dataDir: string, userId: string): Promise<StorageUsage> {
  const userDir = path.join(mediaRoot(dataDir), userId);
  const clipDirs = await readdir(userDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  let bytes = 0;
  let clips = 0;
  for (const entry of clipDirs) {
    if (!entry.isDirectory()) continue;
    clips += 1;
    bytes += await folderBytes(path.join(userDir, entry.name));
  }
  return { bytes, clips };
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  // A clip deleted while it is measured is simply no longer counted.
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else if (entry.isFile()) total += await lstat(full).then((info) => info.size, () => 0);
  }
  return total;
}
