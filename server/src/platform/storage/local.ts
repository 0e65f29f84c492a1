import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { StorageMissing, type ByteRange, type MediaStorage, type StoredObject } from './types.ts';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Files on this machine under `root` (DATA_DIR/media). Scratch folders live under the same root
 * (media/.work), so putting a finished file is one atomic rename on one file system.
 */
export function localStorage(root: string): MediaStorage {
  const fileOf = (key: string) => path.join(root, ...key.split('/'));

  async function head(key: string): Promise<StoredObject | null> {
    try {
      const info = await stat(fileOf(key));
      if (!info.isFile()) return null;
      // The same weak validator `send` (res.sendFile) derives, so both paths agree.
      return { size: info.size, modified: info.mtime, etag: `W/"${info.size.toString(16)}-${info.mtime.getTime().toString(16)}"` };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    kind: 'local',
    async put(key, file) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(file, target);
      return (await stat(target)).size;
    },
    head,
    async read(key, range?: ByteRange): Promise<Readable> {
      if (!(await head(key))) throw new StorageMissing(key);
      return createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
    },
    async localCopy(key) {
      if (!(await head(key))) throw new StorageMissing(key);
      return fileOf(key);
    },
    localPath: fileOf,
    presignedGet: () => Promise.resolve(null),
    async delete(keys) {
      const folders = new Set<string>();
      for (const key of keys) {
        await rm(fileOf(key), { force: true });
        folders.add(path.dirname(fileOf(key)));
      }
      // A clip's folder goes with its last file; one still holding a file stays.
      for (const folder of folders) await rmdir(folder).catch(() => undefined);
    },
  };
}
