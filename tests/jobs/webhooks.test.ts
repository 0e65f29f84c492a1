import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser, StatusEntry, WebhookEvent } from '@clipshift/shared';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { isPrivateAddress } from '../../server/src/domains/notifications/address-guard.ts';
import { MAX_TRIES } from '../../server/src/domains/notifications/jobs/deliver.ts';
import { raiseEvent } from '../../server/src/domains/notifications/service.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { freePort } from '../helpers/app-process.ts';
import { waitUntil } from '../helpers/wait.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { renderLimitMs } from '../helpers/limits.ts';

const BACKOFF_MS = [300, 600, 900, 1200];
/** A run of one clip. */
const RUN_WAIT_MS = renderLimitMs(1);
/** Tests that wait for a whole download run (and then for retries) get the run's time and more. */
const RUN_TEST_MS = RUN_WAIT_MS + 60_000;

describe('webhook deliveries against a local receiver', () => {
  let app: TestApp;
  let worker: WorkerHandle;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let fake: FakeTwitch;
  let user: PublicUser;
  const api = () => callerFor(app.deps, { user }).api;

  beforeAll(async () => {
    fake = await startFakeTwitch();
    fake.addBroadcaster({ login: 'shroud' });
    fake.addClip({ broadcaster: 'shroud', title: 'ace', view_count: 100, duration: 2 });
    fake.addBroadcaster({ login: 'broken' });
    fake.addClip({ broadcaster: 'broken', title: 'never', view_count: 1, duration: 2 });
    receiver = await startReceiver();
    // The receiver is on loopback: only allowed because the configuration says so.
    app = await createTestApp({ ...fake.env, WEBHOOK_ALLOW_PRIVATE: 'true' });
    worker = await startWorker(app.deps, app.database.pool, 3, { webhooks: { backoffMs: BACKOFF_MS, timeoutMs: 2_000 } });
    user = await app.deps.db.insertInto('users').values({ username: 'hooked', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await receiver?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    receiver.answer((_request, response) => response.writeHead(204).end());
    for (const hook of await api().webhooks.list()) await api().webhooks.delete({ id: hook.id });
  });

  async function raise<E extends WebhookEvent>(event: E, data: Parameters<typeof raiseEvent<E>>[3]) {
    return app.deps.db.transaction().execute((trx) => raiseEvent(trx, user.id, event, data));
  }
  const deliveriesOf = (webhookId: string) => app.deps.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).execute();

  it('sends Discord, Slack and signed JSON bodies, one delivery id per delivery', async () => {
    const discord = await api().webhooks.create({ url: receiver.url('/discord'), kind: 'discord', events: ['run.completed'] });
    await api().webhooks.create({ url: receiver.url('/slack'), kind: 'slack', events: ['run.completed', 'run.failed'] });
    const json = await api().webhooks.create({ url: receiver.url('/json'), kind: 'json', events: ['run.completed'] });
    const mine = await api().webhooks.create({ url: receiver.url('/json-mine'), kind: 'json', events: ['run.completed'], secret: 'my-own-secret-0123456789' });
    const other = await api().webhooks.create({ url: receiver.url('/other'), kind: 'json', events: ['post.failed'] });
    expect(other.events).toEqual(['post.failed']);
    expect(discord.secret).toBeNull();
    expect(json.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(mine.secret).toBe('my-own-secret-0123456789');

    const data = { run_id: '6f1c8a1e-2b9f-4c3d-9e8a-1d2c3b4a5f60', streamer: 'shroud', clips_downloaded: 3, clips_failed: 1, error: null };
    expect(await raise('run.completed', data)).toBe(4);
    await waitUntil(() => receiver.received.length, { until: (count) => count >= 4, message: 'four deliveries' });

    const [toDiscord] = receiver.on('/discord');
    const discordBody = JSON.parse(toDiscord!.body) as { content: string; embeds: { title: string }[] };
    expect(discordBody.content).toBe('✅ Downloaded 3 clips for shroud (1 clip failed)');
    expect(discordBody.embeds[0]!.title).toBe('run.completed');
    expect(toDiscord!.headers['x-clipshift-signature']).toBeUndefined();

    const [toSlack] = receiver.on('/slack');
    const slackBody = JSON.parse(toSlack!.body) as { text: string; blocks: { type: string }[] };
    expect(slackBody.text).toBe('✅ Downloaded 3 clips for shroud (1 clip failed)');
    expect(slackBody.blocks[0]!.type).toBe('section');

    for (const [path, secret] of [['/json', json.secret!], ['/json-mine', mine.secret!]] as const) {
      const [request] = receiver.on(path);
      expect(request!.headers['content-type']).toBe('application/json');
      const body = JSON.parse(request!.body) as { event: string; created_at: string; data: unknown };
      expect(body).toEqual({ event: 'run.completed', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), data });
      const expected = `sha256=${createHmac('sha256', secret).update(request!.body).digest('hex')}`;
      expect(request!.headers['x-clipshift-signature']).toBe(expected);
    }
    const ids = receiver.received.map((request) => request.headers['x-clipshift-delivery']);
    expect(new Set(ids).size).toBe(4);
    const [delivery] = await deliveriesOf(json.id);
    expect(receiver.on('/json')[0]!.headers['x-clipshift-delivery']).toBe(delivery!.id);
    expect(receiver.on('/other')).toHaveLength(0);
    await waitUntil(() => deliveriesOf(json.id), { until: (rows) => rows[0]?.status === 'delivered', message: 'the delivery recorded' });
    expect((await api().webhooks.list()).find((hook) => hook.id === json.id)).toMatchObject({ last_status: 204, last_error: null });
  });

  it('retries a receiver answering 500 with backoff, and stops after it answers 2xx', async () => {
    let calls = 0;
    receiver.answer((_request, response) => {
      calls += 1;
      response.writeHead(calls < 3 ? 500 : 200).end(calls < 3 ? 'busy' : 'ok');
    });
    const hook = await api().webhooks.create({ url: receiver.url('/flaky'), kind: 'json', events: ['post.failed'] });
    await raise('post.failed', { upload_id: 'u1', clip_id: 'Clip', clip_title: 'ace', account: '@me', platform: 'tiktok', error: 'TikTok said no' });
    const rows = await waitUntil(() => deliveriesOf(hook.id), { until: (list) => list[0]?.status === 'delivered', message: 'the delivery to succeed' });
    expect(rows[0]).toMatchObject({ attempts: 3, last_status: 200, last_error: null });
    const tries = receiver.on('/flaky');
    expect(tries).toHaveLength(3);
    // Each try waits at least its backoff after the one before.
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(BACKOFF_MS[0]!);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(BACKOFF_MS[1]!);
    // The same bytes and delivery id on every try: receivers de-duplicate by it.
    expect(new Set(tries.map((request) => request.body)).size).toBe(1);
    expect(new Set(tries.map((request) => request.headers['x-clipshift-delivery'])).size).toBe(1);
  });

  it(`gives up after ${MAX_TRIES} tries, records the failure and tells the user's log`, async () => {
    receiver.answer((_request, response) => response.writeHead(500).end('down for maintenance'));
    const hook = await api().webhooks.create({ url: receiver.url('/down'), kind: 'slack', events: ['account.reconnect'] });
    await raise('account.reconnect', { account_id: 'a1', account: '@me', platform: 'tiktok' });
    const rows = await waitUntil(() => deliveriesOf(hook.id), { until: (list) => list[0]?.status === 'failed', message: 'the delivery to fail' });
    expect(rows[0]).toMatchObject({ attempts: MAX_TRIES, last_status: 500, last_error: 'The receiver answered 500: down for maintenance' });
    expect(receiver.on('/down')).toHaveLength(MAX_TRIES);
    // No sixth try comes later.
    await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS.at(-1)! + 1_500));
    expect(receiver.on('/down')).toHaveLength(MAX_TRIES);
    expect((await api().webhooks.list())[0]).toMatchObject({ last_status: 500, last_error: 'The receiver answered 500: down for maintenance' });
    const logs = await app.deps.db.selectFrom('logs').select(['level', 'message']).where('logger', '=', 'notifications').where('level', '=', 'WARNING').execute();
    expect(logs.map((row) => row.message)).toContain(`The account.reconnect notification to 127.0.0.1:${receiver.port} failed after ${MAX_TRIES} tries: The receiver answered 500: down for maintenance`);
  });

  it('Test sends now and answers the receiver’s status; an unreachable receiver is a 502 with the reason', async () => {
    receiver.answer((_request, response) => response.writeHead(418).end());
    const hook = await api().webhooks.create({ url: receiver.url('/test'), kind: 'discord', events: ['post.published'] });
    await expect(api().webhooks.test({ id: hook.id })).resolves.toEqual({ status: 418 });
    expect(JSON.parse(receiver.on('/test')[0]!.body)).toMatchObject({ content: expect.stringContaining('Test notification') });
    const dead = await api().webhooks.create({ url: `http://127.0.0.1:${await freePort()}/`, kind: 'json', events: ['post.published'] });
    await expect(api().webhooks.test({ id: dead.id })).rejects.toMatchObject({ code: 'BAD_GATEWAY', message: 'The receiver refused the connection' });
    expect((await api().webhooks.list()).find((item) => item.id === dead.id)).toMatchObject({ last_status: null, last_error: 'The receiver refused the connection' });
  });

  it('never shows the secret again: not in lists, not in the log', async () => {
    const created = await api().webhooks.create({ url: receiver.url('/secret'), kind: 'json', events: ['run.failed'] });
    const listed = await api().webhooks.list();
    expect(JSON.stringify(listed)).not.toContain(created.secret!);
    expect(Object.keys(listed[0]!).sort()).toEqual(['created_at', 'events', 'id', 'kind', 'last_error', 'last_status', 'url']);
    const row = await app.deps.db.selectFrom('webhooks').select('secret_enc').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(created.secret!);
    const logs = await app.deps.db.selectFrom('logs').select('message').execute();
    expect(logs.some((line) => line.message.includes(created.secret!))).toBe(false);
  });

  it('a dead receiver does not delay a download run: the run ends while the delivery still waits for an answer', async () => {
    // One receiver never answers (its try hangs until the timeout), one refuses connections.
    receiver.answer(() => undefined);
    const hanging = await api().webhooks.create({ url: receiver.url('/hang'), kind: 'json', events: ['run.completed'] });
    const refused = await api().webhooks.create({ url: `http://127.0.0.1:${await freePort()}/`, kind: 'discord', events: ['run.completed'] });
    await api().streamers.create({ name: 'shroud', clip_limit: 1 });
    await api().downloads.start({ name: 'shroud' });
    const finished = (entry: StatusEntry | undefined): entry is StatusEntry => entry !== undefined && !['downloading', 'stopping'].includes(entry.status);
    const entry = await waitUntil(async () => (await api().downloads.status()).shroud, { until: finished, message: 'the run', timeoutMs: RUN_WAIT_MS });
    expect(entry).toMatchObject({ status: 'completed', clips_downloaded: 1 });
    const run = await app.deps.db.selectFrom('download_runs').select('completed_at').where('status', '=', 'completed').executeTakeFirstOrThrow();

    const [hung] = await waitUntil(() => receiver.on('/hang'), { until: (list) => list.length > 0, message: 'the hanging receiver to be called' });
    // The run was over before the receiver was even asked.
    expect(run.completed_at!.getTime()).toBeLessThanOrEqual(hung!.at);
    expect(JSON.parse(hung!.body)).toMatchObject({ event: 'run.completed', data: { streamer: 'shroud', clips_downloaded: 1, clips_failed: 0, error: null } });
    const [pending] = await deliveriesOf(hanging.id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    // The hanging try times out and is retried; the refused one is retried too.
    await waitUntil(() => receiver.on('/hang'), { until: (list) => list.length >= 2, message: 'the hanging delivery to be retried' });
    const [timedOut] = await deliveriesOf(hanging.id);
    expect(timedOut!.last_error).toBe('The receiver did not answer within 2 s');
    const [refusedRow] = await waitUntil(() => deliveriesOf(refused.id), { until: (rows) => (rows[0]?.attempts ?? 0) >= 2, message: 'the refused delivery to be retried' });
    expect(refusedRow).toMatchObject({ status: 'pending', last_status: null, last_error: 'The receiver refused the connection' });
  }, RUN_TEST_MS);

  it('raises run.failed when every clip of a run fails', async () => {
    expectErrorLogs(/PersistedQueryNotFound/);
    const hook = await api().webhooks.create({ url: receiver.url('/failed'), kind: 'json', events: ['run.failed'] });
    await api().streamers.create({ name: 'broken' });
    fake.setAcceptedHashes([]);
    try {
      await api().downloads.start({ name: 'broken' });
      const [request] = await waitUntil(() => receiver.on('/failed'), { until: (list) => list.length > 0, message: 'the run.failed event', timeoutMs: RUN_WAIT_MS });
      const body = JSON.parse(request!.body) as { event: string; data: { streamer: string; clips_failed: number; error: string } };
      expect(body).toMatchObject({ event: 'run.failed', data: { streamer: 'broken', clips_downloaded: 0, clips_failed: 1 } });
      expect(body.data.error).toMatch(/^Every clip failed/);
      expect(await deliveriesOf(hook.id)).toHaveLength(1);
    } finally {
      fake.setAcceptedHashes([fake.hashes.current, fake.hashes.legacy]);
    }
  }, RUN_TEST_MS);
});

describe('private receivers are refused unless WEBHOOK_ALLOW_PRIVATE=true', () => {
  let app: TestApp;
  let worker: WorkerHandle;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let user: PublicUser;
  const api = () => callerFor(app.deps, { user }).api;

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await createTestApp();
    worker = await startWorker(app.deps, app.database.pool, 2, { webhooks: { backoffMs: [100, 100, 100, 100], timeoutMs: 2_000 } });
    user = await app.deps.db.insertInto('users').values({ username: 'guarded', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await receiver?.close();
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://127.1/hook',
    'http://2130706433/hook',
    'http://0.0.0.0/',
    'http://10.1.2.3/',
    'http://172.20.0.1/',
    'http://192.168.1.10/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[2002:7f00:1::]/',
    'http://localhost:3000/',
    'http://app.localhost/',
    'http://intranet/',
  ])('refuses %s when it is saved, naming WEBHOOK_ALLOW_PRIVATE', async (url) => {
    await expect(api().webhooks.create({ url, kind: 'json', events: ['run.completed'] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE=true'),
    });
  });

  it('classifies addresses: private, loopback, link-local, ULA, CGNAT and mapped forms are private; public ones are not', () => {
    for (const address of ['127.0.0.1', '0.0.0.0', '10.0.0.1', '100.100.1.1', '169.254.1.1', '172.31.255.255', '192.168.0.1', '::1', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:0:7f00:1', 'fc00::1', 'fdff::1', 'fe80::1%eth0', 'ff02::1', '64:ff9b::c0a8:1', 'not-an-ip']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['1.1.1.1', '8.8.8.8', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('accepts a public address when saving', async () => {
    const hook = await api().webhooks.create({ url: 'https://hooks.example.invalid/clipshift', kind: 'slack', events: ['post.published'] });
    expect(hook).toMatchObject({ kind: 'slack', events: ['post.published'], last_status: null, secret: null });
  });

  it('checks again at delivery: a saved receiver whose name or address is private is never called', async () => {
    // Rows as a name that resolved publicly when saved would leave them, once DNS points elsewhere.
    const rows = await app.deps.db
      .insertInto('webhooks')
      .values([
        { user_id: user.id, url: receiver.url('/literal'), kind: 'json', events: ['run.failed'], secret_enc: null },
        { user_id: user.id, url: `http://localhost:${receiver.port}/named`, kind: 'json', events: ['run.failed'], secret_enc: null },
      ])
      .returning('id')
      .execute();
    await app.deps.db.transaction().execute((trx) => raiseEvent(trx, user.id, 'run.failed', { run_id: 'r', streamer: 's', clips_downloaded: 0, clips_failed: 1, error: 'x' }));
    for (const row of rows) {
      const [delivery] = await waitUntil(() => app.deps.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', row.id).execute(), {
        until: (list) => list[0]?.status === 'failed',
        message: 'the refused delivery to give up',
      });
      expect(delivery!.last_error).toMatch(/WEBHOOK_ALLOW_PRIVATE=true \((127\.0\.0\.1|localhost resolves to (127\.0\.0\.1|::1))\)$/);
      expect(delivery!.last_status).toBeNull();
    }
    expect(receiver.received).toHaveLength(0);
    // Test refuses it as well, with the 400.
    await expect(api().webhooks.test({ id: rows[0]!.id })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE') });
  });
});
