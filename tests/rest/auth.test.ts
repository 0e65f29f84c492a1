import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generatedInvite } from '@clipshift/shared';
import { accountKeyFor } from '../../server/src/domains/auth/device-cookie.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { bodyOf, errorBody, expectNoSecrets, field, resetThrottles, RestClient, SESSION_COOKIE } from './client.ts';

const ADMIN_PASSWORD = 'admin password 123';
const BOB_PASSWORD = 'bob password 456';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('REST auth routes (invite mode)', () => {
  let app: TestApp;
  let server: TestServer;
  let client: RestClient;
  const tokens: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    client = new RestClient(server.baseUrl);
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(() => resetThrottles(app.deps));

  describe('GET /api/register', () => {
    it('is open while no user exists', async () => {
      const reply = await client.get('/api/register');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ enabled: true, invite_required: false });
    });
  });

  describe('POST /api/register', () => {
    it('answers 201 with the first account, an administrator, and sets no cookie', async () => {
      const reply = await client.post('/api/register', { username: 'admin', password: ADMIN_PASSWORD });
      expect(reply.status).toBe(201);
      expect(reply.contentType).toMatch(/^application\/json/);
      expect(reply.body).toEqual({ message: 'Registration successful', user: { id: expect.stringMatching(UUID), username: 'admin', is_admin: true } });
      expect(reply.setCookies).toEqual([]);
    });

    it('then answers invite_required on GET', async () => {
      const reply = await client.get('/api/register');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ enabled: false, invite_required: true });
    });

    it('400 when username or password is missing', async () => {
      for (const payload of [{}, { username: 'bob' }, { password: BOB_PASSWORD }, { username: '  ', password: BOB_PASSWORD }]) {
        const reply = await client.post('/api/register', payload);
        expect(reply.status).toBe(400);
        expect(reply.body).toMatchObject(errorBody('BAD_REQUEST', 'Username and password are required'));
      }
    });

    it('400 with issues for a weak password or a bad username', async () => {
      const weak = await client.post('/api/register', { username: 'bob', password: 'short' });
      expect(weak.status).toBe(400);
      expect(weak.body).toEqual(
        errorBody('BAD_REQUEST', 'Password must be at least 8 characters', {
          issues: [{ path: ['password'], message: 'Password must be at least 8 characters' }],
        }),
      );
      const bad = await client.post('/api/register', { username: 'b o b', password: BOB_PASSWORD });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual(
        errorBody('BAD_REQUEST', 'Username must be 3 to 32 characters: letters, digits, _, - or .', {
          issues: [{ path: ['username'], message: 'Username must be 3 to 32 characters: letters, digits, _, - or .' }],
        }),
      );
    });

    it('400 when a body is JSON but not an object', async () => {
      for (const raw of ['null', '[]', '"bob"', '42']) {
        const reply = await client.request('POST', '/api/register', { raw, headers: { 'content-type': 'application/json' } });
        expect(reply.status, raw).toBe(400);
        expect(reply.body).toMatchObject(errorBody('BAD_REQUEST', 'Username and password are required'));
      }
    });

    it("400 'Invite code is required for registration' without a code", async () => {
      const reply = await client.post('/api/register', { username: 'bob', password: BOB_PASSWORD });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual(errorBody('BAD_REQUEST', 'Invite code is required for registration'));
    });

    it("400 'Invalid or expired invite code' for an unknown code", async () => {
      const reply = await client.post('/api/register', { username: 'bob', password: BOB_PASSWORD, invite_code: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF' });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual(errorBody('BAD_REQUEST', 'Invalid or expired invite code'));
    });

    it('201 with a valid code typed in lowercase without dashes; the code is then spent', async () => {
      const adminClient = client.fresh();
      await adminClient.login('admin', ADMIN_PASSWORD);
      const generated = await adminClient.post('/api/admin/invite-codes/generate', {});
      expect(generated.status).toBe(201);
      const typed = (field(generated, 'code') as string).replaceAll('-', '').toLowerCase();
      const reply = await client.post('/api/register', { username: 'bob', password: BOB_PASSWORD, invite_code: typed });
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual({ message: 'Registration successful', user: { id: expect.stringMatching(UUID), username: 'bob', is_admin: false } });
      const again = await client.post('/api/register', { username: 'carol', password: BOB_PASSWORD, invite_code: typed });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(errorBody('BAD_REQUEST', 'Invalid or expired invite code'));
    });

    it("409 'Username is already taken' in any case", async () => {
      const adminClient = client.fresh();
      await adminClient.login('admin', ADMIN_PASSWORD);
      const { code } = bodyOf(await adminClient.post('/api/admin/invite-codes/generate', {}), generatedInvite);
      const reply = await client.post('/api/register', { username: 'BOB', password: BOB_PASSWORD, invite_code: code });
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual(errorBody('CONFLICT', 'Username is already taken'));
      // The refused attempt did not spend the code.
      const stored = await app.deps.db.selectFrom('invite_codes').select('used_at').where('code', '=', code.replaceAll('-', '')).executeTakeFirstOrThrow();
      expect(stored.used_at).toBeNull();
    });

    it("400 'Invalid or expired invite code' for a taken name with a bogus code: the invite is checked first", async () => {
      for (const username of ['bob', 'BOB', 'admin', 'free-name']) {
        const reply = await client.post('/api/register', { username, password: BOB_PASSWORD, invite_code: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF' });
        expect(reply.status, username).toBe(400);
        expect(reply.body).toEqual(errorBody('BAD_REQUEST', 'Invalid or expired invite code'));
      }
    });

    it('429 once an address registers too often', async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt += 1) {
        statuses.push((await client.post('/api/register', { username: `x${attempt}yz`, password: BOB_PASSWORD })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      const reply = await client.post('/api/register', { username: 'xyz', password: BOB_PASSWORD });
      expect(reply.status).toBe(429);
      expect(reply.body).toEqual(errorBody('TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.'));
    });
  });

  describe('POST /api/login', () => {
    it('200 with the user, and a session cookie that is HttpOnly and SameSite=Lax', async () => {
      const browser = client.fresh();
      const reply = await browser.post('/api/login', { username: 'bob', password: BOB_PASSWORD });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ message: 'Login successful', user: { id: expect.stringMatching(UUID), username: 'bob', is_admin: false } });
      const session = reply.setCookies.filter((line) => line.startsWith(`${SESSION_COOKIE}=`));
      expect(session).toHaveLength(1);
      const attributes = session[0]!.split(';').map((part) => part.trim().toLowerCase());
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=lax');
      expect(attributes).toContain('path=/');
      // Served over http in this configuration: no Secure flag, or the browser would drop it.
      expect(attributes).not.toContain('secure');
      expect(attributes.some((part) => part.startsWith('expires='))).toBe(true);
      tokens.push(browser.cookie!.slice(SESSION_COOKIE.length + 1));
      const check = await browser.get('/api/check-auth');
      expect(check.body).toEqual({ authenticated: true, user: field(reply, 'user') });
    });

    it("401 'Invalid username or password' for a wrong password or an unknown user, and no cookie", async () => {
      for (const payload of [
        { username: 'bob', password: 'not the password' },
        { username: 'nobody', password: BOB_PASSWORD },
      ]) {
        const reply = await client.fresh().post('/api/login', payload);
        expect(reply.status).toBe(401);
        expect(reply.body).toEqual(errorBody('UNAUTHORIZED', 'Invalid username or password'));
        expect(reply.setCookies).toEqual([]);
      }
    });

    it("400 'Username and password are required'", async () => {
      for (const payload of [{}, { username: 'bob' }, { username: 'bob', password: '' }]) {
        const reply = await client.fresh().post('/api/login', payload);
        expect(reply.status).toBe(400);
        expect(reply.body).toMatchObject(errorBody('BAD_REQUEST', 'Username and password are required'));
      }
      const empty = await client.fresh().request('POST', '/api/login');
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject(errorBody('BAD_REQUEST', 'Username and password are required'));
    });

    it('replaces the session the browser had', async () => {
      const browser = client.fresh();
      await browser.login('bob', BOB_PASSWORD);
      const first = browser.cookie!;
      await browser.login('bob', BOB_PASSWORD);
      expect(browser.cookie).not.toBe(first);
      const stale = client.fresh();
      stale.cookie = first;
      expect((await stale.get('/api/check-auth')).body).toEqual({ authenticated: false });
      tokens.push(browser.cookie!.slice(SESSION_COOKIE.length + 1), first.slice(SESSION_COOKIE.length + 1));
    });

    it('429 after 10 attempts from one address', async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 11; attempt += 1) {
        statuses.push((await client.fresh().post('/api/login', { username: 'bob', password: BOB_PASSWORD })).status);
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429]);
      const reply = await client.fresh().post('/api/login', { username: 'bob', password: BOB_PASSWORD });
      expect(reply.body).toEqual(errorBody('TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.'));
      expect(reply.setCookies).toEqual([]);
    });

    /** The clipshift_device cookie line of a reply, and the name=value pair a browser sends back. */
    function deviceCookie(reply: { setCookies: string[] }): { line: string; pair: string } {
      const line = reply.setCookies.find((candidate) => candidate.startsWith('clipshift_device='));
      expect(line, reply.setCookies.join('\n')).toBeDefined();
      return { line: line!, pair: line!.split(';')[0]! };
    }

    it('sets a signed device cookie: HttpOnly, SameSite=Strict, sent to /api only, for a year; logout keeps it', async () => {
      const browser = client.fresh();
      const { line } = deviceCookie(await browser.login('bob', BOB_PASSWORD));
      const attributes = line.split(';').map((part) => part.trim().toLowerCase());
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=strict');
      expect(attributes).toContain('path=/api');
      const expires = Date.parse(/expires=([^;]+)/i.exec(line)![1]!);
      expect(expires).toBeGreaterThan(Date.now() + 364 * 24 * 60 * 60 * 1000);
      // The cookie names the account only through an HMAC: one entry, key.nonce.signature, whose key is
      // the keyed hash of the username and the rest random or signed (looking for "bob" in the text
      // failed once a run in a few hundred: random base64url spells it by chance).
      const value = /clipshift_device=([^;]+)/.exec(line)![1]!;
      const parts = value.split('.');
      expect(parts.map((part) => part.length)).toEqual([43, 22, 43]);
      expect(parts[0]).toBe(accountKeyFor(app.deps.appSecret, 'bob'));
      const logout = await browser.post('/api/logout');
      expect(logout.setCookies.some((candidate) => candidate.startsWith('clipshift_device='))).toBe(false);
    });

    it('429 with Retry-After for an account after 10 failures from any addresses; a browser that signed in before still gets in', async () => {
      const owner = client.fresh();
      const { pair } = deviceCookie(await owner.login('bob', BOB_PASSWORD));
      await resetThrottles(app.deps);
      for (let guess = 0; guess < 10; guess += 1) {
        expect((await client.fresh().post('/api/login', { username: 'bob', password: `guess ${guess}` })).status).toBe(401);
      }
      // Whatever the address (the address limit is emptied here), the account is locked.
      await sql`delete from rate_limits`.execute(app.deps.db);
      const refused = await client.fresh().post('/api/login', { username: 'bob', password: BOB_PASSWORD });
      expect(refused.status).toBe(429);
      const message = 'Too many failed sign-in attempts for this account. Try again in 15 minutes, or sign in from a browser that has signed in to it before.';
      expect(refused.body).toEqual(errorBody('TOO_MANY_REQUESTS', message));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
      expect(refused.setCookies).toEqual([]);
      // Over tRPC the same answer and header.
      const trpc = await client.fresh().post('/api/trpc/auth.login', { username: 'bob', password: BOB_PASSWORD });
      expect(trpc.status).toBe(429);
      expect(trpc.headers.get('retry-after')).not.toBeNull();

      const back = await client.fresh().post('/api/login', { username: 'bob', password: BOB_PASSWORD }, { headers: { cookie: pair } });
      expect(back.status, back.text).toBe(200);
      deviceCookie(back);
      // A tampered device cookie is no key.
      const tampered = `${pair.slice(0, -2)}${pair.endsWith('AA') ? 'BB' : 'AA'}`;
      expect((await client.fresh().post('/api/login', { username: 'bob', password: BOB_PASSWORD }, { headers: { cookie: tampered } })).status).toBe(429);
    });
  });

  describe('POST /api/logout', () => {
    it('200, deletes the session server-side and clears the cookie', async () => {
      const browser = client.fresh();
      await browser.login('bob', BOB_PASSWORD);
      const cookie = browser.cookie!;
      const sessionId = cookie.slice(SESSION_COOKIE.length + 1).split('.')[0]!;
      const reply = await browser.post('/api/logout');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ message: 'Logged out successfully' });
      const cleared = reply.setCookies.find((line) => line.startsWith(`${SESSION_COOKIE}=`));
      expect(cleared).toMatch(/^clipshift_session=;/);
      expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
      expect(browser.cookie).toBeUndefined();
      expect(await app.deps.db.selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst()).toBeUndefined();
      // The old cookie, replayed, no longer works.
      const replay = client.fresh();
      replay.cookie = cookie;
      expect((await replay.get('/api/check-auth')).body).toEqual({ authenticated: false });
      expect((await replay.get('/api/logs')).status).toBe(401);
    });

    it('200 without a session too', async () => {
      const reply = await client.fresh().post('/api/logout');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ message: 'Logged out successfully' });
    });
  });

  describe('GET /api/check-auth', () => {
    it('answers authenticated:false, never 401, without or with a bad cookie', async () => {
      for (const cookie of [undefined, `${SESSION_COOKIE}=garbage`, `${SESSION_COOKIE}=abc.def`, `${SESSION_COOKIE}=%E0%A4%A`, 'other=1']) {
        const browser = client.fresh();
        browser.cookie = cookie;
        const reply = await browser.get('/api/check-auth');
        expect(reply.status, String(cookie)).toBe(200);
        expect(reply.body).toEqual({ authenticated: false });
      }
    });

    it('answers authenticated:false for an expired session', async () => {
      const browser = client.fresh();
      await browser.login('bob', BOB_PASSWORD);
      const sessionId = browser.cookie!.slice(SESSION_COOKIE.length + 1).split('.')[0]!;
      await sql`update sessions set expires_at = now() - interval '1 second' where id = ${sessionId}`.execute(app.deps.db);
      const reply = await browser.get('/api/check-auth');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ authenticated: false });
    });

    it('renews a session that is past half its life and sends the cookie again', async () => {
      const browser = client.fresh();
      await browser.login('bob', BOB_PASSWORD);
      const cookie = browser.cookie!;
      const sessionId = cookie.slice(SESSION_COOKIE.length + 1).split('.')[0]!;
      await sql`update sessions set expires_at = now() + interval '1 day' where id = ${sessionId}`.execute(app.deps.db);
      const reply = await browser.get('/api/check-auth');
      expect(reply.body).toMatchObject({ authenticated: true });
      const renewed = reply.setCookies.find((line) => line.startsWith(`${cookie};`));
      expect(renewed, reply.setCookies.join('\n')).toBeDefined();
      expect(renewed).toMatch(/HttpOnly/);
      expect(renewed).toMatch(/SameSite=Lax/);
      const stored = await app.deps.db.selectFrom('sessions').select('expires_at').where('id', '=', sessionId).executeTakeFirstOrThrow();
      const cookieExpiry = Date.parse(/Expires=([^;]+)/.exec(renewed!)![1]!);
      // The cookie carries the new expiry (to the second), 30 days out rather than 1.
      expect(Math.floor(stored.expires_at.getTime() / 1000) * 1000).toBe(cookieExpiry);
      expect(stored.expires_at.getTime() - Date.now()).toBeGreaterThan(29 * 24 * 60 * 60 * 1000);
      // A fresh session is not re-sent.
      expect((await browser.get('/api/check-auth')).setCookies).toEqual([]);
    });
  });

  it('never shows a secret in a body or stores a password or session token in the logs', async () => {
    expect(tokens.length).toBeGreaterThan(0);
    expectNoSecrets(client.seen, [ADMIN_PASSWORD, BOB_PASSWORD, ...tokens]);
    const logs = await app.deps.db.selectFrom('logs').select(['message', 'exception']).execute();
    expect(logs.length).toBeGreaterThan(0);
    const text = JSON.stringify(logs);
    for (const secret of [ADMIN_PASSWORD, BOB_PASSWORD, 'not the password', ...tokens, ...tokens.map((token) => token.split('.')[1]!)]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('REST registration modes', () => {
  it.each([
    ['open', { enabled: true, invite_required: false }],
    ['invite', { enabled: false, invite_required: true }],
    ['closed', { enabled: false, invite_required: false }],
  ] as const)('GET /api/register in %s mode once a user exists', async (mode, expected) => {
    const app = await createTestApp({ REGISTRATION_MODE: mode });
    const server = await startTestServer(app.deps);
    try {
      const client = new RestClient(server.baseUrl);
      expect((await client.get('/api/register')).body).toEqual({ enabled: true, invite_required: false });
      expect((await client.post('/api/register', { username: 'first', password: ADMIN_PASSWORD })).status).toBe(201);
      const reply = await client.get('/api/register');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(expected);
      const second = await client.post('/api/register', { username: 'second', password: BOB_PASSWORD });
      if (mode === 'open') {
        expect(second.status).toBe(201);
        expect(field(second, 'user')).toMatchObject({ username: 'second', is_admin: false });
      } else if (mode === 'closed') {
        expect(second.status).toBe(403);
        expect(second.body).toEqual(errorBody('FORBIDDEN', 'Registration is closed'));
      } else {
        expect(second.status).toBe(400);
        expect(second.body).toEqual(errorBody('BAD_REQUEST', 'Invite code is required for registration'));
      }
    } finally {
      await server.close();
      await app.close();
    }
  });
});
