import S3rver from '@20minutes/s3rver';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './app-process.ts';

/** The S3 variables of the contract ("Storage") that point the app at this server. */
export interface S3Env {
  STORAGE: 's3';
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_FORCE_PATH_STYLE: 'true';
}

export interface S3Server {
  env: S3Env;
  /** Where the server keeps the bucket's objects (its own layout, for tests that look behind it). */
  directory: string;
  /** Every request the app made, as "METHOD /path?query", oldest first. */
  requests: string[];
  /** An object's bytes, read straight from the server (not through the front, so not in `requests`). */
  object(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver: signature V4, multipart uploads, ranged GETs, listings) on a
 * free port with one empty bucket. s3rver accepts the fixed credentials S3RVER/S3RVER only.
 */
export async function startS3Server(bucket = 'clipshift-test'): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'clipshift-s3-'));
  const port = await freePort();
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, vhostBuckets: false, configureBuckets: [{ name: bucket }] });
  await server.run();
  // A pass-through in front records what the app asked (multipart parts, ranges); headers, Host
  // included, go through unchanged, so signatures are still checked against what was signed.
  const requests: string[] = [];
  const front = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const frontPort = (front.address() as AddressInfo).port;
  const reader = new S3Client({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  return {
    requests,
    object: async (key) => {
      const answer = await reader.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    },
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${frontPort}`,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    directory,
    close: async () => {
      reader.destroy();
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
