import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateStreamerInput, PublicUser, StatusEntry } from '@clipshift/shared';
import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { startWorker } from '../../server/src/app/jobs.ts';
import { AUTO_PUBLISH_JOB } from '../../server/src/platform/queue/contracts.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { waitUntil } from '../helpers/wait.ts';
import { renderLimitMs } from '../helpers/limits.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Each run renders its clips with real ffmpeg on a shared machine. */
/** A run picks at most five clips. */
const RUN_WAIT_MS = renderLimitMs(5);

/*
 * The selection rules of issue 12 end to end: a streamer's settings saved through the API, a run on
 * the real worker against the fake Twitch, what lands in the library and what the log says.
 */
describe('clip selection rules in download runs', { timeout: 3 * RUN_WAIT_MS }, () => {
  let fake: FakeTwitch;
  let app: TestApp;
  let worker: WorkerHandle;
  let user: PublicUser;
  const ago = (ms: number) => new Date(Date.now() - ms);

  beforeAll(async () => {
    fake = await startFakeTwitch();
    app = await createTestApp({ ...fake.env, WORKER_CONCURRENCY: '3' });
    worker = await startWorker(app.deps, app.database.pool, 3);
    user = await app.deps.db.insertInto('users').values({ username: 'selector', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await fake?.close();
  });

  const api = () => callerFor(app.deps, { user }).api;
  const finished = (entry: StatusEntry | undefined): entry is StatusEntry => entry !== undefined && !['downloading', 'stopping'].includes(entry.status);

  /** Creates (or updates) the streamer, runs a download and returns its final status. */
  async function run(settings: CreateStreamerInput | (Partial<CreateStreamerInput> & { name: string }), options: { update?: boolean } = {}): Promise<StatusEntry> {
    if (options.update) await api().streamers.update(settings);
    else await api().streamers.create(settings);
    await api().downloads.start({ name: settings.name });
    const entry = await waitUntil(async () => (await api().downloads.status())[settings.name], { until: finished, message: `the ${settings.name} run`, timeoutMs: RUN_WAIT_MS });
    expect(entry.status).toBe('completed');
    return entry;
  }

  const titles = async (streamer: string) =>
    (await app.deps.db.selectFrom('clips').select('title').where('streamer_name', '=', streamer).execute()).map((row) => row.title).sort();
  const logsAbout = async (streamer: string) =>
    (await app.deps.db.selectFrom('logs').select(['level', 'message']).where('logger', '=', 'downloads').where('message', 'like', `%of ${streamer}%`).orderBy('id').execute());

  it('picks only clips made within the period: day, then week, then month', async () => {
    fake.addClip({ broadcaster: 'periodic', title: 'today', view_count: 50, created_at: ago(2 * HOUR) });
    fake.addClip({ broadcaster: 'periodic', title: 'this week', view_count: 900, created_at: ago(3 * DAY) });
    fake.addClip({ broadcaster: 'periodic', title: 'this month', view_count: 5000, created_at: ago(20 * DAY) });
    fake.addClip({ broadcaster: 'periodic', title: 'long ago', view_count: 9000, created_at: ago(60 * DAY) });

    await run({ name: 'periodic', clip_limit: 5, clip_period: 'day' });
    expect(await titles('periodic')).toEqual(['today']);
    await run({ name: 'periodic', clip_period: 'week' }, { update: true });
    expect(await titles('periodic')).toEqual(['this week', 'today']);
    await run({ name: 'periodic', clip_period: 'month' }, { update: true });
    expect(await titles('periodic')).toEqual(['this month', 'this week', 'today']);
  });

  it('skips clips under the minimum views and says so in one summary line', async () => {
    for (const [title, views] of [['big', 1000], ['fair', 600], ['small', 499], ['tiny', 10]] as const) fake.addClip({ broadcaster: 'viewy', title, view_count: views });

    const entry = await run({ name: 'viewy', clip_limit: 5, min_views: 500 });

    expect(await titles('viewy')).toEqual(['big', 'fair']);
    expect(entry).toMatchObject({ clips_downloaded: 2, clips_total: 2, skipped: { min_views: 2 } });
    const logs = await logsAbout('viewy');
    expect(logs).toContainEqual({ level: 'INFO', message: 'Skipped 2 clips of viewy: 2 under 500 views' });
    expect(logs.filter((log) => log.level === 'DEBUG').map((log) => log.message)).toEqual([
      expect.stringMatching(/^Skipped clip "small" \(.+, 499 views, by MrMarshall\) of viewy: under 500 views$/),
      expect.stringMatching(/^Skipped clip "tiny" \(.+, 10 views, by MrMarshall\) of viewy: under 500 views$/),
    ]);
  });

  it('ranks by velocity: a fresh clip with fewer views comes before an old one with more', async () => {
    fake.addClip({ broadcaster: 'speedy', title: 'old hit', view_count: 2000, created_at: ago(20 * DAY) });
    fake.addClip({ broadcaster: 'speedy', title: 'fresh', view_count: 300, created_at: ago(2 * HOUR) });
    fake.addClip({ broadcaster: 'speedy', title: 'middling', view_count: 100, created_at: ago(5 * DAY) });

    await run({ name: 'speedy', clip_limit: 1, rank_by: 'velocity', clip_period: 'month' });
    expect(await titles('speedy')).toEqual(['fresh']);
    // The same streamer by views takes the old hit next.
    await run({ name: 'speedy', rank_by: 'views' }, { update: true });
    expect(await titles('speedy')).toEqual(['fresh', 'old hit']);
  });

  it('accepts only clips made by the allowed creators, whatever their capitals', async () => {
    fake.addClip({ broadcaster: 'modded', title: 'by the mod', view_count: 100, creator_name: 'ModMan' });
    fake.addClip({ broadcaster: 'modded', title: 'by a stranger', view_count: 900, creator_name: 'Rando' });
    fake.addClip({ broadcaster: 'modded', title: 'by the vip', view_count: 50, creator_name: 'Vip_1' });

    const entry = await run({ name: 'modded', clip_limit: 5, clip_creators: ['modman', 'VIP_1'] });

    expect(await titles('modded')).toEqual(['by the mod', 'by the vip']);
    expect(entry.skipped).toEqual({ creator: 1 });
    expect((await api().streamers.list()).find((streamer) => streamer.name === 'modded')?.clip_creators).toEqual(['modman', 'vip_1']);
    expect(await logsAbout('modded')).toContainEqual({ level: 'INFO', message: 'Skipped 1 clip of modded: 1 by other creators' });
  });

  it('keeps the most viewed of overlapping clips of one VOD, and the clips that do not overlap', async () => {
    const vod = { broadcaster: 'vodder', video_id: '9000000001', duration: 30 };
    fake.addClip({ ...vod, title: 'first take', view_count: 500, vod_offset: 100 });
    const best = fake.addClip({ ...vod, title: 'best take', view_count: 800, vod_offset: 110 });
    fake.addClip({ ...vod, title: 'later moment', view_count: 100, vod_offset: 400 });
    fake.addClip({ broadcaster: 'vodder', video_id: '9000000002', duration: 30, title: 'other vod', view_count: 50, vod_offset: 100 });

    const entry = await run({ name: 'vodder', clip_limit: 5 });

    expect(await titles('vodder')).toEqual(['best take', 'later moment', 'other vod']);
    expect(entry.skipped).toEqual({ overlap: 1 });
    const logs = await logsAbout('vodder');
    expect(logs).toContainEqual({ level: 'INFO', message: 'Skipped 1 clip of vodder: 1 overlapping a more viewed clip of the same VOD' });
    expect(logs).toContainEqual({ level: 'DEBUG', message: expect.stringContaining(`"first take"`) });
    expect(logs.find((log) => log.message.includes('"first take"'))?.message).toContain(`(${best.id} kept)`);
  });

  it('reaches a clip past 1,000 more viewed ones of the period, through a looping and shifting cursor', async () => {
    for (let index = 0; index < 1200; index++) {
      fake.addClip({ broadcaster: 'prolific', title: `stranger ${index}`, view_count: 100_000 - index, creator_name: 'Rando', created_at: ago(HOUR + index * 60_000) });
    }
    fake.addClip({ broadcaster: 'prolific', title: 'the one', view_count: 1, creator_name: 'ModMan', created_at: ago(3 * DAY) });
    fake.setClipPaging({ repeatCursorAfterPages: 3, shiftPages: true });
    try {
      const entry = await run({ name: 'prolific', clip_limit: 1, clip_period: 'week', clip_creators: ['modman'] });
      expect(await titles('prolific')).toEqual(['the one']);
      expect(entry.skipped).toEqual({ creator: 1200 });
    } finally {
      fake.setClipPaging({});
    }
    const logs = await logsAbout('prolific');
    expect(logs).toContainEqual({ level: 'INFO', message: 'Skipped 1200 clips of prolific: 1200 by other creators' });
    // One summary and a bounded number of clip rows, however many were skipped.
    expect(logs.filter((log) => log.level === 'DEBUG')).toHaveLength(10);
  });

  it('review mode saves the clip without posting it and says it waits for review', async () => {
    fake.addClip({ broadcaster: 'posty', title: 'posted at once', view_count: 10 });
    fake.addClip({ broadcaster: 'careful', title: 'held for review', view_count: 10 });

    await run({ name: 'posty', auto_publish: true });
    await run({ name: 'careful', auto_publish: true, publish_mode: 'review' });
    expect((await api().streamers.list()).find((streamer) => streamer.name === 'careful')?.publish_mode).toBe('review');

    // Auto mode reaches auto-publishing (which finds no account), so the check below can fail.
    const publishingLogs = async () => (await app.deps.db.selectFrom('logs').select('message').where('logger', '=', 'publishing').execute()).map((row) => row.message);
    await waitUntil(publishingLogs, { until: (messages) => messages.some((message) => message.includes('"posted at once"')), message: 'auto-publishing of the auto-mode clip' });
    // Jobs first, then logs: an auto-publish job gone from the queue has already written its log.
    const pending = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = ${AUTO_PUBLISH_JOB.name}`.execute(app.deps.db);
    expect(pending.rows[0]!.n).toBe(0);
    expect((await publishingLogs()).filter((message) => message.includes('"held for review"'))).toEqual([]);
    expect(await logsAbout('careful')).toContainEqual({ level: 'INFO', message: expect.stringMatching(/^Clip "held for review" \(.+\) of careful is waiting for review$/) });
    expect(await titles('careful')).toEqual(['held for review']);
  });
});
