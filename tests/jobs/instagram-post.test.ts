import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { CRON, startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { postJob } from '../../server/src/domains/publishing/jobs/post.ts';
import { refreshStatsOnce } from '../../server/src/domains/publishing/jobs/stats.ts';
import { refreshTokensJob } from '../../server/src/domains/publishing/jobs/tokens.ts';
import { refreshEndingGrants } from '../../server/src/domains/publishing/token-upkeep.ts';
import { queueUploads } from '../../server/src/domains/publishing/uploads.ts';
import { createInstagramClient, type InstagramClient } from '../../server/src/engines/providers/instagram/client.ts';
import { MetaError } from '../../server/src/engines/providers/instagram/index.ts';
import { runTypedJob } from '../../server/src/jobs/adapter.ts';
import { decryptSecret, encryptSecret } from '../../server/src/platform/crypto.ts';
import { POST_JOB, REFRESH_STATS_JOB } from '../../server/src/platform/queue/contracts.ts';
import { jobKey, removeJob } from '../../server/src/platform/queue/queue.ts';
import { startFakeInstagram, type FakeInstagram } from '../fakes/instagram/index.ts';
import { adminAndMember, resetThrottles, type RestClient, userIdOf } from '../rest/client.ts';
import { callerFor, createServedTestApp, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { waitUntil } from '../helpers/wait.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

const DAY = 86_400_000;

interface JsonEvent {
  event: string;
  data: Record<string, unknown>;
}

/** An MP4's first bytes (an ISO BMFF "ftyp" box, which Instagram's crawler checks) and then a pattern that shows misplaced bytes. */
function reelVideo(seed: number, length = 150_000): Buffer {
  const bytes = Buffer.from(Array.from({ length }, (_, index) => (index * seed + (index >> 10) + seed) % 251));
  bytes.writeUInt32BE(24, 0);
  bytes.write('ftypisom', 4, 'latin1');
  return bytes;
}

/**
 * Posting clips as Instagram Reels (issue 21) against the fake Instagram, whose crawler really
 * downloads the signed media link from this test server (PUBLIC_URL is the server's own origin).
 */
describe('Instagram Reels through the post job, against a fake Instagram that fetches the media link', () => {
  let instagram: FakeInstagram;
  let app: TestApp;
  let server: TestServer;
  let worker: WorkerHandle;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let alice: RestClient;
  let user: PublicUser;
  let igUserId: string;
  let accountId: string;
  let realClient: InstagramClient;
  let clipCount = 0;

  const api = () => callerFor(app.deps, { user }).api;
  const uploadRow = (id: string) => app.deps.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const accountRow = () => app.deps.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
  const events = (name: string): JsonEvent[] => receiver.received.map((request) => JSON.parse(request.body) as JsonEvent).filter((body) => body.event === name);
  const mediaOfUser = () => [...instagram.media.values()].filter((media) => media.userId === igUserId);
  const containersFor = (clipBytes: Buffer) => [...instagram.containers.values()].filter((container) => container.fetch?.bytes.equals(clipBytes));

  function waitForStatus(uploadId: string, statuses: string[]) {
    return waitUntil(() => uploadRow(uploadId), { until: (row) => statuses.includes(row.status), message: `upload ${uploadId} to reach ${statuses.join(' or ')}`, intervalMs: 100 });
  }

  /** A clip of Alice's with a video Instagram can use. */
  async function reelClip(video = reelVideo(++clipCount + 3)): Promise<{ clipId: string; clipRowId: string; video: Buffer }> {
    const clipId = `Reel${++clipCount}`;
    const { id } = await seedClip(app.deps, user.id, { clip_id: clipId, title: `Reel clip ${clipCount}`, video });
    return { clipId, clipRowId: id, video };
  }

  const postOverRest = (clipId: string, body: Record<string, unknown> = {}) => alice.post(`/api/clips/${clipId}/post`, { description: 'what a play #valorant', account_ids: [accountId], ...body });

  /** Connects Alice's Instagram account through the real routes: auth-url, the consent page, our callback. */
  async function connect(): Promise<void> {
    instagram.setAuthorizingUser(igUserId);
    const { auth_url } = (await alice.get('/api/accounts/instagram/auth-url')).body as { auth_url: string };
    const consent = await fetch(auth_url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    expect(back.origin).toBe(server.baseUrl);
    const page = await fetch(`${server.baseUrl}${back.pathname}${back.search}`, { headers: { cookie: alice.cookie! } });
    expect(await page.text()).toContain('"type":"instagram-auth","success":true');
  }

  beforeAll(async () => {
    instagram = await startFakeInstagram();
    receiver = await startReceiver();
    igUserId = instagram.addUser({ username: 'alice.reels', name: 'Alice Reels' }).userId;
    ({ app, server } = await createServedTestApp({ ...instagram.env, REGISTRATION_MODE: 'invite', WEBHOOK_ALLOW_PRIVATE: 'true' }));
    // Container polling waits 3 s, 5 s, 10 s… between reads: the fake answers at once, so the waits are skipped.
    realClient = createInstagramClient({
      clientId: instagram.clientId,
      clientSecret: instagram.clientSecret,
      authUrl: instagram.authUrl,
      tokenUrl: instagram.tokenUrl,
      graphUrl: instagram.graphUrl,
      redirectUri: app.deps.env.instagramRedirectUri,
      logger: app.deps.logger,
      sleep: async () => {},
    });
    app.deps.instagram = realClient;
    ({ admin: alice } = await adminAndMember(server.baseUrl));
    const userId = await userIdOf(alice);
    user = await app.deps.db.selectFrom('users').select(['id', 'username', 'is_admin']).where('id', '=', userId).executeTakeFirstOrThrow();
    await api().webhooks.create({ url: receiver.url('/hook'), kind: 'json', events: ['post.published', 'post.failed', 'account.reconnect'] });
    await connect();
    accountId = (await app.deps.db.selectFrom('accounts').select('id').where('platform', '=', 'instagram').executeTakeFirstOrThrow()).id;
    // Statistics are read by the tests with a clock of their own.
    worker = await startWorker(app.deps, app.database.pool, 3, { cron: CRON.filter((entry) => entry.job !== REFRESH_STATS_JOB) });
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await app?.close();
    await receiver?.close();
    await instagram?.close();
  });
  beforeEach(async () => {
    instagram.reset();
    app.deps.instagram = realClient;
    await resetThrottles(app.deps);
  });

  it('posts a Reel: Instagram downloads the signed media link from this server; the options reach it', async () => {
    const { clipId, video } = await reelClip();
    const reply = await postOverRest(clipId, { description: 'clutch #valorant @friend.one', instagram: { share_to_feed: false, trial_reel: true, collaborators: ['@friend.one', 'friend_two'] } });
    expect(reply.status, reply.text).toBe(200);
    const [accepted] = (reply.body as { uploads: { id: string; status: string; platform: string }[] }).uploads;
    expect(accepted).toMatchObject({ platform: 'instagram', status: expect.stringMatching(/^(processing|published)$/) });
    expect((reply.body as { message: string }).message).toBe('Posted to Instagram successfully!');
    const row = await waitForStatus(accepted!.id, ['published']);

    const [create] = instagram.requestsTo('create_container');
    expect(create!.params).toMatchObject({ media_type: 'REELS', caption: 'clutch #valorant @friend.one', share_to_feed: false, collaborators: ['friend.one', 'friend_two'], trial_params: { graduation_strategy: 'SS_PERFORMANCE' } });
    // The link is this server's own, signed, and Instagram got the very video from it.
    const videoUrl = String(create!.params.video_url);
    expect(videoUrl.startsWith(`${server.baseUrl}/api/media/`)).toBe(true);
    const container = instagram.containers.get(row.publish_id!)!;
    expect(container.fetch).toMatchObject({ status: 200, error: null });
    expect(container.fetch!.bytes.equals(video)).toBe(true);
    const media = instagram.media.get(row.external_id!)!;
    expect(media).toMatchObject({ caption: 'clutch #valorant @friend.one', shareToFeed: false, collaborators: ['friend.one', 'friend_two'], trial: true });
    expect(media.videoBytes.equals(video)).toBe(true);
    expect(instagram.requestsTo('publish')).toHaveLength(1);
    expect(row).toMatchObject({ status: 'published', error: null, instagram_share_to_feed: false, instagram_trial_reel: true });
    expect(row.stats_due_at).toEqual(row.published_at);
    // The token is only ever sent in a header, never in a URL.
    expect(instagram.requests.filter((request) => request.endpoint !== 'refresh').every((request) => !('access_token' in request.query))).toBe(true);
    await waitUntil(() => events('post.published').length, { until: (count) => count >= 1, message: 'post.published at the receiver' });
    expect(events('post.published').at(-1)!.data).toMatchObject({ clip_id: clipId, platform: 'instagram', account: '@alice.reels' });
  });

  it('fails a post whose container ends in ERROR with Instagram’s plain words, publishing nothing', async () => {
    expectErrorLogs(/Posting a clip to Instagram failed: Instagram could not use the video/);
    // Not an MP4: Instagram's crawler gets it and refuses its format.
    const { clipId } = await reelClip(Buffer.from(Array.from({ length: 40_000 }, (_, index) => index % 199)));
    const reply = await postOverRest(clipId);
    const uploadId = (reply.body as { uploads: { id: string }[] }).uploads[0]!.id;
    const row = await waitForStatus(uploadId, ['failed']);
    expect(row.error).toBe('Instagram could not use the video: its format is not supported (Reels need MP4 with H.264 video and AAC sound).');
    expect(instagram.containers.get(row.publish_id!)).toMatchObject({ statusCode: 'ERROR', errorSubcode: 2207026 });
    expect(instagram.requestsTo('publish')).toEqual([]);
    await waitUntil(() => events('post.failed').length, { until: (count) => count >= 1, message: 'post.failed at the receiver' });
    expect(events('post.failed').at(-1)!.data).toMatchObject({ clip_id: clipId, platform: 'instagram', error: row.error });
  });

  it('lets only one of two simultaneous posts of a clip to the account through (409): one Reel', async () => {
    const { clipId, video } = await reelClip();
    const replies = await Promise.all([postOverRest(clipId, { description: 'one' }), postOverRest(clipId, { description: 'two' })]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    expect(replies.find((reply) => reply.status === 409)!.body).toMatchObject({ code: 'CONFLICT', error: 'This clip is already posted or being posted to @alice.reels' });
    const uploadId = (replies.find((reply) => reply.status === 200)!.body as { uploads: { id: string }[] }).uploads[0]!.id;
    await waitForStatus(uploadId, ['published']);
    expect(containersFor(video)).toHaveLength(1);
    expect(mediaOfUser().filter((media) => media.videoBytes.equals(video))).toHaveLength(1);
  });

  it('waits when the publishing limit is used up, saying why: a day later without slots, the next slot with slots; no container is made', async () => {
    instagram.setPublishQuota(1);
    const first = await reelClip();
    const done = await postOverRest(first.clipId);
    await waitForStatus((done.body as { uploads: { id: string }[] }).uploads[0]!.id, ['published']);
    expect(instagram.publishesInWindow(igUserId)).toBe(1);
    const containers = instagram.containers.size;

    const second = await reelClip();
    const before = Date.now();
    const reply = await postOverRest(second.clipId);
    expect(reply.status, reply.text).toBe(200);
    const [waiting] = (reply.body as { uploads: { id: string; status: string; error: string; scheduled_for: string }[] }).uploads;
    expect(waiting).toMatchObject({ status: 'scheduled', error: expect.stringMatching(/^Instagram allows 1 posts through apps per 24 hours and this account has made them; moved to .+ UTC$/) });
    expect((reply.body as { message: string }).message).toBe(`Queued for Instagram: ${waiting!.error}`);
    const at = new Date(waiting!.scheduled_for).getTime();
    expect(at).toBeGreaterThanOrEqual(before + DAY);
    expect(at).toBeLessThanOrEqual(Date.now() + DAY);
    expect(instagram.containers.size).toBe(containers);
    expect(instagram.requestsTo('create_container')).toHaveLength(1);
    const logs = await app.deps.db.selectFrom('logs').select('message').where('user_id', '=', user.id).where('level', '=', 'WARNING').execute();
    expect(logs.map((log) => log.message)).toContain(`Posting to @alice.reels waits: ${waiting!.error}`);

    // With posting slots the post waits for the account's next one instead.
    await api().queue.saveSchedule({ id: accountId, timezone: 'UTC', slots: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, time: '03:00' })), daily_cap: null, min_gap_minutes: 0 });
    try {
      const third = await reelClip();
      const slotted = await postOverRest(third.clipId);
      const [queued] = (slotted.body as { uploads: { status: string; error: string; scheduled_for: string }[] }).uploads;
      expect(queued).toMatchObject({ status: 'scheduled', error: expect.stringMatching(/; moved to .+ \(UTC\)$/) });
      const slot = new Date(queued!.scheduled_for);
      expect(slot.toISOString().slice(11, 16)).toBe('03:00');
      expect(slot.getTime()).toBeGreaterThan(Date.now());
      expect(slot.getTime() - Date.now()).toBeLessThanOrEqual(DAY + 60_000);
      expect(instagram.containers.size).toBe(containers);
    } finally {
      await api().queue.saveSchedule({ id: accountId, timezone: 'UTC', slots: [], daily_cap: null, min_gap_minutes: 0 });
    }
  });

  it('refreshes a token near its end through refresh_access_token before posting, storing the new one', async () => {
    const before = await accountRow();
    const oldToken = decryptSecret(before.access_token_enc, app.deps.appSecret);
    await app.deps.db.updateTable('accounts').set({ access_expires_at: new Date(Date.now() + 60_000) }).where('id', '=', accountId).execute();
    const { clipId } = await reelClip();
    const reply = await postOverRest(clipId);
    await waitForStatus((reply.body as { uploads: { id: string }[] }).uploads[0]!.id, ['published']);
    const refreshes = instagram.requestsTo('refresh');
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]!.query).toMatchObject({ grant_type: 'ig_refresh_token', access_token: oldToken });
    const after = await accountRow();
    const newToken = decryptSecret(after.access_token_enc, app.deps.appSecret);
    expect(newToken).not.toBe(oldToken);
    expect(newToken).toMatch(/^IGAAL/);
    expect(decryptSecret(after.refresh_token_enc, app.deps.appSecret)).toBe(newToken);
    expect(after.access_expires_at.getTime()).toBeGreaterThan(Date.now() + 59 * DAY);
    // The container and the publish went with the new token.
    expect(instagram.requestsTo('create_container').map((request) => request.authorization)).toEqual([`Bearer ${newToken}`]);
  });

  it('reads a Reel’s statistics through its insights and shows them in GET /api/accounts/{id}/stats', async () => {
    const { clipId } = await reelClip();
    const reply = await postOverRest(clipId);
    const published = await waitForStatus((reply.body as { uploads: { id: string }[] }).uploads[0]!.id, ['published']);
    instagram.setCounts(published.external_id!, { views: 1520, likes: 130, comments: 12, shares: 7 });
    await app.deps.db.updateTable('uploads').set({ stats_due_at: null }).where('id', '!=', published.id).execute();
    const report = await refreshStatsOnce(app.deps, new Date(published.published_at!.getTime() + 60_000));
    expect(report).toEqual({ read: 1, gone: 0, skippedAccounts: 0 });
    expect(instagram.requestsTo('insights').map((request) => request.query.metric)).toEqual(['views,likes,comments,shares']);
    expect((await uploadRow(published.id)).stats).toEqual({ views: 1520, likes: 130, comments: 12, shares: 7 });
    const stats = await alice.get(`/api/accounts/${accountId}/stats`);
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body).toMatchObject({
      account_id: accountId,
      platform: 'instagram',
      totals: { views: 1520, likes: 130, comments: 12, shares: 7, posts: 1 },
      top: [expect.objectContaining({ clip_id: clipId, views: 1520, likes: 130, comments: 12, shares: 7 })],
    });
  });

  describe('a job that stopped after saving its container (run by hand: the worker is stopped)', () => {
    beforeAll(async () => {
      await worker.stop();
    });
    afterAll(async () => {
      worker = await startWorker(app.deps, app.database.pool, 3, { cron: CRON.filter((entry) => entry.job !== REFRESH_STATS_JOB) });
    });

    /** An upload of a new clip queued as the wizard would, with no job for the stopped worker to find later. */
    async function queued(): Promise<{ uploadId: string; video: Buffer }> {
      const { clipRowId, video } = await reelClip();
      const [row] = await queueUploads(app.deps.db, { userId: user.id, clipRowId, accountIds: [accountId], description: 'retry #a', mode: 'direct' }, { timing: 'now' });
      await removeJob(app.deps.db, jobKey(POST_JOB, { uploadId: row!.id }));
      return { uploadId: row!.id, video };
    }

    /** Runs the post job; `crash` aborts it as a stopping worker would. The job queues itself again then: that copy is dropped. */
    async function runJob(uploadId: string, crash = new AbortController()): Promise<void> {
      await runTypedJob(postJob(app.deps), { uploadId }, app.deps.logger, { shutdown: crash.signal, attempts: 1, maxAttempts: 3 });
      await removeJob(app.deps.db, jobKey(POST_JOB, { uploadId }));
    }

    /** The job is stopped the moment Instagram has made the container (before anything is published). */
    function crashAfterContainer(crash: AbortController): void {
      app.deps.instagram = {
        ...realClient,
        createReelContainer: async (...args) => {
          const id = await realClient.createReelContainer(...args);
          crash.abort(new Error('worker stopping'));
          return id;
        },
      };
    }

    it('publishes the saved container after a stop between container and publish: one post', async () => {
      const { uploadId, video } = await queued();
      const crash = new AbortController();
      crashAfterContainer(crash);
      await runJob(uploadId, crash);
      const stopped = await uploadRow(uploadId);
      expect(stopped).toMatchObject({ status: 'processing', external_id: null });
      expect(stopped.publish_id).toMatch(/^\d+$/);
      expect(instagram.requestsTo('publish')).toEqual([]);

      app.deps.instagram = realClient;
      await runJob(uploadId);
      const done = await uploadRow(uploadId);
      expect(done).toMatchObject({ status: 'published', publish_id: stopped.publish_id });
      expect(instagram.requestsTo('create_container')).toHaveLength(1);
      expect(containersFor(video)).toHaveLength(1);
      expect(mediaOfUser().filter((media) => media.videoBytes.equals(video)).map((media) => media.id)).toEqual([done.external_id]);
      // Run once more (a duplicate job): nothing is sent.
      const calls = instagram.requests.length;
      await runJob(uploadId);
      expect(instagram.requests).toHaveLength(calls);
    });

    it('takes a lost media_publish answer for the post it made: the container says PUBLISHED, no second post', async () => {
      const { uploadId, video } = await queued();
      const crash = new AbortController();
      app.deps.instagram = {
        ...realClient,
        publishContainer: async (...args) => {
          await realClient.publishContainer(...args);
          // Published, but the answer never reached the job: the worker stops meanwhile.
          crash.abort(new Error('worker stopping'));
          throw new MetaError('instagram', 'aborted', 'Instagram POST /{ig-user-id}/media_publish was cancelled.');
        },
      };
      await runJob(uploadId, crash);
      expect(await uploadRow(uploadId)).toMatchObject({ status: 'processing', external_id: null });
      expect(mediaOfUser().filter((media) => media.videoBytes.equals(video))).toHaveLength(1);

      app.deps.instagram = realClient;
      await runJob(uploadId);
      expect(await uploadRow(uploadId)).toMatchObject({ status: 'published', error: null });
      expect(instagram.requestsTo('publish')).toHaveLength(1);
      expect(mediaOfUser().filter((media) => media.videoBytes.equals(video))).toHaveLength(1);
    });

    it('starts over with a new container when the saved one EXPIRED (nothing was posted): one post', async () => {
      const { uploadId, video } = await queued();
      const crash = new AbortController();
      crashAfterContainer(crash);
      await runJob(uploadId, crash);
      const stopped = await uploadRow(uploadId);
      expect(stopped.status).toBe('processing');
      // A day passes before the job runs again: Instagram lets the unpublished container expire.
      instagram.expireContainer(stopped.publish_id!);

      app.deps.instagram = realClient;
      await runJob(uploadId);
      const done = await uploadRow(uploadId);
      expect(done).toMatchObject({ status: 'published', error: null });
      expect(done.publish_id).not.toBe(stopped.publish_id);
      expect(containersFor(video).map((container) => [container.id, container.statusCode])).toEqual([
        [stopped.publish_id, 'EXPIRED'],
        [done.publish_id, 'PUBLISHED'],
      ]);
      expect(mediaOfUser().filter((media) => media.videoBytes.equals(video)).map((media) => media.id)).toEqual([done.external_id]);
    });

    it('lets a post whose container EXPIRED wait for the publishing limit like a new one', async () => {
      instagram.setPublishQuota(1);
      const { uploadId } = await queued();
      const crash = new AbortController();
      crashAfterContainer(crash);
      await runJob(uploadId, crash);
      const stopped = await uploadRow(uploadId);
      instagram.expireContainer(stopped.publish_id!);
      // Another post uses the account's one post of the window meanwhile.
      app.deps.instagram = realClient;
      const other = await queued();
      await runJob(other.uploadId);
      expect((await uploadRow(other.uploadId)).status).toBe('published');
      const containers = instagram.containers.size;

      await runJob(uploadId);
      const waiting = await uploadRow(uploadId);
      expect(waiting).toMatchObject({ status: 'scheduled', publish_id: null, error: expect.stringMatching(/^Instagram allows 1 posts through apps per 24 hours/) });
      expect(instagram.containers.size).toBe(containers);
      await removeJob(app.deps.db, jobKey(POST_JOB, { uploadId }));
    });
  });

  it('marks a refused refresh "Reconnect needed", tells the user once, fails the post in words; reconnecting clears it', async () => {
    expectErrorLogs(/Posting a clip to Instagram failed: The Instagram connection of Alice Reels has expired/);
    const { clipId } = await reelClip();
    instagram.revoke(igUserId);
    await app.deps.db.updateTable('accounts').set({ access_expires_at: new Date(Date.now() + 60_000) }).where('id', '=', accountId).execute();
    const refused = await postOverRest(clipId);
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: 'BAD_GATEWAY', error: 'The Instagram connection of Alice Reels has expired: reconnect the account in Settings' });
    expect(instagram.requestsTo('refresh')).toHaveLength(1);
    expect(instagram.requestsTo('create_container')).toEqual([]);
    expect((await accountRow()).needs_reconnect).toBe(true);
    expect(((await alice.get('/api/accounts')).body as { id: string; status: string }[]).find((account) => account.id === accountId)?.status).toBe('reconnect');
    await waitUntil(() => events('account.reconnect').length, { until: (count) => count >= 1, message: 'account.reconnect at the receiver' });
    expect(events('account.reconnect')[0]!.data).toMatchObject({ account_id: accountId, account: 'Alice Reels', platform: 'instagram' });

    // Tried again while still refused: Instagram is not asked again, and the user is not told twice.
    const again = await postOverRest(clipId);
    expect(again.status).toBe(502);
    expect(instagram.requestsTo('refresh')).toHaveLength(1);

    await connect();
    expect((await accountRow()).needs_reconnect).toBe(false);
    const retried = await postOverRest(clipId);
    await waitForStatus((retried.body as { uploads: { id: string }[] }).uploads[0]!.id, ['published']);
    expect(events('account.reconnect')).toHaveLength(1);
  });

  it('refreshes, once a day, tokens that end within 7 days even of accounts that do not post', async () => {
    const now = new Date();
    /** An Instagram account of Alice's that posts nothing, its token ending in `days`. */
    async function quietAccount(username: string, days: number): Promise<{ id: string; igId: string; token: string }> {
      const igId = instagram.addUser({ username }).userId;
      const token = instagram.issueToken(igId);
      const encrypted = encryptSecret(token, app.deps.appSecret);
      const ends = new Date(now.getTime() + days * DAY);
      const row = await app.deps.db
        .insertInto('accounts')
        .values({ user_id: user.id, platform: 'instagram', open_id: igId, union_id: null, display_name: username, username, avatar_url: null, access_token_enc: encrypted, refresh_token_enc: encrypted, access_expires_at: ends, refresh_expires_at: ends })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, igId, token };
    }
    const ending = await quietAccount('quiet.ending', 5);
    const later = await quietAccount('quiet.later', 30);
    const revoked = await quietAccount('quiet.revoked', 2);
    instagram.revoke(revoked.igId);
    const rowOf = (id: string) => app.deps.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const laterBefore = await rowOf(later.id);

    expect(await refreshEndingGrants(app.deps, now)).toEqual({ refreshed: 1, reconnect: 1, failed: 0 });
    expect(instagram.requestsTo('refresh').map((request) => request.query.access_token).sort()).toEqual([ending.token, revoked.token].sort());
    const refreshed = await rowOf(ending.id);
    const newToken = decryptSecret(refreshed.access_token_enc, app.deps.appSecret);
    expect(newToken).not.toBe(ending.token);
    expect(decryptSecret(refreshed.refresh_token_enc, app.deps.appSecret)).toBe(newToken);
    expect(refreshed.refresh_expires_at!.getTime()).toBeGreaterThan(now.getTime() + 59 * DAY);
    expect(refreshed.needs_reconnect).toBe(false);
    // Not ending within the week: left alone.
    expect(await rowOf(later.id)).toEqual(laterBefore);
    expect((await rowOf(revoked.id)).needs_reconnect).toBe(true);
    const told = () => events('account.reconnect').filter((event) => event.data.account_id === revoked.id);
    await waitUntil(told, { until: (list) => list.length >= 1, message: 'account.reconnect of the revoked account' });
    expect(told()[0]!.data).toMatchObject({ account: 'quiet.revoked', platform: 'instagram' });

    // The next day's run (the cron job's): nothing ends within a week any more, nobody is told again.
    instagram.reset();
    await runTypedJob(refreshTokensJob(app.deps), {}, app.deps.logger);
    expect(instagram.requestsTo('refresh')).toEqual([]);
    expect(told()).toHaveLength(1);
    expect(CRON.map((entry) => entry.job.name)).toContain('publishing/refresh-tokens');
  });
});
