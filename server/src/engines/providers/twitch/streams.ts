import { z } from 'zod';
import type { Helix } from './helix.ts';
import { clipsResponseSchema, text, type TwitchClip } from './types.ts';

/** Helix's id batch limit (Get Streams, Get Clips, Get Videos). */
const MAX_IDS = 100;

const streamSchema = z.object({
  id: text(),
  user_id: text(),
  user_login: text(),
  type: text().default('live'),
  title: text().default(''),
  started_at: text(),
});
/** A live stream as Helix Get Streams describes it. */
export type TwitchStream = z.infer<typeof streamSchema>;
const streamsResponseSchema = z.object({ data: z.array(streamSchema) });

const videoSchema = z.object({
  id: text(),
  user_id: text(),
  /** The stream the archive recorded; null for uploads and highlights. */
  stream_id: text().nullable().optional().transform((id) => id ?? null),
  created_at: text(),
  duration: text().default(''),
});
/** A past broadcast (Helix Get Videos, type archive). */
export type TwitchVideo = z.infer<typeof videoSchema>;
const videosResponseSchema = z.object({ data: z.array(videoSchema) });

/** The distinct ids in Helix-sized batches. */
export function idBatches(ids: readonly string[]): string[][] {
  const unique = [...new Set(ids.filter((id) => id !== ''))];
  const batches: string[][] = [];
  for (let start = 0; start < unique.length; start += MAX_IDS) batches.push(unique.slice(start, start + MAX_IDS));
  return batches;
}

/** The live streams of these broadcasters (offline ones are simply missing), 100 per request. */
export async function getLiveStreams(helix: Helix, userIds: readonly string[], signal?: AbortSignal): Promise<Map<string, TwitchStream>> {
  const live = new Map<string, TwitchStream>();
  for (const batch of idBatches(userIds)) {
    const query = [...batch.map((id) => ['user_id', id] as const), ['first', String(MAX_IDS)] as const, ['type', 'live'] as const];
    const body = await helix.get('/streams', query, streamsResponseSchema, signal);
    for (const stream of body.data) live.set(stream.user_id, stream);
  }
  return live;
}

/** The broadcaster's newest past broadcasts (archives), newest first. */
export async function getArchiveVideos(helix: Helix, userId: string, signal?: AbortSignal): Promise<TwitchVideo[]> {
  const body = await helix.get('/videos', [['user_id', userId], ['type', 'archive'], ['first', '20']], videosResponseSchema, signal);
  return body.data;
}

/** Clips by id (missing ones, e.g. still being made, are left out). */
export async function getClipsByIds(helix: Helix, ids: readonly string[], signal?: AbortSignal): Promise<TwitchClip[]> {
  const clips: TwitchClip[] = [];
  for (const batch of idBatches(ids)) {
    const body = await helix.get('/clips', batch.map((id) => ['id', id] as const), clipsResponseSchema, signal);
    clips.push(...body.data);
  }
  return clips;
}
