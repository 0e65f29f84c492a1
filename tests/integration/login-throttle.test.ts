import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { accountKeyFor, DEVICE_COOKIE_TTL_MS } from '../../server/src/domains/auth/device-cookie.ts';
import { deleteStaleLoginLocks } from '../../server/src/domains/auth/throttle.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { expectError, nextIp, register, storedLogs } from './support.ts';

const PASSWORD = 'correct horse battery';
const INVALID = 'Invalid username or password';
const locked = (wait: string) =>
  `Too many failed sign-in attempts for this account. Try again in ${wait}, or sign in from a browser that has signed in to it before.`;
const DEVICE_LIMITED = 'Too many failed sign-in attempts from this browser. Try again in 15 minutes.';
const SIGN_INS_LIMITED = 'Too many sign-ins to this account in a short time. Try again in 15 minutes.';

describe('sign-in limits per account, with device cookies (contract: hardening rules)', () => {
  let app: TestApp;
  let alice: PublicUser;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'open' });
    alice = await register(app.deps, 'alice', PASSWORD);
    await register(app.deps, 'bob', 'bobs own password');
  });
  afterAll(() => app.close());
  beforeEach(async () => {
    await sql`delete from login_account_locks`.execute(app.deps.db);
    await sql`delete from rate_limits`.execute(app.deps.db);
  });

  /** One sign-in as a fresh browser from a fresh address (or with the given device cookie). */
  function attempt(username: string, password: string, deviceCookie?: string) {
    const caller = callerFor(app.deps, { ip: nextIp(), deviceCookie });
    return { promise: caller.api.auth.login({ username, password }), cookies: caller.cookies };
  }

  /** The device cookie a browser gets by signing in to the account. */
  async function deviceCookieOf(username: string, password: string, previous?: string): Promise<string> {
    const { promise, cookies } = attempt(username, password, previous);
    await promise;
    expect(cookies.device).toHaveLength(1);
    return cookies.device[0]!.value;
  }

  async function failFromFreshAddresses(username: string, count: number): Promise<void> {
    for (let guess = 0; guess < count; guess += 1) {
      await expectError(attempt(username, `guess ${guess}`).promise, 'UNAUTHORIZED', INVALID);
    }
  }

  it('answers 429 from a fresh address after 10 failures from 10 addresses, even for the right password', async () => {
    await failFromFreshAddresses('alice', 10);
    const eleventh = attempt('alice', 'guess 11');
    await expectError(eleventh.promise, 'TOO_MANY_REQUESTS', locked('15 minutes'));
    expect(eleventh.cookies.retryAfter).toHaveLength(1);
    expect(eleventh.cookies.retryAfter[0]).toBeGreaterThan(14 * 60);
    expect(eleventh.cookies.retryAfter[0]).toBeLessThanOrEqual(15 * 60);
    const owner = attempt('alice', PASSWORD);
    await expectError(owner.promise, 'TOO_MANY_REQUESTS', locked('15 minutes'));
    expect(owner.cookies.set).toEqual([]);
    // The name is matched as sign-in matches it, in any case; another account is not affected.
    await expectError(attempt('  ALICE ', PASSWORD).promise, 'TOO_MANY_REQUESTS', locked('15 minutes'));
    expect((await attempt('bob', 'bobs own password').promise).user.username).toBe('bob');
  });

  it('locks a username nobody has in the same way, so the answers never tell which accounts exist', async () => {
    await failFromFreshAddresses('nobody-here', 10);
    await expectError(attempt('nobody-here', 'guess').promise, 'TOO_MANY_REQUESTS', locked('15 minutes'));
    // Neither the typed name nor a plain hash of it is stored.
    const keys = await app.deps.db.selectFrom('login_account_locks').select('account_key').execute();
    expect(JSON.stringify(keys)).not.toContain('nobody');
    expect(keys).toContainEqual({ account_key: accountKeyFor(app.deps.appSecret, 'nobody-here') });
  });

  it('never lets more than 10 simultaneous guesses reach the password check', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, (_, guess) =>
        attempt('alice', `parallel ${guess}`).promise.then(
          () => 'ok',
          (error: { code: string }) => error.code,
        ),
      ),
    );
    expect(outcomes.filter((code) => code === 'UNAUTHORIZED')).toHaveLength(10);
    expect(outcomes.filter((code) => code === 'TOO_MANY_REQUESTS')).toHaveLength(15);
  });

  it('lets the owner in from a browser that signed in before, while everyone else still gets 429', async () => {
    const device = await deviceCookieOf('alice', PASSWORD);
    await failFromFreshAddresses('alice', 10);
    await expectError(attempt('alice', PASSWORD).promise, 'TOO_MANY_REQUESTS', locked('15 minutes'));

    const owner = attempt('alice', PASSWORD, device);
    expect((await owner.promise).user).toEqual(alice);
    expect(owner.cookies.set).toHaveLength(1);
    // A fresh device entry each time, good for a year.
    expect(owner.cookies.device).toHaveLength(1);
    expect(owner.cookies.device[0]!.value).not.toBe(device);
    expect(owner.cookies.device[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now() + DEVICE_COOKIE_TTL_MS - 60_000);
    // The owner's success does not lift the lock for anybody else.
    await expectError(attempt('alice', PASSWORD).promise, 'TOO_MANY_REQUESTS', locked('15 minutes'));
  });

  it('does not hold a device-cookie holder to its address limit, which a proxy may make everybody share', async () => {
    const device = await deviceCookieOf('alice', PASSWORD);
    const sharedAddress = nextIp();
    for (let guess = 0; guess < 10; guess += 1) {
      await expectError(callerFor(app.deps, { ip: sharedAddress }).api.auth.login({ username: 'bob', password: `guess ${guess}` }), 'UNAUTHORIZED', INVALID);
    }
    await expectError(callerFor(app.deps, { ip: sharedAddress }).api.auth.login({ username: 'alice', password: PASSWORD }), 'TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.');
    const owner = callerFor(app.deps, { ip: sharedAddress, deviceCookie: device });
    expect((await owner.api.auth.login({ username: 'alice', password: PASSWORD })).user).toEqual(alice);
  });

  it('limits a device-cookie holder on its own: 10 failures, then 429 for that browser only', async () => {
    const device = await deviceCookieOf('alice', PASSWORD);
    const otherDevice = await deviceCookieOf('alice', PASSWORD);
    for (let guess = 0; guess < 10; guess += 1) {
      await expectError(attempt('alice', `device guess ${guess}`, device).promise, 'UNAUTHORIZED', INVALID);
    }
    const refused = attempt('alice', PASSWORD, device);
    await expectError(refused.promise, 'TOO_MANY_REQUESTS', DEVICE_LIMITED);
    expect(refused.cookies.retryAfter[0]).toBeGreaterThan(14 * 60);
    // The device's failures do not count against the account, nor against other browsers.
    expect((await attempt('alice', PASSWORD, otherDevice).promise).user).toEqual(alice);
    expect((await attempt('alice', PASSWORD).promise).user).toEqual(alice);
  });

  it('limits successful sign-ins with one device entry: a script replaying the same cookie is stopped after 10', async () => {
    const device = await deviceCookieOf('alice', PASSWORD);
    for (let signIn = 0; signIn < 10; signIn += 1) {
      expect((await attempt('alice', PASSWORD, device).promise).user).toEqual(alice);
    }
    const refused = attempt('alice', PASSWORD, device);
    await expectError(refused.promise, 'TOO_MANY_REQUESTS', SIGN_INS_LIMITED);
    expect(refused.cookies.retryAfter[0]).toBeGreaterThan(14 * 60);
    expect(refused.cookies.set).toEqual([]);
    // The owner's other browsers are not that entry: they still get in.
    expect((await attempt('alice', PASSWORD, await deviceCookieOf('alice', PASSWORD)).promise).user).toEqual(alice);
  });

  it('limits successful sign-ins with device cookies per account: a script following each fresh entry is stopped after 30', async () => {
    let device = await deviceCookieOf('alice', PASSWORD);
    for (let signIn = 0; signIn < 30; signIn += 1) device = await deviceCookieOf('alice', PASSWORD, device);
    await expectError(attempt('alice', PASSWORD, device).promise, 'TOO_MANY_REQUESTS', SIGN_INS_LIMITED);
    // Other accounts are not limited by it, and a browser without the cookie still signs in by the address limit.
    expect((await attempt('bob', 'bobs own password', await deviceCookieOf('bob', 'bobs own password')).promise).user.username).toBe('bob');
    expect((await attempt('alice', PASSWORD).promise).user).toEqual(alice);
  });

  it('does not let wrong passwords with a device cookie spend its sign-ins, nor sign-ins spend its failures (the honest owner)', async () => {
    const device = await deviceCookieOf('alice', PASSWORD);
    for (let round = 0; round < 9; round += 1) {
      await expectError(attempt('alice', `typo ${round}`, device).promise, 'UNAUTHORIZED', INVALID);
      expect((await attempt('alice', PASSWORD, device).promise).user).toEqual(alice);
    }
    // Eighteen attempts with one entry, and the tenth sign-in is still within both limits.
    expect((await attempt('alice', PASSWORD, device).promise).user).toEqual(alice);
  });

  it('ignores tampered, foreign and malformed device cookies', async () => {
    const aliceDevice = await deviceCookieOf('alice', PASSWORD);
    const bobDevice = await deviceCookieOf('bob', 'bobs own password');
    await failFromFreshAddresses('alice', 10);
    const [accountKey, nonce, signature] = aliceDevice.split('.') as [string, string, string];
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    const forged = [
      `${accountKey}.${nonce}.${flip(signature)}`,
      `${accountKey}.${flip(nonce)}.${signature}`,
      `${accountKeyFor(app.deps.appSecret, 'bob')}.${nonce}.${signature}`,
      bobDevice,
      'garbage',
      `${aliceDevice}x`,
      '~~~',
    ];
    for (const cookie of forged) {
      await expectError(attempt('alice', PASSWORD, cookie).promise, 'TOO_MANY_REQUESTS', locked('15 minutes'));
    }
    // A device cookie signed with another app secret is worth nothing either.
    const elsewhere = await createTestApp({ REGISTRATION_MODE: 'open' });
    try {
      elsewhere.deps.appSecret = 'another-secret-another-secret-another-0';
      await register(elsewhere.deps, 'alice', PASSWORD);
      const foreign = callerFor(elsewhere.deps, { ip: nextIp() });
      await foreign.api.auth.login({ username: 'alice', password: PASSWORD });
      await expectError(attempt('alice', PASSWORD, foreign.cookies.device[0]!.value).promise, 'TOO_MANY_REQUESTS', locked('15 minutes'));
    } finally {
      await elsewhere.close();
    }
    expect((await attempt('alice', PASSWORD, aliceDevice).promise).user).toEqual(alice);
  });

  it('keeps the entries of other accounts in one browser', async () => {
    const first = await deviceCookieOf('alice', PASSWORD);
    const both = await deviceCookieOf('bob', 'bobs own password', first);
    expect(both.split('~')).toHaveLength(2);
    expect(both).toContain(first);
    await failFromFreshAddresses('alice', 10);
    expect((await attempt('alice', PASSWORD, both).promise).user).toEqual(alice);
  });

  it('resets the failure count on a successful sign-in', async () => {
    await failFromFreshAddresses('alice', 9);
    expect((await attempt('alice', PASSWORD).promise).user).toEqual(alice);
    await failFromFreshAddresses('alice', 9);
    expect((await attempt('alice', PASSWORD).promise).user).toEqual(alice);
  });

  it('doubles the cooling-off period with each lockout in a row, up to a day', async () => {
    const expectLockFor = async (wait: string, seconds: number) => {
      await failFromFreshAddresses('alice', 10);
      const refused = attempt('alice', PASSWORD);
      await expectError(refused.promise, 'TOO_MANY_REQUESTS', locked(wait));
      expect(refused.cookies.retryAfter[0]).toBeGreaterThan(seconds - 60);
      expect(refused.cookies.retryAfter[0]).toBeLessThanOrEqual(seconds);
      // The cooling-off period passes.
      await sql`update login_account_locks set locked_until = now() - interval '1 second'`.execute(app.deps.db);
    };
    await expectLockFor('15 minutes', 15 * 60);
    await expectLockFor('30 minutes', 30 * 60);
    await expectLockFor('60 minutes', 60 * 60);
    await expectLockFor('2 hours', 2 * 60 * 60);
    for (let lockout = 4; lockout < 8; lockout += 1) await expectLockFor(`${Math.min(2 ** lockout / 4, 24)} hours`, Math.min(15 * 60 * 2 ** lockout, 24 * 60 * 60));
    await expectLockFor('24 hours', 24 * 60 * 60);
    // A day after the last lock ended, lockouts are forgotten: back to 15 minutes.
    await sql`update login_account_locks set locked_until = now() - interval '25 hours'`.execute(app.deps.db);
    await expectLockFor('15 minutes', 15 * 60);
  });

  it('logs when an account gets locked, naming it only when it exists', async () => {
    await app.deps.db.deleteFrom('logs').execute();
    await failFromFreshAddresses('alice', 10);
    await failFromFreshAddresses('ghost', 10);
    const messages = (await storedLogs(app.deps)).map((row) => row.message);
    expect(messages.filter((message) => message.startsWith('Too many failed sign-in attempts'))).toEqual([
      'Too many failed sign-in attempts for alice: sign-in is locked for 15 minutes, except from browsers that signed in to it before',
    ]);
    expect(JSON.stringify(messages)).not.toContain('ghost');
  });

  it('housekeeping forgets accounts with no attempt and no lock for a day, and keeps the others', async () => {
    await failFromFreshAddresses('alice', 10);
    await failFromFreshAddresses('bob', 3);
    await failFromFreshAddresses('ghost', 3);
    await sql`update login_account_locks set updated_at = now() - interval '2 days'`.execute(app.deps.db);
    await deleteStaleLoginLocks(app.deps.db);
    const left = await app.deps.db.selectFrom('login_account_locks').select('account_key').execute();
    // Alice's lock is still running: it stays, with the lockout count that doubles the next one.
    expect(left).toEqual([{ account_key: accountKeyFor(app.deps.appSecret, 'alice') }]);
  });
});
