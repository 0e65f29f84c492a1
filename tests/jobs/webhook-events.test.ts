import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { callerFor, createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { waitUntil } from '../helpers/wait.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

interface JsonEvent {
  event: string;
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * The posting events (issue 12) reach a receiver from real posts through the fake TikTok, not only
 * from raiseEvent called by hand: published, failed with TikTok's reason, and an account that
 * needs reconnecting — once, not on every later post.
 */
describe('webhook events raised by posting', () => {
  let tiktok: FakeTikTok;
  let app: TestApp;
  let server: TestServer;
  let worker: WorkerHandle;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let user: PublicUser;
  let accountId = '';
  const api = () => callerFor(app.deps, { user }).api;
  const events = (name: string): JsonEvent[] =>
    receiver.received.map((request) => JSON.parse(request.body) as JsonEvent).filter((body) => body.event === name);

  beforeAll(async () => {
    tiktok = await startFakeTikTok({ pollsUntilDone: 0 });
    tiktok.addUser({ openId: 'open-hooks', displayName: 'Hook Clips', username: 'hookclips' });
    receiver = await startReceiver();
    app = await createTestApp({ ...tiktok.env, WEBHOOK_ALLOW_PRIVATE: 'true' });
    server = await startTestServer(app.deps);
    worker = await startWorker(app.deps, app.database.pool, 3, { webhooks: { backoffMs: [200, 400, 600, 800], timeoutMs: 2_000 } });
    user = await app.deps.db.insertInto('users').values({ username: 'poster', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    tiktok.setAuthorizingUser('open-hooks');
    const { auth_url: authUrl } = await api().tiktok.authUrl();
    const authorize = await fetch(authUrl, { redirect: 'manual' });
    const callback = new URL(authorize.headers.get('location')!);
    expect((await fetch(`${server.baseUrl}${callback.pathname}${callback.search}`)).status).toBe(200);
    accountId = (await app.deps.db.selectFrom('accounts').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;
    await api().webhooks.create({ url: receiver.url('/hook'), kind: 'json', events: ['post.published', 'post.failed', 'account.reconnect'] });
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await app?.close();
    await receiver?.close();
    await tiktok?.close();
  });
  beforeEach(() => {
    tiktok.clearFailures();
  });

  it('sends post.published once TikTok has published the video', async () => {
    await seedClip(app.deps, user.id, { clip_id: 'Published', title: 'the clutch' });
    await api().posting.post({ id: 'Published', description: 'the clutch #fyp #clips #gaming', tiktok_account_ids: [accountId], privacy_level: 'SELF_ONLY' });
    await waitUntil(() => events('post.published').length, { until: (count) => count === 1, message: 'post.published at the receiver' });
    expect(events('post.published')[0]!.data).toMatchObject({ clip_id: 'Published', account: expect.stringContaining('hookclips') });
  });

  it('sends post.failed with the reason when TikTok refuses the video', async () => {
    expectErrorLogs(/Posting a clip to TikTok failed/);
    await seedClip(app.deps, user.id, { clip_id: 'Refused', title: 'refused clip' });
    tiktok.failNextPublish('file_format_check_failed');
    await api()
      .posting.post({ id: 'Refused', description: 'refused #a #b #c', tiktok_account_ids: [accountId], privacy_level: 'SELF_ONLY' })
      .catch(() => undefined);
    await waitUntil(() => events('post.failed').length, { until: (count) => count === 1, message: 'post.failed at the receiver' });
    expect(events('post.failed')[0]!.data).toMatchObject({ clip_id: 'Refused', error: expect.any(String) });
  });

  it('sends account.reconnect when TikTok refuses the connection, once for repeated refusals', async () => {
    expectErrorLogs(/Posting a clip to TikTok failed: The TikTok connection of Hook Clips has expired/);
    for (const clipId of ['Expired1', 'Expired2']) {
      await seedClip(app.deps, user.id, { clip_id: clipId });
      await app.deps.db.updateTable('accounts').set({ access_expires_at: new Date() }).where('id', '=', accountId).execute();
      tiktok.failNext('token', 'invalid_grant');
      await api()
        .posting.post({ id: clipId, description: 'x #a #b #c', tiktok_account_id: accountId, privacy_level: 'SELF_ONLY' })
        .catch(() => undefined);
    }
    await waitUntil(() => events('account.reconnect').length, { until: (count) => count >= 1, message: 'account.reconnect at the receiver' });
    // The second refusal must not raise it again: wait for its post.failed (raised after it) first.
    await waitUntil(() => events('post.failed').filter((event) => String(event.data.clip_id).startsWith('Expired')).length, { until: (count) => count === 2, message: 'both refused posts reported' });
    expect(events('account.reconnect')).toHaveLength(1);
    expect(events('account.reconnect')[0]!.data).toMatchObject({ account: expect.stringContaining('Hook Clips') });
  });
});
