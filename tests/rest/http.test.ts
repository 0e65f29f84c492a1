import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.ts';
import { DIRECT_ROUTES, REST_ROUTES } from '../../server/src/http/rest/routes.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../server/src/platform/errors.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { ADMIN, adminAndMember, APP_ORIGIN, errorBody, expectNoSecrets, field, MEMBER, resetThrottles, RestClient, SESSION_COOKIE } from './client.ts';

/** The routes of rest-api.md's Auth, Invite codes, Guest passkey and Logs sections, plus health. */
const CONTRACT_ROUTES = [
  ['post', '/login', false],
  ['post', '/register', false],
  ['get', '/register', false],
  ['post', '/logout', false],
  ['get', '/check-auth', false],
  ['post', '/admin/invite-codes/generate', true],
  ['get', '/admin/invite-codes', true],
  ['post', '/admin/invite-codes/cleanup', true],
  ['get', '/guest/current-passkey', true],
  ['post', '/guest/verify-passkey', false],
  ['get', '/logs', true],
  ['get', '/health', false],
] as const;

/** The parts of the OpenAPI document these tests read. */
interface OpenApiOperation {
  operationId: string;
  parameters: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }> }>;
  security?: unknown;
}

interface OpenApiDocument {
  openapi: string;
  info: { title: unknown; version: unknown };
  servers: unknown;
  components: { securitySchemes: Record<string, unknown>; schemas: { Error: { required: string[] } } };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

const UNAUTHORIZED = errorBody('UNAUTHORIZED', 'Authentication required');
const CROSS_SITE = errorBody('FORBIDDEN', 'Cross-site request refused');

/** A concrete URL for a route of the table ("{name}" → "someone"). */
const urlOf = (path: string) => `/api${path.replace(/\{[^}]+\}/g, 'someone')}`;

describe('REST: HTTP rules of the contract', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;
  let client: RestClient;
  const seen: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl, seen));
    client = new RestClient(server.baseUrl, seen);
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(() => resetThrottles(app.deps));

  describe('GET /api/health', () => {
    it('200 {status, database, worker}', async () => {
      const reply = await client.get('/api/health');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ status: 'ok', database: 'ok', worker: 'disabled' });
    });
  });

  describe('GET /api/openapi.json', () => {
    let doc: OpenApiDocument;
    beforeAll(async () => {
      const reply = await client.get('/api/openapi.json');
      expect(reply.status).toBe(200);
      expect(reply.contentType).toMatch(/^application\/json/);
      doc = reply.body as OpenApiDocument;
    });

    const operationAt = (path: string, method: string): OpenApiOperation => {
      const operation = doc.paths[path]?.[method];
      if (!operation) expect.fail(`${method} ${path} is not documented`);
      return operation;
    };
    const statusesOf = (path: string, method: string) => Object.keys(operationAt(path, method).responses);
    const bodySchemaOf = (path: string, method: string) => {
      const schema = operationAt(path, method).requestBody?.content['application/json']?.schema;
      if (!schema) expect.fail(`${method} ${path} documents no JSON body`);
      return schema;
    };

    it('is an OpenAPI 3.1 document', () => {
      expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
      expect(typeof doc.info.title).toBe('string');
      expect(typeof doc.info.version).toBe('string');
      expect(doc.servers).toEqual([{ url: `${APP_ORIGIN}/api` }]);
      expect(doc.components.securitySchemes.sessionCookie).toEqual({ type: 'apiKey', in: 'cookie', name: SESSION_COOKIE });
      expect(typeof doc.paths).toBe('object');
    });

    it('lists every contract route of these sections and every route of the table', () => {
      for (const [method, path] of CONTRACT_ROUTES) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      for (const route of REST_ROUTES) expect(doc.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
      const operations = Object.values(doc.paths as Record<string, Record<string, unknown>>).flatMap((item) => Object.keys(item));
      for (const route of DIRECT_ROUTES) expect(doc.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
      expect(operations).toHaveLength(REST_ROUTES.length + DIRECT_ROUTES.length);
    });

    it('documents success statuses, the error body, session security and inputs', () => {
      const operationIds = new Set<string>();
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          expect(['get', 'post', 'put', 'delete']).toContain(method);
          expect(typeof operation.operationId).toBe('string');
          expect(operationIds.has(operation.operationId), `duplicate operationId ${operation.operationId}`).toBe(false);
          operationIds.add(operation.operationId);
          expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
          for (const response of Object.values(operation.responses)) {
            expect(typeof response.description).toBe('string');
            const ref = response.content?.['application/json']?.schema?.$ref;
            if (ref) expect(ref).toBe('#/components/schemas/Error');
          }
          // Every {param} of the path is declared as a required path parameter.
          for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
            expect(operation.parameters).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
          }
          if (method === 'get') expect(operation.requestBody).toBeUndefined();
        }
      }
      expect(doc.components.schemas.Error.required).toEqual(['error', 'message', 'code']);
      expect(statusesOf('/register', 'post')).toContain('201');
      expect(statusesOf('/admin/invite-codes/generate', 'post')).toContain('201');
      expect(operationAt('/logs', 'get').security).toEqual([{ sessionCookie: [] }, { apiToken: ['read'] }]);
      expect(operationAt('/streamers', 'post').security).toEqual([{ sessionCookie: [] }, { apiToken: ['write'] }]);
      // Routes that take no token name the session alone.
      expect(operationAt('/tokens', 'post').security).toEqual([{ sessionCookie: [] }]);
      expect(operationAt('/login', 'post').security).toBeUndefined();
      expect(statusesOf('/logs', 'get')).toContain('401');
      // Wrong credentials are a 401 too.
      expect(statusesOf('/login', 'post')).toContain('401');
      // A non-administrator gets 403 from the invite-code list, a GET.
      expect(statusesOf('/admin/invite-codes', 'get')).toContain('403');
      expect(Object.keys(bodySchemaOf('/login', 'post').properties ?? {})).toEqual(['username', 'password']);
      expect(Object.keys(bodySchemaOf('/register', 'post').properties ?? {})).toEqual(['username', 'password', 'invite_code']);
      expect(operationAt('/logs', 'get').parameters.map((param) => `${param.in}:${param.name}`)).toEqual(['query:limit', 'query:level', 'query:search']);
      expect(operationAt('/admin/invite-codes', 'get').parameters.map((param) => param.name)).toEqual(['limit']);
      const generated = operationAt('/admin/invite-codes/generate', 'post').responses['201']?.content?.['application/json']?.schema;
      expect(Object.keys(generated?.properties ?? {})).toEqual(['id', 'code', 'created_at', 'expires_at', 'days_valid']);
    });

    it('names the statuses the server answers: 401 on login, 400 on the callback, 503, 416, 502, 431 everywhere', () => {
      expect(statusesOf('/tiktok/callback', 'get')).toEqual(['200', '400', '431', '503']);
      expect(Object.keys(operationAt('/tiktok/callback', 'get').responses['200']?.content ?? {})).toEqual(['text/html']);
      expect(statusesOf('/tiktok/auth-url', 'get')).toContain('503');
      expect(statusesOf('/health', 'get')).toEqual(['200', '400', '431', '503']);
      // A bearer token adds 403 (beyond its scopes) and 429 (its budget) wherever one is taken.
      for (const file of ['video', 'thumbnail']) expect(statusesOf(`/clips/{id}/${file}`, 'get')).toEqual(['200', '206', '304', '400', '401', '403', '404', '412', '416', '429', '431', '503']);
      expect(statusesOf('/subtitle/{id}', 'post')).toContain('502');
      expect(statusesOf('/clips/{id}/post', 'post')).toContain('502');
      // Only what can happen: no 409 on a read; 403 and 429 come from API tokens (scopes, budget).
      expect(statusesOf('/streamers', 'get')).toEqual(['200', '400', '401', '403', '429', '431', '503']);
    });

    it('shows the bodies clients send: no path parameters, no internal fields, the constraints of the schemas', () => {
      const update = bodySchemaOf('/streamers/{name}', 'put');
      expect(Object.keys(update.properties ?? {})).not.toContain('body_name');
      expect(update.required ?? []).not.toContain('name');
      expect(bodySchemaOf('/clips/{id}/descriptions', 'put').properties).not.toHaveProperty('id');
      const post = bodySchemaOf('/clips/{id}/post', 'post');
      expect(post.required).toEqual(['description']);
      expect(post.properties?.description).toMatchObject({ type: 'string', maxLength: 2200 });
      expect(operationAt('/downloads/stop/{name}', 'post').requestBody).toBeUndefined();
      // Query numbers as the server takes them: digits.
      const limit = operationAt('/clips', 'get').parameters.find((param) => param.name === 'limit');
      expect(limit).toMatchObject({ in: 'query', schema: { type: 'string', pattern: '^[0-9]+$' } });
    });
  });

  describe('GET /api/docs', () => {
    it('renders the document as HTML for people', async () => {
      const reply = await client.get('/api/docs');
      expect(reply.status).toBe(200);
      expect(reply.contentType).toMatch(/^text\/html/);
      expect(reply.text.startsWith('<!doctype html>')).toBe(true);
      for (const [, path] of CONTRACT_ROUTES) expect(reply.text).toContain(`<code>/api${path}</code>`);
      expect(reply.text).toContain('href="/api/openapi.json"');
      // Self-contained: no external script.
      expect(reply.text).not.toMatch(/<script[^>]+src=/i);
    });
  });

  describe('authentication', () => {
    const protectedRoutes = REST_ROUTES.filter((route) => route.auth);

    it('covers the protected routes of these sections', () => {
      const paths = protectedRoutes.map((route) => `${route.method} ${route.path}`);
      for (const [method, path, needsSession] of CONTRACT_ROUTES) {
        expect(paths.includes(`${method.toUpperCase()} ${path}`), `${method} ${path}`).toBe(needsSession);
      }
    });

    it('answers 401 on every protected route without a session, or with an invalid one', async () => {
      for (const cookie of [undefined, `${SESSION_COOKIE}=forged.session`]) {
        const anonymous = client.fresh();
        anonymous.cookie = cookie;
        for (const route of protectedRoutes) {
          const reply = await anonymous.request(route.method, urlOf(route.path), route.method === 'GET' || route.method === 'DELETE' ? {} : { json: {} });
          expect(reply.status, `${route.method} ${route.path} (${cookie})`).toBe(401);
          expect(reply.body).toEqual(UNAUTHORIZED);
        }
      }
    });

    it('answers public routes without a session', async () => {
      const anonymous = client.fresh();
      expect((await anonymous.get('/api/check-auth')).status).toBe(200);
      expect((await anonymous.get('/api/register')).status).toBe(200);
      expect((await anonymous.get('/api/health')).status).toBe(200);
      expect((await anonymous.post('/api/logout')).status).toBe(200);
      expect((await anonymous.post('/api/login', {})).status).toBe(400);
      expect((await anonymous.post('/api/register', {})).status).toBe(400);
      expect((await anonymous.post('/api/guest/verify-passkey', {})).status).toBe(400);
    });
  });

  describe('cross-site requests', () => {
    it('403 for a POST from a foreign Origin, before anything happens', async () => {
      const browser = client.fresh();
      const reply = await browser.post('/api/login', ADMIN, { headers: { origin: 'https://evil.example' } });
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual(CROSS_SITE);
      expect(reply.setCookies).toEqual([]);
      // A forged logout leaves the session alone.
      const forged = await member.post('/api/logout', undefined, { headers: { origin: 'https://evil.example' } });
      expect(forged.status).toBe(403);
      expect(forged.body).toEqual(CROSS_SITE);
      expect((await member.get('/api/check-auth')).body).toMatchObject({ authenticated: true });
      // An admin action too.
      const generate = await admin.post('/api/admin/invite-codes/generate', {}, { headers: { origin: 'http://localhost:3001' } });
      expect(generate.status).toBe(403);
      expect(generate.body).toEqual(CROSS_SITE);
      const opaque = await admin.post('/api/admin/invite-codes/generate', {}, { headers: { origin: 'null' } });
      expect(opaque.status).toBe(403);
    });

    it('403, not 415, for a cross-site HTML form post', async () => {
      // What a forged <form method="post"> sends: a foreign Origin and a form body.
      const reply = await member.request('POST', '/api/logout', {
        raw: 'a=1',
        headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual(CROSS_SITE);
      expect((await member.get('/api/check-auth')).body).toMatchObject({ authenticated: true });
    });

    it("accepts the app's own Origin, and no Origin at all", async () => {
      const own = await client.fresh().post('/api/login', ADMIN, { headers: { origin: APP_ORIGIN } });
      expect(own.status).toBe(200);
      const script = await client.fresh().post('/api/login', ADMIN);
      expect(script.status).toBe(200);
      expect((await admin.post('/api/admin/invite-codes/generate', {}, { headers: { origin: APP_ORIGIN } })).status).toBe(201);
    });

    it('lets a GET from another Origin through (it changes nothing)', async () => {
      const reply = await member.get('/api/check-auth', { headers: { origin: 'https://evil.example' } });
      expect(reply.status).toBe(200);
    });
  });

  describe('request bodies', () => {
    it('415 for a body that is not JSON', async () => {
      for (const [type, raw] of [
        ['text/plain', JSON.stringify(ADMIN)],
        ['application/x-www-form-urlencoded', 'username=admin&password=admin+password+123'],
      ]) {
        const reply = await client.fresh().request('POST', '/api/login', { raw, headers: { 'content-type': type! } });
        expect(reply.status, type).toBe(415);
        expect(reply.body).toEqual(errorBody('UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON (Content-Type: application/json)'));
        expect(reply.setCookies).toEqual([]);
      }
    });

    it('accepts JSON with a charset', async () => {
      const reply = await client.fresh().request('POST', '/api/login', {
        raw: JSON.stringify(ADMIN),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(reply.status).toBe(200);
    });

    it('413 for an oversized JSON body', async () => {
      const reply = await client.fresh().post('/api/login', { username: 'admin', password: 'x'.repeat(200 * 1024) });
      expect(reply.status).toBe(413);
      expect(reply.body).toEqual(errorBody('PAYLOAD_TOO_LARGE', 'Request body is too large'));
    });

    it('400 for malformed JSON', async () => {
      const reply = await client.fresh().request('POST', '/api/login', { raw: '{"username": "admin", ', headers: { 'content-type': 'application/json' } });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual(errorBody('BAD_REQUEST', 'Request body is not valid JSON'));
    });
  });

  describe('unknown routes', () => {
    it('404 JSON for an unknown /api route, whatever the method', async () => {
      const get = await client.get('/api/no-such-thing');
      expect(get.status).toBe(404);
      expect(get.contentType).toMatch(/^application\/json/);
      expect(get.body).toEqual(errorBody('NOT_FOUND', 'No route GET /api/no-such-thing'));
      const post = await client.post('/api/login/extra', {});
      expect(post.status).toBe(404);
      expect(post.body).toEqual(errorBody('NOT_FOUND', 'No route POST /api/login/extra'));
      const wrongVerb = await client.request('DELETE', '/api/logs');
      expect(wrongVerb.status).toBe(404);
      expect(wrongVerb.body).toEqual(errorBody('NOT_FOUND', 'No route DELETE /api/logs'));
    });
  });

  describe('tRPC endpoint', () => {
    it('answers a validation error with the human message and no stack', async () => {
      const reply = await client.fresh().post('/api/trpc/auth.login', { username: '', password: '' });
      expect(reply.status).toBe(400);
      expect(field(reply, 'error', 'message')).toBe('Username and password are required');
      expect(field(reply, 'error', 'data', 'restCode')).toBe('BAD_REQUEST');
      expect(field(reply, 'error', 'data', 'stack')).toBeUndefined();
    });
  });

  describe('headers', () => {
    it('sends the security headers and no X-Powered-By', async () => {
      const reply = await client.get('/api/health');
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
      expect(reply.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(reply.headers.get('x-powered-by')).toBeNull();
    });
  });

  it('never shows a stack trace, a password hash or a password in a body', async () => {
    const tokens = (await app.deps.db.selectFrom('sessions').select('id').execute()).map((row) => row.id);
    expect(tokens.length).toBeGreaterThan(0);
    expectNoSecrets(seen, [ADMIN.password, MEMBER.password]);
    const logs = JSON.stringify(await app.deps.db.selectFrom('logs').select(['message', 'exception']).execute());
    expect(logs).not.toContain(ADMIN.password);
    expect(logs).not.toContain(MEMBER.password);
    for (const client of [admin, member]) expect(logs).not.toContain(client.cookie!.split('=')[1]!.split('.')[1]!);
  });
});

describe('REST over https', () => {
  let app: TestApp;
  let server: TestServer;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'open', PUBLIC_URL: 'https://clips.example.test' });
    server = await startTestServer(app.deps);
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  it('marks the session cookie Secure and checks Origin against PUBLIC_URL', async () => {
    const client = new RestClient(server.baseUrl);
    expect((await client.post('/api/register', ADMIN)).status).toBe(201);
    const reply = await client.post('/api/login', ADMIN, { headers: { origin: 'https://clips.example.test' } });
    expect(reply.status).toBe(200);
    const cookie = reply.setCookies.find((line) => line.startsWith(`${SESSION_COOKIE}=`))!;
    const attributes = cookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'secure', 'path=/']));
    const http = await client.fresh().post('/api/login', ADMIN, { headers: { origin: 'http://clips.example.test' } });
    expect(http.status).toBe(403);
  });
});

describe('REST when the database is down', () => {
  let app: TestApp;
  let server: TestServer;
  let unreachable: DatabaseHandle;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'open' });
    // Nothing listens on port 1: every query fails to connect.
    unreachable = createDatabase('postgres://postgres:db-password-77@127.0.0.1:1/clipshift', 2);
    server = await startTestServer({ ...app.deps, db: unreachable.db });
  });
  afterAll(async () => {
    await server.close();
    await unreachable.close();
    await app.close();
  });

  it('answers 503 with a plain message to try again, never the internal detail', async () => {
    const client = new RestClient(server.baseUrl);
    const login = await client.post('/api/login', ADMIN);
    expect(login.status).toBe(503);
    expect(login.body).toEqual(errorBody('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE));
    const withCookie = client.fresh();
    withCookie.cookie = `${SESSION_COOKIE}=abc.def`;
    const check = await withCookie.get('/api/check-auth');
    expect(check.status).toBe(503);
    expect(check.body).toEqual(errorBody('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE));
    expectNoSecrets(client.seen, [ADMIN.password, 'db-password-77', '127.0.0.1:1', 'ECONNREFUSED']);
  });

  it('answers 503 on GET /api/health, naming the failing part', async () => {
    const reply = await new RestClient(server.baseUrl).get('/api/health');
    expect(reply.status).toBe(503);
    expect(reply.body).toMatchObject({ status: 'error', database: 'error' });
    expect(field(reply, 'error')).toBe(field(reply, 'message'));
  });
});
