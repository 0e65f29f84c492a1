import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { JobHelpers } from 'graphile-worker';
import { sql } from 'kysely';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveClip } from '../../server/src/domains/clips/service.ts';
import { probe, renderClip } from '../../server/src/engines/media/index.ts';
import { toTaskList } from '../../server/src/jobs/adapter.ts';
import { defineJob } from '../../server/src/platform/queue/define.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';

const execFileAsync = promisify(execFile);
const TOKEN = 'metrics-test-token-0123456789';

/** The value of one series in Prometheus text, 0 when absent (a counter not yet incremented). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).match(/^\{(.*)\}/)?.[1] ?? '';
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

describe('GET /api/metrics', () => {
  let app: TestApp;
  let server: TestServer;
  let off: TestApp;
  let offServer: TestServer;

  const scrape = async (authorization = `Bearer ${TOKEN}`) => {
    const response = await fetch(`${server.baseUrl}/api/metrics`, { headers: { authorization } });
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    app = await createTestApp({ METRICS_TOKEN: TOKEN });
    server = await startTestServer(app.deps);
    off = await createTestApp();
    offServer = await startTestServer(off.deps);
  });
  afterAll(async () => {
    await server?.close();
    await offServer?.close();
    await app?.close();
    await off?.close();
  });

  it('is off (404, the JSON error of any unknown route) while METRICS_TOKEN is unset', async () => {
    const response = await fetch(`${offServer.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers 401 without the token, with a wrong one or another scheme; Prometheus text with it', async () => {
    for (const authorization of ['', `Bearer ${TOKEN}x`, 'Bearer short', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, TOKEN]) {
      const response = await fetch(`${server.baseUrl}/api/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringContaining('METRICS_TOKEN') });
    }
    const response = await fetch(`${server.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('# TYPE clipshift_http_request_duration_seconds histogram');
    expect(text).toContain('clipshift_process_cpu_seconds_total');
    expect(sample(text, 'clipshift_database_up')).toBe(1);
  });

  it('counts jobs by task and state across the queue', async () => {
    const add = async (task: string, runAt: Date | null = null) =>
      (await sql<{ id: string }>`select id from graphile_worker.add_job(${task}, '{}'::json, run_at => ${runAt}::timestamptz, max_attempts => 3)`.execute(app.deps.db)).rows[0]!.id;
    await add('metrics/a');
    await add('metrics/a');
    await add('metrics/a', new Date(Date.now() + 3_600_000));
    const running = await add('metrics/b');
    const failed = await add('metrics/b');
    const retrying = await add('metrics/b');
    await sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'metrics-test-pool' where id = ${running}`.execute(app.deps.db);
    await sql`update graphile_worker._private_jobs set attempts = 3, last_error = 'gave up' where id = ${failed}`.execute(app.deps.db);
    await sql`update graphile_worker._private_jobs set attempts = 1, last_error = 'once', run_at = now() + interval '1 hour' where id = ${retrying}`.execute(app.deps.db);

    const text = await scrape();
    expect(sample(text, 'clipshift_jobs', { task: 'metrics/a', state: 'queued' })).toBe(2);
    expect(sample(text, 'clipshift_jobs', { task: 'metrics/a', state: 'scheduled' })).toBe(1);
    expect(sample(text, 'clipshift_jobs', { task: 'metrics/b', state: 'running' })).toBe(1);
    expect(sample(text, 'clipshift_jobs', { task: 'metrics/b', state: 'failed' })).toBe(1);
    expect(sample(text, 'clipshift_jobs', { task: 'metrics/b', state: 'retrying' })).toBe(1);

    // A job that has gone leaves no stale series behind.
    await sql`delete from graphile_worker._private_jobs where id = ${running}`.execute(app.deps.db);
    expect(sample(await scrape(), 'clipshift_jobs', { task: 'metrics/b', state: 'running' })).toBe(0);
  });

  it('labels HTTP durations with the matched route pattern, never the raw URL', async () => {
    const ids = ['first-raw-id', 'second-raw-id', 'third-raw-id'];
    for (const id of ids) await fetch(`${server.baseUrl}/api/clips/${id}/video`);
    await fetch(`${server.baseUrl}/api/streamers/raw-streamer-name`, { method: 'DELETE', headers: { origin: 'http://localhost:3000' } });
    await fetch(`${server.baseUrl}/api/no-such-route-raw`);
    await fetch(`${server.baseUrl}/api/trpc/auth.checkAuth`);
    const text = await scrape();
    expect(sample(text, 'clipshift_http_request_duration_seconds_count', { method: 'GET', route: '/api/clips/:id/video', status: '401' })).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'clipshift_http_request_duration_seconds_count', { method: 'DELETE', route: '/api/streamers/:name' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'clipshift_http_request_duration_seconds_count', { route: '/api (no route)', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'clipshift_http_request_duration_seconds_count', { route: '/api/trpc' })).toBeGreaterThanOrEqual(1);
    for (const raw of [...ids, 'raw-streamer-name', 'no-such-route-raw']) expect(text).not.toContain(raw);
  });

  it('times job runs by task and outcome', async () => {
    const payload = z.object({ fail: z.boolean() });
    const job = defineJob({
      name: 'metrics/timed',
      payload,
      run: async ({ fail }) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (fail) throw new Error('failed on purpose');
      },
    });
    const task = toTaskList([job], app.deps.logger)['metrics/timed']!;
    const helpers = { abortSignal: new AbortController().signal, job: { attempts: 1, max_attempts: 1 } } as unknown as JobHelpers;
    const labels = (outcome: string) => ({ task: 'metrics/timed', outcome });
    const before = await scrape();
    await task({ fail: false }, helpers);
    await expect(task({ fail: true }, helpers)).rejects.toThrow('failed on purpose');
    const after = await scrape();
    expect(sample(after, 'clipshift_job_duration_seconds_count', labels('success')) - sample(before, 'clipshift_job_duration_seconds_count', labels('success'))).toBe(1);
    expect(sample(after, 'clipshift_job_duration_seconds_count', labels('failure')) - sample(before, 'clipshift_job_duration_seconds_count', labels('failure'))).toBe(1);
    expect(sample(after, 'clipshift_job_duration_seconds_sum', labels('success')) - sample(before, 'clipshift_job_duration_seconds_sum', labels('success'))).toBeGreaterThanOrEqual(0.015);
  });

  it('times renders (real ffmpeg) by outcome', async () => {
    const folder = path.join(app.deps.env.dataDir, 'metrics-render');
    await mkdir(folder, { recursive: true });
    const source = path.join(folder, 'source.mp4');
    await execFileAsync(app.deps.media.ffmpeg, ['-y', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=10:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', source]);
    const sourceInfo = await probe(app.deps.media.ffprobe, source);
    const count = (text: string, outcome: string) => sample(text, 'clipshift_render_duration_seconds_count', { outcome });
    const before = await scrape();
    await renderClip({ ffmpeg: app.deps.media.ffmpeg, source, output: path.join(folder, 'video.mp4'), sourceInfo, layout: 'horizontal' });
    await expect(
      renderClip({ ffmpeg: app.deps.media.ffmpeg, source: path.join(folder, 'missing.mp4'), output: path.join(folder, 'never.mp4'), sourceInfo, layout: 'horizontal' }),
    ).rejects.toThrow();
    const after = await scrape();
    expect(count(after, 'success') - count(before, 'success')).toBe(1);
    expect(count(after, 'failure') - count(before, 'failure')).toBe(1);
    await rm(folder, { recursive: true, force: true });
  });

  it('counts a clip that cannot be moved into the library as a storage write error', async () => {
    const user = await app.deps.db.insertInto('users').values({ username: 'metrics-user', password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
    const before = sample(await scrape(), 'clipshift_storage_errors_total', { operation: 'write' });
    const clip: Parameters<typeof saveClip>[3] = {
      userId: user.id,
      runId: crypto.randomUUID(),
      streamer: { id: crypto.randomUUID(), name: 'metrics' },
      twitch: {
        id: 'MetricsClip', url: 'https://clips.twitch.tv/MetricsClip', broadcaster_id: '1', broadcaster_name: 'metrics', creator_id: '', creator_name: 'c',
        video_id: '', game_id: '', language: 'en', title: 'Metrics', view_count: 1, created_at: new Date().toISOString(), thumbnail_url: '', duration: 1, vod_offset: null,
      },
      gameName: null,
      layout: 'horizontal',
      sourceDurationSec: 1,
      rendered: { durationSec: 1, width: 160, height: 90, sizeBytes: 1, loudness: null, detected: null },
      descriptions: [],
      hookSuggestion: null,
      transcript: null,
      autoPublish: false,
      review: false,
      moment: null,
    };
    await expect(saveClip(app.deps.db, app.deps.storage, path.join(app.deps.env.dataDir, 'no-such-work-folder'), clip)).rejects.toThrow(/ENOENT/);
    expect(sample(await scrape(), 'clipshift_storage_errors_total', { operation: 'write' })).toBe(before + 1);
  });
});
