import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOKS_PER_USER_MAX } from '@clipshift/shared';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { createWebhook } from '../../server/src/domains/notifications/service.ts';
import { adminAndMember, errorBody, MEMBER, resetThrottles, type RestClient } from './client.ts';

const URL_RULE = 'url must be an http:// or https:// address of at most 2000 characters';
const EVENTS_RULE = 'events must list at least one of run.completed, run.failed, clip.review, post.published, post.failed, account.reconnect';
const PUBLIC = 'https://hooks.example.invalid/clipshift';

describe('REST notifications: /api/webhooks', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;

  beforeAll(async () => {
    app = await createTestApp();
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl));
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(async () => {
    await resetThrottles(app.deps);
    await app.deps.db.deleteFrom('webhooks').execute();
  });

  it('401 without a session', async () => {
    const anonymous = member.fresh();
    expect((await anonymous.get('/api/webhooks')).status).toBe(401);
    expect((await anonymous.post('/api/webhooks', { url: PUBLIC, kind: 'json', events: ['run.failed'] })).status).toBe(401);
  });

  it('201 with the secret once; GET lists it without the secret, for its owner only; DELETE removes it', async () => {
    const created = await member.post('/api/webhooks', { url: PUBLIC, kind: 'json', events: ['run.failed', 'post.failed', 'run.failed'] });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ url: PUBLIC, kind: 'json', events: ['run.failed', 'post.failed'], last_status: null, last_error: null, secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const { id, secret } = created.body as { id: string; secret: string };

    const listed = await member.get('/api/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{ id, url: PUBLIC, kind: 'json', events: ['run.failed', 'post.failed'], created_at: expect.any(String), last_status: null, last_error: null }]);
    expect(listed.text).not.toContain(secret);
    expect((await admin.get('/api/webhooks')).body).toEqual([]);

    expect((await admin.request('DELETE', `/api/webhooks/${id}`)).status).toBe(404);
    const deleted = await member.request('DELETE', `/api/webhooks/${id}`);
    expect(deleted.status).toBe(200);
    expect((await member.get('/api/webhooks')).body).toEqual([]);
    expect((await member.request('DELETE', `/api/webhooks/${id}`)).status).toBe(404);
    expect((await member.request('DELETE', '/api/webhooks/not-a-uuid')).status).toBe(404);
    expect((await member.post('/api/webhooks/not-a-uuid/test')).status).toBe(404);
  });

  it('400 with the rule for a bad url, kind, events or secret', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'ftp://example.com/x', kind: 'json', events: ['run.failed'] }, URL_RULE],
      [{ url: 'not a url', kind: 'json', events: ['run.failed'] }, URL_RULE],
      [{ url: 'https://user:pass@example.com/', kind: 'json', events: ['run.failed'] }, URL_RULE],
      [{ url: `https://example.com/${'a'.repeat(2000)}`, kind: 'json', events: ['run.failed'] }, URL_RULE],
      [{ kind: 'json', events: ['run.failed'] }, URL_RULE],
      [{ url: PUBLIC, kind: 'teams', events: ['run.failed'] }, 'kind must be one of discord, slack, json'],
      [{ url: PUBLIC, kind: 'json', events: [] }, EVENTS_RULE],
      [{ url: PUBLIC, kind: 'json', events: ['run.exploded'] }, EVENTS_RULE],
      [{ url: PUBLIC, kind: 'json', events: 'run.failed' }, EVENTS_RULE],
      [{ url: PUBLIC, kind: 'json', events: ['run.failed'], secret: 'short' }, 'secret must be 16 to 200 characters'],
      [{ url: PUBLIC, kind: 'discord', events: ['run.failed'], secret: 'a-long-enough-secret' }, 'secret applies to json webhooks only (Discord and Slack webhooks are not signed)'],
    ];
    for (const [body, message] of cases) {
      const reply = await member.post('/api/webhooks', body);
      expect(reply.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(reply.body).toMatchObject(errorBody('BAD_REQUEST', message));
    }
    expect((await member.get('/api/webhooks')).body).toEqual([]);
  });

  it('400 naming WEBHOOK_ALLOW_PRIVATE for a private receiver', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::ffff:127.0.0.1]/', 'http://192.168.0.10/']) {
      const reply = await member.post('/api/webhooks', { url, kind: 'slack', events: ['post.published'] });
      expect(reply.status, url).toBe(400);
      expect((reply.body as { message: string }).message).toContain('WEBHOOK_ALLOW_PRIVATE=true');
    }
  });

  it(`400 past ${WEBHOOKS_PER_USER_MAX} webhooks`, async () => {
    for (let index = 0; index < WEBHOOKS_PER_USER_MAX; index += 1) {
      expect((await member.post('/api/webhooks', { url: `${PUBLIC}/${index}`, kind: 'discord', events: ['run.completed'] })).status).toBe(201);
    }
    const over = await member.post('/api/webhooks', { url: PUBLIC, kind: 'discord', events: ['run.completed'] });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject(errorBody('BAD_REQUEST', `You can have at most ${WEBHOOKS_PER_USER_MAX} webhooks: delete one first`));
    expect((await admin.post('/api/webhooks', { url: PUBLIC, kind: 'discord', events: ['run.completed'] })).status).toBe(201);
  });

  it('holds the cap when creations race (each takes the per-user webhook lock)', async () => {
    const user = await app.deps.db.selectFrom('users').select('id').where('username', '=', MEMBER.username).executeTakeFirstOrThrow();
    const racing = Array.from({ length: WEBHOOKS_PER_USER_MAX + 5 }, (_, index) =>
      createWebhook(app.deps, user.id, { url: `${PUBLIC}/race/${index}`, kind: 'discord', events: ['run.completed'] }),
    );
    const settled = await Promise.allSettled(racing);
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(WEBHOOKS_PER_USER_MAX);
    const stored = await app.deps.db.selectFrom('webhooks').select('id').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(WEBHOOKS_PER_USER_MAX);
  });
});
