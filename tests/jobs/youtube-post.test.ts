import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { YOUTUBE_PRIVATE_LOCK_WARNING, type PublicUser } from '@clipshift/shared';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { youtubePlatform } from '../../server/src/domains/publishing/platforms/youtube.ts';
import { refreshedToken } from '../../server/src/domains/publishing/tokens.ts';
import { postJob } from '../../server/src/domains/publishing/jobs/post.ts';
import { queuePostJob, queueUploads } from '../../server/src/domains/publishing/uploads.ts';
import { runTypedJob } from '../../server/src/jobs/adapter.ts';
import { decryptSecret, encryptSecret } from '../../server/src/platform/crypto.ts';
import { POST_JOB } from '../../server/src/platform/queue/contracts.ts';
import { jobKey, removeJob } from '../../server/src/platform/queue/queue.ts';
import { startFakeYouTube, UPLOAD_BLOCK, type FakeYouTube } from '../fakes/youtube/index.ts';
import { callerFor, createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { waitUntil } from '../helpers/wait.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

interface JsonEvent {
  event: string;
  data: Record<string, unknown>;
}

/** A video of `blocks` whole 256 KiB blocks plus a few bytes, in a pattern that shows misplaced bytes. */
function videoOf(blocks: number): Buffer {
  return Buffer.from(Array.from({ length: blocks * UPLOAD_BLOCK + 1234 }, (_, index) => (index * 7 + (index >> 12)) % 251));
}

/** The wall-clock time of an instant in Los Angeles, "HH:MM". */
const pacificTime = (date: Date) => new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Los_Angeles', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);

describe('YouTube channels and posting against a fake YouTube, with the real worker', () => {
  let youtube: FakeYouTube;
  let app: TestApp;
  let server: TestServer;
  let worker: WorkerHandle;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let alice: PublicUser;
  let accountId: string;
  let aliceSub: string;

  const api = () => callerFor(app.deps, { user: alice }).api;
  const events = (name: string): JsonEvent[] => receiver.received.map((request) => JSON.parse(request.body) as JsonEvent).filter((body) => body.event === name);
  const initiations = () => youtube.requestsTo('upload_init').length;
  const uploadRow = (id: string) => app.deps.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** Follows the authorize URL like the popup would: Google redirects back to our callback. */
  async function connect(user: PublicUser, sub: string): Promise<{ status: number; html: string }> {
    youtube.setAuthorizingUser(sub);
    const { auth_url } = await callerFor(app.deps, { user }).api.youtube.authUrl();
    const authorize = await fetch(auth_url, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const callback = new URL(authorize.headers.get('location')!);
    const response = await fetch(`${server.baseUrl}${callback.pathname}${callback.search}`);
    return { status: response.status, html: await response.text() };
  }

  function waitForStatus(uploadId: string, statuses: string[]) {
    return waitUntil(() => api().posting.uploadStatus({ id: uploadId }), {
      until: (upload) => statuses.includes(upload.status),
      message: `upload ${uploadId} to reach ${statuses.join(' or ')}`,
      intervalMs: 200,
    });
  }

  /** YouTube finishes processing the upload's video once it exists; the job then marks it published. */
  async function publishWhenProcessed(uploadId: string) {
    const { external_id: videoId } = await waitUntil(() => uploadRow(uploadId), { until: (row) => row.external_id !== null, message: 'the video id saved' });
    youtube.finishProcessing(videoId!);
    return waitForStatus(uploadId, ['published']);
  }

  beforeAll(async () => {
    youtube = await startFakeYouTube();
    receiver = await startReceiver();
    aliceSub = youtube.addUser({ channelTitle: 'Alice Plays', handle: '@aliceplays' }).sub;
    app = await createTestApp({ ...youtube.env, WEBHOOK_ALLOW_PRIVATE: 'true' });
    server = await startTestServer(app.deps);
    alice = await app.deps.db.insertInto('users').values({ username: 'alice', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    await api().webhooks.create({ url: receiver.url('/hook'), kind: 'json', events: ['post.published', 'post.failed', 'account.reconnect'] });
    worker = await startWorker(app.deps, app.database.pool, 3);
    expect((await connect(alice, aliceSub)).html).toContain('"type":"youtube-auth","success":true');
    accountId = (await app.deps.db.selectFrom('accounts').select('id').where('user_id', '=', alice.id).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await app?.close();
    await receiver?.close();
    await youtube?.close();
  });
  beforeEach(() => youtube.reset());

  it('connects the channel with offline access, tokens only encrypted', async () => {
    const { auth_url } = await api().youtube.authUrl();
    const url = new URL(auth_url);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: youtube.clientId,
      redirect_uri: 'http://localhost:3000/api/youtube/callback',
      response_type: 'code',
      access_type: 'offline',
      prompt: 'consent',
      scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly',
    });
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const channel = youtube.users.get(aliceSub)!.channel!;
    const row = await app.deps.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ platform: 'youtube', open_id: channel.id, display_name: 'Alice Plays', username: 'aliceplays', avatar_url: channel.avatarUrl, needs_reconnect: false });
    const access = decryptSecret(row.access_token_enc, app.deps.appSecret);
    expect(access).toMatch(/^ya29\./);
    const { rows } = await sql<{ dump: string }>`select row_to_json(t)::text as dump from accounts t`.execute(app.deps.db);
    expect(rows.map((entry) => entry.dump).join()).not.toMatch(/ya29\.|"1\/\/0/);
    const logs = await app.deps.db.selectFrom('logs').select(['message']).where('user_id', '=', alice.id).execute();
    expect(logs.map((entry) => entry.message)).toContain('Connected YouTube channel Alice Plays');
    expect(JSON.stringify(logs)).not.toContain(access);
    expect((await api().accounts.list()).map((account) => [account.platform, account.username, account.status])).toEqual([['youtube', 'aliceplays', 'ok']]);
  });

  it('refreshes ahead of expiry and keeps the refresh token Google does not rotate', async () => {
    const before = await app.deps.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    await app.deps.db.updateTable('accounts').set({ access_expires_at: new Date(Date.now() + 60_000) }).where('id', '=', accountId).execute();
    const token = await refreshedToken(app.deps, youtubePlatform, accountId);
    const after = await app.deps.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(token).not.toBe(decryptSecret(before.access_token_enc, app.deps.appSecret));
    expect(decryptSecret(after.access_token_enc, app.deps.appSecret)).toBe(token);
    expect(after.access_expires_at.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(decryptSecret(after.refresh_token_enc, app.deps.appSecret)).toBe(decryptSecret(before.refresh_token_enc, app.deps.appSecret));
    expect(youtube.requestsTo('token').at(-1)?.form).toMatchObject({ grant_type: 'refresh_token' });
    // Not due: no call to Google.
    const calls = youtube.requestsTo('token').length;
    expect(await refreshedToken(app.deps, youtubePlatform, accountId)).toBe(token);
    expect(youtube.requestsTo('token')).toHaveLength(calls);
  });

  it('publishes a Short end to end: title, tags, privacy, made-for-kids sent; video id and stats due saved', async () => {
    const video = videoOf(3);
    const { id: clipRowId } = await seedClip(app.deps, alice.id, { clip_id: 'Publish', title: 'Insane <clutch> in   ranked', video });
    const result = await api().posting.post({ id: 'Publish', description: 'what a play #valorant #clips #Valorant', account_ids: [accountId], youtube_privacy: 'unlisted' });
    expect(result.message).toBe('Posted to YouTube successfully!');
    expect(result.uploads).toEqual([expect.objectContaining({ platform: 'youtube', tiktok_account_id: accountId, account: '@aliceplays', status: 'processing', percent: 100 })]);
    expect(initiations()).toBe(1);
    const init = youtube.requestsTo('upload_init')[0]!;
    expect(init.json).toEqual({
      snippet: { title: 'Insane clutch in ranked', description: 'what a play #valorant #clips #Valorant', tags: ['valorant', 'clips'], categoryId: '20' },
      status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
    });
    // Subscribers are not told unless the user asks (YouTube's own default would tell them).
    expect(init.query.notifySubscribers).toBe('false');
    const upload = await publishWhenProcessed(result.uploads[0]!.id);
    const videoId = upload.external_id!;
    expect(youtube.videos.get(videoId)?.bytes.equals(video)).toBe(true);
    const row = await uploadRow(upload.id);
    expect(row).toMatchObject({ status: 'published', upload_url_enc: null, title: 'Insane clutch in ranked', privacy_level: 'unlisted', clip_row_id: clipRowId });
    // Published now, and its statistics are first read at once (then hourly, see stats-schedule.ts).
    expect(row.published_at).toBeInstanceOf(Date);
    expect(row.stats_due_at).toEqual(row.published_at);
    // Every chunk but the last is a multiple of 256 KiB (the fake refuses others), and no byte went twice.
    const session = [...youtube.sessions.values()].find((candidate) => candidate.videoId === videoId)!;
    expect(session.bytesReceived).toBe(video.length);
    await waitUntil(() => events('post.published').length, { until: (count) => count >= 1, message: 'post.published at the receiver' });
    expect(events('post.published')[0]!.data).toMatchObject({ clip_id: 'Publish', platform: 'youtube', share_url: `https://www.youtube.com/shorts/${videoId}` });
    expect((await api().clips.details({ id: 'Publish' })).posted_to).toEqual([{ account: '@aliceplays', status: 'published', percent: 100, platform: 'youtube', external_id: expect.any(String), stats: null, warning: null }]);
  });

  it('tells subscribers about the video when the user chose to', async () => {
    await seedClip(app.deps, alice.id, { clip_id: 'Notify', video: videoOf(1) });
    const result = await api().posting.post({ id: 'Notify', description: 'look #a', account_ids: [accountId], youtube_privacy: 'public', youtube_notify_subscribers: true });
    const upload = await publishWhenProcessed(result.uploads[0]!.id);
    expect(youtube.requestsTo('upload_init').map((request) => request.query.notifySubscribers)).toEqual(['true']);
    expect(youtube.videos.get(upload.external_id!)?.notifySubscribers).toBe(true);
  });

  it('posts a 7th video in a day: uploads have a daily bucket of their own, apart from the units', async () => {
    const before = youtube.uploadsLeft();
    // One after the other: each job holds a worker slot until YouTube has processed its video.
    for (let index = 1; index <= 7; index++) {
      await seedClip(app.deps, alice.id, { clip_id: `Daily${index}`, video: videoOf(1) });
      const result = await api().posting.post({ id: `Daily${index}`, description: 'daily #a', account_ids: [accountId], youtube_privacy: 'private' });
      expect(await publishWhenProcessed(result.uploads[0]!.id)).toMatchObject({ status: 'published', error: null });
    }
    expect(initiations()).toBe(7);
    expect(youtube.uploadsLeft()).toBe(before - 7);
  });

  it('warns, in the queue and on the clip, when YouTube keeps a public video private (an unaudited Google project)', async () => {
    await seedClip(app.deps, alice.id, { clip_id: 'Locked', video: videoOf(1) });
    youtube.lockUploadsPrivate();
    const result = await api().posting.post({ id: 'Locked', description: 'locked #a', account_ids: [accountId], youtube_privacy: 'public' });
    const uploadId = result.uploads[0]!.id;
    // Seen while YouTube still processes the video: the queue lists the post with the warning.
    const queued = await waitUntil(() => api().queue.list(), {
      until: (items) => items.some((item) => item.id === uploadId && item.warning !== null),
      message: 'the warning in the queue',
      intervalMs: 200,
    });
    expect(queued.find((item) => item.id === uploadId)).toMatchObject({ status: 'processing', warning: YOUTUBE_PRIVATE_LOCK_WARNING });
    const published = await publishWhenProcessed(uploadId);
    expect(published).toMatchObject({ status: 'published', error: null, warning: YOUTUBE_PRIVATE_LOCK_WARNING });
    expect(youtube.videos.get(published.external_id!)?.privacyStatus).toBe('private');
    expect((await api().clips.details({ id: 'Locked' })).posted_to).toEqual([expect.objectContaining({ status: 'published', warning: YOUTUBE_PRIVATE_LOCK_WARNING })]);
  });

  it('gives no warning for a video asked to be private', async () => {
    await seedClip(app.deps, alice.id, { clip_id: 'AskedPrivate', video: videoOf(1) });
    youtube.lockUploadsPrivate();
    const result = await api().posting.post({ id: 'AskedPrivate', description: 'private #a', account_ids: [accountId], youtube_privacy: 'private' });
    expect(await publishWhenProcessed(result.uploads[0]!.id)).toMatchObject({ status: 'published', warning: null });
  });

  it('lets only one of two simultaneous posts of a clip to one channel through: one video', async () => {
    await seedClip(app.deps, alice.id, { clip_id: 'Race', video: videoOf(1) });
    const videos = youtube.videos.size;
    const results = await Promise.allSettled([
      api().posting.post({ id: 'Race', description: 'one', account_ids: [accountId], youtube_privacy: 'private' }),
      api().posting.post({ id: 'Race', description: 'two', account_ids: [accountId], youtube_privacy: 'private' }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((result) => result.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
    expect(initiations()).toBe(1);
    expect(youtube.videos.size).toBe(videos + 1);
    const fulfilled = results.find((result) => result.status === 'fulfilled')!;
    await publishWhenProcessed(fulfilled.value.uploads[0]!.id);
  });

  it('resumes after a dropped chunk from what YouTube kept, sending no kept byte again', async () => {
    const video = videoOf(4);
    await seedClip(app.deps, alice.id, { clip_id: 'Dropped', video });
    youtube.dropNextChunk({ afterBytes: 2 * UPLOAD_BLOCK + 1000 });
    const result = await api().posting.post({ id: 'Dropped', description: 'dropped #a', account_ids: [accountId], youtube_privacy: 'public' });
    const upload = await publishWhenProcessed(result.uploads[0]!.id);
    const session = [...youtube.sessions.values()].find((candidate) => candidate.videoId === upload.external_id)!;
    // The fake reads in socket-sized pieces: at least the bytes asked for, keeping whole blocks.
    expect(session.drops).toEqual([{ read: expect.any(Number), kept: 2 * UPLOAD_BLOCK }]);
    const [drop] = session.drops;
    expect(drop!.read).toBeGreaterThanOrEqual(2 * UPLOAD_BLOCK + 1000);
    expect(drop!.read).toBeLessThan(video.length);
    // Only what the fake read but did not keep was sent twice.
    expect(session.bytesReceived).toBe(video.length + drop!.read - drop!.kept);
    expect(youtube.videos.get(upload.external_id!)?.bytes.equals(video)).toBe(true);
    expect(initiations()).toBe(1);
  });

  describe('a retried job (the first run died after the session was saved)', () => {
    // The job is run by hand: the worker must not run it meanwhile.
    beforeAll(async () => {
      await worker.stop();
    });
    afterAll(async () => {
      worker = await startWorker(app.deps, app.database.pool, 3);
    });

    /** Queues an upload whose first run opened a session, saved it and died, having sent `sent` bytes; the worker does not run it. */
    async function diedMidway(clipId: string, video: Buffer, sent: number): Promise<{ uploadId: string; uploadUrl: string }> {
      const { id: clipRowId } = await seedClip(app.deps, alice.id, { clip_id: clipId, video });
      const [row] = await queueUploads(
        app.deps.db,
        { userId: alice.id, clipRowId, accountIds: [accountId], description: 'retry #a', mode: 'direct', youtubePrivacy: 'private', title: clipId },
        { timing: 'now' },
      );
      await removeJob(app.deps.db, jobKey(POST_JOB, { uploadId: row!.id }));
      const token = await refreshedToken(app.deps, youtubePlatform, accountId);
      const uploadUrl = await app.deps.youtube!.startUpload(token, { title: clipId, description: 'retry #a', tags: ['a'], privacyStatus: 'private', madeForKids: false }, video.length);
      await app.deps.db.updateTable('uploads').set({ status: 'uploading', percent: 0, upload_url_enc: encryptSecret(uploadUrl, app.deps.appSecret) }).where('id', '=', row!.id).execute();
      if (sent > 0) {
        const answer = await fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Range': `bytes 0-${sent - 1}/${video.length}` }, body: new Uint8Array(video.subarray(0, sent)) });
        expect(answer.status).toBe(sent === video.length ? 200 : 308);
      }
      return { uploadId: row!.id, uploadUrl };
    }

    const runJob = (uploadId: string) => runTypedJob(postJob(app.deps), { uploadId }, app.deps.logger, { attempts: 2, maxAttempts: 3 });

    it('resumes the saved session from the range YouTube holds: no second initiation, no byte twice', async () => {
      const video = videoOf(3);
      const { uploadId, uploadUrl } = await diedMidway('Resumed', video, 2 * UPLOAD_BLOCK);
      const before = initiations();
      const job = runJob(uploadId);
      const { external_id: videoId } = await waitUntil(() => uploadRow(uploadId), { until: (row) => row.external_id !== null, message: 'the video id saved' });
      youtube.finishProcessing(videoId!);
      await job;
      expect(initiations()).toBe(before);
      const session = youtube.sessionFor(uploadUrl)!;
      expect(session.videoId).toBe(videoId);
      expect(session.bytesReceived).toBe(video.length);
      expect((await uploadRow(uploadId)).status).toBe('published');
    });

    it('takes the video id from a session that is already complete, sending nothing', async () => {
      const video = videoOf(1);
      const { uploadId, uploadUrl } = await diedMidway('Complete', video, video.length);
      const before = { initiations: initiations(), videos: youtube.videos.size };
      const job = runJob(uploadId);
      const { external_id: videoId } = await waitUntil(() => uploadRow(uploadId), { until: (row) => row.external_id !== null, message: 'the video id saved' });
      expect(videoId).toBe(youtube.sessionFor(uploadUrl)!.videoId);
      youtube.finishProcessing(videoId!);
      await job;
      expect({ initiations: initiations(), videos: youtube.videos.size }).toEqual(before);
      expect(youtube.sessionFor(uploadUrl)!.bytesReceived).toBe(video.length);
    });
  });

  it('waits for the daily quota (midnight Pacific) in words, shows it in the queue, then posts when its time comes', async () => {
    await seedClip(app.deps, alice.id, { clip_id: 'Quota', video: videoOf(1) });
    // Spent by another app of the same Google project: Clipshift's own count still has room, YouTube refuses.
    youtube.setUploadsLeft(0);
    const result = await api().posting.post({ id: 'Quota', description: 'later #a', account_ids: [accountId], youtube_privacy: 'private' });
    const [waiting] = result.uploads;
    expect(waiting).toMatchObject({ status: 'scheduled', error: expect.stringMatching(/^YouTube's daily upload quota is used up; the post waits until it resets at midnight Pacific time \(\d\d:\d\d UTC\)\.$/) });
    expect(result.message).toBe(`Queued for YouTube: ${waiting!.error}`);
    const at = new Date(waiting!.scheduled_for!);
    expect(pacificTime(at)).toBe('00:00');
    expect(at.getTime()).toBeGreaterThan(Date.now());
    expect(at.getTime() - Date.now()).toBeLessThanOrEqual(25 * 3_600_000);
    const utc = at.toISOString().slice(11, 16);
    expect(waiting!.error).toContain(`(${utc} UTC)`);
    expect((await api().queue.list()).find((item) => item.id === waiting!.id)).toMatchObject({ platform: 'youtube', status: 'scheduled', scheduled_for: waiting!.scheduled_for, error: waiting!.error });
    const { rows: jobs } = await sql<{ run_at: Date }>`select run_at from graphile_worker.jobs where key = ${jobKey(POST_JOB, { uploadId: waiting!.id })}`.execute(app.deps.db);
    expect(jobs.map((job) => job.run_at.getTime())).toEqual([at.getTime()]);
    expect(initiations()).toBe(1);

    // Midnight Pacific comes: the quota is back and the job runs.
    youtube.setUploadsLeft(100);
    await app.deps.db.updateTable('uploads').set({ scheduled_for: new Date(Date.now() - 1000) }).where('id', '=', waiting!.id).execute();
    await queuePostJob(app.deps.db, waiting!.id);
    const published = await publishWhenProcessed(waiting!.id);
    expect(published).toMatchObject({ status: 'published', error: null });
    expect(initiations()).toBe(2);
  });

  it('marks a revoked grant "Reconnect needed", tells the user once, fails the post in words; reconnecting clears it', async () => {
    expectErrorLogs(/Posting a clip to YouTube failed: The YouTube connection of Alice Plays has expired/);
    await seedClip(app.deps, alice.id, { clip_id: 'Revoked', video: videoOf(1) });
    youtube.revoke(aliceSub);
    await app.deps.db.updateTable('accounts').set({ access_expires_at: new Date() }).where('id', '=', accountId).execute();
    const error = await api().posting.post({ id: 'Revoked', description: 'x', account_ids: [accountId], youtube_privacy: 'private' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', message: 'The YouTube connection of Alice Plays has expired: reconnect the account in Settings' });
    expect(initiations()).toBe(0);
    expect((await api().accounts.list()).find((account) => account.id === accountId)?.status).toBe('reconnect');
    await waitUntil(() => events('account.reconnect').length, { until: (count) => count >= 1, message: 'account.reconnect at the receiver' });
    expect(events('account.reconnect')[0]!.data).toMatchObject({ account_id: accountId, account: 'Alice Plays', platform: 'youtube' });

    expect((await connect(alice, aliceSub)).html).toContain('"success":true');
    expect((await api().accounts.list()).find((account) => account.id === accountId)?.status).toBe('ok');
    // A failed post may be tried again, now through the new grant.
    const retried = await api().posting.post({ id: 'Revoked', description: 'x', account_ids: [accountId], youtube_privacy: 'private' });
    await publishWhenProcessed(retried.uploads[0]!.id);
    expect(events('account.reconnect')).toHaveLength(1);
  });
});
