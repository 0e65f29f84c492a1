import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { OAUTH_CALLBACK_PLATFORMS } from '../../server/src/http/oauth-callback.ts';
import { ADMIN, adminAndMember, bodyOf, rawRequest, resetThrottles, type RestClient, userIdOf } from './client.ts';

/**
 * What callers without a session can add to the logs table. Behind a proxy (TRUST_PROXY) every
 * request may claim its own client address, so per-address throttles alone bound nothing: these
 * floods come from a new address each time.
 */
const FLOOD = 25;
/** The most rows one anonymous source may add per hour (rows, plus the note saying the rest were not stored). */
const ANONYMOUS_ROWS_BOUND = 10 + 1;
const FAULT_ROWS_BOUND = 60 + 1;

describe('REST: log rows written without a session are bounded', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let adminId: string;
  let fail = false;

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite', TRUST_PROXY: 'true' });
    // A fault on demand in a public route (the health check asks whether the worker runs).
    server = await startTestServer({
      ...app.deps,
      workerRunning: () => {
        if (fail) throw new Error('injected fault');
        return false;
      },
    });
    ({ admin } = await adminAndMember(server.baseUrl));
    adminId = await userIdOf(admin);
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  const fromAddress = (index: number) => ({ 'x-forwarded-for': `198.51.100.${index}` });
  const post = (path: string, body: unknown, index: number) =>
    rawRequest(server.baseUrl, 'POST', path, { headers: { 'content-type': 'application/json', ...fromAddress(index) }, body: JSON.stringify(body) });
  const rowsWhere = async (filter: { userId: string | null; logger: string; level?: string }) => {
    let query = app.deps.db.selectFrom('logs').select(['message', 'level']).where('logger', '=', filter.logger);
    query = filter.userId ? query.where('user_id', '=', filter.userId) : query.where('user_id', 'is', null);
    if (filter.level) query = query.where('level', '=', filter.level);
    return query.orderBy('id').execute();
  };
  const reset = async () => {
    await resetThrottles(app.deps);
    await app.deps.db.deleteFrom('logs').execute();
  };

  it("failed sign-ins for an account add a bounded number of rows to that user's log", async () => {
    await reset();
    for (let index = 0; index < FLOOD; index += 1) {
      const reply = await post('/api/login', { username: ADMIN.username, password: `wrong ${index}` }, index);
      expect([401, 429]).toContain(reply.status);
    }
    const rows = await rowsWhere({ userId: adminId, logger: 'auth' });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(ANONYMOUS_ROWS_BOUND);
  });

  it('failed sign-ins for unknown usernames add a bounded number of system rows', async () => {
    await reset();
    for (let index = 0; index < FLOOD; index += 1) {
      expect((await post('/api/login', { username: `nobody${index}`, password: 'whatever' }, index)).status).toBe(401);
    }
    const rows = await rowsWhere({ userId: null, logger: 'auth' });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(ANONYMOUS_ROWS_BOUND);
  });

  it("guest passkey verifications add a bounded number of rows to the owner's log", async () => {
    await reset();
    const { passkey } = bodyOf(await admin.get('/api/guest/current-passkey'), z.object({ passkey: z.string() }));
    for (let index = 0; index < FLOOD; index += 1) {
      const reply = await post('/api/guest/verify-passkey', { passkey }, index);
      expect([200, 429]).toContain(reply.status);
    }
    const rows = await rowsWhere({ userId: adminId, logger: 'guests' });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(ANONYMOUS_ROWS_BOUND);
  });

  it('refused TikTok callbacks add a bounded number of system rows', async () => {
    await reset();
    for (let index = 0; index < FLOOD; index += 1) {
      const reply = await rawRequest(server.baseUrl, 'GET', `/api/tiktok/callback?state=forged${index}&code=x`, { headers: fromAddress(index) });
      expect(reply.status).toBe(400);
    }
    const rows = await rowsWhere({ userId: null, logger: 'tiktok' });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(ANONYMOUS_ROWS_BOUND);
  });

  it("refused callbacks of a signed-in user add a bounded number of rows to that user's log, on every platform's callback", async () => {
    for (const platform of OAUTH_CALLBACK_PLATFORMS) {
      await reset();
      for (let index = 0; index < FLOOD; index += 1) {
        const reply = await admin.get(`/api/${platform}/callback?state=forged${index}&code=x`, { headers: fromAddress(index) });
        expect(reply.status).toBe(400);
      }
      const rows = await rowsWhere({ userId: adminId, logger: platform, level: 'WARNING' });
      expect(rows.length, platform).toBeGreaterThan(0);
      expect(rows.length, platform).toBeLessThanOrEqual(ANONYMOUS_ROWS_BOUND);
    }
  });

  it('a burst of server faults stores a bounded sample of ERROR rows', async () => {
    expectErrorLogs(/failed: injected fault/);
    await reset();
    fail = true;
    try {
      for (let index = 0; index < FLOOD * 2; index += 1) {
        expect((await rawRequest(server.baseUrl, 'GET', '/api/health')).status).toBe(500);
        expect((await rawRequest(server.baseUrl, 'GET', '/api/trpc/health.check')).status).toBe(500);
      }
    } finally {
      fail = false;
    }
    const rows = await app.deps.db.selectFrom('logs').select(['level', 'message']).where('level', '=', 'ERROR').orderBy('id').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(FAULT_ROWS_BOUND);
    // Whoever reads the log can tell that more happened than was stored.
    expect(rows.some((row) => /not stored/.test(row.message))).toBe(true);
  });
});
