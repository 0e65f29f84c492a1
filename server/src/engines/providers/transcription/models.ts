import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { TranscriptionError } from './types.ts';

/*
 * whisper.cpp ggml models: where they live, where they come from and what they must hash to.
 * Shared by the local engine and scripts/models-download.ts.
 */

/** The official whisper.cpp model host (models/download-ggml-model.sh in whisper.cpp). */
export const MODEL_BASE_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

interface KnownModel {
  name: string;
  /** SHA-1 of the file as published in whisper.cpp's models/README.md. */
  sha1: string;
  /** Approximate size, for the message before a download starts. */
  approxBytes: number;
}

const MIB = 1024 * 1024;

/**
 * SHA-1 sums from whisper.cpp's models/README.md "Available models" table; the large-v3-turbo ones
 * (added to the host after that table) match what several independent downloaders pin.
 */
export const KNOWN_MODELS: readonly KnownModel[] = [
  { name: 'tiny', sha1: 'bd577a113a864445d4c299885e0cb97d4ba92b5f', approxBytes: 75 * MIB },
  { name: 'tiny.en', sha1: 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df', approxBytes: 75 * MIB },
  { name: 'base', sha1: '465707469ff3a37a2b9b8d8f89f2f99de7299dac', approxBytes: 142 * MIB },
  { name: 'base.en', sha1: '137c40403d78fd54d454da0f9bd998f78703390c', approxBytes: 142 * MIB },
  { name: 'small', sha1: '55356645c2b361a969dfd0ef2c5a50d530afd8d5', approxBytes: 466 * MIB },
  { name: 'small.en', sha1: 'db8a495a91d927739e50b3fc1cc4c6b8f6c2d022', approxBytes: 466 * MIB },
  { name: 'medium', sha1: 'fd9727b6e1217c2f614f9b698455c4ffd82463b4', approxBytes: 1533 * MIB },
  { name: 'medium.en', sha1: '8c30f0e44ce9560643ebd10bbe50cd20eafd3723', approxBytes: 1533 * MIB },
  { name: 'large-v1', sha1: 'b1caaf735c4cc1429223d5a74f0f4d0b9b59a299', approxBytes: 2950 * MIB },
  { name: 'large-v2', sha1: '0f4c8e34f21cf1a914c59d8b3ce882345ad349d6', approxBytes: 2950 * MIB },
  { name: 'large-v2-q5_0', sha1: '00e39f2196344e901b3a2bd5814807a769bd1630', approxBytes: 1080 * MIB },
  { name: 'large-v3', sha1: 'ad82bf6a9043ceed055076d0fd39f5f186ff8062', approxBytes: 2950 * MIB },
  { name: 'large-v3-q5_0', sha1: 'e6e2ed78495d403bef4b7cff42ef4aaadcfea8de', approxBytes: 1080 * MIB },
  { name: 'large-v3-turbo', sha1: '4af2b29d7ec73d781377bfd1758ca957a807e941', approxBytes: 1549 * MIB },
  { name: 'large-v3-turbo-q5_0', sha1: 'e050f7970618a659205450ad97eb95a18d69c9ee', approxBytes: 547 * MIB },
];

export function knownModel(name: string): KnownModel | undefined {
  return KNOWN_MODELS.find((model) => model.name === name);
}

/** Letters, digits, dot, dash, underscore: a model name can never leave the models directory. */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function assertModelName(name: string): void {
  if (!MODEL_NAME.test(name) || name.includes('..')) {
    throw new TranscriptionError('model_missing', `"${name}" is not a valid Whisper model name`);
  }
}

/** `${modelsDir}/ggml-${name}.bin`, the file name whisper.cpp's own download script uses. */
export function modelPath(modelsDir: string, name: string): string {
  assertModelName(name);
  return path.join(path.resolve(modelsDir), `ggml-${name}.bin`);
}

export function modelUrl(name: string): string {
  assertModelName(name);
  return `${MODEL_BASE_URL}/ggml-${name}.bin`;
}

export function modelNotInstalledMessage(name: string): string {
  return `Whisper model ${name} is not installed: run \`npm run models:download -- ${name}\``;
}

async function sha1File(file: string): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

interface ChecksumResult {
  ok: boolean;
  expected: string;
  actual: string;
}

/** Compares a file's SHA-1 with the published one for its model. */
export async function verifyModelChecksum(file: string, expectedSha1: string): Promise<ChecksumResult> {
  const actual = await sha1File(file);
  const expected = expectedSha1.toLowerCase();
  return { ok: actual === expected, expected, actual };
}
