import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { CRON, startWorker } from '../../server/src/app/jobs.ts';
import { createSession } from '../../server/src/domains/auth/service.ts';
import { describeClip } from '../../server/src/domains/descriptions/service.ts';
import { upsertTikTokAccount as upsertAccount } from '../../server/src/domains/publishing/platforms/tiktok.ts';
import { refreshStatsOnce } from '../../server/src/domains/publishing/jobs/stats.ts';
import { nextStatsDue, performanceProfileFor } from '../../server/src/domains/publishing/service.ts';
import { createYouTubeClient } from '../../server/src/engines/providers/youtube/client.ts';
import { encryptSecret } from '../../server/src/platform/crypto.ts';
import { REFRESH_STATS_JOB } from '../../server/src/platform/queue/contracts.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeYouTube, type FakeYouTube } from '../fakes/youtube/index.ts';
import { callerFor, createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { waitUntil } from '../helpers/wait.ts';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const SCOPES_NO_VIDEO_LIST = ['user.info.basic', 'user.info.profile', 'video.publish', 'video.upload'];

describe('post statistics: refresh, schedule, the stats route and ranking from statistics', () => {
  let tiktok: FakeTikTok;
  let youtube: FakeYouTube;
  let app: TestApp;
  let server: TestServer;
  let worker: WorkerHandle;
  let user: PublicUser;
  let other: PublicUser;
  let clipCount = 0;

  function newUser(username: string): Promise<PublicUser> {
    return app.deps.db.insertInto('users').values({ username, password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  }

  async function tiktokAccount(owner: PublicUser, openId: string, scopes?: string[]): Promise<string> {
    tiktok.addUser({ openId, displayName: `User ${openId}`, username: openId.replace(/\W/g, '') });
    const issued = tiktok.issueTokens(openId, scopes);
    const account = await upsertAccount(app.deps.db, app.deps.appSecret, {
      userId: owner.id,
      via: 'owner',
      tokens: { ...issued, expiresIn: 86_400, refreshExpiresIn: 31_536_000, openId, scope: (scopes ?? []).join(',') },
      info: { openId, unionId: null, avatarUrl: null, displayName: `User ${openId}`, username: openId.replace(/\W/g, '') },
    });
    return account.id;
  }

  /** A clip posted publicly to the account through the post job and the fake: its upload row once published. */
  async function publishedTikTokPost(accountId: string, description = 'what a play #valorant #clips #fyp') {
    const clipId = `StatsClip${++clipCount}`;
    await seedClip(app.deps, user.id, { clip_id: clipId, title: `Stats clip ${clipCount}` });
    const api = callerFor(app.deps, { user }).api;
    const result = await api.posting.post({ id: clipId, description, tiktok_account_ids: [accountId], privacy_level: 'PUBLIC_TO_EVERYONE' });
    const uploadId = result.uploads[0]!.id;
    await waitUntil(() => api.posting.uploadStatus({ id: uploadId }), {
      until: (upload) => upload.status === 'published',
      message: 'the post to be published',
      intervalMs: 100,
    });
    return uploadRow(uploadId);
  }

  function uploadRow(uploadId: string) {
    return app.deps.db.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirstOrThrow();
  }

  function history(uploadId: string) {
    return app.deps.db.selectFrom('post_stats_history').selectAll().where('upload_id', '=', uploadId).orderBy('fetched_at').execute();
  }

  /** Only this upload is due: the others' readings are out of the way. */
  async function onlyDue(uploadId: string, publishedAt: Date, due: Date): Promise<void> {
    await app.deps.db.updateTable('uploads').set({ stats_due_at: null }).where('id', '!=', uploadId).execute();
    await app.deps.db.updateTable('uploads').set({ stats_due_at: due, published_at: publishedAt }).where('id', '=', uploadId).execute();
  }

  beforeAll(async () => {
    tiktok = await startFakeTikTok({ pollsUntilDone: 0 });
    youtube = await startFakeYouTube();
    app = await createTestApp({ ...tiktok.env, ...youtube.env });
    server = await startTestServer(app.deps);
    user = await newUser('stats');
    other = await newUser('stranger');
    // The tests read statistics with refreshStatsOnce and a clock of their own: the worker's
    // per-minute refresh, on the real clock, would read the same posts at a moment of its choosing.
    worker = await startWorker(app.deps, app.database.pool, 2, { cron: CRON.filter((entry) => entry.job !== REFRESH_STATS_JOB) });
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await app?.close();
    await tiktok?.close();
    await youtube?.close();
  });
  beforeEach(() => {
    tiktok.reset();
    youtube.reset();
  });

  it('asks TikTok for video.list when connecting', async () => {
    const { auth_url } = await callerFor(app.deps, { user }).api.tiktok.authUrl();
    expect(new URL(auth_url).searchParams.get('scope')).toBe('user.info.basic,user.info.profile,video.publish,video.upload,video.list');
  });

  it('reads a published TikTok post’s counts through the video query and schedules the next reading an hour later', async () => {
    const accountId = await tiktokAccount(user, 'open-stats-1');
    const published = await publishedTikTokPost(accountId);
    expect(published.external_id).toMatch(/^\d{19}$/);
    // Published: its first reading is due at once.
    expect(published.published_at).not.toBeNull();
    expect(published.stats_due_at?.getTime()).toBe(published.published_at!.getTime());
    expect(published.stats).toBeNull();

    tiktok.setVideoStats(published.external_id!, { views: 1520, likes: 130, comments: 12, shares: 7 });
    const now = new Date(published.published_at!.getTime() + 5 * 60_000);
    await onlyDue(published.id, published.published_at!, published.published_at!);
    const report = await refreshStatsOnce(app.deps, now);
    expect(report).toEqual({ read: 1, gone: 0, skippedAccounts: 0 });

    const [query] = tiktok.requestsTo('video_query');
    expect(query?.query.fields).toBe('id,view_count,like_count,comment_count,share_count,create_time');
    expect(query?.json).toEqual({ filters: { video_ids: [published.external_id] } });
    const row = await uploadRow(published.id);
    expect(row.stats).toEqual({ views: 1520, likes: 130, comments: 12, shares: 7 });
    expect(row.stats_fetched_at?.toISOString()).toBe(now.toISOString());
    expect(row.stats_due_at?.toISOString()).toBe(new Date(now.getTime() + HOUR).toISOString());
    // The reading leaves the post's own updated_at (what retention counts from) alone.
    expect(row.updated_at.getTime()).toBe(published.updated_at.getTime());
    expect((await history(published.id)).map((entry) => [entry.fetched_at.toISOString(), Number(entry.views), Number(entry.shares)])).toEqual([[now.toISOString(), 1520, 7]]);

    // The clip details' Upload carries them.
    const upload = await callerFor(app.deps, { user }).api.posting.uploadStatus({ id: published.id });
    expect(upload.stats).toEqual({ views: 1520, likes: 130, comments: 12, shares: 7, fetched_at: now.toISOString() });

    // Not due again before the hour is up: nothing is asked.
    expect(await refreshStatsOnce(app.deps, new Date(now.getTime() + 30 * 60_000))).toEqual({ read: 0, gone: 0, skippedAccounts: 0 });
    expect(tiktok.requestsTo('video_query')).toHaveLength(1);
  });

  it('reads hourly for 7 days after publishing, daily until 30 days, and then never again', async () => {
    const published = new Date('2026-03-01T12:00:00Z');
    const at = (ms: number) => new Date(published.getTime() + ms);
    expect(nextStatsDue(published, at(0))).toEqual(at(HOUR));
    expect(nextStatsDue(published, at(3 * DAY + 20 * 60_000))).toEqual(at(3 * DAY + HOUR + 20 * 60_000));
    // The last hourly step stops at 7 days; from there on a day apart.
    expect(nextStatsDue(published, at(7 * DAY - 10 * 60_000))).toEqual(at(7 * DAY));
    expect(nextStatsDue(published, at(7 * DAY))).toEqual(at(8 * DAY));
    expect(nextStatsDue(published, at(29 * DAY + 12 * HOUR))).toEqual(at(30 * DAY));
    expect(nextStatsDue(published, at(30 * DAY))).toBeNull();

    // The job follows it with the time given, not waited for.
    const accountId = await tiktokAccount(user, 'open-stats-schedule');
    const post = await publishedTikTokPost(accountId);
    tiktok.setVideoStats(post.external_id!, { views: 10 });
    const now = new Date();
    const steps: [number, Date | null][] = [
      [2 * HOUR, new Date(now.getTime() + HOUR)],
      [8 * DAY, new Date(now.getTime() + DAY)],
      [29 * DAY + 20 * HOUR, new Date(now.getTime() + 4 * HOUR)],
      [31 * DAY, null],
    ];
    for (const [age, expected] of steps) {
      await onlyDue(post.id, new Date(now.getTime() - age), now);
      expect(await refreshStatsOnce(app.deps, now)).toMatchObject({ read: 1 });
      expect((await uploadRow(post.id)).stats_due_at).toEqual(expected);
    }
  });

  it('reads a YouTube video’s statistics (videos.list) for a published YouTube upload', async () => {
    const google = youtube.addUser({ channelTitle: 'Stats Channel', handle: '@statschannel' });
    const tokens = youtube.issueTokens(google.sub);
    // The video on YouTube, uploaded through the engine as the post job would.
    const client = createYouTubeClient({
      clientId: youtube.clientId,
      clientSecret: youtube.clientSecret,
      authUrl: youtube.authUrl,
      tokenUrl: youtube.tokenUrl,
      apiUrl: youtube.apiUrl,
      redirectUri: 'http://localhost:3000/api/youtube/callback',
      logger: app.deps.logger,
    });
    const bytes = Buffer.alloc(4096, 7);
    const session = await client.startUpload(tokens.accessToken, { title: 'Stats video', description: 'd', tags: [], privacyStatus: 'public', madeForKids: false }, bytes.length);
    const videoId = await client.uploadChunks(session, async (start, end) => bytes.subarray(start, end), bytes.length);
    youtube.setStatistics(videoId, { views: 4321, likes: 210, comments: 33 });

    const account = await app.deps.db
      .insertInto('accounts')
      .values({
        user_id: user.id,
        platform: 'youtube',
        open_id: google.channel!.id,
        display_name: 'Stats Channel',
        username: 'statschannel',
        connected_via: 'owner',
        access_token_enc: encryptSecret(tokens.accessToken, app.deps.appSecret),
        refresh_token_enc: encryptSecret(tokens.refreshToken, app.deps.appSecret),
        access_expires_at: new Date(Date.now() + HOUR),
        scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const clip = await seedClip(app.deps, user.id, { clip_id: 'YouTubeStats', title: 'YouTube stats clip' });
    const now = new Date();
    const upload = await app.deps.db
      .insertInto('uploads')
      .values({
        user_id: user.id,
        clip_row_id: clip.id,
        account_id: account.id,
        account_name: '@statschannel',
        account_open_id: google.channel!.id,
        platform: 'youtube',
        status: 'published',
        mode: 'direct',
        description: 'YouTube stats clip #shorts',
        title: 'YouTube stats clip',
        external_id: videoId,
        published_at: now,
        stats_due_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await onlyDue(upload.id, now, now);

    expect(await refreshStatsOnce(app.deps, now)).toEqual({ read: 1, gone: 0, skippedAccounts: 0 });
    const [list] = youtube.requestsTo('videos');
    expect(list?.query).toMatchObject({ id: videoId, part: 'status,processingDetails,statistics' });
    const row = await uploadRow(upload.id);
    // YouTube tells no shares.
    expect(row.stats).toEqual({ views: 4321, likes: 210, comments: 33, shares: null });
    expect(row.stats_due_at).toEqual(new Date(now.getTime() + HOUR));

    const stats = await callerFor(app.deps, { user }).api.accounts.stats({ id: account.id, days: 7 });
    expect(stats).toMatchObject({ platform: 'youtube', totals: { views: 4321, likes: 210, comments: 33, shares: null, posts: 1 } });
    expect(stats.top[0]).toMatchObject({ upload_id: upload.id, clip_id: 'YouTubeStats', title: 'YouTube stats clip', views: 4321, shares: null });
  });

  it('stops reading a post TikTok no longer returns, and says so in the log', async () => {
    const accountId = await tiktokAccount(user, 'open-stats-deleted');
    const post = await publishedTikTokPost(accountId);
    tiktok.deleteVideo(post.external_id!);
    const now = new Date();
    await onlyDue(post.id, now, now);
    expect(await refreshStatsOnce(app.deps, now)).toEqual({ read: 0, gone: 1, skippedAccounts: 0 });
    const row = await uploadRow(post.id);
    expect(row.stats_due_at).toBeNull();
    expect(row.stats).toBeNull();
    expect(row.status).toBe('published');
    const logs = await app.deps.db.selectFrom('logs').select(['level', 'message']).where('user_id', '=', user.id).where('logger', '=', 'stats').execute();
    expect(logs).toContainEqual({ level: 'INFO', message: expect.stringContaining(`no longer returns the post ${post.external_id}`) });
  });

  it('skips accounts that need reconnecting, and one account’s failure does not stop the others', async () => {
    const broken = await tiktokAccount(user, 'open-stats-reconnect');
    const brokenPost = await publishedTikTokPost(broken);
    const healthy = await tiktokAccount(user, 'open-stats-healthy');
    const healthyPost = await publishedTikTokPost(healthy);
    // An account connected before statistics existed: its grant lacks video.list.
    const old = await tiktokAccount(user, 'open-stats-noscope', SCOPES_NO_VIDEO_LIST);
    const oldPost = await publishedTikTokPost(old);
    tiktok.setVideoStats(healthyPost.external_id!, { views: 99 });
    await app.deps.db.updateTable('accounts').set({ needs_reconnect: true }).where('id', '=', broken).execute();
    const now = new Date();
    await app.deps.db.updateTable('uploads').set({ stats_due_at: null }).execute();
    await app.deps.db.updateTable('uploads').set({ stats_due_at: now, published_at: now }).where('id', 'in', [brokenPost.id, healthyPost.id, oldPost.id]).execute();

    const report = await refreshStatsOnce(app.deps, now);
    expect(report).toEqual({ read: 1, gone: 0, skippedAccounts: 1 });
    expect((await uploadRow(healthyPost.id)).stats).toMatchObject({ views: 99 });
    // Reconnect needed: not asked at all, still due for when it is connected again.
    const brokenRow = await uploadRow(brokenPost.id);
    expect(brokenRow.stats).toBeNull();
    expect(brokenRow.stats_due_at).toEqual(now);
    const asked = tiktok.requestsTo('video_query').map((request) => (request.json as { filters: { video_ids: string[] } }).filters.video_ids[0]);
    expect(asked).not.toContain(brokenPost.external_id);
    // No video.list: the user is told to reconnect, asked again in a day, the account is not marked.
    const oldRow = await uploadRow(oldPost.id);
    expect(oldRow.stats).toBeNull();
    expect(oldRow.stats_due_at).toEqual(new Date(now.getTime() + DAY));
    const warning = await app.deps.db.selectFrom('logs').select('message').where('level', '=', 'WARNING').where('logger', '=', 'stats').executeTakeFirstOrThrow();
    expect(warning.message).toMatch(/video\.list.*reconnect the account/);
    expect((await app.deps.db.selectFrom('accounts').select('needs_reconnect').where('id', '=', old).executeTakeFirstOrThrow()).needs_reconnect).toBe(false);
  });

  it('runs one refresh at a time', async () => {
    const accountId = await tiktokAccount(user, 'open-stats-once');
    const post = await publishedTikTokPost(accountId);
    const now = new Date();
    await onlyDue(post.id, now, now);
    // A refresh is running (its lock held on another connection): a second one returns at once.
    const holder = await app.database.pool.connect();
    try {
      await holder.query("select pg_advisory_lock(hashtext('publishing/refresh-stats'))");
      expect(await refreshStatsOnce(app.deps, now)).toBeNull();
      expect((await uploadRow(post.id)).stats).toBeNull();
      await holder.query("select pg_advisory_unlock(hashtext('publishing/refresh-stats'))");
    } finally {
      holder.release();
    }
    expect(await refreshStatsOnce(app.deps, now)).toMatchObject({ read: 1 });
  });

  it('GET /api/accounts/{id}/stats: totals, views per day from the history, the best posts; 404 for others', async () => {
    const accountId = await tiktokAccount(user, 'open-stats-chart');
    const first = await publishedTikTokPost(accountId, 'first post #one');
    const second = await publishedTikTokPost(accountId, 'second post #two');
    const today = new Date();
    const dayStart = (daysAgo: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - daysAgo));
    const date = (daysAgo: number) => dayStart(daysAgo).toISOString().slice(0, 10);
    const reading = (uploadId: string, daysAgo: number, hour: number, views: number) => ({
      upload_id: uploadId,
      fetched_at: new Date(dayStart(daysAgo).getTime() + hour * HOUR),
      views,
      likes: Math.floor(views / 10),
      comments: 1,
      shares: 0,
    });
    await app.deps.db
      .insertInto('post_stats_history')
      .values([
        // Before the window: carried into its first day.
        reading(first.id, 5, 12, 50),
        reading(first.id, 2, 1, 100),
        reading(first.id, 2, 20, 180),
        reading(second.id, 1, 3, 500),
        reading(first.id, 0, 0, 200),
      ])
      .execute();
    await app.deps.db.updateTable('uploads').set({ stats: JSON.stringify({ views: 200, likes: 20, comments: 1, shares: 0 }), stats_fetched_at: dayStart(0) }).where('id', '=', first.id).execute();
    await app.deps.db.updateTable('uploads').set({ stats: JSON.stringify({ views: 500, likes: 50, comments: 1, shares: 2 }), stats_fetched_at: dayStart(1) }).where('id', '=', second.id).execute();

    const session = await createSession(app.deps.db, user.id);
    const response = await fetch(`${server.baseUrl}/api/accounts/${accountId}/stats?days=4`, { headers: { cookie: `clipshift_session=${session.token}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      account_id: accountId,
      platform: 'tiktok',
      totals: { views: 700, likes: 70, comments: 2, shares: 2, posts: 2 },
      series: [
        { date: date(3), views: 50 },
        { date: date(2), views: 180 },
        { date: date(1), views: 680 },
        { date: date(0), views: 700 },
      ],
      top: [
        { upload_id: second.id, clip_id: expect.any(String), title: expect.stringMatching(/^Stats clip/), views: 500, likes: 50, comments: 1, shares: 2, published_at: second.published_at!.toISOString() },
        { upload_id: first.id, clip_id: expect.any(String), title: expect.stringMatching(/^Stats clip/), views: 200, likes: 20, comments: 1, shares: 0, published_at: first.published_at!.toISOString() },
      ],
    });
    // 30 days unless asked.
    const defaults = await callerFor(app.deps, { user }).api.accounts.stats({ id: accountId });
    expect(defaults.series).toHaveLength(30);
    expect(defaults.series.at(-1)).toEqual({ date: date(0), views: 700 });

    const stranger = await createSession(app.deps.db, other.id);
    const foreign = await fetch(`${server.baseUrl}/api/accounts/${accountId}/stats`, { headers: { cookie: `clipshift_session=${stranger.token}` } });
    expect(foreign.status).toBe(404);
    const bad = await fetch(`${server.baseUrl}/api/accounts/${accountId}/stats?days=0`, { headers: { cookie: `clipshift_session=${session.token}` } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/days must be a whole number between 1 and 90/);
  });

  it('ranks a new clip’s suggestions by what performed on the streamer’s linked account', async () => {
    const streamerId = await seedStreamer(app.deps, user.id, 'rankstreamer', 'RankStreamer');
    const clip = { title: 'Insane clutch ace on Dust 2', streamer: 'RankStreamer', gameName: 'Counter-Strike', transcript: 'no way he clutched that one', language: 'en' };
    const { descriptions: plain } = await describeClip(app.deps, { clip, userId: user.id, performance: await performanceProfileFor(app.deps.db, user.id, streamerId) });
    expect(plain.length).toBeGreaterThanOrEqual(3);
    // Without a linked account (and so without statistics), the scorer's order stands.
    expect(await performanceProfileFor(app.deps.db, user.id, streamerId)).toEqual({ posts: 0, features: {} });
    expect((await describeClip(app.deps, { clip, userId: user.id })).descriptions).toEqual(plain);

    // A hashtag of a lower suggestion that the top one lacks: the account's posts with it did best.
    const tagsOf = (text: string) => (text.match(/#[\p{L}\p{N}_]+/gu) ?? []).map((tag) => tag.toLowerCase());
    const topTags = new Set(tagsOf(plain[0]!.description));
    const lower = plain.slice(1).find((option) => tagsOf(option.description).some((tag) => !topTags.has(tag)));
    expect(lower).toBeDefined();
    const winningTag = tagsOf(lower!.description).find((tag) => !topTags.has(tag))!;

    const accountId = await tiktokAccount(user, 'open-stats-rank');
    await app.deps.db.insertInto('streamer_accounts').values({ streamer_id: streamerId, account_id: accountId }).execute();
    const performed = [
      { description: `an old clip of the stream ${winningTag}`, views: 9000 },
      { description: `another old clip of the stream ${winningTag}`, views: 8000 },
      { description: `one more old clip of the stream ${winningTag}`, views: 9500 },
      { description: 'an old clip of the stream #other', views: 900 },
      { description: 'another old clip of the stream #other', views: 1000 },
      { description: 'one more old clip of the stream #other', views: 1100 },
    ];
    for (const [index, post] of performed.entries()) {
      const seeded = await seedClip(app.deps, user.id, { clip_id: `RankOld${index}` });
      await app.deps.db
        .insertInto('uploads')
        .values({
          user_id: user.id,
          clip_row_id: seeded.id,
          account_id: accountId,
          account_name: '@openstatsrank',
          account_open_id: 'open-stats-rank',
          status: 'published',
          mode: 'direct',
          description: post.description,
          external_id: `7${index}`,
          published_at: new Date(),
          stats: JSON.stringify({ views: post.views, likes: 0, comments: 0, shares: 0 }),
          stats_fetched_at: new Date(),
        })
        .execute();
    }
    const profile = await performanceProfileFor(app.deps.db, user.id, streamerId);
    expect(profile.posts).toBe(6);
    expect(profile.features[winningTag]!.lift).toBeGreaterThan(1.5);

    const { descriptions: ranked } = await describeClip(app.deps, { clip, userId: user.id, performance: profile });
    // The same suggestions, the one with the hashtag that performed now ahead of the former first.
    expect(ranked.map((option) => option.description).sort()).toEqual(plain.map((option) => option.description).sort());
    expect(ranked.map((option) => option.rank)).toEqual(plain.map((option) => option.rank));
    const position = (list: typeof plain, text: string) => list.findIndex((option) => option.description === text);
    expect(position(ranked, lower!.description)).toBeLessThan(position(ranked, plain[0]!.description));
    expect(tagsOf(ranked[0]!.description)).toContain(winningTag);
  });
});
