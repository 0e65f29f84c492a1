import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { LOGO_MAX_BYTES, LOGO_TYPES, type LogoType } from '@clipshift/shared';
import type { AppDeps } from '../deps.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { instanceWorkDir } from '../clips/service.ts';
import { findStreamer } from './service.ts';
import { updateStreamerRow } from './queries.ts';

/*
 * A streamer's logo (PUT/GET/DELETE /api/streamers/{name}/logo): one PNG or JPEG of at most 2 MB,
 * kept in the media storage beside the clips, drawn by renders whose brand asks for it.
 */

export const LOGO_TYPE_RULE = 'A logo is a PNG or JPEG image: send it as the body with Content-Type image/png or image/jpeg';
export const LOGO_TOO_LARGE = `A logo is at most ${LOGO_MAX_BYTES / (1024 * 1024)} MB`;

const SIGNATURES: Record<LogoType, readonly number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

export function isLogoType(type: string | undefined): type is LogoType {
  return (LOGO_TYPES as readonly string[]).includes(type ?? '');
}

/** Why these bytes cannot be the logo, or null. */
export function logoProblem(type: LogoType, bytes: Buffer): string | null {
  if (bytes.length === 0) return 'The logo is empty: send the image as the body';
  if (bytes.length > LOGO_MAX_BYTES) return LOGO_TOO_LARGE;
  const signature = SIGNATURES[type];
  if (!signature.every((byte, index) => bytes[index] === byte)) return `The body is not a ${type === 'image/png' ? 'PNG' : 'JPEG'} image`;
  return null;
}

const logoKey = (userId: string, streamerId: string) => `logos/${userId}/${streamerId}`;

/** Saves (or replaces) the streamer's logo. */
export async function saveStreamerLogo(deps: Pick<AppDeps, 'db' | 'storage' | 'env'>, userId: string, name: string, upload: { type: string | undefined; bytes: Buffer }, instance: string): Promise<{ message: string }> {
  if (!isLogoType(upload.type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', LOGO_TYPE_RULE);
  const problem = logoProblem(upload.type, upload.bytes);
  if (problem) throw problem === LOGO_TOO_LARGE ? new AppError('PAYLOAD_TOO_LARGE', problem) : badRequest(problem);
  const streamer = await findStreamer(deps.db, userId, name);
  const folder = path.join(instanceWorkDir(deps.env.dataDir, instance), `logo-${randomUUID()}`);
  try {
    await mkdir(folder, { recursive: true });
    const file = path.join(folder, 'logo');
    await writeFile(file, upload.bytes);
    const key = logoKey(userId, streamer.id);
    await deps.storage.put(key, file, upload.type);
    await updateStreamerRow(deps.db, streamer.id, { logo_key: key, logo_type: upload.type, logo_bytes: upload.bytes.length });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return { message: `Logo saved for ${streamer.name}` };
}

const noLogo = (name: string) => notFound(`${name} has no logo yet`);

/** The streamer's logo as stored. */
export async function streamerLogo(deps: Pick<AppDeps, 'db' | 'storage'>, userId: string, name: string): Promise<{ type: LogoType; bytes: number; body: Readable }> {
  const streamer = await findStreamer(deps.db, userId, name);
  if (!streamer.logo_key || !streamer.logo_type) throw noLogo(streamer.name);
  return { type: streamer.logo_type, bytes: streamer.logo_bytes ?? 0, body: await deps.storage.read(streamer.logo_key) };
}

/** A local path of the streamer's logo for a render (a download into `scratchDir` on object storage), or null when it has none. */
export async function localStreamerLogo(deps: Pick<AppDeps, 'storage'>, streamer: { logo_key: string | null }, scratchDir: string, signal?: AbortSignal): Promise<string | null> {
  if (!streamer.logo_key) return null;
  return deps.storage.localCopy(streamer.logo_key, path.join(scratchDir, 'logo'), signal);
}

export async function deleteStreamerLogo(deps: Pick<AppDeps, 'db' | 'storage'>, userId: string, name: string): Promise<{ message: string }> {
  const streamer = await findStreamer(deps.db, userId, name);
  if (!streamer.logo_key) throw noLogo(streamer.name);
  await updateStreamerRow(deps.db, streamer.id, { logo_key: null, logo_type: null, logo_bytes: null });
  await deps.storage.delete([streamer.logo_key]);
  return { message: `Logo deleted for ${streamer.name}` };
}
