/*
 * npm run models:download -- <name> [<name>…] [--force] [--dir <path>] [--list]
 *
 * Fetches whisper.cpp ggml models from their official host into WHISPER_MODELS_DIR, showing
 * progress on stderr. The file is written as ggml-<name>.bin.part, its SHA-1 checked against the
 * published one, and only then renamed into place, so the server never loads half a model.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { loadEnv } from '../server/src/platform/env.ts';
import {
  KNOWN_MODELS,
  knownModel,
  MODEL_BASE_URL,
  modelPath,
  verifyModelChecksum,
} from '../server/src/engines/providers/transcription/models.ts';

export interface DownloadArgs {
  names: string[];
  force: boolean;
  dir: string | undefined;
  list: boolean;
}

export function parseArgs(argv: readonly string[]): DownloadArgs {
  const args: DownloadArgs = { names: [], force: false, dir: undefined, list: false };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--force' || arg === '-f') args.force = true;
    else if (arg === '--list' || arg === '-l') args.list = true;
    else if (arg === '--dir') args.dir = argv[++index];
    else if (arg.startsWith('--dir=')) args.dir = arg.slice('--dir='.length);
    else if (arg.startsWith('-')) throw new UsageError(`Unknown option ${arg}`);
    else args.names.push(arg);
  }
  if (args.dir === '') throw new UsageError('--dir needs a path');
  return args;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface DownloadTarget {
  name: string;
  url: string;
  file: string;
  partFile: string;
  sha1: string;
}

/** Where a model comes from and goes to; unknown names are refused, since nothing could verify them. */
export function resolveTarget(name: string, dir: string, baseUrl = MODEL_BASE_URL): DownloadTarget {
  const known = knownModel(name);
  if (!known) {
    throw new UsageError(`Unknown model "${name}". Known models: ${KNOWN_MODELS.map((model) => model.name).join(', ')}`);
  }
  const file = modelPath(dir, name);
  return { name, url: `${baseUrl.replace(/\/+$/, '')}/ggml-${name}.bin`, file, partFile: `${file}.part`, sha1: known.sha1 };
}

/** "[#########-----------]  45.0%  700.1/1549.2 MiB  12.3 MiB/s" (no total: bytes and speed only). */
export function formatProgress(received: number, total: number | null, elapsedMs: number, width = 30): string {
  const mib = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
  const speed = elapsedMs > 0 ? `${mib((received / elapsedMs) * 1000)} MiB/s` : '';
  if (!total) return `${mib(received)} MiB  ${speed}`.trim();
  const ratio = Math.min(1, received / total);
  const filled = Math.round(ratio * width);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  return `${bar} ${(ratio * 100).toFixed(1).padStart(5)}%  ${mib(received)}/${mib(total)} MiB  ${speed}`.trimEnd();
}

export interface DownloadOptions {
  /** Progress output (stderr in the CLI). */
  progress?: NodeJS.WritableStream & { isTTY?: boolean };
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
}

export class DownloadError extends Error {
  override name = 'DownloadError';
}

/** Downloads one model to its .part file, verifies its SHA-1, renames it into place. */
export async function downloadModel(target: DownloadTarget, options: DownloadOptions = {}): Promise<void> {
  await mkdir(path.dirname(target.file), { recursive: true });
  const response = await request(target, options);
  const total = Number(response.headers.get('content-length')) || null;
  const hash = createHash('sha1');
  const reporter = progressReporter(options.progress, total);
  let received = 0;
  // Hashes and counts the bytes on their way to disk: no second read of a 1.6 GB file.
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      hash.update(chunk);
      reporter(received);
      callback(null, chunk);
    },
  });
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  try {
    await pipeline(body, meter, createWriteStream(target.partFile), { signal: options.signal });
    reporter(received, true);
    if (total !== null && received !== total) throw new DownloadError(`Download of ${target.url} stopped at ${received} of ${total} bytes`);
    const actual = hash.digest('hex');
    if (actual !== target.sha1) {
      throw new DownloadError(`Checksum mismatch for ggml-${target.name}.bin: expected SHA-1 ${target.sha1}, got ${actual}. The file was discarded.`);
    }
    await rename(target.partFile, target.file);
  } catch (error) {
    await rm(target.partFile, { force: true });
    if (options.signal?.aborted) throw new DownloadError(`Download of ggml-${target.name}.bin was cancelled`);
    throw error;
  }
}

async function request(target: DownloadTarget, options: DownloadOptions): Promise<Response> {
  const fetchImpl = options.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(target.url, { redirect: 'follow', signal: options.signal });
  } catch (error) {
    throw new DownloadError(
      `Could not reach ${new URL(target.url).host} to download ggml-${target.name}.bin (${networkReason(error)}). ` +
        `Check the network connection, or download ${target.url} by other means and save it as ${target.file}.`,
    );
  }
  if (!response.ok || !response.body) {
    throw new DownloadError(`Downloading ${target.url} failed: HTTP ${response.status} ${response.statusText}`.trim());
  }
  return response;
}

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error.message;
}

/** Redraws one line on a terminal; elsewhere (CI logs) prints every 10 %. */
function progressReporter(stream: DownloadOptions['progress'], total: number | null): (received: number, final?: boolean) => void {
  const started = Date.now();
  let lastDraw = 0;
  let lastDecile = -1;
  return (received, final = false) => {
    if (!stream) return;
    const now = Date.now();
    const line = formatProgress(received, total, now - started);
    if (stream.isTTY) {
      if (!final && now - lastDraw < 100) return;
      lastDraw = now;
      stream.write(`\r${line}${final ? '\n' : ''}`);
      return;
    }
    const decile = total ? Math.floor((received / total) * 10) : Math.floor(received / (100 * 1024 * 1024));
    if (decile !== lastDecile || final) {
      lastDecile = decile;
      stream.write(`${line}\n`);
    }
  };
}

async function isInstalled(target: DownloadTarget): Promise<'missing' | 'valid' | 'invalid'> {
  try {
    await stat(target.file);
  } catch {
    return 'missing';
  }
  return (await verifyModelChecksum(target.file, target.sha1)).ok ? 'valid' : 'invalid';
}

function modelsDirFromEnv(): string {
  return loadEnv().whisperModelsDir;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args.list || args.names.length === 0) {
    process.stderr.write(`Usage: npm run models:download -- <name> [--force] [--dir <path>]\nKnown models:\n`);
    for (const model of KNOWN_MODELS) process.stderr.write(`  ${model.name.padEnd(22)} ~${Math.round(model.approxBytes / (1024 * 1024))} MiB\n`);
    return args.list ? 0 : 1;
  }
  const dir = path.resolve(args.dir ?? modelsDirFromEnv());
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  for (const name of args.names) {
    const target = resolveTarget(name, dir);
    const state = args.force ? 'missing' : await isInstalled(target);
    if (state === 'valid') {
      process.stderr.write(`ggml-${name}.bin is already installed in ${dir} (checksum verified)\n`);
      continue;
    }
    if (state === 'invalid') process.stderr.write(`ggml-${name}.bin in ${dir} does not match its checksum: downloading it again\n`);
    process.stderr.write(`Downloading ${target.url}\n  to ${target.file}\n`);
    await downloadModel(target, { progress: process.stderr, signal: controller.signal });
    process.stderr.write(`ggml-${name}.bin installed (SHA-1 ${target.sha1} verified)\n`);
  }
  return 0;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`\n${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
