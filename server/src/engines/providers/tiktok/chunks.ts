import { explainTikTokError, TikTokError } from './errors.ts';

/*
 * TikTok's chunking rules (external-apis.md B5, Media Transfer Guide), as a pure function.
 *
 * "MB" here is 1,048,576 bytes (MiB): that is how the Media Transfer Guide's limits are applied in
 * practice (5 MB = 5 * 1024 * 1024). The default plan is chosen to be valid under the decimal
 * reading (1 MB = 1,000,000) as well, so the ambiguity cannot bite:
 * - 10 MiB chunks (10,485,760 B) are ≥ 5,000,000 and ≤ 64,000,000;
 * - the final chunk is < 2 × 10 MiB, far below 128 MB either way;
 * - a video between 5,000,000 and 5 MiB - 1 is one chunk under both readings;
 * - a video between 64,000,000 and 64 MiB is split into 10 MiB chunks, as both readings allow.
 *
 * Why 10 MiB (TikTok's own example uses 10,000,000): a failed chunk is re-sent whole, so small
 * chunks waste little on a flaky link, while a typical clip (20–100 MB) still needs only a handful
 * of requests, and even 4 GB stays at 409 chunks, far from the 1,000 limit.
 */

export const MIB = 1024 * 1024;
/** Every chunk but a single-chunk upload's is at least this big. */
export const MIN_CHUNK_SIZE = 5 * MIB;
/** chunk_size at most; a larger video must be split. */
export const MAX_CHUNK_SIZE = 64 * MIB;
/** The final chunk absorbs the remainder and may be up to this big. */
export const MAX_FINAL_CHUNK_SIZE = 128 * MIB;
export const MAX_CHUNK_COUNT = 1000;
/** TikTok accepts videos up to 4 GB. */
export const MAX_VIDEO_SIZE = 4 * 1024 * MIB;
export const DEFAULT_CHUNK_SIZE = 10 * MIB;

export interface Chunk {
  index: number;
  /** First byte offset in the file. */
  start: number;
  /** Last byte offset, inclusive (as in Content-Range). */
  end: number;
  size: number;
}

/** What init's source_info announces and how the PUTs cut the file; the two must agree. */
export interface ChunkPlan {
  videoSize: number;
  /** source_info.chunk_size */
  chunkSize: number;
  /** source_info.total_chunk_count = floor(videoSize / chunkSize) */
  totalChunkCount: number;
  chunks: Chunk[];
}

export interface PlanOptions {
  /** Preferred chunk size, between 5 MiB and 64 MiB (default 10 MiB). */
  chunkSize?: number;
}

export function planChunks(videoSize: number, options: PlanOptions = {}): ChunkPlan {
  assertVideoSize(videoSize);
  const preferred = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  assertPreferredChunkSize(preferred);
  const chunkSize = chooseChunkSize(videoSize, preferred);
  const totalChunkCount = Math.floor(videoSize / chunkSize);
  const chunks = cutChunks(videoSize, chunkSize, totalChunkCount);
  assertWithinRules(chunks);
  return { videoSize, chunkSize, totalChunkCount, chunks };
}

function assertVideoSize(videoSize: number): void {
  if (!Number.isSafeInteger(videoSize) || videoSize < 0) throw new RangeError(`video size must be a whole number of bytes, got ${videoSize}`);
  if (videoSize === 0) throw new TikTokError('file', explainTikTokError('video_empty'), { code: 'video_empty' });
  if (videoSize > MAX_VIDEO_SIZE) {
    const gib = (videoSize / (1024 * MIB)).toFixed(2);
    throw new TikTokError('file', `${explainTikTokError('video_too_large')} This one is ${gib} GB.`, {
      code: 'video_too_large',
      detail: `video_size ${videoSize} > ${MAX_VIDEO_SIZE}`,
    });
  }
}

/** A programming error rather than a user's problem, hence a plain RangeError. */
function assertPreferredChunkSize(chunkSize: number): void {
  if (!Number.isSafeInteger(chunkSize) || chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
    throw new RangeError(`chunk size must be between ${MIN_CHUNK_SIZE} and ${MAX_CHUNK_SIZE} bytes, got ${chunkSize}`);
  }
}

function chooseChunkSize(videoSize: number, preferred: number): number {
  // Smaller than one chunk: a single chunk with chunk_size = video_size. Required below 5 MB, and
  // valid up to the preferred size (≤ 64 MiB), where floor(size / preferred) would otherwise be 0.
  if (videoSize < preferred) return videoSize;
  // Over 64 MiB a video must be chunked, but with a large preferred size floor() could give one
  // chunk: halve instead, which keeps both chunks within 32–64 MiB (+1 byte for an odd size).
  if (videoSize > MAX_CHUNK_SIZE && Math.floor(videoSize / preferred) < 2) return Math.floor(videoSize / 2);
  return preferred;
}

function cutChunks(videoSize: number, chunkSize: number, count: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let index = 0; index < count; index++) {
    const start = index * chunkSize;
    // The final chunk runs to the end of the file, absorbing the remainder.
    const end = index === count - 1 ? videoSize - 1 : start + chunkSize - 1;
    chunks.push({ index, start, end, size: end - start + 1 });
  }
  return chunks;
}

/** Invariants of the rules above; a failure here is a bug in this file, not in the caller's input. */
function assertWithinRules(chunks: Chunk[]): void {
  const last = chunks[chunks.length - 1];
  if (!last || chunks.length > MAX_CHUNK_COUNT || last.size > MAX_FINAL_CHUNK_SIZE) {
    throw new Error(`chunk plan breaks TikTok's rules: ${chunks.length} chunks, final ${last?.size ?? 0} bytes`);
  }
}
