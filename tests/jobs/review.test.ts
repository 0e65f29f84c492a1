import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser, StatusEntry } from '@clipshift/shared';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { autoPublishClip } from '../../server/src/domains/publishing/service.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { waitUntil } from '../helpers/wait.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { renderLimitMs } from '../helpers/limits.ts';

/** A run of up to four clips. */
const RUN_WAIT_MS = renderLimitMs(4);

/*
 * The review inbox of issue 12 end to end: a run of a streamer in review mode on the real worker
 * (fake Twitch, real ffmpeg), its clip.review webhooks, approvals posting to the fake TikTok with the
 * privacy chosen once per account, rejections that never post, and bulk approval.
 */
describe('the review inbox', { timeout: 3 * RUN_WAIT_MS }, () => {
  let twitch: FakeTwitch;
  let tiktok: FakeTikTok;
  let app: TestApp;
  let server: TestServer;
  let worker: WorkerHandle;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let user: PublicUser;
  let accountId: string;
  let otherAccountId: string;
  const api = () => callerFor(app.deps, { user }).api;

  async function connect(openId: string): Promise<string> {
    tiktok.setAuthorizingUser(openId);
    const { auth_url } = await api().tiktok.authUrl();
    const authorize = await fetch(auth_url, { redirect: 'manual' });
    const callback = new URL(authorize.headers.get('location')!);
    const answer = await fetch(`${server.baseUrl}${callback.pathname}${callback.search}`);
    expect(await answer.text()).toContain('"success":true');
    return (await app.deps.db.selectFrom('accounts').select('id').where('open_id', '=', openId).executeTakeFirstOrThrow()).id;
  }

  const uploadsOf = (clipId: string) =>
    app.deps.db.selectFrom('uploads').innerJoin('clips', 'clips.id', 'uploads.clip_row_id').select(['uploads.id', 'uploads.status', 'uploads.description', 'uploads.account_id']).where('clips.clip_id', '=', clipId).execute();
  const reviewStatus = async (clipId: string) =>
    (await app.deps.db.selectFrom('clips').select(['review_status', 'reviewed_at']).where('clip_id', '=', clipId).executeTakeFirstOrThrow());

  beforeAll(async () => {
    twitch = await startFakeTwitch();
    tiktok = await startFakeTikTok({ pollsUntilDone: 0 });
    tiktok.addUser({ openId: 'open-reviewer', displayName: 'Reviewer', username: 'reviewer' });
    tiktok.addUser({ openId: 'open-second', displayName: 'Second', username: 'second' });
    receiver = await startReceiver();
    // The receiver is on loopback: only allowed because the configuration says so.
    app = await createTestApp({ ...twitch.env, ...tiktok.env, WEBHOOK_ALLOW_PRIVATE: 'true' });
    server = await startTestServer(app.deps);
    worker = await startWorker(app.deps, app.database.pool, 3);
    user = await app.deps.db.insertInto('users').values({ username: 'reviewer', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    accountId = await connect('open-reviewer');
    otherAccountId = await connect('open-second');

    twitch.addBroadcaster({ login: 'careful' });
    for (const [title, views] of [['first', 900], ['second', 800], ['third', 700], ['fourth', 600]] as const) {
      twitch.addClip({ broadcaster: 'careful', title, view_count: views, duration: 2 });
    }
    await api().webhooks.create({ url: receiver.url('/hook'), kind: 'json', events: ['clip.review'] });
    await api().streamers.create({ name: 'careful', auto_publish: true, publish_mode: 'review', clip_limit: 4 });
    await api().posting.link({ name: 'careful', tiktok_account_id: accountId });
    await api().downloads.start({ name: 'careful' });
    const entry = await waitUntil(async () => (await api().downloads.status()).careful, {
      until: (value): value is StatusEntry => value !== undefined && !['downloading', 'stopping'].includes(value.status),
      message: 'the review-mode run',
      timeoutMs: RUN_WAIT_MS,
    });
    expect(entry).toMatchObject({ status: 'completed', clips_downloaded: 4 });
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await app?.close();
    await receiver?.close();
    await tiktok?.close();
    await twitch?.close();
  });

  /** The clip id of each title, as the inbox lists them. */
  async function inbox(): Promise<Map<string, string>> {
    return new Map((await api().review.list()).map((clip) => [clip.title, clip.clip_id]));
  }
  async function clipIdOf(title: string): Promise<string> {
    return (await app.deps.db.selectFrom('clips').select('clip_id').where('title', '=', title).executeTakeFirstOrThrow()).clip_id;
  }

  it('holds every new clip of a review-mode run as pending, posts nothing, and tells the clip.review webhooks', async () => {
    const listed = await api().review.list();
    expect(listed.map((clip) => clip.title).sort()).toEqual(['first', 'fourth', 'second', 'third']);
    const saved = await app.deps.db.selectFrom('clips').select(['clip_id', 'created_at', 'review_status']).where('streamer_name', '=', 'careful').orderBy('created_at').orderBy('id').execute();
    // Oldest first: the order the clips were saved in.
    expect(listed.map((clip) => clip.clip_id)).toEqual(saved.map((row) => row.clip_id));
    expect(saved.every((row) => row.review_status === 'pending')).toBe(true);
    expect(await api().review.count()).toEqual({ count: 4 });
    expect(await app.deps.db.selectFrom('uploads').select('id').execute()).toEqual([]);
    expect(tiktok.requestsTo('video_init')).toEqual([]);

    const deliveries = await app.deps.db.selectFrom('webhook_deliveries').select(['event', 'payload']).where('event', '=', 'clip.review').execute();
    expect(deliveries).toHaveLength(4);
    const received = await waitUntil(() => receiver.on('/hook'), { until: (list) => list.length >= 4, message: 'four clip.review deliveries' });
    const bodies = received.map((request) => JSON.parse(request.body) as { event: string; data: { clip_id: string; clip_title: string; streamer: string } });
    expect(bodies.map((body) => body.event)).toEqual(['clip.review', 'clip.review', 'clip.review', 'clip.review']);
    expect(bodies.map((body) => body.data.clip_title).sort()).toEqual(['first', 'fourth', 'second', 'third']);
    expect(bodies[0]!.data.streamer).toBe('careful');
  });

  it('refuses an approval to an account whose privacy nobody chose, and leaves the clip pending', async () => {
    const clipId = await clipIdOf('first');
    await expect(api().review.approve({ clip_id: clipId })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Choose who can see posts on @reviewer before approving' });
    expect((await reviewStatus(clipId)).review_status).toBe('pending');
    expect(await uploadsOf(clipId)).toEqual([]);
    expect((await api().review.accountSettings()).find((row) => row.tiktok_account_id === accountId)).toEqual({
      tiktok_account_id: accountId,
      account: '@reviewer',
      platform: 'tiktok',
      privacy_level: null,
      youtube_privacy: null,
      youtube_notify_subscribers: false,
      disable_comment: false,
      disable_duet: false,
      disable_stitch: false,
    });
  });

  it('approves with the best-ranked suggestion and the privacy chosen once for the account, and posts to TikTok', async () => {
    const saved = await api().review.saveAccountSettings({ id: accountId, privacy_level: 'SELF_ONLY', disable_comment: true });
    expect(saved).toMatchObject({ privacy_level: 'SELF_ONLY', disable_comment: true, disable_duet: false });
    const clipId = await clipIdOf('first');
    const best = (await api().clips.details({ id: clipId })).metadata.descriptions[0]!.description;

    const approved = await api().review.approve({ clip_id: clipId });
    expect(approved.message).toBe('Approved: queued for 1 account');
    expect(approved.uploads).toEqual([expect.objectContaining({ clip_id: clipId, tiktok_account_id: accountId, account: '@reviewer' })]);
    const posted = await waitUntil(() => uploadsOf(clipId), { until: (rows) => rows[0]?.status === 'published', message: 'the approved post', timeoutMs: 60_000, intervalMs: 200 });
    expect(posted[0]!.description).toBe(best);
    const init = tiktok.requestsTo('video_init').at(-1)!.json as { post_info: Record<string, unknown> };
    expect(init.post_info).toMatchObject({ privacy_level: 'SELF_ONLY', disable_comment: true, disable_duet: false });

    expect(await reviewStatus(clipId)).toMatchObject({ review_status: 'approved', reviewed_at: expect.any(Date) });
    expect((await inbox()).has('first')).toBe(false);
    expect(await api().review.count()).toEqual({ count: 3 });
    await expect(api().review.approve({ clip_id: clipId })).rejects.toMatchObject({ code: 'CONFLICT', message: `Clip ${clipId} is not waiting for review` });
    await expect(api().review.reject({ clip_id: clipId })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('approves with a description and accounts of the user’s choosing', async () => {
    await api().review.saveAccountSettings({ id: otherAccountId, privacy_level: 'MUTUAL_FOLLOW_FRIENDS' });
    const clipId = await clipIdOf('second');
    const approved = await api().review.approve({ clip_id: clipId, description: '  my words #clip  ', account_ids: [otherAccountId] });
    expect(approved.uploads.map((upload) => upload.account)).toEqual(['@second']);
    const rows = await waitUntil(() => uploadsOf(clipId), { until: (list) => list[0]?.status === 'published', message: 'the post to @second', timeoutMs: 60_000, intervalMs: 200 });
    expect(rows).toEqual([expect.objectContaining({ description: 'my words #clip', account_id: otherAccountId })]);
  });

  it('rejects a clip: it stays in the library and is never posted, not even by a late auto-publish job', async () => {
    const clipId = await clipIdOf('third');
    expect(await api().review.reject({ clip_id: clipId })).toEqual({ message: 'Rejected: the clip stays in your library and will not be posted' });
    expect((await reviewStatus(clipId)).review_status).toBe('rejected');
    expect((await api().clips.details({ id: clipId })).title).toBe('third');
    const row = await app.deps.db.selectFrom('clips').select('id').where('clip_id', '=', clipId).executeTakeFirstOrThrow();
    await autoPublishClip(app.deps, row.id);
    expect(await uploadsOf(clipId)).toEqual([]);
    await expect(api().review.reject({ clip_id: clipId })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(api().review.approve({ clip_id: clipId })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(api().review.reject({ clip_id: 'NoSuchClip' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('bulk-approves what it can and names each clip it could not approve', async () => {
    const fourth = await clipIdOf('fourth');
    const third = await clipIdOf('third');
    const result = await api().review.approveMany({ clip_ids: [fourth, third, 'NoSuchClip', fourth] });
    expect(result.approved).toBe(1);
    expect(result.uploads).toEqual([expect.objectContaining({ clip_id: fourth, account: '@reviewer' })]);
    expect(result.failed).toEqual([
      { clip_id: third, message: `Clip ${third} is not waiting for review` },
      { clip_id: 'NoSuchClip', message: 'Clip NoSuchClip not found' },
    ]);
    await waitUntil(() => uploadsOf(fourth), { until: (rows) => rows[0]?.status === 'published', message: 'the bulk-approved post', timeoutMs: 60_000, intervalMs: 200 });
    expect(await api().review.list()).toEqual([]);
    expect(await api().review.count()).toEqual({ count: 0 });
  });
});
