import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSession } from '../../server/src/domains/auth/service.ts';
import { encryptSecret } from '../../server/src/platform/crypto.ts';
import { RESTARTING_SUBTITLES } from '../../server/src/domains/subtitles/service.ts';
import { RESTARTING_UPLOADS } from '../../server/src/domains/publishing/uploads.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai/index.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { clipMedia, startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { PROCESS_APP_SECRET, startAppProcess, type AppProcess } from '../helpers/app-process.ts';
import { waitUntil } from '../helpers/wait.ts';
import { seedClip } from '../helpers/clips.ts';

/** What the contract allows between SIGTERM and the process being gone (Docker's grace period). */
const SHUTDOWN_LIMIT_MS = 10_000;
/** Each test starts the real app twice (a few seconds each on a busy 2-core machine). */
const PROCESS_TEST_TIMEOUT_MS = 180_000;

interface HeldReply {
  status: number;
  body: Record<string, unknown>;
}

/** Sends SIGTERM and waits for the exit (or for the limit to pass); how long it took, and how it ended. */
async function terminate(app: AppProcess): Promise<{ elapsedMs: number; code: number | null }> {
  const started = performance.now();
  app.child.kill('SIGTERM');
  const outcome = await Promise.race([app.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), SHUTDOWN_LIMIT_MS + 5_000))]);
  const elapsedMs = Math.round(performance.now() - started);
  if (!outcome) throw new Error(`the app did not exit within ${SHUTDOWN_LIMIT_MS + 5_000} ms of SIGTERM:\n${app.output().slice(-4_000)}`);
  return { elapsedMs, code: outcome.code };
}

async function jobOf(app: TestApp, key: string) {
  const { rows } = await sql<{ attempts: number; max_attempts: number; locked_by: string | null }>`
    select attempts, max_attempts, locked_by from graphile_worker.jobs where key = ${key}`.execute(app.deps.db);
  return rows[0];
}

describe('SIGTERM while calls and jobs are running', () => {
  let tiktok: FakeTikTok;
  let openai: FakeOpenAi;
  let twitch: FakeTwitch;
  let app: TestApp;
  let running: AppProcess | undefined;
  let cookie: string;
  let userId: string;
  let videoBytes: Buffer;
  const figures: string[] = [];

  const processEnv = () => ({
    ...tiktok.env,
    ...twitch.env,
    DATABASE_URL: app.database.url,
    DATA_DIR: app.deps.env.dataDir,
    TRANSCRIBE_ENGINE: 'openai',
    TRANSCRIBE_API_URL: openai.url,
    WHISPER_MODEL: 'whisper-1',
  });

  /** A POST that may be held open by the server; a dropped connection reads as status 0. */
  async function held(path: string, json: unknown): Promise<HeldReply> {
    try {
      const response = await fetch(`${running!.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(json) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } catch (error) {
      return { status: 0, body: { error: String(error) } };
    }
  }

  beforeAll(async () => {
    tiktok = await startFakeTikTok();
    openai = await startFakeOpenAi();
    twitch = await startFakeTwitch();
    twitch.addBroadcaster({ login: 'paused' });
    for (const title of ['one', 'two', 'three']) twitch.addClip({ broadcaster: 'paused', title, view_count: 10 });
    app = await createTestApp();
    videoBytes = await readFile(await clipMedia());
    const user = await app.deps.db.insertInto('users').values({ username: 'stopper', password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
    userId = user.id;
    cookie = `clipshift_session=${(await createSession(app.deps.db, userId)).token}`;
  });
  beforeEach(() => {
    tiktok.reset();
    openai.reset();
    twitch.reset();
  });
  afterEach(async () => {
    await running?.kill();
    running = undefined;
  });
  afterAll(async () => {
    openai?.release();
    await app?.close();
    await tiktok?.close();
    await openai?.close();
    await twitch?.close();
    if (figures.length) console.info(`shutdown figures: ${figures.join('; ')}`);
  });

  it('during a post: the held call answers 503 at once, the process exits in time, the upload resumes after the restart and posts once', async () => {
    tiktok.addUser({ openId: 'open-stopper', displayName: 'Stopper', username: 'stopper' });
    const tokens = tiktok.issueTokens('open-stopper');
    const account = await app.deps.db
      .insertInto('accounts')
      .values({
        user_id: userId,
        open_id: 'open-stopper',
        display_name: 'Stopper',
        username: 'stopper',
        access_token_enc: encryptSecret(tokens.accessToken, PROCESS_APP_SECRET),
        refresh_token_enc: encryptSecret(tokens.refreshToken, PROCESS_APP_SECRET),
        access_expires_at: new Date(Date.now() + 3_600_000),
        scope: 'user.info.basic,video.publish,video.upload',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await seedClip(app.deps, userId, { clip_id: 'PostMe', video: videoBytes });
    tiktok.failNext('upload', 'stall');
    running = await startAppProcess(processEnv());

    const reply = held('/api/clips/PostMe/post', { description: 'A clip', tiktok_account_id: account.id, privacy_level: 'SELF_ONLY' });
    const upload = await waitUntil(
      () => app.deps.db.selectFrom('uploads').selectAll().where('user_id', '=', userId).executeTakeFirst(),
      { until: (row) => row?.publish_id !== null && row?.publish_id !== undefined && tiktok.requestsTo('upload').length === 1, message: 'the upload to be under way' },
    );
    const { elapsedMs, code } = await terminate(running);
    figures.push(`SIGTERM during a post → exit ${elapsedMs} ms`);
    expect(code).toBe(0);
    expect(elapsedMs).toBeLessThan(SHUTDOWN_LIMIT_MS);
    await expect(reply).resolves.toEqual({ status: 503, body: { error: RESTARTING_UPLOADS, message: RESTARTING_UPLOADS, code: 'SERVICE_UNAVAILABLE' } });

    const after = await app.deps.db.selectFrom('uploads').selectAll().where('id', '=', upload!.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: 'uploading', publish_id: upload!.publish_id });
    const job = await jobOf(app, `upload:${upload!.id}`);
    expect(job).toMatchObject({ locked_by: null });
    expect(job!.attempts).toBeLessThan(job!.max_attempts);

    running = await startAppProcess(processEnv());
    const done = await waitUntil(
      () => app.deps.db.selectFrom('uploads').selectAll().where('id', '=', upload!.id).executeTakeFirstOrThrow(),
      { until: (row) => ['published', 'failed'].includes(row.status), message: 'the resumed upload' },
    );
    expect(done).toMatchObject({ status: 'published', publish_id: upload!.publish_id, error: null });
    expect(tiktok.requestsTo('video_init')).toHaveLength(1);
    expect(tiktok.posts.size).toBe(1);
  }, PROCESS_TEST_TIMEOUT_MS);

  it('during a subtitle job: the held call answers 503 at once, the process exits in time, the request runs again after the restart', async () => {
    const { id: clipRowId } = await seedClip(app.deps, userId, { clip_id: 'SubMe', video: videoBytes });
    openai.hold();
    running = await startAppProcess(processEnv());

    const reply = held('/api/subtitle/SubMe', {});
    const request = await waitUntil(
      () => app.deps.db.selectFrom('subtitle_requests').selectAll().where('clip_row_id', '=', clipRowId).executeTakeFirst(),
      { until: (row) => row?.status === 'running' && openai.pending() === 1, message: 'the transcription to be under way' },
    );
    const { elapsedMs, code } = await terminate(running);
    figures.push(`SIGTERM during a subtitle job → exit ${elapsedMs} ms`);
    expect(code).toBe(0);
    expect(elapsedMs).toBeLessThan(SHUTDOWN_LIMIT_MS);
    await expect(reply).resolves.toEqual({ status: 503, body: { ok: false, error: RESTARTING_SUBTITLES, message: RESTARTING_SUBTITLES, code: 'SERVICE_UNAVAILABLE' } });

    const after = await app.deps.db.selectFrom('subtitle_requests').selectAll().where('id', '=', request!.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: 'queued', owner_instance: null });
    expect(await jobOf(app, `subtitles:${request!.id}`)).toMatchObject({ attempts: 0, locked_by: null });

    openai.release();
    running = await startAppProcess(processEnv());
    const done = await waitUntil(
      () => app.deps.db.selectFrom('subtitle_requests').selectAll().where('id', '=', request!.id).executeTakeFirstOrThrow(),
      { until: (row) => !['queued', 'running'].includes(row.status), message: 'the subtitle request after the restart' },
    );
    expect(done.status).toBe('done');
    const clip = await app.deps.db.selectFrom('clips').select('subtitled').where('id', '=', clipRowId).executeTakeFirstOrThrow();
    expect(clip.subtitled).toBe(true);
  }, PROCESS_TEST_TIMEOUT_MS);

  it('during a download: the run is handed back and resumes after the restart, no clip twice', async () => {
    const streamer = await app.deps.db
      .insertInto('streamers')
      .values({ user_id: userId, name: 'paused', clip_limit: 3, vertical: false, language: '', layout: 'blur', auto_subtitle: false, auto_publish: false })
      .returning('id')
      .executeTakeFirstOrThrow();
    running = await startAppProcess(processEnv());
    // The first clip is saved, the second transfer hangs: the run is certainly mid-way.
    twitch.holdTransfers({ after: 1 });
    const started = await fetch(`${running.baseUrl}/api/downloads/start/paused`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ concurrency: 1 }) });
    expect(started.status).toBe(202);
    await waitUntil(() => twitch.heldTransfers() === 1, { message: 'the second transfer' });
    const run = await waitUntil(
      () => app.deps.db.selectFrom('download_runs').selectAll().where('streamer_id', '=', streamer.id).executeTakeFirstOrThrow(),
      { until: (row) => row.clips_downloaded === 1, message: 'the first clip' },
    );

    const { elapsedMs, code } = await terminate(running);
    figures.push(`SIGTERM during a download → exit ${elapsedMs} ms`);
    expect(code).toBe(0);
    expect(elapsedMs).toBeLessThan(SHUTDOWN_LIMIT_MS);
    const handedBack = await app.deps.db.selectFrom('download_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
    expect(handedBack).toMatchObject({ status: 'downloading', owner_instance: null, progress: [] });
    expect(await jobOf(app, `run:${run.id}`)).toMatchObject({ attempts: 0, locked_by: null });

    twitch.releaseTransfers();
    running = await startAppProcess(processEnv());
    const done = await waitUntil(
      () => app.deps.db.selectFrom('download_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow(),
      { until: (row) => !['downloading', 'stopping'].includes(row.status), message: 'the resumed run' },
    );
    expect(done).toMatchObject({ status: 'completed', clips_downloaded: 3, clips_total: 3, error: null });
    const clips = await app.deps.db.selectFrom('clips').select('clip_id').where('streamer_id', '=', streamer.id).execute();
    expect(clips).toHaveLength(3);
    expect(new Set(clips.map((clip) => clip.clip_id)).size).toBe(3);
  }, PROCESS_TEST_TIMEOUT_MS);
});
