import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { SESSION_TTL_MS, validateSessionToken } from '../../server/src/domains/auth/sessions.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { countRows, expectError, nextIp, register, storedLogs } from './support.ts';

const PASSWORD = 'correct horse battery';
const TOKEN = /^([a-z2-7]{24})\.([a-z2-7]{32})$/;

describe('auth.login, logout and checkAuth', () => {
  let app: TestApp;
  let alice: PublicUser;
  let bob: PublicUser;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'open' });
    alice = await register(app.deps, 'alice', PASSWORD);
    bob = await register(app.deps, 'bob', 'bobs own password');
  });
  afterAll(() => app.close());

  async function sessionIds(userId: string): Promise<string[]> {
    const rows = await app.deps.db.selectFrom('sessions').select('id').where('user_id', '=', userId).orderBy('id').execute();
    return rows.map((row) => row.id);
  }

  it('signs in, sets a cookie and stores only the hash of the secret', async () => {
    const before = Date.now();
    const { api, cookies } = callerFor(app.deps, { ip: nextIp() });
    const result = await api.auth.login({ username: 'alice', password: PASSWORD });
    const after = Date.now();
    expect(result).toEqual({ message: 'Login successful', user: alice });
    expect(cookies.set).toHaveLength(1);
    const { token, expiresAt } = cookies.set[0]!;
    const [, id, secret] = TOKEN.exec(token) ?? [];
    expect(id, `token ${token} has the shape <id>.<secret>`).toBeDefined();
    // Thirty days from the moment of sign-in.
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(before + SESSION_TTL_MS);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(after + SESSION_TTL_MS);
    expect(SESSION_TTL_MS).toBe(30 * 24 * 60 * 60 * 1000);

    const row = await app.deps.db.selectFrom('sessions').select(['id', 'user_id', 'secret_hash', 'expires_at']).where('id', '=', id!).executeTakeFirstOrThrow();
    expect(row.user_id).toBe(alice.id);
    expect(row.expires_at.getTime()).toBe(expiresAt.getTime());
    expect(row.secret_hash).toHaveLength(32);
    expect(Buffer.from(row.secret_hash).toString('utf8')).not.toContain(secret);
    expect(Buffer.from(row.secret_hash).equals(Buffer.from(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret)))))).toBe(true);

    const session = await validateSessionToken(app.deps.db, token);
    expect(session).toMatchObject({ sessionId: id, user: alice, renewed: false });
  });

  it('matches the username in any case and around spaces', async () => {
    const { api, cookies } = callerFor(app.deps, { ip: nextIp() });
    expect(await api.auth.login({ username: '  ALICE ', password: PASSWORD })).toEqual({ message: 'Login successful', user: alice });
    expect(cookies.set).toHaveLength(1);
  });

  it('refuses a wrong password and an unknown user with the same 401 message, and no session', async () => {
    const sessionsBefore = await countRows(app.deps, 'sessions');
    const { api, cookies } = callerFor(app.deps, { ip: nextIp() });
    await expectError(api.auth.login({ username: 'alice', password: 'wrong password' }), 'UNAUTHORIZED', 'Invalid username or password');
    await expectError(api.auth.login({ username: 'nobody', password: PASSWORD }), 'UNAUTHORIZED', 'Invalid username or password');
    // The password is case-sensitive and never trimmed.
    await expectError(api.auth.login({ username: 'alice', password: PASSWORD.toUpperCase() }), 'UNAUTHORIZED', 'Invalid username or password');
    await expectError(api.auth.login({ username: 'alice', password: ` ${PASSWORD}` }), 'UNAUTHORIZED', 'Invalid username or password');
    // Another user's password is not accepted either.
    await expectError(api.auth.login({ username: 'alice', password: 'bobs own password' }), 'UNAUTHORIZED', 'Invalid username or password');
    expect(cookies.set).toEqual([]);
    expect(await countRows(app.deps, 'sessions')).toBe(sessionsBefore);
  });

  it('refuses missing credentials with 400', async () => {
    const { api } = callerFor(app.deps, { ip: nextIp() });
    await expectError(api.auth.login({ username: '', password: PASSWORD }), 'BAD_REQUEST', 'Username and password are required');
    await expectError(api.auth.login({ username: 'alice', password: '  ' }), 'BAD_REQUEST', 'Username and password are required');
    // @ts-expect-error a script may send anything
    await expectError(api.auth.login({}), 'BAD_REQUEST', 'Username and password are required');
  });

  it('creates a new session on each login and ends the one the browser had', async () => {
    await app.deps.db.deleteFrom('sessions').where('user_id', '=', bob.id).execute();
    const first = callerFor(app.deps, { ip: nextIp() });
    await first.api.auth.login({ username: 'bob', password: 'bobs own password' });
    const firstId = first.cookies.set[0]!.token.split('.')[0]!;
    expect(await sessionIds(bob.id)).toEqual([firstId]);

    // The same browser signs in again while holding that session.
    const again = callerFor(app.deps, { ip: nextIp(), user: bob, sessionId: firstId });
    await again.api.auth.login({ username: 'bob', password: 'bobs own password' });
    const secondToken = again.cookies.set[0]!.token;
    const secondId = secondToken.split('.')[0]!;
    expect(secondId).not.toBe(firstId);
    expect(await sessionIds(bob.id)).toEqual([secondId]);
    expect(await validateSessionToken(app.deps.db, first.cookies.set[0]!.token)).toBeNull();
    expect(await validateSessionToken(app.deps.db, secondToken)).toMatchObject({ user: bob });

    // Another browser (no session) gets its own session, and the first one stays.
    const elsewhere = callerFor(app.deps, { ip: nextIp() });
    await elsewhere.api.auth.login({ username: 'bob', password: 'bobs own password' });
    const thirdId = elsewhere.cookies.set[0]!.token.split('.')[0]!;
    expect(await sessionIds(bob.id)).toEqual([secondId, thirdId].sort());
  });

  it('does not invalidate the session of a failed login', async () => {
    const { api, cookies } = callerFor(app.deps, { ip: nextIp() });
    await api.auth.login({ username: 'alice', password: PASSWORD });
    const sessionId = cookies.set[0]!.token.split('.')[0]!;
    const failing = callerFor(app.deps, { ip: nextIp(), user: alice, sessionId });
    await expectError(failing.api.auth.login({ username: 'alice', password: 'nope nope' }), 'UNAUTHORIZED', 'Invalid username or password');
    expect(await validateSessionToken(app.deps.db, cookies.set[0]!.token)).not.toBeNull();
  });

  it('throttles sign-in attempts per address, successful ones included', async () => {
    // Earlier tests failed on alice too: start her account's count afresh (login-throttle.test.ts covers that lock).
    await app.deps.db.deleteFrom('login_account_locks').execute();
    const ip = nextIp();
    const { api } = callerFor(app.deps, { ip });
    for (let attempt = 0; attempt < 9; attempt += 1) {
      await expectError(api.auth.login({ username: 'alice', password: `guess ${attempt}` }), 'UNAUTHORIZED', 'Invalid username or password');
    }
    expect((await api.auth.login({ username: 'alice', password: PASSWORD })).user).toEqual(alice);
    await expectError(api.auth.login({ username: 'alice', password: PASSWORD }), 'TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.');
    await expectError(api.auth.login({ username: 'bob', password: 'bobs own password' }), 'TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.');
    // Another address still signs in.
    expect((await callerFor(app.deps, { ip: nextIp() }).api.auth.login({ username: 'alice', password: PASSWORD })).user).toEqual(alice);
  });

  it('records sign-ins and failed attempts in the logs table, never the password', async () => {
    await app.deps.db.deleteFrom('logs').execute();
    // The tests above spent alice's hourly budget of rows written by failed sign-ins.
    await app.deps.db.deleteFrom('rate_limits').execute();
    const ip = nextIp();
    const { api } = callerFor(app.deps, { ip });
    await api.auth.login({ username: 'alice', password: PASSWORD });
    await expectError(api.auth.login({ username: 'alice', password: 'a wrong secret' }), 'UNAUTHORIZED', 'Invalid username or password');
    await expectError(api.auth.login({ username: 'mallory', password: 'another secret' }), 'UNAUTHORIZED', 'Invalid username or password');
    expect(await storedLogs(app.deps)).toEqual([
      { level: 'INFO', logger: 'auth', message: 'alice signed in', exception: null, user_id: alice.id },
      { level: 'WARNING', logger: 'auth', message: `Failed sign-in attempt for alice from ${ip}`, exception: null, user_id: alice.id },
      { level: 'WARNING', logger: 'auth', message: `Failed sign-in attempt for an unknown username from ${ip}`, exception: null, user_id: null },
    ]);
  });

  it('logout deletes the session and clears the cookie', async () => {
    const login = callerFor(app.deps, { ip: nextIp() });
    await login.api.auth.login({ username: 'alice', password: PASSWORD });
    const token = login.cookies.set[0]!.token;
    const sessionId = token.split('.')[0]!;
    await app.deps.db.deleteFrom('logs').execute();

    const { api, cookies } = callerFor(app.deps, { user: alice, sessionId });
    expect(await api.auth.logout()).toEqual({ message: 'Logged out successfully' });
    expect(cookies.cleared).toBe(1);
    expect(await app.deps.db.selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst()).toBeUndefined();
    expect(await validateSessionToken(app.deps.db, token)).toBeNull();
    expect(await storedLogs(app.deps)).toEqual([{ level: 'INFO', logger: 'auth', message: 'alice signed out', exception: null, user_id: alice.id }]);
  });

  it('logout without a session still answers and clears the cookie', async () => {
    const { api, cookies } = callerFor(app.deps);
    expect(await api.auth.logout()).toEqual({ message: 'Logged out successfully' });
    expect(cookies.cleared).toBe(1);
  });

  it('checkAuth tells who is signed in, and never fails', async () => {
    expect(await callerFor(app.deps).api.auth.checkAuth()).toEqual({ authenticated: false });
    expect(await callerFor(app.deps, { user: alice, sessionId: 'whatever' }).api.auth.checkAuth()).toEqual({ authenticated: true, user: alice });
    expect(await callerFor(app.deps, { user: bob, sessionId: 'whatever' }).api.auth.checkAuth()).toEqual({ authenticated: true, user: bob });
  });
});
