import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../../server/src/domains/deps.ts';
import { CLIP_FILES, clipFilesDir, mediaRoot } from '../../server/src/domains/clips/files.ts';

export interface SeedClip {
  clip_id: string;
  title?: string;
  streamer_name?: string;
  view_count?: number;
  twitch_created_at?: Date;
  descriptions?: { description: string; rank: number }[];
  /** Bytes written as the video file (defaults to 64 KiB of a repeating pattern). */
  video?: Buffer;
}

/** A library clip with files on disk, as a finished download leaves it. */
export async function seedClip(deps: AppDeps, userId: string, clip: SeedClip): Promise<{ id: string; dir: string }> {
  const id = crypto.randomUUID();
  const filesDir = clipFilesDir(userId, id);
  const dir = path.join(mediaRoot(deps.env.dataDir), filesDir);
  await mkdir(dir, { recursive: true });
  const video = clip.video ?? Buffer.from(Array.from({ length: 65_536 }, (_, index) => index % 251));
  await writeFile(path.join(dir, CLIP_FILES.video), video);
  await writeFile(path.join(dir, CLIP_FILES.source), video);
  await writeFile(path.join(dir, CLIP_FILES.thumbnail), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9]));
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
      descriptions: JSON.stringify(clip.descriptions ?? []),
    })
    .execute();
  return { id, dir };
}
