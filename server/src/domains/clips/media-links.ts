import { createHash } from 'node:crypto';
import { MEDIA_EXPIRED_MESSAGE } from '@clipshift/shared';
import type { DbOrTrx } from '../../platform/db/database.ts';
import { hasValidSignature, signValue } from '../../platform/crypto.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { MediaStorage, StoredObject } from '../../platform/storage/index.ts';
import { clipKey } from './files.ts';
import { selectClipById } from './queries.ts';

/** How long a platform has to fetch a clip's video from the URL it is given (rest-api.md: 2 hours). */
export const PUBLIC_MEDIA_TTL_SECONDS = 2 * 60 * 60;

/** Where the app serves a media link with local storage: PUBLIC_URL, this, then the token. */
export const PUBLIC_MEDIA_PATH = '/api/media/';

/** One answer for every refusal, so that a prober learns nothing of why (changed, expired, deleted, replaced). */
export const MEDIA_LINK_GONE = 'This media link is not found or has expired';

const SIGNING_PURPOSE = 'public media link';

/** <clip row id>.<expiry, unix seconds>.<video version>.<HMAC of the three> */
const TOKEN_SHAPE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9]{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const TOKEN_MAX_LENGTH = 160;

export interface PublicMediaUrl {
  url: string;
  expiresAt: Date;
}

interface MediaLinkDeps {
  db: DbOrTrx;
  storage: MediaStorage;
  /** APP_SECRET (or the generated one): every process that serves links must share it. */
  appSecret: string;
  env: { publicUrl: string };
}

interface MediaClaims {
  clipRowId: string;
  expiresAtSeconds: number;
  version: string;
}

/**
 * Names one stored version of the video: a re-render replaces the file under the same key, so the
 * key alone would let an old link reach the new video. Hashed, so the token shows neither the key
 * (which holds the user's id) nor the file's size and date.
 */
function videoVersion(key: string, object: StoredObject): string {
  return createHash('sha256').update(`${key}\0${object.etag}`).digest().subarray(0, 16).toString('base64url');
}

function signedPart(claims: MediaClaims): string {
  return `${claims.clipRowId}.${claims.expiresAtSeconds}.${claims.version}`;
}

function issueToken(appSecret: string, claims: MediaClaims): string {
  const signed = signedPart(claims);
  return `${signed}.${signValue(appSecret, SIGNING_PURPOSE, signed)}`;
}

/** The claims of a token signed with this secret and not yet expired; null for anything else. */
function readToken(appSecret: string, token: string, now: Date): MediaClaims | null {
  if (token.length > TOKEN_MAX_LENGTH) return null;
  const [, clipRowId, expires, version, signature] = TOKEN_SHAPE.exec(token) ?? [];
  if (!clipRowId || !expires || !version || !signature) return null;
  const claims = { clipRowId, expiresAtSeconds: Number(expires), version };
  if (!hasValidSignature(appSecret, SIGNING_PURPOSE, signedPart(claims), signature)) return null;
  return claims.expiresAtSeconds * 1000 > now.getTime() ? claims : null;
}

/**
 * A URL a platform (Instagram's `video_url`) can fetch the clip's video from, without a session,
 * for PUBLIC_MEDIA_TTL_SECONDS: with a bucket, its presigned GET URL; with local storage,
 * PUBLIC_URL/api/media/<token>, a signed link to this one version of this one clip's video.
 * 404 when the clip or its video is gone, 409 when retention has deleted its media.
 */
export async function publicMediaUrl(deps: MediaLinkDeps, clipRowId: string, options: { now?: Date } = {}): Promise<PublicMediaUrl> {
  const now = options.now ?? new Date();
  const row = await selectClipById(deps.db, clipRowId);
  if (!row) throw notFound(`Clip ${clipRowId} not found`);
  if (row.media_expired_at) throw conflict(MEDIA_EXPIRED_MESSAGE);
  const key = clipKey(row.files_dir, 'video');
  const object = await deps.storage.head(key);
  if (!object) throw notFound(`The video of clip ${row.clip_id} is missing`);
  const expiresAtSeconds = Math.floor(now.getTime() / 1000) + PUBLIC_MEDIA_TTL_SECONDS;
  const expiresAt = new Date(expiresAtSeconds * 1000);
  const presigned = await deps.storage.presignedGet(key, PUBLIC_MEDIA_TTL_SECONDS, now);
  if (presigned) return { url: presigned, expiresAt };
  const token = issueToken(deps.appSecret, { clipRowId: row.id, expiresAtSeconds, version: videoVersion(key, object) });
  return { url: `${deps.env.publicUrl}${PUBLIC_MEDIA_PATH}${token}`, expiresAt };
}

/**
 * The stored key of the video a media link names, while the link holds: signed with this app's
 * secret, not expired, its clip still there with its media kept, and its video the very version
 * the link was made for. Anything else is a 404 with one message.
 */
export async function mediaLinkVideo(deps: Omit<MediaLinkDeps, 'env'>, token: string, now: Date = new Date()): Promise<string> {
  const claims = readToken(deps.appSecret, token, now);
  if (!claims) throw notFound(MEDIA_LINK_GONE);
  const row = await selectClipById(deps.db, claims.clipRowId);
  if (!row || row.media_expired_at) throw notFound(MEDIA_LINK_GONE);
  const key = clipKey(row.files_dir, 'video');
  const object = await deps.storage.head(key);
  if (!object || videoVersion(key, object) !== claims.version) throw notFound(MEDIA_LINK_GONE);
  return key;
}
