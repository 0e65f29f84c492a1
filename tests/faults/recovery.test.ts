import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { workRoot } from '../../server/src/domains/clips/files.ts';
import { PROCESS_IDENTITY } from '../../server/src/platform/identity.ts';
import { RECOVER_JOB } from '../../server/src/platform/queue/contracts.ts';
import { runJobKey, startRun } from '../../server/src/domains/downloads/service.ts';
import { enqueue, removeJob } from '../../server/src/platform/queue/queue.ts';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { recoverDeadWork } from '../../server/src/jobs/recovery.ts';
import { requestSubtitles, subtitleJobKey } from '../../server/src/domains/subtitles/service.ts';
import { claimQueuedRequest } from '../../server/src/domains/subtitles/queries.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai/index.ts';
import { clipMedia, startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { processRuns } from '../helpers/app-process.ts';
import { waitUntil } from '../helpers/wait.ts';
import { seedClip } from '../helpers/clips.ts';
import { renderLimitMs } from '../helpers/limits.ts';

const execFileAsync = promisify(execFile);

/** A pid that certainly belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** Folders named `name` anywhere under `dir`. */
async function foldersNamed(dir: string, name: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory() && entry.name === name).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('recovery only touches the work of dead processes', () => {
  let twitch: FakeTwitch;
  let openai: FakeOpenAi;
  let app: TestApp;
  let worker: WorkerHandle | undefined;
  let user: PublicUser;

  /** One pass of the per-minute recovery, queued as the cron queues it and run by the worker. */
  async function runRecoveryTick(): Promise<void> {
    await enqueue(app.deps.db, RECOVER_JOB, {});
    await waitUntil(
      async () => (await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = ${RECOVER_JOB.name}`.execute(app.deps.db)).rows[0]!.n,
      { until: (left) => left === 0, message: 'the recovery pass' },
    );
  }

  beforeAll(async () => {
    twitch = await startFakeTwitch();
    twitch.addBroadcaster({ login: 'orphan' });
    for (const title of ['a', 'b']) twitch.addClip({ broadcaster: 'orphan', title, view_count: 10 });
    twitch.addBroadcaster({ login: 'lostjob' });
    twitch.addClip({ broadcaster: 'lostjob', title: 'c', view_count: 10 });
    openai = await startFakeOpenAi();
    app = await createTestApp({ ...twitch.env, TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: openai.url, WHISPER_MODEL: 'whisper-1' });
    user = await app.deps.db.insertInto('users').values({ username: 'keeper', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  });
  beforeEach(() => {
    twitch.reset();
    openai.reset();
  });
  afterAll(async () => {
    openai?.release();
    await worker?.stop();
    await app?.close();
    await openai?.close();
    await twitch?.close();
  });

  it('lets a subtitle job that outlives two recovery ticks finish, its work folder untouched', async () => {
    worker = await startWorker(app.deps, app.database.pool, 3);
    const { id } = await seedClip(app.deps, user.id, { clip_id: 'SlowWords', video: await readFile(await clipMedia()) });
    openai.hold();
    const asked = callerFor(app.deps, { user }).api.subtitles.generate({ id: 'SlowWords' });
    const request = await waitUntil(
      () => app.deps.db.selectFrom('subtitle_requests').select(['id', 'status']).where('clip_row_id', '=', id).executeTakeFirst(),
      { until: (row) => row?.status === 'running' && openai.pending() === 1, message: 'the transcription to be under way' },
    );
    const folder = `subtitles-${request!.id}`;
    expect(await foldersNamed(workRoot(app.deps.env.dataDir), folder)).toHaveLength(1);

    await runRecoveryTick();
    await runRecoveryTick();
    expect(await foldersNamed(workRoot(app.deps.env.dataDir), folder)).toHaveLength(1);
    expect(openai.pending()).toBe(1);

    openai.release();
    await expect(asked).resolves.toMatchObject({ ok: true });
    const row = await app.deps.db.selectFrom('clips').select(['subtitled', 'transcript']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.subtitled).toBe(true);
  });

  it('resumes a run whose worker died between locking its job and claiming the run', async () => {
    await worker?.stop();
    worker = undefined;
    const api = callerFor(app.deps, { user }).api;
    await api.streamers.create({ name: 'orphan', clip_limit: 2 });
    const { run } = await startRun(app.deps.db, user.id, { name: 'orphan' }, { trigger: 'manual', maxConcurrency: 2 });
    // What graphile-worker's get_job did in a process that then died before claimRun ran. Locking a
    // job has no public API (graphile-worker dropped its get_job SQL function and locks from its
    // JS), so this one write goes to its table.
    await app.deps.db.insertInto('app_instances').values({ id: 'dead-before-claim', host: os.hostname(), pid: await deadPid(), worker_pool_ids: ['pool-dead-before-claim'] }).execute();
    await sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'pool-dead-before-claim', attempts = attempts + 1 where key = ${runJobKey(run.id)}`.execute(app.deps.db);

    worker = await startWorker(app.deps, app.database.pool, 3);
    await runRecoveryTick();
    const done = await waitUntil(
      () => app.deps.db.selectFrom('download_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow(),
      { until: (row) => !['downloading', 'stopping'].includes(row.status), message: 'the resumed run', timeoutMs: renderLimitMs(2) },
    );
    expect(done).toMatchObject({ status: 'completed', clips_downloaded: 2, error: null });
    const jobs = await sql<{ key: string }>`select key from graphile_worker.jobs where key = ${runJobKey(run.id)}`.execute(app.deps.db);
    expect(jobs.rows).toEqual([]);
    expect(await app.deps.db.selectFrom('app_instances').select('id').where('id', '=', 'dead-before-claim').execute()).toEqual([]);
  });

  it('ends a subtitle job killed mid-way as failed and leaves no dead graphile-worker row behind', async () => {
    await worker?.stop();
    worker = undefined;
    await seedClip(app.deps, user.id, { clip_id: 'KilledWords', video: await readFile(await clipMedia()) });
    const requestId = await requestSubtitles(app.deps.db, user.id, 'KilledWords', undefined);
    // What a worker that was then SIGKILLed mid-transcription left: graphile-worker's lock on the job
    // (attempts counted, as its get_job does; locking has no public API, so this write goes to its
    // table) and the request claimed by that process.
    const dead = { host: os.hostname(), pid: await deadPid(), instance: 'dead-mid-subtitles' };
    await app.deps.db.insertInto('app_instances').values({ id: dead.instance, host: dead.host, pid: dead.pid, worker_pool_ids: ['pool-dead-mid-subtitles'] }).execute();
    await sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'pool-dead-mid-subtitles', attempts = attempts + 1 where key = ${subtitleJobKey(requestId)}`.execute(app.deps.db);
    expect(await claimQueuedRequest(app.deps.db, requestId, dead)).toBeDefined();

    const report = await recoverDeadWork(app.deps, { host: os.hostname(), pid: process.pid, instance: 'a-recovering-instance' }, { staleVerdicts: false });
    expect(report.subtitles).toBe(1);
    const request = await app.deps.db.selectFrom('subtitle_requests').select(['status', 'message']).where('id', '=', requestId).executeTakeFirstOrThrow();
    expect(request).toEqual({ status: 'failed', message: 'Subtitle generation was interrupted by a restart. Please try again.' });
    const jobs = await sql<{ key: string }>`select key from graphile_worker.jobs where key = ${subtitleJobKey(requestId)}`.execute(app.deps.db);
    expect(jobs.rows).toEqual([]);
  });

  it('ends a run nobody claimed whose job is gone, saying so', async () => {
    await worker?.stop();
    worker = undefined;
    await callerFor(app.deps, { user }).api.streamers.create({ name: 'lostjob' });
    const { run } = await startRun(app.deps.db, user.id, { name: 'lostjob' }, { trigger: 'manual', maxConcurrency: 2 });
    await removeJob(app.deps.db, runJobKey(run.id));

    worker = await startWorker(app.deps, app.database.pool, 3);
    await runRecoveryTick();
    const row = await app.deps.db.selectFrom('download_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('error');
    expect(row.error).toMatch(/never started/);
  });

  it('kills what a dead process left running in its work folder before deleting it, and keeps live folders', async () => {
    const dead = 'instance-that-died';
    await app.deps.db.insertInto('app_instances').values({ id: dead, host: os.hostname(), pid: await deadPid() }).execute();
    const deadFolder = path.join(workRoot(app.deps.env.dataDir), dead, 'some-run');
    await mkdir(deadFolder, { recursive: true });
    // Stands for an ffmpeg that outlived its parent (no setpriv): it names the folder it writes to.
    const leftover = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', path.join(deadFolder, 'video.mp4')], { detached: true, stdio: 'ignore' });
    leftover.unref();
    await waitUntil(async () => (await execFileAsync('cat', [`/proc/${leftover.pid}/cmdline`])).stdout, { until: (text) => text.includes(deadFolder), message: 'the leftover process' });
    worker ??= await startWorker(app.deps, app.database.pool, 3);
    const liveFolder = path.join(workRoot(app.deps.env.dataDir), 'live-elsewhere', 'a-run');
    await app.deps.db.insertInto('app_instances').values({ id: 'live-elsewhere', host: 'another-host', pid: 1 }).execute();
    await mkdir(liveFolder, { recursive: true });
    try {
      await runRecoveryTick();
      expect(await processRuns(leftover.pid!)).toBe(false);
      expect(existsSync(path.join(workRoot(app.deps.env.dataDir), dead))).toBe(false);
      expect(existsSync(liveFolder)).toBe(true);
    } finally {
      if (await processRuns(leftover.pid!)) process.kill(leftover.pid!, 'SIGKILL');
    }
  });

  it("never kills or deletes its own process's work, even when its app_instances row is gone", async () => {
    worker ??= await startWorker(app.deps, app.database.pool, 3);
    const own = path.join(workRoot(app.deps.env.dataDir), PROCESS_IDENTITY.instance, 'subtitles-in-progress');
    await mkdir(own, { recursive: true });
    // Another process's recovery took this one for dead (a worker without main.ts's heartbeat goes
    // silent) and removed its row: the folder is no registered process's any more.
    await app.deps.db.deleteFrom('app_instances').where('id', '=', PROCESS_IDENTITY.instance).execute();
    // Stands for this process's ffmpeg, writing into its own folder.
    const encoder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', path.join(own, 'video.mp4')], { detached: true, stdio: 'ignore' });
    encoder.unref();
    await waitUntil(async () => (await execFileAsync('cat', [`/proc/${encoder.pid}/cmdline`])).stdout, { until: (text) => text.includes(own), message: 'the encoder process' });
    try {
      await runRecoveryTick();
      expect(await processRuns(encoder.pid!)).toBe(true);
      expect(existsSync(own)).toBe(true);
    } finally {
      if (await processRuns(encoder.pid!)) process.kill(encoder.pid!, 'SIGKILL');
    }
  });
});
