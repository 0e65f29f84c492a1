import { statfs } from 'node:fs/promises';
import path from 'node:path';

/**
 * Bytes an unprivileged process may still write on the file system holding `dir`. A folder not
 * made yet (no clip downloaded so far) is measured at its nearest existing parent, where it will be
 * created.
 */
export async function freeDiskBytes(dir: string): Promise<number> {
  let current = path.resolve(dir);
  for (;;) {
    try {
      const info = await statfs(current);
      return info.bavail * info.bsize;
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) throw error;
      current = parent;
    }
  }
}
