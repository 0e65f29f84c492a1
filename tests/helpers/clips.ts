import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../../server/src/domains/deps.ts';
import { CLIP_CONTENT_TYPES, CLIP_FILES, clipFilesDir, clipKey, mediaRoot, workRoot, type ClipFile } from '../../server/src/domains/clips/files.ts';

/** Where local storage keeps one of a clip's files (STORAGE=local, the tests' default). */
export function storedClipPath(dataDir: string, filesDir: string, file: ClipFile): string {
  return path.join(mediaRoot(dataDir), clipKey(filesDir, file));
}

/** Everything under DATA_DIR/media but the scratch folders: with STORAGE=s3 there must be nothing. */
export async function libraryFilesOnDisk(dataDir: string): Promise<string[]> {
  const entries = await readdir(mediaRoot(dataDir), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(mediaRoot(dataDir), path.join(entry.parentPath, entry.name))).filter((file) => !file.startsWith('.work'));
}

export interface SeedClip {
  clip_id: string;
  title?: string;
  streamer_name?: string;
  view_count?: number;
  twitch_created_at?: Date;
  descriptions?: { description: string; rank: number }[];
  hook_suggestion?: string | null;
  /** Bytes written as the video file (defaults to 64 KiB of a repeating pattern). */
  video?: Buffer;
}

/** A library clip with files on disk, as a finished download leaves it. */
export async function seedClip(deps: AppDeps, userId: string, clip: SeedClip): Promise<{ id: string; dir: string }> {
  const id = crypto.randomUUID();
  const filesDir = clipFilesDir(userId, id);
  const dir = path.join(mediaRoot(deps.env.dataDir), filesDir);
  const video = clip.video ?? Buffer.from(Array.from({ length: 65_536 }, (_, index) => index % 251));
  const thumbnail = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9]);
  await storeFiles(deps, filesDir, { video, source: video, thumbnail });
  await deps.db
    .insertInto('clips')
    .values({
      id,
      user_id: userId,
      streamer_name: clip.streamer_name ?? 'streamer',
      clip_id: clip.clip_id,
      title: clip.title ?? `Clip ${clip.clip_id}`,
      broadcaster_name: clip.streamer_name ?? 'streamer',
      view_count: clip.view_count ?? 100,
      duration: 12.5,
      output_duration: 12.5,
      twitch_created_at: clip.twitch_created_at ?? new Date('2026-01-01T00:00:00Z'),
      format_type: 'vertical',
      files_dir: filesDir,
      // As saveClip records them: the video's size, and the source's plus the thumbnail's.
      size_bytes: video.length,
      aux_bytes: video.length + thumbnail.length,
      descriptions: JSON.stringify(clip.descriptions ?? []),
      hook_suggestion: clip.hook_suggestion ?? null,
    })
    .execute();
  return { id, dir };
}

/** Puts these bytes in the app's storage (local disk or a bucket) as the clip's files. */
async function storeFiles(deps: AppDeps, filesDir: string, files: Record<ClipFile, Buffer>): Promise<void> {
  await mkdir(workRoot(deps.env.dataDir), { recursive: true });
  const scratch = await mkdtemp(path.join(workRoot(deps.env.dataDir), 'seed-'));
  try {
    for (const [file, bytes] of Object.entries(files) as [ClipFile, Buffer][]) {
      const local = path.join(scratch, CLIP_FILES[file]);
      await writeFile(local, bytes);
      await deps.storage.put(clipKey(filesDir, file), local, CLIP_CONTENT_TYPES[file]);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
