import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createdToken, tokenLacksScope, TOKEN_SCOPES, type TokenScope } from '@clipshift/shared';
import { createDeps } from '../../server/src/app/deps.ts';
import { createApp, listenApp } from '../../server/src/app/http-app.ts';
import type { AppDeps } from '../../server/src/domains/deps.ts';
import { INVALID_TOKEN } from '../../server/src/domains/tokens/service.ts';
import { accessOf, SESSION_ONLY, type Access } from '../../server/src/http/access.ts';
import { DIRECT_ROUTES, REST_ROUTES, type DirectRoute, type RestRoute } from '../../server/src/http/rest/routes.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { RATE_LIMITS } from '../../server/src/platform/rate-limit.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { adminAndMember, bodyOf, errorBody, resetThrottles, type Reply, type RestClient } from './client.ts';

const accessOfRoute = (route: RestRoute): Access => accessOf(route.procedure, route.method === 'GET' ? 'query' : 'mutation');
const accessOfDirect = (route: DirectRoute): Access => accessOf(route.operationId, route.method === 'GET' ? 'query' : 'mutation');

/** Every line the app logs, at every level: none may hold a token. */
function recordingLogger(lines: string[]) {
  return createLogger(
    'trace',
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  );
}

/** A path of the route with every parameter filled with something that names nothing. */
const samplePath = (path: string) => `/api${path.replace(/\{[^}]+\}/g, (param) => (param === '{platform}' ? 'tiktok' : '00000000-0000-4000-8000-000000000000'))}`;

describe('REST API tokens: /api/tokens and bearer authentication', () => {
  let app: TestApp;
  let deps: AppDeps;
  let baseUrl: string;
  let close: () => Promise<void>;
  let admin: RestClient;
  let member: RestClient;
  const logLines: string[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    // The same app with a logger that keeps every line (the test app records errors only).
    deps = createDeps(app.deps.env, app.deps.db, recordingLogger(logLines), { appSecret: app.deps.appSecret });
    const server = await listenApp(createApp(deps), 0, '127.0.0.1');
    const { port } = server.address() as { port: number };
    baseUrl = `http://127.0.0.1:${port}`;
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    ({ admin, member } = await adminAndMember(baseUrl));
  });
  afterAll(async () => {
    await close();
    await app.close();
  });
  beforeEach(async () => {
    await resetThrottles(deps);
    await deps.db.deleteFrom('api_tokens').execute();
  });

  async function makeToken(client: RestClient, scopes: readonly TokenScope[], extra: Record<string, unknown> = {}) {
    const reply = await client.post('/api/tokens', { name: `token ${scopes.join('+')}`, scopes, ...extra });
    expect(reply.status, reply.text).toBe(201);
    return bodyOf(reply, createdToken);
  }

  /** A request with the token alone (no cookie), as a script sends it. */
  function withToken(client: RestClient, token: string, method: string, path: string, json?: unknown): Promise<Reply> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    const needsBody = method !== 'GET' && method !== 'DELETE';
    return client.fresh().request(method, path, { headers, ...(needsBody ? { json: json ?? {} } : {}) });
  }

  it('creates a token shown once (cs_…), lists it without the value, revokes it; 404 for another user', async () => {
    const created = await member.post('/api/tokens', { name: '  my script ', scopes: ['read', 'write', 'read'], expires_in_days: 30 });
    expect(created.status, created.text).toBe(201);
    const token = bodyOf(created, createdToken);
    expect(token).toMatchObject({ name: 'my script', scopes: ['read', 'write'], last_used_at: null, token: expect.stringMatching(/^cs_[a-z2-7]{24}_[a-z2-7]{32}$/) });
    const days = (Date.parse(token.expires_at ?? '') - Date.parse(token.created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(30);

    const listed = await member.get('/api/tokens');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{ id: token.id, name: 'my script', scopes: ['read', 'write'], created_at: token.created_at, expires_at: token.expires_at, last_used_at: null }]);
    expect(listed.text).not.toContain(token.token);
    expect((await admin.get('/api/tokens')).body).toEqual([]);
    const stored = await deps.db.selectFrom('api_tokens').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token.token.slice(28));

    expect((await admin.request('DELETE', `/api/tokens/${token.id}`)).status).toBe(404);
    expect((await member.request('DELETE', '/api/tokens/not-a-uuid')).status).toBe(404);
    const revoked = await member.request('DELETE', `/api/tokens/${token.id}`);
    expect(revoked.status).toBe(200);
    expect((await member.get('/api/tokens')).body).toEqual([]);
    expect((await member.request('DELETE', `/api/tokens/${token.id}`)).status).toBe(404);
  });

  it('400 with the rule for a bad name, scopes or expiry, and for the admin scope of a non-administrator', async () => {
    const cases: [unknown, string][] = [
      [{ scopes: ['read'] }, 'name must be 1 to 100 characters'],
      [{ name: '   ', scopes: ['read'] }, 'name must be 1 to 100 characters'],
      [{ name: 'x'.repeat(101), scopes: ['read'] }, 'name must be 1 to 100 characters'],
      [{ name: 'x', scopes: [] }, 'scopes must list at least one of read, write, post, admin'],
      [{ name: 'x', scopes: ['everything'] }, 'scopes must list at least one of read, write, post, admin'],
      [{ name: 'x', scopes: 'read' }, 'scopes must list at least one of read, write, post, admin'],
      [{ name: 'x', scopes: ['read'], expires_in_days: 0 }, 'expires_in_days must be a whole number from 1 to 365 (left out: the token never expires)'],
      [{ name: 'x', scopes: ['read'], expires_in_days: 1.5 }, 'expires_in_days must be a whole number from 1 to 365 (left out: the token never expires)'],
      [{ name: 'x', scopes: ['read'], expires_in_days: '7' }, 'expires_in_days must be a whole number from 1 to 365 (left out: the token never expires)'],
      [{ name: 'x', scopes: ['admin'] }, 'Only administrators can give a token the admin scope'],
    ];
    for (const [body, message] of cases) {
      const reply = await member.post('/api/tokens', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toMatchObject(errorBody('BAD_REQUEST', message));
    }
    expect((await member.get('/api/tokens')).body).toEqual([]);
    expect((await member.fresh().post('/api/tokens', { name: 'x', scopes: ['read'] })).status).toBe(401);
  });

  it('classifies every REST and file route: GETs need read unless they are session-only, admin or public; every other route is named', () => {
    for (const route of REST_ROUTES) {
      const access = accessOfRoute(route);
      if (route.method === 'GET') {
        expect(['read', 'session', 'admin', 'public'], route.path).toContain(access);
      } else {
        expect(accessOf(route.procedure, 'query'), `${route.method} ${route.path} must be classified in http/access.ts`).toBe(access);
      }
      if (route.admin) expect(access, route.path).toBe('admin');
    }
    for (const route of DIRECT_ROUTES) {
      const access = accessOfDirect(route);
      if (route.method === 'GET') expect(['read', 'session', 'public'], route.path).toContain(access);
      else if (access === 'token') expect(route.operationId).toBe('mcp.endpoint');
      // accessOf with 'mutation' is closed for unlisted keys, with 'query' open: both agree only when listed.
      else expect(accessOf(route.operationId, 'query'), `${route.method} ${route.path} must be classified in http/access.ts`).toBe(access);
      if (!route.auth) expect(['session', 'public'], route.path).toContain(access);
    }
    expect(accessOf('tokens.create', 'mutation')).toBe('session');
    expect(accessOf('some.newMutation', 'mutation')).toBe('session');
  });

  it('each scope allows the routes it names and refuses every other with 403 and the exact message', async () => {
    const all = await makeToken(admin, TOKEN_SCOPES);
    const only = {} as Record<TokenScope, { token: string }>;
    for (const scope of TOKEN_SCOPES) only[scope] = await makeToken(admin, [scope]);
    const routes = [
      ...REST_ROUTES.map((route) => ({ method: route.method, path: route.path, access: accessOfRoute(route) })),
      ...DIRECT_ROUTES.filter((route) => route.auth).map((route) => ({ method: route.method, path: route.path, access: accessOfDirect(route) })),
    ];
    let checked = 0;
    for (const route of routes) {
      const path = samplePath(route.path);
      const label = `${route.method} ${route.path} (${route.access})`;
      // MCP takes a token of any scope; its tools check theirs (tests/rest/mcp.test.ts).
      if (route.access === 'public' || route.access === 'token') continue;
      if (route.access === 'session') {
        const reply = await withToken(admin, all.token, route.method, path);
        expect(reply.status, label).toBe(403);
        expect(reply.body, label).toMatchObject(errorBody('FORBIDDEN', SESSION_ONLY));
        checked += 1;
        continue;
      }
      const needed = route.access;
      const allowed = await withToken(admin, only[needed].token, route.method, path);
      expect([401, 403, 500], `${label}: ${allowed.text}`).not.toContain(allowed.status);
      for (const other of TOKEN_SCOPES.filter((scope) => scope !== needed)) {
        const refused = await withToken(admin, only[other].token, route.method, path);
        expect(refused.status, `${label} with ${other}`).toBe(403);
        expect(refused.body, `${label} with ${other}`).toMatchObject(errorBody('FORBIDDEN', tokenLacksScope(needed)));
      }
      checked += 1;
      await resetThrottles(deps);
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('a token acts as its user: it reads their data, and an admin-scoped token of a member could never exist nor pass', async () => {
    const created = await member.post('/api/streamers', { name: 'tokenstreamer' });
    expect(created.status, created.text).toBe(201);
    const token = await makeToken(member, ['read']);
    const listed = await withToken(member, token.token, 'GET', '/api/streamers');
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain('tokenstreamer');
    const adminTokenOfAdmin = await makeToken(admin, ['read']);
    expect(JSON.stringify((await withToken(admin, adminTokenOfAdmin.token, 'GET', '/api/streamers')).body)).not.toContain('tokenstreamer');

    // Scopes narrow what the user may do: a member's token with every scope it can have still is no administrator.
    const broad = await makeToken(member, ['read', 'write', 'post']);
    const invites = await withToken(member, broad.token, 'GET', '/api/admin/invite-codes');
    expect(invites.status).toBe(403);
    expect(invites.body).toMatchObject(errorBody('FORBIDDEN', tokenLacksScope('admin')));
    // Even with the admin scope forced into the row, the member stays a member.
    await sql`update api_tokens set scopes = array['admin'] where id = ${broad.id}`.execute(deps.db);
    const forced = await withToken(member, broad.token, 'GET', '/api/admin/invite-codes');
    expect(forced.status).toBe(403);
    expect(forced.body).toMatchObject(errorBody('FORBIDDEN', 'This action needs an administrator account'));
    // The admin's own admin token works.
    const adminToken = await makeToken(admin, ['admin']);
    expect((await withToken(admin, adminToken.token, 'GET', '/api/admin/invite-codes')).status).toBe(200);
  });

  it('401 with WWW-Authenticate for an unknown, malformed, revoked or expired token, on the next request after revoking', async () => {
    const token = await makeToken(member, ['read']);
    expect((await withToken(member, token.token, 'GET', '/api/clips')).status).toBe(200);
    const bad = [`${token.token.slice(0, -1)}a`, 'cs_nothing', '', 'not a token at all', `${token.token} extra`];
    for (const value of bad) {
      const reply = await withToken(member, value, 'GET', '/api/clips');
      expect(reply.status, value).toBe(401);
      expect(reply.body).toMatchObject(errorBody('UNAUTHORIZED', INVALID_TOKEN));
      expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
    // A bad token is no fallback to the cookie: the request speaks for the token alone.
    const both = await member.request('GET', '/api/clips', { headers: { authorization: 'Bearer cs_wrong' } });
    expect(both.status).toBe(401);

    expect((await member.request('DELETE', `/api/tokens/${token.id}`)).status).toBe(200);
    const revoked = await withToken(member, token.token, 'GET', '/api/clips');
    expect(revoked.status).toBe(401);
    expect(revoked.body).toMatchObject(errorBody('UNAUTHORIZED', INVALID_TOKEN));

    const expiring = await makeToken(member, ['read'], { expires_in_days: 1 });
    expect((await withToken(member, expiring.token, 'GET', '/api/clips')).status).toBe(200);
    await sql`update api_tokens set expires_at = now() - interval '1 second' where id = ${expiring.id}`.execute(deps.db);
    const expired = await withToken(member, expiring.token, 'GET', '/api/clips');
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject(errorBody('UNAUTHORIZED', INVALID_TOKEN));
    // Health still reports whatever the token.
    expect((await withToken(member, 'cs_wrong', 'GET', '/api/health')).status).toBe(200);
  });

  it('token routes refuse tokens, even with every scope, also over tRPC', async () => {
    const token = await makeToken(admin, TOKEN_SCOPES);
    for (const [method, path] of [['GET', '/api/tokens'], ['POST', '/api/tokens'], ['DELETE', `/api/tokens/${token.id}`], ['POST', '/api/login'], ['GET', '/api/check-auth']] as const) {
      const reply = await withToken(admin, token.token, method, path, { name: 'copy', scopes: ['read'] });
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.body).toMatchObject(errorBody('FORBIDDEN', SESSION_ONLY));
    }
    const overTrpc = await admin.fresh().get('/api/trpc/tokens.list', { headers: { authorization: `Bearer ${token.token}` } });
    expect(overTrpc.status).toBe(403);
    expect(overTrpc.text).toContain(SESSION_ONLY);
    const readOverTrpc = await admin.fresh().get('/api/trpc/streamers.list', { headers: { authorization: `Bearer ${token.token}` } });
    expect(readOverTrpc.status).toBe(200);
    expect((await admin.get('/api/tokens')).body).toHaveLength(1);
  });

  it('writes last_used_at on use, at most once a minute', async () => {
    const token = await makeToken(member, ['read']);
    expect((await withToken(member, token.token, 'GET', '/api/streamers')).status).toBe(200);
    const first = await deps.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(first.last_used_at).toBeInstanceOf(Date);
    expect((await withToken(member, token.token, 'GET', '/api/streamers')).status).toBe(200);
    const second = await deps.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(second.last_used_at?.toISOString()).toBe(first.last_used_at?.toISOString());
    await sql`update api_tokens set last_used_at = now() - interval '61 seconds' where id = ${token.id}`.execute(deps.db);
    expect((await withToken(member, token.token, 'GET', '/api/streamers')).status).toBe(200);
    const third = await deps.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(third.last_used_at!.getTime()).toBeGreaterThan(first.last_used_at!.getTime());
    const listed = await member.get('/api/tokens');
    expect(listed.body).toEqual([expect.objectContaining({ id: token.id, last_used_at: third.last_used_at!.toISOString() })]);
  });

  it("throttles count token requests: a token's budget, and invalid tokens from one address", async () => {
    const token = await makeToken(member, ['read']);
    expect((await withToken(member, token.token, 'GET', '/api/streamers')).status).toBe(200);
    const counted = await sql<{ hits: number }>`select hits from rate_limits where key = ${`api-token:${token.id}`}`.execute(deps.db);
    expect(counted.rows[0]?.hits).toBe(1);
    await sql`update rate_limits set hits = ${RATE_LIMITS.apiToken.max} where key = ${`api-token:${token.id}`}`.execute(deps.db);
    const limited = await withToken(member, token.token, 'GET', '/api/streamers');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token of the same user has its own budget; the session is not throttled by it.
    const other = await makeToken(member, ['read']);
    expect((await withToken(member, other.token, 'GET', '/api/streamers')).status).toBe(200);
    expect((await member.get('/api/streamers')).status).toBe(200);

    for (let attempt = 0; attempt < RATE_LIMITS.apiTokenFailures.max; attempt += 1) {
      expect((await withToken(member, `cs_guess${attempt}`, 'GET', '/api/streamers')).status).toBe(401);
    }
    const refused = await withToken(member, 'cs_one_more_guess', 'GET', '/api/streamers');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // A valid token still works from that address: only failures are counted there.
    expect((await withToken(member, other.token, 'GET', '/api/streamers')).status).toBe(200);
  });

  it('no token value in the logs table, a log line, or any answer but the creating one', async () => {
    const seenBefore = member.seen.length;
    const token = await makeToken(member, ['read']);
    const bodiesAfterCreate = () => member.seen.slice(seenBefore + 1);
    await withToken(member, token.token, 'GET', '/api/streamers');
    await withToken(member, token.token, 'POST', '/api/streamers', { name: 'x' });
    await withToken(member, token.token, 'GET', '/api/tokens');
    await withToken(member, token.token, 'GET', '/api/clips/00000000-0000-4000-8000-000000000000/video');
    await withToken(member, `${token.token}x`, 'GET', '/api/streamers');
    await withToken(member, token.token, 'GET', `/api/nowhere?token=${token.token}`);
    await member.get('/api/tokens');
    await member.get('/api/logs?limit=500');
    expect(bodiesAfterCreate().length).toBeGreaterThan(5);
    const secret = token.token.slice(28);
    for (const text of bodiesAfterCreate()) expect(text).not.toContain(secret);
    const logged = await deps.db.selectFrom('logs').select(['message', 'exception']).execute();
    expect(JSON.stringify(logged)).not.toContain(secret);
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line).not.toContain(secret);
  });
});
