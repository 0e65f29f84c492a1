import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { logEntry } from '@clipshift/shared';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { ADMIN, adminAndMember, bodyOf, errorBody, expectNoSecrets, MEMBER, type Reply, resetThrottles, RestClient } from './client.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('REST logs', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;
  const seen: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl, seen));
    const ids = Object.fromEntries(
      (await app.deps.db.selectFrom('users').select(['id', 'username']).execute()).map((row) => [row.username, row.id]),
    );
    await app.deps.db.deleteFrom('logs').execute();
    const rows: [number, string, string, string, string | null, string | null][] = [
      [40, 'INFO', 'auth', 'member signed in', null, ids[MEMBER.username]!],
      [30, 'ERROR', 'downloads', 'Download of Shroud failed', 'Error: timeout', ids[MEMBER.username]!],
      [20, 'CRITICAL', 'worker', 'worker crashed', null, null],
      [10, 'WARNING', 'TikTok.Upload', 'upload slow', null, ids[ADMIN.username]!],
    ];
    for (const [minutes, level, logger, message, exception, userId] of rows) {
      await sql`insert into logs (timestamp, level, logger, message, exception, user_id)
        values (now() - make_interval(mins => ${minutes}), ${level}, ${logger}, ${message}, ${exception}, ${userId})`.execute(app.deps.db);
    }
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(() => resetThrottles(app.deps));

  const messages = (reply: Reply) => bodyOf(reply, z.array(logEntry)).map((entry) => entry.message);

  it('200: a member sees their own entries, newest first, in the contract shape', async () => {
    const reply = await member.get('/api/logs');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      { id: expect.stringMatching(/^\d+$/), timestamp: expect.stringMatching(ISO), level: 'ERROR', logger: 'downloads', message: 'Download of Shroud failed', exception: 'Error: timeout' },
      { id: expect.stringMatching(/^\d+$/), timestamp: expect.stringMatching(ISO), level: 'INFO', logger: 'auth', message: 'member signed in', exception: null },
    ]);
  });

  it('200: an administrator sees every entry', async () => {
    const reply = await admin.get('/api/logs?limit=500');
    expect(messages(reply)).toEqual(['upload slow', 'worker crashed', 'Download of Shroud failed', 'member signed in']);
  });

  it('filters by level and searches message or logger, case-insensitively', async () => {
    expect(messages(await admin.get('/api/logs?level=critical'))).toEqual(['worker crashed']);
    expect(messages(await admin.get('/api/logs?level='))).toHaveLength(4);
    expect(messages(await admin.get('/api/logs?search=SHROUD'))).toEqual(['Download of Shroud failed']);
    expect(messages(await admin.get('/api/logs?search=tiktok'))).toEqual(['upload slow']);
    expect(messages(await admin.get(`/api/logs?search=${encodeURIComponent('signed in')}&level=INFO`))).toEqual(['member signed in']);
    expect(messages(await member.get('/api/logs?search=worker'))).toEqual([]);
  });

  it('honours ?limit', async () => {
    expect(messages(await admin.get('/api/logs?limit=1'))).toEqual(['upload slow']);
  });

  it('400 for a bad level or limit', async () => {
    const level = await admin.get('/api/logs?level=verbose');
    expect(level.status).toBe(400);
    expect(level.body).toEqual(
      errorBody('BAD_REQUEST', 'level must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL', {
        issues: [{ path: ['level'], message: 'level must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL' }],
      }),
    );
    const limit = await admin.get('/api/logs?limit=0');
    expect(limit.status).toBe(400);
    expect(limit.body).toMatchObject(errorBody('BAD_REQUEST', 'limit must be between 1 and 1000'));
  });

  it('401 without a session', async () => {
    const reply = await admin.fresh().get('/api/logs');
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(errorBody('UNAUTHORIZED', 'Authentication required'));
  });

  it('never shows a secret in a body', () => {
    expectNoSecrets(seen, [ADMIN.password, MEMBER.password]);
  });
});
