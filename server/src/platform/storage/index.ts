import path from 'node:path';
import type { Env } from '../env.ts';
import { storageErrors, type StorageOperation } from '../metrics.ts';
import { localStorage } from './local.ts';
import { s3Storage } from './s3.ts';
import { StorageMissing, type MediaStorage } from './types.ts';

export { StorageMissing } from './types.ts';
export type { ByteRange, MediaStorage, StoredObject } from './types.ts';

/** DATA_DIR/media: clip files with STORAGE=local, and every process's scratch folders (media/.work) either way. */
export const mediaRoot = (dataDir: string) => path.join(dataDir, 'media');

/** The storage STORAGE names, with every failure counted in clipshift_storage_errors_total. */
export function createStorage(env: Pick<Env, 'STORAGE' | 'dataDir' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>): MediaStorage {
  const storage =
    env.STORAGE === 's3'
      ? s3Storage({
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          // loadEnv refuses STORAGE=s3 without a bucket.
          bucket: env.S3_BUCKET ?? '',
          credentials: env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
        })
      : localStorage(mediaRoot(env.dataDir));
  return counted(storage);
}

/** A missing object is an answer (404), not a storage failure. */
async function countingStorageErrors<T>(operation: StorageOperation, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof StorageMissing)) storageErrors.inc({ operation });
    throw error;
  }
}

function counted(storage: MediaStorage): MediaStorage {
  return {
    kind: storage.kind,
    put: (key, file, contentType) => countingStorageErrors('write', () => storage.put(key, file, contentType)),
    head: (key) => countingStorageErrors('read', () => storage.head(key)),
    read: (key, range) => countingStorageErrors('read', () => storage.read(key, range)),
    localCopy: (key, scratchPath, signal) => countingStorageErrors('read', () => storage.localCopy(key, scratchPath, signal)),
    localPath: (key) => storage.localPath(key),
    presignedGet: (key, expiresInSeconds, signedAt) => countingStorageErrors('read', () => storage.presignedGet(key, expiresInSeconds, signedAt)),
    delete: (keys) => countingStorageErrors('delete', () => storage.delete(keys)),
  };
}
