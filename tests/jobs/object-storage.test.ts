import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_EXPIRED_MESSAGE, type PublicUser, type StatusEntry } from '@clipshift/shared';
import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { startWorker } from '../../server/src/app/jobs.ts';
import { clipKey, mediaRoot } from '../../server/src/domains/clips/files.ts';
import { expirePostedMedia } from '../../server/src/domains/publishing/jobs/retention.ts';
import { createStorage, StorageMissing, type MediaStorage } from '../../server/src/platform/storage/index.ts';
import { loadEnv } from '../../server/src/platform/env.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';
import { waitUntil } from '../helpers/wait.ts';
import { libraryFilesOnDisk } from '../helpers/clips.ts';
import { renderLimitMs } from '../helpers/limits.ts';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A run of two clips, or one re-render. */
const RUN_WAIT_MS = renderLimitMs(2);

describe.each(['local', 's3'] as const)('the storage layer (STORAGE=%s)', (kind) => {
  let bucket: S3Server | undefined;
  let storage: MediaStorage;
  let scratch: string;

  beforeAll(async () => {
    if (kind === 's3') bucket = await startS3Server();
    scratch = await mkdtemp(path.join(os.tmpdir(), 'clipshift-storage-'));
    storage = createStorage(loadEnv({ DATA_DIR: path.join(scratch, 'data'), ...bucket?.env }));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
    await bucket?.close();
  });

  async function putBytes(key: string, bytes: Buffer): Promise<number> {
    const file = path.join(scratch, `put-${Math.random()}`);
    await writeFile(file, bytes);
    return storage.put(key, file, 'video/mp4');
  }

  it('puts a file (consuming it), answers its size, ranges and a local copy, and deletes it', async () => {
    const bytes = Buffer.from(Array.from({ length: 100_000 }, (_, index) => index % 253));
    expect(await putBytes('u1/c1/video.mp4', bytes)).toBe(bytes.length);
    const head = await storage.head('u1/c1/video.mp4');
    expect(head).toMatchObject({ size: bytes.length });
    expect(head!.etag).toMatch(/"/);
    expect(await text(await storage.read('u1/c1/video.mp4', { start: 10, end: 19 }))).toBe(bytes.subarray(10, 20).toString());
    const copy = await storage.localCopy('u1/c1/video.mp4', path.join(scratch, 'copy', 'video.mp4'));
    expect(sha(await readFile(copy))).toBe(sha(bytes));
    // Replacing changes the validator.
    await putBytes('u1/c1/video.mp4', Buffer.alloc(10, 1));
    expect((await storage.head('u1/c1/video.mp4'))!.etag).not.toBe(head!.etag);

    await storage.delete(['u1/c1/video.mp4', 'u1/c1/never-stored.jpg']);
    expect(await storage.head('u1/c1/video.mp4')).toBeNull();
    await expect(storage.read('u1/c1/video.mp4')).rejects.toBeInstanceOf(StorageMissing);
    await expect(storage.localCopy('u1/c1/video.mp4', path.join(scratch, 'gone.mp4'))).rejects.toBeInstanceOf(StorageMissing);
  });

  it('stores a large file whole (in parts with s3) and reads any range of it back', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 123);
    for (let index = 0; index < big.length; index += 4096) big.writeUInt32LE(index, index);
    await putBytes('u1/big/video.mp4', big);
    const head = await storage.head('u1/big/video.mp4');
    expect(head!.size).toBe(big.length);
    // Sent as a multipart upload of three 8 MiB parts.
    if (kind === 's3') expect(bucket!.requests.filter((request) => /^PUT \/[^?]+\?.*partNumber=\d/.test(request))).toHaveLength(3);
    const start = 8 * 1024 * 1024 - 5;
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read('u1/big/video.mp4', { start, end: start + 9 })) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(big.subarray(start, start + 10));
    await storage.delete(['u1/big/video.mp4']);
  });
});

describe('clips end to end with STORAGE=s3: runs, serving, re-renders, posts, deletion and retention', { timeout: 2 * RUN_WAIT_MS }, () => {
  let bucket: S3Server;
  let twitch: FakeTwitch;
  let tiktok: FakeTikTok;
  let app: TestApp;
  let server: TestServer;
  let worker: WorkerHandle;
  let user: PublicUser;
  let cookie: string;

  beforeAll(async () => {
    bucket = await startS3Server();
    twitch = await startFakeTwitch();
    tiktok = await startFakeTikTok({ pollsUntilDone: 0 });
    twitch.addBroadcaster({ login: 'bucketeer' });
    for (const title of ['first', 'second']) twitch.addClip({ broadcaster: 'bucketeer', title, view_count: 100, duration: 2 });
    tiktok.addUser({ openId: 'open-s3', displayName: 'Bucket Poster', username: 'bucketposter' });
    app = await createTestApp({ ...bucket.env, ...twitch.env, ...tiktok.env, MEDIA_RETENTION_DAYS: '30' });
    server = await startTestServer(app.deps);
    worker = await startWorker(app.deps, app.database.pool, 3);
    user = await app.deps.db.insertInto('users').values({ username: 's3user', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    const { createSession } = await import('../../server/src/domains/auth/service.ts');
    cookie = `clipshift_session=${(await createSession(app.deps.db, user.id)).token}`;
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await app?.close();
    await tiktok?.close();
    await twitch?.close();
    await bucket?.close();
  });

  const api = () => callerFor(app.deps, { user }).api;
  const get = (route: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${route}`, { headers: { cookie, ...headers } });
  const rowOf = (clipId: string) => app.deps.db.selectFrom('clips').selectAll().where('clip_id', '=', clipId).executeTakeFirstOrThrow();
  const objectBytes = async (key: string) => Buffer.from(await (await app.deps.storage.read(key)).toArray().then((parts) => Buffer.concat(parts as Buffer[])));

  it('a run renders in scratch and puts every file in the bucket, leaving nothing in DATA_DIR', async () => {
    await api().streamers.create({ name: 'bucketeer', clip_limit: 2 });
    await api().downloads.start({ name: 'bucketeer' });
    const finished = (entry: StatusEntry | undefined): entry is StatusEntry => entry !== undefined && !['downloading', 'stopping'].includes(entry.status);
    const entry = await waitUntil(async () => (await api().downloads.status()).bucketeer, { until: finished, message: 'the run', timeoutMs: RUN_WAIT_MS });
    expect(entry).toMatchObject({ status: 'completed', clips_downloaded: 2 });
    const rows = await app.deps.db.selectFrom('clips').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      for (const file of ['source', 'video', 'thumbnail'] as const) expect(await app.deps.storage.head(clipKey(row.files_dir, file)), `${file} of ${row.clip_id}`).not.toBeNull();
      expect(Number(row.aux_bytes)).toBeGreaterThan(0);
    }
    expect(await libraryFilesOnDisk(app.deps.env.dataDir)).toEqual([]);
  });

  it('serves the video from the bucket with validators, ranges, 304 and 416, and the thumbnail', async () => {
    const [row] = await app.deps.db.selectFrom('clips').selectAll().where('user_id', '=', user.id).orderBy('clip_id').execute();
    const stored = await objectBytes(clipKey(row!.files_dir, 'video'));
    const whole = await get(`/api/clips/${row!.clip_id}/video`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(sha(Buffer.from(await whole.arrayBuffer()))).toBe(sha(stored));
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^"/);

    const part = await get(`/api/clips/${row!.clip_id}/video`, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${stored.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(stored.subarray(100, 200));
    const tail = await get(`/api/clips/${row!.clip_id}/video`, { range: 'bytes=-10' });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(stored.subarray(stored.length - 10));

    // fetch adds Cache-Control: no-cache to conditional requests unless one is given.
    expect((await get(`/api/clips/${row!.clip_id}/video`, { 'if-none-match': etag, 'cache-control': 'max-age=0' })).status).toBe(304);
    const stale = await get(`/api/clips/${row!.clip_id}/video`, { range: 'bytes=0-9', 'if-range': '"an-older-version"' });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    expect((await get(`/api/clips/${row!.clip_id}/video`, { 'if-match': '"an-older-version"' })).status).toBe(412);

    const beyond = await get(`/api/clips/${row!.clip_id}/video`, { range: `bytes=${stored.length + 10}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${stored.length}`);
    expect(await beyond.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });

    const download = await get(`/api/clips/${row!.clip_id}/video?download=1`);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${row!.clip_id}.mp4"`);
    await download.arrayBuffer();
    const thumbnail = await get(`/api/clips/${row!.clip_id}/thumbnail`);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
    expect((await thumbnail.arrayBuffer()).byteLength).toBe((await app.deps.storage.head(clipKey(row!.files_dir, 'thumbnail')))!.size);
  });

  it('shows studio frames from one cached download of the source', async () => {
    const [row] = await app.deps.db.selectFrom('clips').selectAll().where('user_id', '=', user.id).orderBy('clip_id').execute();
    const sourceGets = () => bucket.requests.filter((request) => request.startsWith('GET ') && request.includes(`${row!.id}/source.mp4`)).length;
    const before = sourceGets();
    for (const t of ['0.2', '1']) {
      const frame = await get(`/api/clips/${row!.clip_id}/frame?t=${t}`);
      expect(frame.status).toBe(200);
      expect(frame.headers.get('content-type')).toBe('image/jpeg');
      await frame.arrayBuffer();
    }
    expect(sourceGets() - before).toBe(1);
  });

  it('renders a clip again from the bucket: the new video replaces the object', async () => {
    const [row] = await app.deps.db.selectFrom('clips').selectAll().where('user_id', '=', user.id).orderBy('clip_id').execute();
    const before = (await app.deps.storage.head(clipKey(row!.files_dir, 'video')))!;
    await api().studio.edit({ id: row!.clip_id, layout: 'crop', crop_focus: 0 });
    await api().subtitles.render({ id: row!.clip_id });
    await waitUntil(async () => (await api().clips.details({ id: row!.clip_id })).render.status, { until: (status) => status === 'idle' || status === 'failed', message: 'the re-render', timeoutMs: RUN_WAIT_MS });
    const after = (await app.deps.storage.head(clipKey(row!.files_dir, 'video')))!;
    expect(after.etag).not.toBe(before.etag);
    expect((await rowOf(row!.clip_id)).size_bytes).toBe(String(after.size));
    expect(await libraryFilesOnDisk(app.deps.env.dataDir)).toEqual([]);
  });

  it('posts to TikTok the bytes in the bucket, and leaves no copy behind', async () => {
    const [, row] = await app.deps.db.selectFrom('clips').selectAll().where('user_id', '=', user.id).orderBy('clip_id').execute();
    tiktok.setAuthorizingUser('open-s3');
    const { auth_url } = await api().tiktok.authUrl();
    const authorize = await fetch(auth_url, { redirect: 'manual' });
    const callback = new URL(authorize.headers.get('location')!);
    expect((await fetch(`${server.baseUrl}${callback.pathname}${callback.search}`)).status).toBe(200);
    const account = await app.deps.db.selectFrom('accounts').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const result = await api().posting.post({ id: row!.clip_id, description: 'from the bucket #s3', tiktok_account_ids: [account.id], privacy_level: 'SELF_ONLY' });
    const publishId = result.uploads[0]!.publish_id!;
    expect(sha(tiktok.uploads.get(publishId)!.bytes())).toBe(sha(await objectBytes(clipKey(row!.files_dir, 'video'))));
    await waitUntil(() => app.deps.db.selectFrom('uploads').select('status').where('publish_id', '=', publishId).executeTakeFirstOrThrow(), {
      until: (upload) => upload.status === 'published',
      message: 'the post',
    });
    const scratch = await readdir(path.join(mediaRoot(app.deps.env.dataDir), '.work'), { recursive: true }).catch(() => []);
    expect(scratch.filter((name) => String(name).includes('post-'))).toEqual([]);
  });

  it('retention deletes the posted clip’s source and video, keeps row and thumbnail, and says so everywhere', async () => {
    const [, row] = await app.deps.db.selectFrom('clips').selectAll().where('user_id', '=', user.id).orderBy('clip_id').execute();
    // Not yet 30 days: nothing goes.
    expect(await expirePostedMedia(app.deps)).toBe(0);
    await app.deps.db.updateTable('uploads').set({ updated_at: new Date(Date.now() - 31 * 86_400_000) }).where('clip_row_id', '=', row!.id).execute();
    expect(await expirePostedMedia(app.deps)).toBe(1);
    expect(await expirePostedMedia(app.deps)).toBe(0);

    expect(await app.deps.storage.head(clipKey(row!.files_dir, 'video'))).toBeNull();
    expect(await app.deps.storage.head(clipKey(row!.files_dir, 'source'))).toBeNull();
    expect(await app.deps.storage.head(clipKey(row!.files_dir, 'thumbnail'))).not.toBeNull();
    const details = await api().clips.details({ id: row!.clip_id });
    expect(details.media_expired_at).toEqual(expect.any(String));
    expect(details.posted_to).toEqual([{ account: '@bucketposter', status: 'published', percent: 100, platform: 'tiktok', external_id: null, stats: null, warning: null }]);
    const video = await get(`/api/clips/${row!.clip_id}/video`);
    expect(video.status).toBe(404);
    expect(await video.json()).toMatchObject({ message: MEDIA_EXPIRED_MESSAGE });
    expect((await get(`/api/clips/${row!.clip_id}/thumbnail`)).status).toBe(200);
    await expect(api().subtitles.render({ id: row!.clip_id })).rejects.toMatchObject({ code: 'CONFLICT', message: MEDIA_EXPIRED_MESSAGE });
    const logs = await app.deps.db.selectFrom('logs').select('message').where('logger', '=', 'retention').execute();
    expect(logs.map((log) => log.message)).toEqual(['Deleted the video files of 1 clip posted more than 30 days ago (MEDIA_RETENTION_DAYS); their details and thumbnails stay']);
  });

  it('deleting a clip deletes its objects', async () => {
    const [row] = await app.deps.db.selectFrom('clips').selectAll().where('user_id', '=', user.id).orderBy('clip_id').execute();
    await api().clips.delete({ id: row!.clip_id });
    for (const file of ['source', 'video', 'thumbnail'] as const) expect(await app.deps.storage.head(clipKey(row!.files_dir, file))).toBeNull();
  });
});

