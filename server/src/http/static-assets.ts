import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import express from 'express';

/*
 * The built browser client. The build writes a .br and a .gz beside each compressible file
 * (client/compress-assets.ts); a request that accepts one of them gets it, with Content-Encoding,
 * the original file's Content-Type and Vary: Accept-Encoding, so no CPU is spent compressing per
 * request. Hashed files under assets/ are cached for a year; index.html is revalidated each time,
 * so a release reaches every browser at its next load.
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=3600';

/** Preferred first: brotli is smaller than gzip for the same file. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number];

/** Relative path ("/assets/index-abc.js") → the encodings built beside it. */
type Variants = Map<string, Encoding[]>;

/** The build's files as URL paths ("/assets/index-abc.js"). */
function listFiles(distDir: string, dir = distDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(distDir, full) : [`/${path.relative(distDir, full).split(path.sep).join('/')}`];
  });
}

/** Looked up once at start: the build does not change under a running server. */
function findVariants(distDir: string, files: readonly string[]): Variants {
  const variants: Variants = new Map();
  for (const file of files) {
    const encodings = ENCODINGS.filter((encoding) => existsSync(path.join(distDir, file + encoding.suffix)));
    if (encodings.length > 0) variants.set(file, encodings);
  }
  return variants;
}

/** The q-value the Accept-Encoding header gives `name` (0 when it is refused or absent). */
export function acceptedQuality(header: string, name: string): number {
  let wildcard = 0;
  for (const part of header.split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    const quality = q === undefined ? 1 : Number(q);
    if (token === name) return quality;
    if (token === '*') wildcard = quality;
  }
  return wildcard;
}

/** The best encoding of those built that the request accepts, or null for the plain file. */
export function chooseEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | null {
  if (!header) return null;
  let best: Encoding | null = null;
  let bestQuality = 0;
  for (const encoding of available) {
    const quality = acceptedQuality(header, encoding.name);
    if (quality > bestQuality) {
      best = encoding;
      bestQuality = quality;
    }
  }
  return best;
}

function cacheControlFor(relativePath: string): string {
  if (relativePath.startsWith('/assets/')) return IMMUTABLE;
  if (relativePath === '/index.html') return REVALIDATE;
  return SHORT;
}

/**
 * Sends `relativePath` of the build, compressed when the client accepts a variant that exists.
 * Vary is set whenever variants exist, so a shared cache keeps the encodings apart.
 */
function sendBuilt(distDir: string, variants: Variants, relativePath: string, req: express.Request, res: express.Response, next: express.NextFunction): void {
  const available = variants.get(relativePath) ?? [];
  const encoding = chooseEncoding(req.headers['accept-encoding'], available);
  res.setHeader('Cache-Control', cacheControlFor(relativePath));
  if (available.length > 0) res.vary('Accept-Encoding');
  if (encoding) {
    res.setHeader('Content-Encoding', encoding.name);
    // send() keeps a Content-Type already set, so the .br/.gz is typed as the file it encodes.
    res.type(path.extname(relativePath));
  }
  const file = path.join(distDir, relativePath) + (encoding?.suffix ?? '');
  res.sendFile(file, (error?: NodeJS.ErrnoException) => {
    // A browser that went away mid-file is not a fault of the server.
    if (error && error.code !== 'ECONNABORTED' && error.syscall !== 'write') next(error);
  });
}

/** Requests for files of the build; the others fall through to the history fallback. */
function builtFile(files: ReadonlySet<string>, requestPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return null;
  }
  return files.has(decoded) ? decoded : null;
}

/** Serves the built browser client with history fallback, when it has been built. */
export function clientRouter(distDir: string): express.Router {
  const client = express.Router();
  if (!existsSync(path.join(distDir, 'index.html'))) return client;
  const files = listFiles(distDir);
  const variants = findVariants(distDir, files);
  const ownFiles = new Set(files);
  client.get(/.*/, (req, res, next) => {
    const file = builtFile(ownFiles, req.path);
    // Every other path is a route of the single-page app: its HTML, never a cached copy.
    sendBuilt(distDir, variants, file && file !== '/' ? file : '/index.html', req, res, next);
  });
  return client;
}
