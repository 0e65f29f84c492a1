import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { StorageMissing, type ByteRange, type MediaStorage, type StoredObject } from './types.ts';

export interface S3StorageConfig {
  /** Unset: AWS S3 itself. */
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  /** Unset: the SDK's credential chain (environment, profile, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

/**
 * Parts of 8 MiB, 4 in flight: a typical rendered clip (10-60 MB) goes up in a few parallel parts
 * while memory stays bounded (queue × part size); files under one part are a single PUT.
 */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

const isNotFound = (error: unknown) => statusOf(error) === 404 || ['NotFound', 'NoSuchKey'].includes((error as Error).name);

/**
 * An S3-compatible bucket (AWS S3, MinIO, SeaweedFS, R2…) through the AWS SDK v3. Checksums are
 * sent and checked only where the protocol requires them: since 2025 the SDK adds CRC32 trailers to
 * every upload by default, which several S3-compatible servers reject.
 */
export function s3Storage(config: S3StorageConfig): MediaStorage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    forcePathStyle: config.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // A bucket that does not answer must fail the job, not hold it for ever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
  });
  const Bucket = config.bucket;

  async function head(key: string): Promise<StoredObject | null> {
    try {
      const answer = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return { size: answer.ContentLength ?? 0, modified: answer.LastModified ?? new Date(0), etag: answer.ETag ?? `"${key}"` };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function read(key: string, range?: ByteRange, signal?: AbortSignal): Promise<Readable> {
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }), { abortSignal: signal });
      if (!(answer.Body instanceof Readable)) throw new Error(`The bucket answered ${key} without a body`);
      return answer.Body;
    } catch (error) {
      if (isNotFound(error)) throw new StorageMissing(key);
      throw error;
    }
  }

  return {
    kind: 's3',
    async put(key, file, contentType) {
      const { size } = await stat(file);
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: createReadStream(file), ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: PARTS_IN_FLIGHT,
        // A failed multipart upload is aborted, so no orphaned parts are left billed in the bucket.
        leavePartsOnError: false,
      });
      await upload.done();
      await rm(file, { force: true });
      return size;
    },
    head,
    read: (key, range) => read(key, range),
    async localCopy(key, scratchPath, signal) {
      await mkdir(path.dirname(scratchPath), { recursive: true });
      // Its own partial name: two readers may fetch the same object into the same place at once.
      const partial = `${scratchPath}.${randomUUID()}.part`;
      try {
        await pipeline(await read(key, undefined, signal), createWriteStream(partial), { signal });
        await rename(partial, scratchPath);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return scratchPath;
    },
    localPath: () => null,
    presignedGet: (key, expiresInSeconds, signedAt) =>
      getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), { expiresIn: expiresInSeconds, ...(signedAt ? { signingDate: signedAt } : {}) }),
    async delete(keys) {
      // One request per key: DeleteObjects is a bucket-level POST that some S3-compatible servers sign differently.
      for (const key of keys) await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}
