import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { CRON, startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { postJob } from '../../server/src/domains/publishing/jobs/post.ts';
import { refreshStatsOnce } from '../../server/src/domains/publishing/jobs/stats.ts';
import { queueUploads } from '../../server/src/domains/publishing/uploads.ts';
import { createFacebookClient, type FacebookClient } from '../../server/src/engines/providers/facebook/client.ts';
import { runTypedJob } from '../../server/src/jobs/adapter.ts';
import { decryptSecret, encryptSecret } from '../../server/src/platform/crypto.ts';
import { POST_JOB, REFRESH_STATS_JOB } from '../../server/src/platform/queue/contracts.ts';
import { jobKey, removeJob } from '../../server/src/platform/queue/queue.ts';
import { startFakeFacebook, type FakeFacebook } from '../fakes/facebook/index.ts';
import { adminAndMember, resetThrottles, type RestClient, userIdOf } from '../rest/client.ts';
import { callerFor, createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { waitUntil } from '../helpers/wait.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

interface JsonEvent {
  event: string;
  data: Record<string, unknown>;
}

const VIDEO_BYTES = 300_000;

/** A video in a pattern that shows misplaced bytes. */
function videoOf(seed: number, length = VIDEO_BYTES): Buffer {
  return Buffer.from(Array.from({ length }, (_, index) => (index * seed + (index >> 11) + seed) % 251));
}

/** Posting clips as Reels to a Facebook Page (issue 21) against the fake Facebook and its upload host. */
describe('Facebook Page Reels through the post job, against a fake Facebook', () => {
  let facebook: FakeFacebook;
  let app: TestApp;
  let server: TestServer;
  let worker: WorkerHandle;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let alice: RestClient;
  let user: PublicUser;
  let fbUserId: string;
  let pageId: string;
  let accountId: string;
  let realClient: FacebookClient;
  let clipCount = 0;

  const api = () => callerFor(app.deps, { user }).api;
  const uploadRow = (id: string) => app.deps.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const events = (name: string): JsonEvent[] => receiver.received.map((request) => JSON.parse(request.body) as JsonEvent).filter((body) => body.event === name);
  const pageToken = async () => decryptSecret((await app.deps.db.selectFrom('accounts').select('access_token_enc').where('id', '=', accountId).executeTakeFirstOrThrow()).access_token_enc, app.deps.appSecret);
  const workerOptions = () => ({ cron: CRON.filter((entry) => entry.job !== REFRESH_STATS_JOB) });

  function waitForStatus(uploadId: string, statuses: string[]) {
    return waitUntil(() => uploadRow(uploadId), { until: (row) => statuses.includes(row.status), message: `upload ${uploadId} to reach ${statuses.join(' or ')}`, intervalMs: 100 });
  }

  async function pageClip(video = videoOf(++clipCount + 2)): Promise<{ clipId: string; clipRowId: string; video: Buffer }> {
    const clipId = `PageReel${++clipCount}`;
    const { id } = await seedClip(app.deps, user.id, { clip_id: clipId, title: `Page reel ${clipCount}`, video });
    return { clipId, clipRowId: id, video };
  }

  const postOverRest = (clipId: string, body: Record<string, unknown> = {}) => alice.post(`/api/clips/${clipId}/post`, { description: 'what a play #valorant', account_ids: [accountId], ...body });
  const uploadIdOf = (reply: { body: unknown }) => (reply.body as { uploads: { id: string }[] }).uploads[0]!.id;

  /** Connects Alice's Page through the real routes: auth-url, Facebook's dialog, our callback. */
  async function connect(): Promise<void> {
    facebook.setAuthorizingUser(fbUserId);
    const { auth_url } = (await alice.get('/api/accounts/facebook/auth-url')).body as { auth_url: string };
    const dialog = await fetch(auth_url, { redirect: 'manual' });
    const back = new URL(dialog.headers.get('location')!);
    const page = await fetch(`${server.baseUrl}${back.pathname}${back.search}`, { headers: { cookie: alice.cookie! } });
    expect(await page.text()).toContain('"type":"facebook-auth","success":true');
    accountId = (await app.deps.db.selectFrom('accounts').select('id').where('platform', '=', 'facebook').where('open_id', '=', pageId).executeTakeFirstOrThrow()).id;
  }

  beforeAll(async () => {
    facebook = await startFakeFacebook();
    receiver = await startReceiver();
    const person = facebook.addUser('Alice Person', ['Alice Gaming']);
    fbUserId = person.user.userId;
    pageId = person.pages[0]!.pageId;
    app = await createTestApp({ ...facebook.env, REGISTRATION_MODE: 'invite', WEBHOOK_ALLOW_PRIVATE: 'true' });
    server = await startTestServer(app.deps);
    // After a broken upload the client waits 1 s, 2 s… before asking how much arrived: the fake answers at once.
    realClient = createFacebookClient({
      appId: facebook.appId,
      appSecret: facebook.appSecret,
      authUrl: facebook.authUrl,
      graphUrl: facebook.graphUrl,
      ruploadUrl: facebook.ruploadUrl,
      redirectUri: app.deps.env.facebookRedirectUri,
      logger: app.deps.logger,
      sleep: async () => {},
    });
    app.deps.facebook = realClient;
    ({ admin: alice } = await adminAndMember(server.baseUrl));
    const userId = await userIdOf(alice);
    user = await app.deps.db.selectFrom('users').select(['id', 'username', 'is_admin']).where('id', '=', userId).executeTakeFirstOrThrow();
    await api().webhooks.create({ url: receiver.url('/hook'), kind: 'json', events: ['post.published', 'post.failed'] });
    await connect();
    worker = await startWorker(app.deps, app.database.pool, 3, workerOptions());
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await app?.close();
    await receiver?.close();
    await facebook?.close();
  });
  beforeEach(async () => {
    facebook.reset();
    app.deps.facebook = realClient;
    await resetThrottles(app.deps);
  });

  it('posts a Reel to the Page: start, the bytes with the Page token, finish once, published with its share URL', async () => {
    const { clipId, video } = await pageClip();
    const reply = await postOverRest(clipId, { description: 'clutch #valorant' });
    expect(reply.status, reply.text).toBe(200);
    expect((reply.body as { message: string }).message).toBe('Posted to Facebook successfully!');
    const row = await waitForStatus(uploadIdOf(reply), ['published']);
    const videoId = row.external_id!;
    const reel = facebook.reels.get(videoId)!;
    expect(reel).toMatchObject({ pageId, phase: 'published', description: 'clutch #valorant', videoState: 'PUBLISHED', fileSize: video.length, bytesReceived: video.length, uploadRequests: 1 });
    expect(reel.bytes().equals(video)).toBe(true);
    expect(facebook.requestsTo('reels_start')).toHaveLength(1);
    expect(facebook.requestsTo('reels_finish').map((request) => request.params)).toEqual([expect.objectContaining({ upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED', description: 'clutch #valorant' })]);
    const token = await pageToken();
    expect(facebook.requestsTo('rupload').map((request) => [request.authorization, request.offset, request.fileSize])).toEqual([[`OAuth ${token}`, '0', String(video.length)]]);
    // The Page token goes in headers only.
    expect(facebook.requests.every((request) => !('access_token' in request.query))).toBe(true);
    expect(row).toMatchObject({ status: 'published', publish_id: videoId, upload_url_enc: null, percent: 100, error: null });
    expect(row.stats_due_at).toEqual(row.published_at);
    await waitUntil(() => events('post.published').length, { until: (count) => count >= 1, message: 'post.published at the receiver' });
    expect(events('post.published').at(-1)!.data).toMatchObject({ clip_id: clipId, platform: 'facebook', account: 'Alice Gaming', share_url: `https://www.facebook.com/reel/${videoId}` });
  });

  it('resumes an upload the host broke off after K bytes at the offset Facebook reports: no kept byte sent twice, one Reel', async () => {
    const { clipId, video } = await pageClip();
    const kept = 123_457;
    facebook.breakNextUpload({ afterBytes: kept });
    const reply = await postOverRest(clipId);
    const row = await waitForStatus(uploadIdOf(reply), ['published']);
    const reel = facebook.reels.get(row.external_id!)!;
    expect(reel.breaks).toEqual([{ offset: 0, read: expect.any(Number), kept }]);
    const [cut] = reel.breaks;
    expect(cut!.read).toBeLessThan(video.length);
    expect(facebook.requestsTo('rupload').map((request) => request.offset)).toEqual(['0', String(kept)]);
    // Only what the host read but did not keep went twice.
    expect(reel.bytesReceived).toBe(video.length + cut!.read - cut!.kept);
    expect(reel.bytes().equals(video)).toBe(true);
    expect(facebook.requestsTo('reels_start')).toHaveLength(1);
    expect(facebook.requestsTo('reels_finish')).toHaveLength(1);
    expect(facebook.publishedReels().filter((published) => published.videoId === row.external_id)).toHaveLength(1);
  });

  it('polls the Reel’s status until Facebook has published it', async () => {
    facebook.setPollsToProcess(1);
    const { clipId } = await pageClip();
    const reply = await postOverRest(clipId);
    expect((reply.body as { uploads: { status: string }[] }).uploads[0]!.status).toMatch(/^(processing|published)$/);
    const row = await waitForStatus(uploadIdOf(reply), ['published']);
    const statusReads = facebook.requestsTo('video').filter((request) => request.query.fields === 'status');
    expect(statusReads.length).toBeGreaterThanOrEqual(2);
    expect(facebook.reels.get(row.external_id!)).toMatchObject({ phase: 'published', processingPolls: 2 });
    expect(facebook.requestsTo('reels_finish')).toHaveLength(1);
  });

  it('reads a Reel’s statistics through its video insights and shows them in GET /api/accounts/{id}/stats', async () => {
    const { clipId } = await pageClip();
    const published = await waitForStatus(uploadIdOf(await postOverRest(clipId)), ['published']);
    facebook.setCounts(published.external_id!, { views: 2400, likes: 210, comments: 31, shares: 9 });
    await app.deps.db.updateTable('uploads').set({ stats_due_at: null }).where('id', '!=', published.id).execute();
    const report = await refreshStatsOnce(app.deps, new Date(published.published_at!.getTime() + 60_000));
    expect(report).toEqual({ read: 1, gone: 0, skippedAccounts: 0 });
    expect(facebook.requestsTo('video_insights').map((request) => request.path)).toEqual([`/v21.0/${published.external_id}/video_insights`]);
    expect((await uploadRow(published.id)).stats).toEqual({ views: 2400, likes: 210, comments: 31, shares: 9 });
    const stats = await alice.get(`/api/accounts/${accountId}/stats`);
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body).toMatchObject({
      account_id: accountId,
      platform: 'facebook',
      totals: { views: 2400, likes: 210, comments: 31, shares: 9, posts: 1 },
      top: [expect.objectContaining({ clip_id: clipId, views: 2400 })],
    });
  });

  describe('a job that stopped part of the way (run by hand: the worker is stopped)', () => {
    beforeAll(async () => {
      await worker.stop();
    });
    afterAll(async () => {
      worker = await startWorker(app.deps, app.database.pool, 3, workerOptions());
    });

    const runJob = (uploadId: string) => runTypedJob(postJob(app.deps), { uploadId }, app.deps.logger, { attempts: 1, maxAttempts: 3 });

    /**
     * An upload whose first run opened the Reel, saved it, sent `sent` bytes (the host kept them,
     * then the connection broke) and stopped; finished also when `finish` (it stopped before it
     * could record that). The stopped worker never runs its job.
     */
    async function stoppedMidway(sent: number, options: { finish?: boolean } = {}): Promise<{ uploadId: string; video: Buffer; videoId: string }> {
      const { clipRowId, video } = await pageClip();
      const [row] = await queueUploads(app.deps.db, { userId: user.id, clipRowId, accountIds: [accountId], description: 'resumed #a', mode: 'direct' }, { timing: 'now' });
      await removeJob(app.deps.db, jobKey(POST_JOB, { uploadId: row!.id }));
      const token = await pageToken();
      const reel = await realClient.startReel(token, pageId);
      await app.deps.db.updateTable('uploads').set({ status: 'uploading', percent: 0, publish_id: reel.videoId, upload_url_enc: encryptSecret(reel.uploadUrl, app.deps.appSecret) }).where('id', '=', row!.id).execute();
      if (sent === video.length) {
        await realClient.uploadBytes(token, reel, (start, end) => Promise.resolve(video.subarray(start, end)), video.length);
      } else if (sent > 0) {
        facebook.breakNextUpload({ afterBytes: sent });
        const headers = { Authorization: `OAuth ${token}`, offset: '0', file_size: String(video.length), 'Content-Type': 'application/octet-stream' };
        await fetch(reel.uploadUrl, { method: 'POST', headers, body: new Uint8Array(video) }).then(
          () => expect.fail('the fake was to cut the connection'),
          () => undefined,
        );
      }
      expect(facebook.reels.get(reel.videoId)!.received).toBe(sent);
      if (options.finish) await realClient.finishReel(token, pageId, reel.videoId, { description: 'resumed #a' });
      facebook.reset();
      return { uploadId: row!.id, video, videoId: reel.videoId };
    }

    it('resumes the saved upload from the bytes Facebook reports: no second start, no kept byte twice', async () => {
      const sent = 100_001;
      const { uploadId, video, videoId } = await stoppedMidway(sent);
      await runJob(uploadId);
      const row = await uploadRow(uploadId);
      expect(row).toMatchObject({ status: 'published', external_id: videoId, error: null });
      expect(facebook.requestsTo('reels_start')).toEqual([]);
      expect(facebook.requestsTo('rupload').map((request) => request.offset)).toEqual([String(sent)]);
      const reel = facebook.reels.get(videoId)!;
      expect(reel.bytes().equals(video)).toBe(true);
      const [cut] = reel.breaks;
      expect(reel.bytesReceived).toBe(video.length + cut!.read - cut!.kept);
      expect(facebook.requestsTo('reels_finish')).toHaveLength(1);
    });

    it('sends finish once: a run that stopped after finish only reads how publishing went', async () => {
      const { uploadId, video, videoId } = await stoppedMidway(VIDEO_BYTES, { finish: true });
      await runJob(uploadId);
      const row = await uploadRow(uploadId);
      expect(row).toMatchObject({ status: 'published', external_id: videoId, error: null });
      expect(facebook.requestsTo('reels_finish')).toEqual([]);
      expect(facebook.requestsTo('rupload')).toEqual([]);
      expect(facebook.reels.get(videoId)!.bytes().equals(video)).toBe(true);
      expect(facebook.publishedReels().filter((published) => published.videoId === videoId)).toHaveLength(1);
    });

    it('fails in words when the Page was removed while Facebook was receiving the video', async () => {
      expectErrorLogs(/Posting a clip to Facebook failed: The Facebook Page was removed while Facebook was receiving the video/);
      const { uploadId } = await stoppedMidway(50_000);
      expect((await alice.request('DELETE', `/api/accounts/${accountId}`)).status).toBe(200);
      await runJob(uploadId);
      const row = await uploadRow(uploadId);
      expect(row).toMatchObject({
        status: 'failed',
        account_id: null,
        upload_url_enc: null,
        error: 'The Facebook Page was removed while Facebook was receiving the video: check the Page on Facebook before posting again',
      });
      expect(facebook.requests).toEqual([]);
      // Connected again, the Page's posts are its own again.
      await connect();
      expect((await uploadRow(uploadId)).account_id).toBe(accountId);
    });
  });
});
