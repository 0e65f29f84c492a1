import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { instanceWorkDir, workRoot } from '../../server/src/domains/clips/files.ts';
import { INTERRUPTED_MESSAGE } from '../../server/src/domains/downloads/recovery.ts';
import { recoverDeadWork } from '../../server/src/jobs/recovery.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { childProcesses, processRuns } from '../helpers/app-process.ts';
import { waitUntil } from '../helpers/wait.ts';

/** "A few seconds": how long an ffmpeg may outlive the Node process that started it. */
const ORPHAN_LIMIT_MS = 3_000;

describe('kill -9 of the Node process alone, mid-render', () => {
  let twitch: FakeTwitch;
  let app: TestApp;
  let user: PublicUser;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    // A minute-long source: its vertical render takes far longer than this test waits.
    twitch = await startFakeTwitch({ media: { width: 640, height: 360, fps: 30, seconds: 60 } });
    twitch.addBroadcaster({ login: 'longclips' });
    twitch.addClip({ broadcaster: 'longclips', title: 'long one', view_count: 5, duration: 60 });
    app = await createTestApp(twitch.env);
    user = await app.deps.db.insertInto('users').values({ username: 'killer', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await app?.close();
    await twitch?.close();
  });

  it('leaves no ffmpeg behind, and recovery then ends the run and removes only that worker’s files', { timeout: 120_000 }, async () => {
    const api = callerFor(app.deps, { user }).api;
    await api.streamers.create({ name: 'longclips' });
    const worker = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../jobs/fixtures/worker-child.ts')], {
      env: { ...process.env, ...twitch.env, DATABASE_URL: app.database.url, DATA_DIR: app.deps.env.dataDir, WORKER_CONCURRENCY: '1', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = worker;
    await new Promise<void>((resolve, reject) => {
      worker.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('worker-ready') && resolve());
      worker.once('exit', (code) => reject(new Error(`worker child exited early (${code})`)));
    });
    await api.downloads.start({ name: 'longclips', concurrency: 1 });
    await waitUntil(async () => (await api.downloads.status()).longclips?.progress[0]?.stage, { until: (stage) => stage === 'rendering', message: 'the render to start' });
    const encoders = await waitUntil(
      async () => (await childProcesses(worker.pid!)).filter((process) => process.comm === 'ffmpeg'),
      { until: (found) => found.length > 0, message: 'ffmpeg under the worker' },
    );

    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGKILL');
    await exited;
    const survivors = await waitUntil(
      async () => {
        const running: number[] = [];
        for (const { pid } of encoders) if (await processRuns(pid)) running.push(pid);
        return running;
      },
      { until: (running) => running.length === 0, message: `the worker's ffmpeg (${encoders.map((encoder) => encoder.pid).join(', ')}) to die with it`, timeoutMs: ORPHAN_LIMIT_MS, intervalMs: 50 },
    );
    expect(survivors).toEqual([]);

    // The restarted app (a new instance on the same host) recovers what the dead one held.
    const deadInstance = (await app.deps.db.selectFrom('app_instances').select('id').where('pid', '=', worker.pid!).executeTakeFirstOrThrow()).id;
    expect(existsSync(instanceWorkDir(app.deps.env.dataDir, deadInstance))).toBe(true);
    const report = await recoverDeadWork(app.deps, { host: os.hostname(), pid: worker.pid!, instance: 'restarted' });
    expect(report).toMatchObject({ instances: 1, runs: 1 });
    expect((await api.downloads.status()).longclips).toMatchObject({ status: 'error', error: INTERRUPTED_MESSAGE, progress: [] });
    expect(existsSync(instanceWorkDir(app.deps.env.dataDir, deadInstance))).toBe(false);
    expect(await readdir(workRoot(app.deps.env.dataDir))).toEqual([]);
  });
});
