import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { statusMap, type StatusEntry } from '@clipshift/shared';
import { clipKey } from '../../server/src/domains/clips/files.ts';
import { INTERRUPTED_MESSAGE } from '../../server/src/domains/downloads/recovery.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeTwitch, type FakeClip, type FakeTwitch } from '../fakes/twitch/index.ts';
import { childProcesses, processRuns, startAppProcess, workerRegistered, type AppProcess } from '../helpers/app-process.ts';
import { libraryFilesOnDisk } from '../helpers/clips.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';
import { waitUntil } from '../helpers/wait.ts';
import { bodyOf, RestClient } from '../rest/client.ts';
import { renderLimitMs } from '../helpers/limits.ts';

/** "A few seconds": how long an ffmpeg may outlive the Node process that started it (as kill-node.test.ts). */
const ORPHAN_LIMIT_MS = 3_000;
/**
 * A worker on the same host that died is seen by a live process's next heartbeat (every 5 s), which
 * queues the recovery pass at once; a limit only a hang reaches (the per-minute pass is a fallback).
 */
const RECOVERY_LIMIT_MS = 90_000;
const CREW = ['crewalpha', 'crewbravo', 'crewcharlie', 'crewdelta'];
const CLIPS_PER_STREAMER = 2;
/** Every crew clip rendered, two at a time (one process each), on a 2-core machine. */
const RUN_LIMIT_MS = renderLimitMs((CREW.length * CLIPS_PER_STREAMER) / 2);

const clipsPage = z.object({ clips: z.array(z.object({ clip_id: z.string(), streamer: z.string() })), total: z.number() });

describe('one web process and two worker processes on one database and one bucket, each with its own DATA_DIR', () => {
  let database: TestDatabase;
  let bucket: S3Server;
  let twitch: FakeTwitch;
  let tiktok: FakeTikTok;
  let web: AppProcess;
  let workers: AppProcess[] = [];
  const folders: string[] = [];
  const crewClips = new Map<string, FakeClip[]>();
  let quick: FakeClip;
  let long: FakeClip;
  let alice: RestClient;

  async function dataDir(name: string): Promise<string> {
    const folder = await mkdtemp(path.join(os.tmpdir(), `clipshift-many-${name}-`));
    folders.push(folder);
    return folder;
  }

  async function statuses(): Promise<Record<string, StatusEntry>> {
    return bodyOf(await alice.get('/api/downloads/status'), statusMap);
  }

  /** The instance id each worker process registered under. */
  async function instanceOf(worker: AppProcess): Promise<string> {
    return (await database.db.selectFrom('app_instances').select('id').where('pid', '=', worker.child.pid!).executeTakeFirstOrThrow()).id;
  }

  async function runsOf(names: readonly string[]) {
    return database.db
      .selectFrom('download_runs')
      .innerJoin('streamers', 'streamers.id', 'download_runs.streamer_id')
      .select(['download_runs.id', 'streamers.name', 'download_runs.status', 'download_runs.owner_instance', 'download_runs.owner_pid', 'download_runs.clips_downloaded', 'download_runs.progress'])
      .where('streamers.name', 'in', [...names])
      .orderBy('download_runs.started_at')
      .execute();
  }

  /** The account connected the way the browser's popup does it: authorize at TikTok, back to the web's callback. */
  async function connectTikTok(): Promise<string> {
    tiktok.addUser({ openId: 'open-alice', displayName: 'Alice', username: 'alice' });
    const { auth_url } = bodyOf(await alice.get('/api/tiktok/auth-url'), z.object({ auth_url: z.string() }));
    const authorize = await fetch(auth_url, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const back = new URL(authorize.headers.get('location')!);
    const callback = await alice.get(`${back.pathname}${back.search}`);
    expect(callback.text).toContain('"type":"tiktok-auth","success":true');
    const accounts = bodyOf(await alice.get('/api/tiktok/accounts'), z.array(z.object({ id: z.string() })));
    expect(accounts).toHaveLength(1);
    return accounts[0]!.id;
  }

  /** GET /api/clips/{id}/video from the web process, as the browser's player asks for it. */
  async function video(clipId: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${web.baseUrl}/api/clips/${clipId}/video`, { headers: { cookie: alice.cookie!, ...headers } });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  /** The rendered video as the bucket holds it (the clip's row says under which key). */
  async function storedVideo(clipId: string): Promise<Buffer> {
    const row = await database.db.selectFrom('clips').select('files_dir').where('clip_id', '=', clipId).executeTakeFirstOrThrow();
    return bucket.object(clipKey(row.files_dir, 'video'));
  }

  /** Every upload of the user with its clip's Twitch id, once none is still on its way. */
  async function finishedUploads(count: number) {
    const read = () =>
      database.db
        .selectFrom('uploads')
        .innerJoin('clips', 'clips.id', 'uploads.clip_row_id')
        .select(['clips.clip_id', 'uploads.status', 'uploads.publish_id', 'uploads.error'])
        .execute();
    return waitUntil(read, {
      until: (rows) => rows.length === count && rows.every((row) => row.status === 'published' || row.status === 'failed'),
      message: `${count} uploads to end`,
      timeoutMs: RUN_LIMIT_MS,
      intervalMs: 300,
    });
  }

  /** Jobs that failed an attempt (a retry would run them again): none may, in either test. */
  async function failedJobs() {
    const { rows } = await sql<{ task_identifier: string; last_error: string }>`select task_identifier, last_error from graphile_worker.jobs where last_error is not null`.execute(database.db);
    return rows;
  }

  async function settled(names: readonly string[], message: string): Promise<Record<string, StatusEntry>> {
    return waitUntil(statuses, {
      until: (map) => names.every((name) => map[name] && !['downloading', 'stopping'].includes(map[name].status)),
      message,
      timeoutMs: RUN_LIMIT_MS,
      intervalMs: 300,
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    bucket = await startS3Server();
    twitch = await startFakeTwitch();
    tiktok = await startFakeTikTok();
    let views = 1_000;
    for (const name of CREW) {
      twitch.addBroadcaster({ login: name });
      crewClips.set(name, Array.from({ length: CLIPS_PER_STREAMER }, (_, index) => twitch.addClip({ broadcaster: name, title: `${name} ${index + 1}`, view_count: (views -= 10), duration: 3 })));
    }
    // One short clip that the run saves at once and one whose render lasts long enough to kill its worker in.
    twitch.addBroadcaster({ login: 'marathon' });
    quick = twitch.addClip({ broadcaster: 'marathon', title: 'quick one', view_count: 900, duration: 3 });
    long = twitch.addClip({ broadcaster: 'marathon', title: 'long one', view_count: 800, duration: 20 });
    await twitch.setClipMedia(long.id, { width: 640, height: 360, fps: 30, seconds: 20 });

    const shared = { ...twitch.env, ...tiktok.env, ...bucket.env, DATABASE_URL: database.url, REGISTRATION_MODE: 'open', WORKER_CONCURRENCY: '2' };
    web = await startAppProcess({ ...shared, RUN_WORKER: 'false', DATA_DIR: await dataDir('web') });
    // Workers answer no HTTP; they share the web's PUBLIC_URL as an operator would configure them.
    const workerEnv = async (name: string) => ({ ...shared, RUN_WEB: 'false', PUBLIC_URL: web.baseUrl, DATA_DIR: await dataDir(name) });
    const envs = await Promise.all([workerEnv('worker-a'), workerEnv('worker-b')]);
    const started = await Promise.allSettled(envs.map((env) => startAppProcess(env, undefined, workerRegistered(database.db))));
    workers = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;

    alice = new RestClient(web.baseUrl);
    expect((await alice.post('/api/register', { username: 'alice', password: 'correct horse battery' })).status).toBe(201);
    await alice.login('alice', 'correct horse battery');
  });

  afterAll(async () => {
    await Promise.all([web, ...workers].map((process) => process?.kill()));
    await twitch?.close();
    await tiktok?.close();
    await database?.close();
    await bucket?.close();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('spreads the runs over both workers, runs each once, saves each clip once and posts each once', { timeout: RUN_LIMIT_MS + 120_000 }, async () => {
    const account = await connectTikTok();
    for (const name of CREW) {
      expect((await alice.post('/api/streamers', { name, clip_limit: CLIPS_PER_STREAMER, vertical: true, auto_publish: true })).status).toBe(201);
      expect((await alice.post(`/api/streamers/${name}/link-tiktok`, { tiktok_account_id: account })).status).toBe(200);
    }
    const instances = await Promise.all(workers.map(instanceOf));

    // Held transfers keep every claimed run busy: a worker at its WORKER_CONCURRENCY cannot take
    // more, so the other one must take the rest, whatever the timing of the notifications.
    twitch.holdTransfers();
    for (const name of CREW) expect((await alice.post(`/api/downloads/start/${name}`, { limit: CLIPS_PER_STREAMER })).status).toBe(202);
    await waitUntil(async () => new Set((await runsOf(CREW)).map((run) => run.owner_instance)), {
      until: (owners) => instances.every((instance) => owners.has(instance)),
      message: 'both workers to claim runs',
      timeoutMs: RUN_LIMIT_MS,
    });
    twitch.releaseTransfers();

    const finished = await settled(CREW, 'every run to end');
    for (const name of CREW) {
      expect(finished[name], name).toMatchObject({ status: 'completed', clips_downloaded: CLIPS_PER_STREAMER, clips_total: CLIPS_PER_STREAMER, clips_failed: 0, error: null });
    }
    const runs = await runsOf(CREW);
    expect(runs).toHaveLength(CREW.length);
    const owners = runs.map((run) => run.owner_instance);
    for (const instance of instances) expect(owners, 'each worker ran some of the runs').toContain(instance);
    expect(owners.every((owner) => owner !== null && instances.includes(owner))).toBe(true);

    // Each clip fetched from Twitch once (no run processed twice) and saved once.
    const transfers = twitch.requestsTo('cdn').filter((request) => request.method === 'GET');
    expect(transfers).toHaveLength(CREW.length * CLIPS_PER_STREAMER);
    expect(new Set(transfers.map((request) => request.path)).size).toBe(transfers.length);
    const library = bodyOf(await alice.get('/api/clips?limit=100'), clipsPage);
    const expected = [...crewClips.values()].flat().map((clip) => clip.id);
    expect(library.total).toBe(expected.length);
    expect(library.clips.map((clip) => clip.clip_id).sort()).toEqual([...expected].sort());

    // Whichever worker takes a clip's post job reads the video from the bucket, where the worker
    // that rendered it put it; with a DATA_DIR each, those are different machines' disks.
    const uploads = await finishedUploads(expected.length);
    expect(uploads.map((upload) => ({ clip: upload.clip_id, status: upload.status, error: upload.error })).sort((a, b) => a.clip.localeCompare(b.clip))).toEqual(
      [...expected].sort().map((clip) => ({ clip, status: 'published', error: null })),
    );
    expect(tiktok.requestsTo('video_init'), 'one post initialised per clip').toHaveLength(expected.length);
    for (const upload of uploads) {
      const stored = await storedVideo(upload.clip_id);
      expect(stored.length, upload.clip_id).toBeGreaterThan(1_000);
      expect(tiktok.uploads.get(upload.publish_id!)?.bytes().equals(stored), `${upload.clip_id}: TikTok got the video in the bucket`).toBe(true);
      // The web process, which rendered nothing, serves it.
      const served = await video(upload.clip_id);
      expect(served.status, upload.clip_id).toBe(200);
      expect(served.bytes.equals(stored), `${upload.clip_id}: the web serves the video in the bucket`).toBe(true);
    }
    const stored = await storedVideo(expected[0]!);
    const part = await video(expected[0]!, { range: 'bytes=100-1099' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${stored.length}`);
    expect(part.bytes.equals(stored.subarray(100, 1100))).toBe(true);
    // Nothing of the library is on any process's disk: the bucket and the database are all they share.
    for (const folder of folders) expect(await libraryFilesOnDisk(folder), folder).toEqual([]);
    expect(await failedJobs()).toEqual([]);
  });

  it('a worker killed mid-render: its ffmpeg dies with it, the other worker recovers its run, and a new start saves only the clip it lacked', { timeout: 2 * RUN_LIMIT_MS + RECOVERY_LIMIT_MS }, async () => {
    expect((await alice.post('/api/streamers', { name: 'marathon', clip_limit: 2, vertical: true })).status).toBe(201);
    expect((await alice.post('/api/downloads/start/marathon', { limit: 2, concurrency: 2 })).status).toBe(202);

    // The short clip is saved while the long one renders: the worker dies with work both done and half done.
    const claimed = await waitUntil(async () => (await runsOf(['marathon']))[0], {
      until: (run) => run !== undefined && run.clips_downloaded === 1 && run.progress.some((item) => item.clip_id === long.id && item.stage === 'rendering'),
      message: 'the long clip to render after the short one was saved',
      timeoutMs: RUN_LIMIT_MS,
      intervalMs: 50,
    });
    const victim = workers.find((worker) => worker.child.pid === claimed!.owner_pid);
    expect(victim, `a worker owns the run (owner pid ${claimed!.owner_pid})`).toBeDefined();
    if (!victim) return;
    const survivor = workers.find((worker) => worker !== victim)!;
    const victimInstance = await instanceOf(victim);
    const survivorInstance = await instanceOf(survivor);
    const encoders = await waitUntil(async () => (await childProcesses(victim.child.pid!)).filter((child) => child.comm === 'ffmpeg'), {
      until: (found) => found.length > 0,
      message: 'ffmpeg under the worker that claimed the run',
      intervalMs: 50,
    });

    victim.child.kill('SIGKILL');
    await victim.exited;
    const survivors = await waitUntil(
      async () => {
        const running: number[] = [];
        for (const { pid } of encoders) if (await processRuns(pid)) running.push(pid);
        return running;
      },
      { until: (running) => running.length === 0, message: `the killed worker's ffmpeg (${encoders.map((encoder) => encoder.pid).join(', ')}) to die with it`, timeoutMs: ORPHAN_LIMIT_MS, intervalMs: 50 },
    );
    expect(survivors).toEqual([]);

    // Only the surviving worker runs recovery (the web process has RUN_WORKER=false): a crash ends
    // a started run as interrupted (decision 0009: the work may be what crashed the process).
    const recovered = await waitUntil(async () => (await statuses()).marathon, {
      until: (entry) => entry?.status !== 'downloading',
      message: 'the surviving worker to recover the run of the killed one',
      timeoutMs: RECOVERY_LIMIT_MS,
      intervalMs: 500,
    });
    expect(recovered).toMatchObject({ status: 'error', error: INTERRUPTED_MESSAGE, clips_downloaded: 1, progress: [] });
    expect(await database.db.selectFrom('app_instances').select('id').where('id', '=', victimInstance).executeTakeFirst()).toBeUndefined();
    expect(survivor.alive()).toBe(true);

    expect((await alice.post('/api/downloads/start/marathon', { limit: 2, concurrency: 2 })).status).toBe(202);
    const rerun = (await settled(['marathon'], 'the new run to end')).marathon;
    expect(rerun).toMatchObject({ status: 'completed', clips_total: 1, clips_downloaded: 1, error: null });
    const runs = await runsOf(['marathon']);
    expect(runs.map((run) => run.owner_instance)).toEqual([victimInstance, survivorInstance]);

    const library = bodyOf(await alice.get('/api/clips?streamer=marathon&limit=100'), clipsPage);
    expect(library.clips.map((clip) => clip.clip_id).sort()).toEqual([quick.id, long.id].sort());
    const rows = await database.db.selectFrom('clips').select('clip_id').where('clip_id', 'in', [quick.id, long.id]).execute();
    expect(rows).toHaveLength(2);
    // The clip the killed worker saved outlives its machine: the web serves it from the bucket.
    for (const clip of [quick, long]) {
      const served = await video(clip.id);
      expect(served.status, clip.title).toBe(200);
      expect(served.bytes.equals(await storedVideo(clip.id)), clip.title).toBe(true);
    }
    expect(await failedJobs()).toEqual([]);
  });
});
