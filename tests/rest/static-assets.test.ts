import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressFile } from '../../client/compress-assets.ts';
import { acceptedQuality, chooseEncoding } from '../../server/src/http/static-assets.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET without any automatic decompression, so the test sees the bytes on the wire. */
function rawGet(baseUrl: string, pathname: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(pathname, baseUrl), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A build-shaped folder: hashed script and style, an index.html and a favicon, compressed as the build does. */
function makeDist(): { dir: string; script: Buffer; style: Buffer; html: Buffer } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clipshift-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  const script = Buffer.from(`export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 37}`))};\n`);
  const style = Buffer.from('.card { color: red; }\n'.repeat(200));
  const html = Buffer.from(`<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body>${'<div></div>'.repeat(50)}</body></html>`);
  writeFileSync(path.join(dir, 'assets/index-abc123.js'), script);
  writeFileSync(path.join(dir, 'assets/index-def456.css'), style);
  writeFileSync(path.join(dir, 'index.html'), html);
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  for (const file of ['assets/index-abc123.js', 'assets/index-def456.css', 'index.html']) compressFile(path.join(dir, file));
  return { dir, script, style, html };
}

describe('Accept-Encoding negotiation', () => {
  const both = [
    { name: 'br', suffix: '.br' },
    { name: 'gzip', suffix: '.gz' },
  ] as const;

  it('reads q-values, wildcards and refusals', () => {
    expect(acceptedQuality('gzip, deflate, br', 'br')).toBe(1);
    expect(acceptedQuality('gzip;q=0.5', 'gzip')).toBe(0.5);
    expect(acceptedQuality('br;q=0, *', 'br')).toBe(0);
    expect(acceptedQuality('*;q=0.2', 'gzip')).toBe(0.2);
    expect(acceptedQuality('deflate', 'gzip')).toBe(0);
  });

  it('prefers brotli, honours the client’s weights and falls back to the plain file', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', both)?.name).toBe('br');
    expect(chooseEncoding('br;q=0.4, gzip;q=0.9', both)?.name).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip', both)?.name).toBe('gzip');
    expect(chooseEncoding('identity', both)).toBeNull();
    expect(chooseEncoding(undefined, both)).toBeNull();
    expect(chooseEncoding('br', [])).toBeNull();
  });
});

describe('REST: the built client is served precompressed', () => {
  let app: TestApp;
  let server: TestServer;
  let dist: ReturnType<typeof makeDist>;

  beforeAll(async () => {
    dist = makeDist();
    app = await createTestApp();
    server = await startTestServer(app.deps, { clientDist: dist.dir });
  });

  afterAll(async () => {
    await server?.close();
    await app?.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  it('sends brotli to a browser that accepts it, decoding to the same bytes, cached for a year', async () => {
    const res = await rawGet(server.baseUrl, '/assets/index-abc123.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.length).toBeLessThan(dist.script.length);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(brotliDecompressSync(res.body).equals(dist.script)).toBe(true);
  });

  it('sends gzip when brotli is not accepted', async () => {
    const res = await rawGet(server.baseUrl, '/assets/index-def456.css', { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^text\/css/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(res.body).equals(dist.style)).toBe(true);
  });

  it('sends the plain file to a client that accepts no encoding', async () => {
    const plain: Record<string, string>[] = [{}, { 'Accept-Encoding': 'identity' }];
    for (const headers of plain) {
      const res = await rawGet(server.baseUrl, '/assets/index-abc123.js', headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(res.body.equals(dist.script)).toBe(true);
    }
  });

  it('answers every app route with index.html, compressed and never cached without revalidation', async () => {
    for (const pathname of ['/', '/app', '/app/clips?streamer=someone', '/index.html']) {
      const res = await rawGet(server.baseUrl, pathname, { 'Accept-Encoding': 'br' });
      expect(res.status, pathname).toBe(200);
      expect(res.headers['content-encoding'], pathname).toBe('br');
      expect(res.headers['content-type'], pathname).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], pathname).toBe('no-cache');
      expect(brotliDecompressSync(res.body).equals(dist.html), pathname).toBe(true);
    }
  });

  it('keeps short caching for unhashed files and leaves the API alone', async () => {
    const favicon = await rawGet(server.baseUrl, '/favicon.svg', { 'Accept-Encoding': 'br' });
    expect(favicon.status).toBe(200);
    // Too small to gain from compression: the build wrote no variant, so there is nothing to vary on.
    expect(favicon.headers['content-encoding']).toBeUndefined();
    expect(favicon.headers['cache-control']).toBe('public, max-age=3600');

    const api = await rawGet(server.baseUrl, '/api/health', { 'Accept-Encoding': 'br' });
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.headers['content-encoding']).toBeUndefined();
  });
});
