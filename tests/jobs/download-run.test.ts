import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser, StatusEntry } from '@clipshift/shared';
import { workRoot } from '../../server/src/domains/clips/files.ts';
import { storedClipPath } from '../helpers/clips.ts';
import { clipLoudnessOf } from '../helpers/loudness.ts';
import { INTERRUPTED_MESSAGE } from '../../server/src/domains/downloads/recovery.ts';
import { recoverDeadWork } from '../../server/src/jobs/recovery.ts';
import { startWorker } from '../../server/src/app/jobs.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { expectErrorLogs, recordedErrorLogs } from '../helpers/error-logs.ts';
import { expectPlainWords } from '../helpers/plain-words.ts';
import { waitUntil } from '../helpers/wait.ts';
import { renderLimitMs } from '../helpers/limits.ts';

const execFileAsync = promisify(execFile);

interface StreamInfo {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  profile?: string;
  pix_fmt?: string;
}

async function probeStreams(ffprobe: string, file: string): Promise<StreamInfo[]> {
  const { stdout } = await execFileAsync(ffprobe, ['-v', 'error', '-print_format', 'json', '-show_streams', file]);
  return (JSON.parse(stdout) as { streams: StreamInfo[] }).streams;
}

/** MD5 of the video stream's packets: equal only if the stream was copied, not re-encoded. */
async function videoStreamHash(ffmpeg: string, file: string): Promise<string> {
  const { stdout } = await execFileAsync(ffmpeg, ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-']);
  return stdout.trim();
}

/** Every file (not folder) under `dir`: work folders may stay, their contents must not. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => !entry.isDirectory()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** A run downloads and renders real clips with ffmpeg on a shared machine: it may take a while. */
/** Runs of up to three clips. */
const RUN_WAIT_MS = renderLimitMs(3);

describe('download runs against a fake Twitch, with real ffmpeg', { timeout: 2 * RUN_WAIT_MS }, () => {
  let fake: FakeTwitch;
  let app: TestApp;
  let worker: WorkerHandle;
  let user: PublicUser;

  beforeAll(async () => {
    fake = await startFakeTwitch();
    fake.addBroadcaster({ login: 'shroud', display_name: 'shroud' });
    const game = fake.addGame({ name: 'VALORANT' });
    for (const [index, title] of ['ace clutch', 'flick', 'spray', 'no scope'].entries()) {
      fake.addClip({ broadcaster: 'shroud', title, view_count: 1000 - index * 100, game_id: game.id, duration: 3 });
    }
    fake.addBroadcaster({ login: 'poki' });
    for (const title of ['laugh', 'cat']) fake.addClip({ broadcaster: 'poki', title, view_count: 50 });
    fake.addBroadcaster({ login: 'crashy' });
    for (const title of ['one', 'two', 'three']) fake.addClip({ broadcaster: 'crashy', title, view_count: 10 });
    fake.addBroadcaster({ login: 'broken' });
    fake.addClip({ broadcaster: 'broken', title: 'never', view_count: 1 });
    fake.addBroadcaster({ login: 'slow' });
    fake.addClip({ broadcaster: 'slow', title: 'stalls', view_count: 1 });

    app = await createTestApp({ ...fake.env, WORKER_CONCURRENCY: '3' });
    worker = await startWorker(app.deps, app.database.pool, 3);
    user = await app.deps.db.insertInto('users').values({ username: 'runner', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await fake?.close();
  });

  const api = () => callerFor(app.deps, { user }).api;
  const statusOf = async (name: string): Promise<StatusEntry | undefined> => (await api().downloads.status())[name];
  const finished = (entry: StatusEntry | undefined): entry is StatusEntry => entry !== undefined && !['downloading', 'stopping'].includes(entry.status);

  it('refuses a streamer whose Twitch login does not exist', async () => {
    await expect(api().streamers.create({ name: 'nobody_here' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Twitch user nobody_here does not exist' });
  });

  it('downloads the most viewed clips and renders them 1080x1920 H.264 + AAC', async () => {
    // The blurred background asked for: the fake's testsrc2 picture has a box whose inside moves on
    // its own, which the automatic layout may take for a camera (demo-seed tests cover `auto`).
    await api().streamers.create({ name: 'shroud', clip_limit: 2, layout: 'blur' });
    await api().downloads.start({ name: 'shroud' });
    const entry = await waitUntil(() => statusOf('shroud'), { until: finished, message: 'the shroud run', timeoutMs: RUN_WAIT_MS });
    expect(entry).toMatchObject({ status: 'completed', clips_downloaded: 2, clips_total: 2, clips_failed: 0, error: null, progress: [] });

    const rows = await app.deps.db.selectFrom('clips').selectAll().where('streamer_name', '=', 'shroud').orderBy('view_count', 'desc').execute();
    expect(rows.map((row) => row.title)).toEqual(['ace clutch', 'flick']);
    for (const row of rows) {
      expect(row).toMatchObject({ format_type: 'vertical', layout: 'blur', width: 1080, height: 1920, game_name: 'VALORANT', broadcaster_name: 'shroud' });
      const streams = await probeStreams(app.deps.media.ffprobe, storedClipPath(app.deps.env.dataDir, row.files_dir, 'video'));
      expect(streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 1080, height: 1920, profile: 'High', pix_fmt: 'yuv420p' });
      expect(streams.find((stream) => stream.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
      expect(existsSync(storedClipPath(app.deps.env.dataDir, row.files_dir, 'thumbnail'))).toBe(true);
      expect(existsSync(storedClipPath(app.deps.env.dataDir, row.files_dir, 'source'))).toBe(true);
      // Measured on the rendered video when the run saved it.
      const loudness = await clipLoudnessOf(app.deps.media.ffmpeg, storedClipPath(app.deps.env.dataDir, row.files_dir, 'video'));
      expect((await api().clips.details({ id: row.clip_id })).loudness).toEqual(loudness);
    }

    // A second run skips what the library has and takes the next most viewed.
    await api().downloads.start({ name: 'shroud', limit: 1 });
    await waitUntil(() => statusOf('shroud'), { until: finished, message: 'the second shroud run', timeoutMs: RUN_WAIT_MS });
    const titles = (await app.deps.db.selectFrom('clips').select('title').where('streamer_name', '=', 'shroud').execute()).map((row) => row.title);
    expect(titles.sort()).toEqual(['ace clutch', 'flick', 'spray']);
    const logs = (await app.deps.db.selectFrom('logs').select('message').where('logger', '=', 'downloads').execute()).map((row) => row.message);
    expect(logs).toContain('Downloaded 2 clips for shroud');
  });

  it('keeps horizontal clips as the untouched source streams', async () => {
    await api().streamers.create({ name: 'poki', vertical: false });
    await api().downloads.start({ name: 'poki', limit: 1 });
    await waitUntil(() => statusOf('poki'), { until: finished, message: 'the poki run', timeoutMs: RUN_WAIT_MS });
    const row = await app.deps.db.selectFrom('clips').selectAll().where('streamer_name', '=', 'poki').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ format_type: 'horizontal', width: 640, height: 360 });
    const video = storedClipPath(app.deps.env.dataDir, row.files_dir, 'video');
    const source = storedClipPath(app.deps.env.dataDir, row.files_dir, 'source');
    expect(await videoStreamHash(app.deps.media.ffmpeg, video)).toBe(await videoStreamHash(app.deps.media.ffmpeg, source));
    expect((await probeStreams(app.deps.media.ffprobe, video)).map((stream) => stream.codec_name)).toEqual(
      (await probeStreams(app.deps.media.ffprobe, source)).map((stream) => stream.codec_name),
    );
  });

  it('ends in error with the reason when every clip fails', async () => {
    expectErrorLogs(/PersistedQueryNotFound/);
    await api().streamers.create({ name: 'broken' });
    fake.setAcceptedHashes([]);
    try {
      await api().downloads.start({ name: 'broken' });
      const entry = await waitUntil(() => statusOf('broken'), { until: finished, message: 'the broken run', timeoutMs: RUN_WAIT_MS });
      expect(entry.status).toBe('error');
      expect(entry.error).toMatch(/^Every clip failed\. First reason: .*PersistedQueryNotFound/);
      expect(entry.clips_failed).toBe(1);
    } finally {
      fake.setAcceptedHashes([fake.hashes.current, fake.hashes.legacy]);
    }
  });

  it('saves a clip whose Twitch texts hold NUL bytes and lone surrogates, cleaned, with its progress moving', async () => {
    // PostgreSQL text refuses NUL, and jsonb (the run's progress) refuses NUL and lone surrogates too.
    const game = fake.addGame({ name: 'Chess\u0000 Masters' });
    fake.addBroadcaster({ login: 'nulls', display_name: 'Nul\u0000ls' });
    fake.addClip({ broadcaster: 'nulls', title: 'ace\u0000 clutch \ud800!', creator_name: 'Mr\u0000Clipper', game_id: game.id, view_count: 5 });
    await api().streamers.create({ name: 'nulls' });
    fake.holdTransfers();
    try {
      await api().downloads.start({ name: 'nulls', limit: 1 });
      const running = await waitUntil(() => statusOf('nulls'), { until: (entry) => entry?.progress[0]?.stage === 'downloading', message: 'the clip to show in the run’s progress' });
      expect(running?.progress[0]?.title).toBe('ace clutch \ufffd!');
    } finally {
      fake.releaseTransfers();
    }
    const entry = await waitUntil(() => statusOf('nulls'), { until: finished, message: 'the nulls run', timeoutMs: RUN_WAIT_MS });
    expect(entry).toMatchObject({ status: 'completed', clips_downloaded: 1, clips_failed: 0, error: null });
    const row = await app.deps.db.selectFrom('clips').selectAll().where('streamer_name', '=', 'nulls').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: 'ace clutch \ufffd!', game_name: 'Chess Masters', broadcaster_name: 'Nulls', creator_name: 'MrClipper' });
  }, RUN_WAIT_MS);

  it('tells the user why every clip failed in plain words, while the server log keeps the detail', async () => {
    expectErrorLogs(/ffprobe could not read the file/);
    fake.addBroadcaster({ login: 'damaged' });
    fake.addClip({ broadcaster: 'damaged', title: 'garbled', view_count: 1 });
    await api().streamers.create({ name: 'damaged' });
    // Twitch's CDN sends the whole file, but of bytes that are no video: ffprobe names the work file.
    fake.failures.next('cdn', 'corrupt_transfer');
    try {
      await api().downloads.start({ name: 'damaged' });
      const entry = await waitUntil(() => statusOf('damaged'), { until: finished, message: 'the damaged run', timeoutMs: RUN_WAIT_MS });
      expect(entry).toMatchObject({ status: 'error', clips_failed: 1 });
      expect(entry.error).toMatch(/^Every clip failed\. First reason: ffprobe could not read the file: .*\bsource\.mp4: Invalid data/);
      expectPlainWords(entry.error, 'the run error', [app.deps.env.dataDir]);
    } finally {
      fake.failures.clear();
    }
    const rows = await api().logs.list({ limit: 500 });
    expect(rows.map((row) => row.message)).toContainEqual(expect.stringMatching(/^Clip "garbled" \(\S+\) of damaged failed: ffprobe could not read the file: .*\bsource\.mp4: Invalid data/));
    for (const row of rows) {
      expectPlainWords(row.message, `the log message "${row.message}"`, [app.deps.env.dataDir]);
      expectPlainWords(row.exception, `the exception of "${row.message}"`, [app.deps.env.dataDir]);
    }
    // The server's own log has where it happened.
    expect(recordedErrorLogs().some((line) => line.error?.includes(app.deps.env.dataDir))).toBe(true);
  }, RUN_WAIT_MS);

  it('stops mid-transfer: status stopped, no half-written file, nothing saved', async () => {
    await api().streamers.create({ name: 'slow' });
    fake.failures.next('cdn', 'stalled_transfer', { times: 5 });
    await api().downloads.start({ name: 'slow' });
    const running = await waitUntil(() => statusOf('slow'), { until: (entry) => entry?.progress[0]?.stage === 'downloading', message: 'the slow transfer', timeoutMs: RUN_WAIT_MS });
    expect(running?.status).toBe('downloading');
    await api().downloads.stop({ name: 'slow' });
    expect((await statusOf('slow'))?.status).toBe('stopping');
    const entry = await waitUntil(() => statusOf('slow'), { until: finished, message: 'the stop' });
    expect(entry).toMatchObject({ status: 'stopped', clips_downloaded: 0 });
    expect(await app.deps.db.selectFrom('clips').select('id').where('streamer_name', '=', 'slow').execute()).toEqual([]);
    expect(existsSync(path.join(workRoot(app.deps.env.dataDir)))).toBe(true);
    expect(await filesUnder(workRoot(app.deps.env.dataDir))).toEqual([]);
    fake.failures.clear();
  });

  it('recovers a run whose worker was SIGKILLed, without duplicates or partial files', async () => {
    await api().streamers.create({ name: 'crashy', clip_limit: 3 });
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/worker-child.ts')], {
      env: { ...process.env, ...fake.env, DATABASE_URL: app.database.url, DATA_DIR: app.deps.env.dataDir, WORKER_CONCURRENCY: '1', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('worker-ready') && resolve());
        child.once('exit', (code) => reject(new Error(`worker child exited early (${code})`)));
      });
      // Our in-process worker must not take this run: stop it until the child has claimed it.
      await worker.stop();
      await api().downloads.start({ name: 'crashy', concurrency: 1 });
      await waitUntil(() => statusOf('crashy'), { until: (entry) => (entry?.clips_downloaded ?? 0) >= 1 && entry?.status === 'downloading', message: 'a first crashy clip', timeoutMs: RUN_WAIT_MS });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    } catch (error) {
      worker = await startWorker(app.deps, app.database.pool, 3);
      throw error;
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }

    // The restarted app (a new instance on the same host) recovers the run at start-up, before its
    // worker runs: a worker started first could find the dead run in its own recovery cron.
    let report: Awaited<ReturnType<typeof recoverDeadWork>>;
    try {
      // The child's pid is gone on this host: no need to trust silence, which would also take this
      // file's in-process worker (registered without main.ts's heartbeat) for dead once a minute has passed.
      report = await recoverDeadWork(app.deps, { host: (await import('node:os')).hostname(), pid: child.pid!, instance: 'restarted' }, { staleVerdicts: false });
    } finally {
      worker = await startWorker(app.deps, app.database.pool, 3);
    }
    expect(report).toMatchObject({ instances: 1, runs: 1 });
    const entry = await statusOf('crashy');
    expect(entry).toMatchObject({ status: 'error', error: INTERRUPTED_MESSAGE, progress: [] });
    const saved = await app.deps.db.selectFrom('clips').selectAll().where('streamer_name', '=', 'crashy').execute();
    expect(saved.length).toBe(entry!.clips_downloaded);
    for (const row of saved) expect(existsSync(storedClipPath(app.deps.env.dataDir, row.files_dir, 'video'))).toBe(true);
    expect(await filesUnder(workRoot(app.deps.env.dataDir))).toEqual([]);

    // Starting again fetches the rest; no clip exists twice.
    await api().downloads.start({ name: 'crashy' });
    const again = await waitUntil(() => statusOf('crashy'), { until: finished, message: 'the crashy rerun', timeoutMs: RUN_WAIT_MS });
    expect(again.status).toBe('completed');
    const titles = (await app.deps.db.selectFrom('clips').select('title').where('streamer_name', '=', 'crashy').execute()).map((row) => row.title).sort();
    expect(titles).toEqual(['one', 'three', 'two']);
  }, 3 * RUN_WAIT_MS); // a second worker process starts (tsx compiles it), renders and is killed; then two runs
});
