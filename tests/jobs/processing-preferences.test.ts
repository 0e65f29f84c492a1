import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { scheduleJob } from '../../server/src/domains/downloads/jobs/schedule.ts';
import { runTypedJob } from '../../server/src/jobs/adapter.ts';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { SPELLED_WORDS, writeTinyWhisperModel } from '../fakes/whisper/index.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { seedClip } from '../helpers/clips.ts';
import { waitUntil } from '../helpers/wait.ts';
import { expectError } from '../integration/support.ts';
import { renderLimitMs } from '../helpers/limits.ts';

const CONCURRENCY_RULE = 'Concurrency must be a whole number from 1 to 20';
const MODEL_RULE = 'whisper_model must be a model name such as large-v3-turbo';

/**
 * Settings › Processing stored per user: work with no browser behind it (schedules, auto-subtitles
 * in runs, scripts that send no preference) uses what the user saved. The speech engine is the
 * real whisper.cpp on a generated tiny model that only the saved preference names: the configured
 * default model is not installed, so work that ignored the preference would fail.
 */
const ended = <T extends { status: string }>(run: T | undefined): run is T => run !== undefined && !['downloading', 'stopping'].includes(run.status);

describe('processing preferences saved on the server', () => {
  let twitch: FakeTwitch;
  let app: TestApp;
  let worker: WorkerHandle;
  let user: PublicUser;
  let modelsDir: string;

  beforeAll(async () => {
    twitch = await startFakeTwitch();
    modelsDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-models-'));
    await writeTinyWhisperModel(modelsDir, 'tiny-test');
    app = await createTestApp({ ...twitch.env, TRANSCRIBE_ENGINE: 'local', WHISPER_MODELS_DIR: modelsDir, WORKER_CONCURRENCY: '4' });
    worker = await startWorker(app.deps, app.database.pool, 3);
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await twitch?.close();
    await rm(modelsDir, { recursive: true, force: true });
  });
  // Preferences, streamers and clips are the user's: a user of its own keeps each test from seeing
  // what another saved.
  let users = 0;
  beforeEach(async () => {
    twitch.reset();
    users += 1;
    user = await app.deps.db.insertInto('users').values({ username: `prefs${users}`, password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  });

  const api = () => callerFor(app.deps, { user }).api;

  /** The streamer's latest run, once it has ended. */
  async function runOf(streamer: string) {
    const latestRun = () =>
      app.deps.db
        .selectFrom('download_runs as r')
        .innerJoin('streamers as s', 's.id', 'r.streamer_id')
        .select(['r.status', 'r.concurrency', 'r.trigger', 'r.clips_downloaded', 'r.clips_failed', 'r.error'])
        .where('s.name', '=', streamer)
        .where('s.user_id', '=', user.id)
        .orderBy('r.started_at', 'desc')
        .executeTakeFirst();
    return waitUntil(latestRun, { until: ended, message: `the run of ${streamer} to finish`, timeoutMs: renderLimitMs(2), intervalMs: 200 });
  }

  it('reads the defaults until saved, then what was saved', async () => {
    const transcription = { engine: 'local', default_model: 'large-v3-turbo' };
    expect(await api().settings.processing()).toEqual({ whisper_model: 'large-v3-turbo', concurrency: 5, updated_at: null, transcription });
    const saved = await api().settings.saveProcessing({ whisper_model: 'tiny-test', concurrency: 3 });
    expect(saved).toEqual({ whisper_model: 'tiny-test', concurrency: 3, updated_at: expect.any(String), transcription });
    expect(await api().settings.processing()).toEqual(saved);
    // Someone else's preferences are theirs.
    const other = await app.deps.db.insertInto('users').values({ username: 'other', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    expect(await callerFor(app.deps, { user: other }).api.settings.processing()).toMatchObject({ updated_at: null });
  });

  it('refuses a concurrency outside 1..20 or not a whole JSON number, and a model that is not a model name', async () => {
    await api().settings.saveProcessing({ whisper_model: 'tiny-test', concurrency: 3 });
    for (const concurrency of [0, 21, 2.5, '3', null]) {
      // @ts-expect-error a script may send anything
      await expectError(api().settings.saveProcessing({ whisper_model: 'tiny-test', concurrency }), 'BAD_REQUEST', CONCURRENCY_RULE);
    }
    for (const whisperModel of ['', 'two words', '../../etc/passwd', 'x'.repeat(65), 7]) {
      // @ts-expect-error a script may send anything
      await expectError(api().settings.saveProcessing({ whisper_model: whisperModel, concurrency: 3 }), 'BAD_REQUEST', MODEL_RULE);
    }
    expect(await api().settings.processing()).toMatchObject({ whisper_model: 'tiny-test', concurrency: 3 });
  });

  it('gives a scheduled run of an auto_subtitle streamer the saved concurrency and speech model', async () => {
    await api().settings.saveProcessing({ whisper_model: 'tiny-test', concurrency: 3 });
    twitch.addBroadcaster({ login: 'nightly' });
    twitch.addClip({ broadcaster: 'nightly', title: 'said at night', view_count: 50 });
    await api().streamers.create({ name: 'nightly', clip_limit: 1, auto_subtitle: true, schedule: { interval: 1, unit: 'hours' } });
    const streamer = await app.deps.db.updateTable('streamers').set({ next_run_at: new Date() }).where('user_id', '=', user.id).where('name', '=', 'nightly').returning('id').executeTakeFirstOrThrow();
    await runTypedJob(scheduleJob(app.deps), { streamerId: streamer.id }, app.deps.logger);
    const run = await runOf('nightly');
    expect(run).toMatchObject({ trigger: 'schedule', concurrency: 3, status: 'completed', clips_downloaded: 1, clips_failed: 0 });
    const clip = await app.deps.db.selectFrom('clips').select(['subtitled', 'transcript']).where('user_id', '=', user.id).where('streamer_name', '=', 'nightly').executeTakeFirstOrThrow();
    expect(clip).toEqual({ subtitled: true, transcript: SPELLED_WORDS.join(' ') });
  });

  it('gives a start without a concurrency the saved one (within WORKER_CONCURRENCY); one that sends it keeps its own', async () => {
    await api().settings.saveProcessing({ whisper_model: 'tiny-test', concurrency: 2 });
    for (const login of ['quiet_one', 'quiet_two', 'quiet_three']) {
      twitch.addBroadcaster({ login });
      await api().streamers.create({ name: login });
    }
    await api().downloads.start({ name: 'quiet_one' });
    expect(await runOf('quiet_one')).toMatchObject({ concurrency: 2, trigger: 'manual' });
    await api().downloads.start({ name: 'quiet_two', concurrency: 1 });
    expect(await runOf('quiet_two')).toMatchObject({ concurrency: 1 });
    await api().settings.saveProcessing({ whisper_model: 'tiny-test', concurrency: 20 });
    await api().downloads.start({ name: 'quiet_three' });
    expect(await runOf('quiet_three')).toMatchObject({ concurrency: 4 });
  });

  it('transcribes a subtitle request without a model with the saved one; a request naming one keeps it', async () => {
    // The request that names a model that is not installed fails, on purpose.
    expectErrorLogs(/Whisper model absent-model is not installed/);
    await api().settings.saveProcessing({ whisper_model: 'tiny-test', concurrency: 3 });
    await seedClip(app.deps, user.id, { clip_id: 'Spoken', video: await readFile(twitch.mediaPath) });
    expect(await api().subtitles.generate({ id: 'Spoken' })).toEqual({ ok: true, message: 'Subtitles generated successfully for clip!' });
    const requests = await app.deps.db.selectFrom('subtitle_requests').select(['model', 'status']).where('user_id', '=', user.id).orderBy('created_at').execute();
    expect(requests).toEqual([{ model: 'tiny-test', status: 'done' }]);
    await expectError(
      api().subtitles.generate({ id: 'Spoken', model: 'absent-model' }),
      'BAD_GATEWAY',
      'Subtitle generation failed: Whisper model absent-model is not installed: run `npm run models:download -- absent-model`',
    );
  });
});
