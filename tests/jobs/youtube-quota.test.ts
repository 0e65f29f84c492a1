import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { spendYouTubeQuota, type YouTubeQuota } from '../../server/src/domains/publishing/youtube-quota.ts';
import { quotaDay } from '../../server/src/engines/providers/youtube/index.ts';
import { encryptSecret } from '../../server/src/platform/crypto.ts';
import { createDatabase } from '../../server/src/platform/db/database.ts';
import { startFakeYouTube, UPLOAD_BLOCK, type FakeYouTube } from '../fakes/youtube/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { waitUntil } from '../helpers/wait.ts';

/** The wall-clock time of an instant in Los Angeles, "HH:MM". */
const pacificTime = (date: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Los_Angeles', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);

describe("YouTube's daily quota, counted per Google project and Pacific day in the database", () => {
  let youtube: FakeYouTube;
  let app: TestApp;
  let worker: WorkerHandle;
  let alice: PublicUser;
  let accountId: string;
  let accessToken: string;

  const api = () => callerFor(app.deps, { user: alice }).api;
  const initiations = () => youtube.requestsTo('upload_init').length;
  const today = () => app.deps.db.selectFrom('youtube_quota_days').select(['uploads', 'units']).where('project', '=', youtube.clientId).executeTakeFirst();
  const video = Buffer.alloc(UPLOAD_BLOCK + 99, 7);

  /** Posts a clip publicly and, once YouTube has its video, finishes processing; resolves with the post's upload. */
  async function postClip(clipId: string) {
    await seedClip(app.deps, alice.id, { clip_id: clipId, video });
    const result = await api().posting.post({ id: clipId, description: `${clipId} #a`, account_ids: [accountId], youtube_privacy: 'public' });
    return result.uploads[0]!;
  }

  async function publish(uploadId: string) {
    const row = await waitUntil(() => app.deps.db.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirstOrThrow(), {
      until: (upload) => upload.external_id !== null,
      message: 'the video id saved',
    });
    youtube.finishProcessing(row.external_id!);
    return waitUntil(() => api().posting.uploadStatus({ id: uploadId }), { until: (upload) => upload.status === 'published', message: 'published', intervalMs: 200 });
  }

  beforeAll(async () => {
    youtube = await startFakeYouTube();
    const user = youtube.addUser({ channelTitle: 'Quota Plays', handle: '@quotaplays' });
    // Three uploads a day make the limit quick to reach; the units stay YouTube's default.
    app = await createTestApp({ ...youtube.env, YOUTUBE_DAILY_UPLOADS: '3' });
    alice = await app.deps.db.insertInto('users').values({ username: 'alice', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    const tokens = youtube.issueTokens(user.sub);
    accessToken = tokens.accessToken;
    const secret = app.deps.appSecret;
    ({ id: accountId } = await app.deps.db
      .insertInto('accounts')
      .values({
        user_id: alice.id,
        platform: 'youtube',
        open_id: user.channel!.id,
        union_id: null,
        display_name: 'Quota Plays',
        username: 'quotaplays',
        avatar_url: null,
        access_token_enc: encryptSecret(tokens.accessToken, secret),
        refresh_token_enc: encryptSecret(tokens.refreshToken, secret),
        access_expires_at: new Date(Date.now() + 3_600_000),
        refresh_expires_at: null,
        scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly',
      })
      .returning('id')
      .executeTakeFirstOrThrow());
    // No cron: the statistics refresh would spend units while the tests count them.
    worker = await startWorker(app.deps, app.database.pool, 2, { cron: [] });
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await youtube?.close();
  });
  beforeEach(() => youtube.reset());

  it('shows the uploads left beside YouTube accounts, then posts a 4th upload at midnight Pacific without asking YouTube', async () => {
    expect((await api().accounts.list()).map((account) => account.uploads_left_today)).toEqual([3]);
    for (const clipId of ['One', 'Two', 'Three']) await publish((await postClip(clipId)).id);
    expect(initiations()).toBe(3);
    expect((await api().accounts.list()).map((account) => account.uploads_left_today)).toEqual([0]);

    const waiting = await postClip('Four');
    expect(waiting).toMatchObject({ status: 'scheduled', error: expect.stringMatching(/^YouTube's daily upload quota is used up; the post waits until it resets at midnight Pacific time \(\d\d:\d\d UTC\)\.$/) });
    const at = new Date(waiting.scheduled_for!);
    expect(pacificTime(at)).toBe('00:00');
    expect(at.getTime()).toBeGreaterThan(Date.now());
    expect(at.getTime() - Date.now()).toBeLessThanOrEqual(25 * 3_600_000);
    // YouTube was never asked: the fake saw no 4th insert and still has uploads to give.
    expect(initiations()).toBe(3);
    expect(youtube.uploadsLeft()).toBe(97);
    expect((await api().queue.list()).find((item) => item.id === waiting.id)).toMatchObject({ status: 'scheduled', error: waiting.error });
    expect(await today()).toMatchObject({ uploads: 3 });
  });

  it('counts the units of every other call on the same row: one per channels.list and per 50 ids of videos.list', async () => {
    const before = (await today())?.units ?? 0;
    await app.deps.youtube!.getMyChannel(accessToken);
    await app.deps.youtube!.getVideos(accessToken, Array.from({ length: 120 }, (_, index) => `video${index}`));
    expect(youtube.requestsTo('channels')).toHaveLength(1);
    expect(youtube.requestsTo('videos')).toHaveLength(3);
    expect((await today())?.units).toBe(before + 4);
  });

  it('refuses a call the units left cannot pay for, before asking YouTube', async () => {
    const quota: YouTubeQuota = { project: youtube.clientId, limits: { uploads: 3, units: 10_000 }, now: Date.now };
    const spent = (await today())!.units;
    expect(await spendYouTubeQuota(app.deps.db, quota, { units: 10_000 - spent })).toBe(true);
    await expect(app.deps.youtube!.getMyChannel(accessToken)).rejects.toMatchObject({ kind: 'quota_exceeded', message: expect.stringContaining('midnight Pacific') });
    expect(youtube.requestsTo('channels')).toHaveLength(0);
    expect(await today()).toMatchObject({ units: 10_000 });
  });

  it('never lets two workers counting at once pass the limit', async () => {
    // Two connection pools, as two worker processes on one database.
    const other = createDatabase(app.database.url, 10);
    try {
      const quota: YouTubeQuota = { project: 'race-project', limits: { uploads: 7, units: 50 }, now: Date.now };
      const race = (spend: { uploads?: number; units?: number }) =>
        Promise.all(Array.from({ length: 40 }, (_, index) => spendYouTubeQuota(index % 2 ? other.db : app.deps.db, quota, spend)));
      expect((await race({ uploads: 1 })).filter(Boolean)).toHaveLength(7);
      expect((await race({ units: 3 })).filter(Boolean)).toHaveLength(16);
      const row = await app.deps.db.selectFrom('youtube_quota_days').select(['uploads', 'units']).where('project', '=', 'race-project').executeTakeFirstOrThrow();
      expect(row).toEqual({ uploads: 7, units: 48 });
    } finally {
      await other.close();
    }
  });

  it('starts a new count at midnight Pacific', async () => {
    const quota: YouTubeQuota = { project: 'day-project', limits: { uploads: 1, units: 1 }, now: () => Date.parse('2026-03-08T07:59:59Z') };
    expect(await spendYouTubeQuota(app.deps.db, quota, { uploads: 1 })).toBe(true);
    expect(await spendYouTubeQuota(app.deps.db, quota, { uploads: 1 })).toBe(false);
    // 08:00 UTC is midnight in Los Angeles on the day its clocks spring forward (-08:00 until then).
    const nextDay = { ...quota, now: () => Date.parse('2026-03-08T08:00:00Z') };
    expect(quotaDay(nextDay.now())).toBe('2026-03-08');
    expect(await spendYouTubeQuota(app.deps.db, nextDay, { uploads: 1 })).toBe(true);
  });
});
