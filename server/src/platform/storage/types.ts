import type { Readable } from 'node:stream';

/** What a stored object is now: enough to answer conditional and ranged requests. */
export interface StoredObject {
  size: number;
  modified: Date;
  /** A validator that changes whenever the content does (quoted, as HTTP wants it). */
  etag: string;
}

/** Both ends included, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where clip files live once finished (docs/decisions/0020-object-storage.md). Keys are
 * `<user id>/<clip row id>/<file name>`. Work happens in a local scratch folder; only finished
 * files are put here, so a reader never sees a half-written one.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /**
   * Stores a finished local file under `key`, replacing any object there. The file is consumed:
   * moved into place (local disk, one atomic rename) or uploaded and then removed (s3). Answers
   * the file's size in bytes.
   */
  put(key: string, file: string, contentType: string): Promise<number>;
  /** The object's size and validators, or null when there is none. */
  head(key: string): Promise<StoredObject | null>;
  /** The object's bytes (or one range of them) as a stream; a missing object rejects with StorageMissing. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * A path on this machine to read the object from: the stored file itself on local disk (never to
   * be written or removed by the caller), otherwise a download into `scratchPath`.
   */
  localCopy(key: string, scratchPath: string, signal?: AbortSignal): Promise<string>;
  /** The stored file's path when the storage is this machine's disk (served with sendFile), else null. */
  localPath(key: string): string | null;
  /**
   * A URL that anyone may GET the object at for `expiresInSeconds` from `signedAt` (default now)
   * without asking this app (a presigned URL), or null where the storage has none: local disk is
   * reached through the app.
   */
  presignedGet(key: string, expiresInSeconds: number, signedAt?: Date): Promise<string | null>;
  /** Removes these objects; missing ones are no error. */
  delete(keys: readonly string[]): Promise<void>;
}

/** An object that is not there (deleted, expired by retention, never stored). */
export class StorageMissing extends Error {
  override name = 'StorageMissing';
  constructor(readonly key: string) {
    super(`No stored file ${key}`);
  }
}
