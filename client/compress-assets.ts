import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/*
 * Writes a .br and a .gz beside each text file of the build, once, at the highest levels: the
 * server (server/src/http/static-assets.ts) sends them to browsers that accept them, so no request
 * pays for compression.
 */

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

function brotli(data: Buffer): Buffer {
  return brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
}

/** Writes the variants of one file; a variant that would not be smaller is left out. */
export function compressFile(file: string): void {
  const data = readFileSync(file);
  for (const [suffix, encoded] of [
    ['.br', brotli(data)],
    ['.gz', gzipSync(data, { level: constants.Z_BEST_COMPRESSION })],
  ] as const) {
    if (encoded.length < data.length) writeFileSync(file + suffix, encoded);
  }
}

export function compressAssets(): Plugin {
  let outDir = '';
  return {
    name: 'clipshift-compress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of listFiles(outDir)) if (COMPRESSIBLE.test(file)) compressFile(file);
    },
  };
}
