import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_EXPIRED_MESSAGE } from '@clipshift/shared';
import {
  CLIP_CONTENT_TYPES,
  clipKey,
  deleteClip,
  expireClipMedia,
  MEDIA_LINK_GONE,
  mediaLinkVideo,
  PUBLIC_MEDIA_TTL_SECONDS,
  publicMediaUrl,
  workRoot,
} from '../../server/src/domains/clips/service.ts';
import { createSession } from '../../server/src/domains/auth/service.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';
import { errorBody, rawRequest, SESSION_COOKIE } from './client.ts';

const TWO_HOURS_MS = PUBLIC_MEDIA_TTL_SECONDS * 1000;
/** Distinct bytes per clip, so that an answer shows which clip's video it is. */
const videoBytes = (seed: number, length = 50_000) => Buffer.from(Array.from({ length }, (_, index) => (index * seed + seed) % 251));
const GONE = errorBody('NOT_FOUND', MEDIA_LINK_GONE);

async function newUser(app: TestApp, username: string): Promise<string> {
  const user = await app.deps.db.insertInto('users').values({ username, password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
  return user.id;
}

describe('media links with local storage: GET /api/media/{token}', () => {
  let app: TestApp;
  let server: TestServer;
  let userId: string;
  const clips: Record<'a' | 'b', { id: string; clipId: string; bytes: Buffer }> = {} as never;

  beforeAll(async () => {
    app = await createTestApp();
    server = await startTestServer(app.deps);
    userId = await newUser(app, 'poster');
    for (const [name, seed] of [['a', 7], ['b', 13]] as const) {
      const bytes = videoBytes(seed);
      const { id } = await seedClip(app.deps, userId, { clip_id: `MediaClip${name.toUpperCase()}`, video: bytes });
      clips[name] = { id, clipId: `MediaClip${name.toUpperCase()}`, bytes };
    }
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });

  /** The link's path on the test server (it is made for PUBLIC_URL, which nothing listens on here). */
  function pathOf(url: string): string {
    expect(url.startsWith(`${app.deps.env.publicUrl}/api/media/`), url).toBe(true);
    return url.slice(app.deps.env.publicUrl.length);
  }
  const tokenOf = (url: string) => pathOf(url).slice('/api/media/'.length);
  const get = (route: string, headers: Record<string, string> = {}, method = 'GET') => rawRequest(server.baseUrl, method, route, { headers });
  const bytesOf = async (route: string, headers: Record<string, string> = {}) => {
    const reply = await fetch(`${server.baseUrl}${route}`, { headers });
    return { reply, bytes: Buffer.from(await reply.arrayBuffer()) };
  };

  it('makes a PUBLIC_URL link that expires in 2 hours and shows no stored key or user id', async () => {
    const now = new Date('2026-03-01T12:00:00.400Z');
    const link = await publicMediaUrl(app.deps, clips.a.id, { now });
    expect(link.expiresAt.toISOString()).toBe('2026-03-01T14:00:00.000Z');
    const token = tokenOf(link.url);
    expect(token).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(token).not.toContain(userId);
    expect(token).not.toContain('video.mp4');
  });

  it('serves the whole video without a cookie, with the headers a platform needs, and sets no cookie', async () => {
    const link = await publicMediaUrl(app.deps, clips.a.id);
    const { reply, bytes } = await bytesOf(pathOf(link.url));
    expect(reply.status).toBe(200);
    expect(bytes.equals(clips.a.bytes)).toBe(true);
    expect(reply.headers.get('content-type')).toBe('video/mp4');
    expect(reply.headers.get('content-length')).toBe(String(clips.a.bytes.length));
    expect(reply.headers.get('accept-ranges')).toBe('bytes');
    expect(reply.headers.get('cache-control')).toBe('private, max-age=300');
    expect(reply.headers.get('set-cookie')).toBeNull();
    // A session of whoever fetches changes nothing: the token alone decides.
    const session = await createSession(app.deps.db, await newUser(app, 'someone-else'));
    const withCookie = await bytesOf(pathOf(link.url), { cookie: `${SESSION_COOKIE}=${session.token}` });
    expect(withCookie.bytes.equals(clips.a.bytes)).toBe(true);
  });

  it('serves byte ranges (206), answers HEAD, and refuses a range past the end with 416', async () => {
    const route = pathOf((await publicMediaUrl(app.deps, clips.a.id)).url);
    const part = await bytesOf(route, { range: 'bytes=1000-1999' });
    expect(part.reply.status).toBe(206);
    expect(part.reply.headers.get('content-range')).toBe(`bytes 1000-1999/${clips.a.bytes.length}`);
    expect(part.reply.headers.get('content-length')).toBe('1000');
    expect(part.bytes.equals(clips.a.bytes.subarray(1000, 2000))).toBe(true);
    const tail = await bytesOf(route, { range: 'bytes=-10' });
    expect(tail.bytes.equals(clips.a.bytes.subarray(clips.a.bytes.length - 10))).toBe(true);

    const head = await get(route, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(clips.a.bytes.length));
    expect(head.headers['content-type']).toBe('video/mp4');
    expect(head.text).toBe('');

    const beyond = await get(route, { range: `bytes=${clips.a.bytes.length + 10}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${clips.a.bytes.length}`);
    expect(beyond.body).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
  });

  it('serves only the clip the token names: a token for A never reaches B, and changing the id inside fails', async () => {
    const tokenA = tokenOf((await publicMediaUrl(app.deps, clips.a.id)).url);
    const tokenB = tokenOf((await publicMediaUrl(app.deps, clips.b.id)).url);
    expect((await bytesOf(`/api/media/${tokenB}`)).bytes.equals(clips.b.bytes)).toBe(true);
    expect(tokenA.startsWith(clips.a.id)).toBe(true);
    const swapped = tokenA.replace(clips.a.id, clips.b.id);
    expect(await get(`/api/media/${swapped}`)).toMatchObject({ status: 404, body: GONE });
    // B's claims under A's signature, and the other way round.
    const [idB, expiresB, versionB] = tokenB.split('.');
    const signatureA = tokenA.split('.')[3];
    expect(await get(`/api/media/${idB}.${expiresB}.${versionB}.${signatureA}`)).toMatchObject({ status: 404, body: GONE });
  });

  it('refuses a changed, truncated, extended or foreign-signed token with the same 404', async () => {
    const token = tokenOf((await publicMediaUrl(app.deps, clips.a.id)).url);
    const [id, expires, version, signature] = token.split('.') as [string, string, string, string];
    const flip = (text: string, at: number) => `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    const later = String(Number(expires) + 86_400);
    const otherSecret = await publicMediaUrl({ ...app.deps, appSecret: 'another-secret-another-secret-0123456789' }, clips.a.id);
    const refused = [
      `${id}.${expires}.${version}.${flip(signature, 10)}`,
      `${id}.${later}.${version}.${signature}`,
      `${id}.${expires}.${flip(version, 3)}.${signature}`,
      token.slice(0, -1),
      token.slice(0, 40),
      `${token}A`,
      `${token}.x`,
      `${id}.${expires}.${version}`,
      tokenOf(otherSecret.url),
      'not-a-token',
      encodeURIComponent('../../../etc/passwd'),
      '..%2F..%2Fsecrets.json',
      'x'.repeat(5000),
    ];
    for (const candidate of refused) {
      const reply = await get(`/api/media/${candidate}`);
      expect({ candidate: candidate.slice(0, 80), status: reply.status, body: reply.body }).toEqual({ candidate: candidate.slice(0, 80), status: 404, body: GONE });
    }
    // The untouched token still works: the refusals were the changes.
    expect((await get(`/api/media/${token}`)).status).toBe(200);
  });

  it('expires 2 hours after it was made (the clock injected, not waited for)', async () => {
    const stillValid = await publicMediaUrl(app.deps, clips.a.id, { now: new Date(Date.now() - TWO_HOURS_MS + 60_000) });
    expect((await bytesOf(pathOf(stillValid.url))).bytes.equals(clips.a.bytes)).toBe(true);
    const expired = await publicMediaUrl(app.deps, clips.a.id, { now: new Date(Date.now() - TWO_HOURS_MS - 1_000) });
    expect(await get(pathOf(expired.url))).toMatchObject({ status: 404, body: GONE });

    // At the second it ends, and not a millisecond before.
    const made = new Date('2026-03-01T12:00:00.000Z');
    const link = await publicMediaUrl(app.deps, clips.a.id, { now: made });
    const token = tokenOf(link.url);
    await expect(mediaLinkVideo(app.deps, token, new Date(link.expiresAt.getTime() - 1))).resolves.toBeTypeOf('string');
    await expect(mediaLinkVideo(app.deps, token, link.expiresAt)).rejects.toMatchObject({ code: 'NOT_FOUND', message: MEDIA_LINK_GONE });
  });

  it('stops serving a video that was replaced (a re-render), while a new link serves the new one', async () => {
    const { id } = await seedClip(app.deps, userId, { clip_id: 'MediaClipRerendered', video: videoBytes(3) });
    const before = pathOf((await publicMediaUrl(app.deps, id)).url);
    expect((await get(before)).status).toBe(200);
    const row = await app.deps.db.selectFrom('clips').select('files_dir').where('id', '=', id).executeTakeFirstOrThrow();
    const rendered = videoBytes(5, 40_000);
    const scratch = await mkdtemp(path.join(workRoot(app.deps.env.dataDir), 'rerender-'));
    await writeFile(path.join(scratch, 'video.mp4'), rendered);
    await app.deps.storage.put(clipKey(row.files_dir, 'video'), path.join(scratch, 'video.mp4'), CLIP_CONTENT_TYPES.video);
    await rm(scratch, { recursive: true, force: true });
    expect(await get(before)).toMatchObject({ status: 404, body: GONE });
    const after = await bytesOf(pathOf((await publicMediaUrl(app.deps, id)).url));
    expect(after.bytes.equals(rendered)).toBe(true);
  });

  it('never writes the token into the log: a fault behind a valid link is logged with {token} in its place', async () => {
    expectErrorLogs(/failed: injected storage fault/);
    const token = tokenOf((await publicMediaUrl(app.deps, clips.a.id)).url);
    const failing = await startTestServer({ ...app.deps, storage: { ...app.deps.storage, head: () => Promise.reject(new Error('injected storage fault')) } });
    try {
      const reply = await rawRequest(failing.baseUrl, 'GET', `/api/media/${token}`);
      expect(reply.status).toBe(500);
      expect(reply.text).not.toContain(token);
    } finally {
      await failing.close();
    }
    const rows = await app.deps.db.selectFrom('logs').select('message').where('message', 'like', '%injected storage fault%').execute();
    expect(rows.map((row) => row.message)).toEqual(['GET /media/{token} failed: injected storage fault']);
  });

  it('answers 404 once the clip is deleted or its media expired, and will not make a link for them', async () => {
    const deleted = await seedClip(app.deps, userId, { clip_id: 'MediaClipDeleted', video: videoBytes(11) });
    const deletedLink = pathOf((await publicMediaUrl(app.deps, deleted.id)).url);
    expect((await get(deletedLink)).status).toBe(200);
    await deleteClip(app.deps.db, app.deps.storage, userId, 'MediaClipDeleted');
    expect(await get(deletedLink)).toMatchObject({ status: 404, body: GONE });
    await expect(publicMediaUrl(app.deps, deleted.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const retained = await seedClip(app.deps, userId, { clip_id: 'MediaClipRetained', video: videoBytes(17) });
    const retainedLink = pathOf((await publicMediaUrl(app.deps, retained.id)).url);
    expect(await expireClipMedia(app.deps.db, app.deps.storage, [retained.id])).toBe(1);
    expect(await get(retainedLink)).toMatchObject({ status: 404, body: GONE });
    await expect(publicMediaUrl(app.deps, retained.id)).rejects.toMatchObject({ code: 'CONFLICT', message: MEDIA_EXPIRED_MESSAGE });
  });
});

describe('media links with STORAGE=s3: a presigned GET URL', () => {
  let bucket: S3Server;
  let app: TestApp;
  let clip: { id: string; bytes: Buffer };

  beforeAll(async () => {
    bucket = await startS3Server();
    app = await createTestApp({ ...bucket.env });
    const userId = await newUser(app, 's3poster');
    const bytes = videoBytes(19);
    clip = { id: (await seedClip(app.deps, userId, { clip_id: 'BucketClip', video: bytes })).id, bytes };
  });
  afterAll(async () => {
    await app?.close();
    await bucket?.close();
  });

  it('is the bucket’s own URL, valid 2 hours (X-Amz-Expires=7200), fetching the bytes and ranges with no cookie', async () => {
    const now = new Date();
    const link = await publicMediaUrl(app.deps, clip.id, { now });
    const url = new URL(link.url);
    expect(link.url.startsWith(`${bucket.env.S3_ENDPOINT}/${bucket.env.S3_BUCKET}/`)).toBe(true);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('7200');
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(link.expiresAt.getTime()).toBe(Math.floor(now.getTime() / 1000) * 1000 + TWO_HOURS_MS);
    // Signed at the time given, so expiresAt is the bucket's own deadline.
    const signedAt = url.searchParams.get('X-Amz-Date')!;
    expect(signedAt).toBe(now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''));

    const whole = await fetch(link.url);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(clip.bytes)).toBe(true);
    const part = await fetch(link.url, { headers: { range: 'bytes=100-299' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(clip.bytes.subarray(100, 300))).toBe(true);

    // The signature covers the key: the same query on another object is refused by the bucket.
    const other = new URL(link.url);
    other.pathname = other.pathname.replace(/video\.mp4$/, 'source.mp4');
    const refused = await fetch(other);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('SignatureDoesNotMatch');
  });

  it('is refused by the bucket once its 2 hours are over', async () => {
    const link = await publicMediaUrl(app.deps, clip.id, { now: new Date(Date.now() - TWO_HOURS_MS - 60_000) });
    const refused = await fetch(link.url);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Request has expired');
  });
});
