import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { TIKTOK_NOT_CONFIGURED } from '../../server/src/domains/publishing/platforms/tiktok.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { expectError, nextIp, register, storedLogs } from './support.ts';

const PASSKEY = /^[A-Z0-9]{6}$/;
const TOO_MANY = 'Too many attempts. Please wait a moment and try again.';
const OWNER_PASSWORD = 'owner password 123';

let unusedCounter = 0;

/** A well-formed passkey that differs from every given one. */
function otherPasskey(...taken: string[]): string {
  for (const candidate of ['ZZZZZZ', 'YYYYYY', '000000', '111111']) if (!taken.includes(candidate)) return candidate;
  throw new Error('unreachable');
}

describe('guest passkeys', () => {
  let app: TestApp;
  let owner: PublicUser;
  let other: PublicUser;
  let passkey: string;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'open' });
    owner = await register(app.deps, 'owner', OWNER_PASSWORD);
    other = await register(app.deps, 'other');
  });
  afterAll(() => app.close());

  /** The device cookie of a browser that opened /connect from the address (its guest visit). */
  async function visitCookie(ip: string): Promise<string> {
    const browser = callerFor(app.deps, { ip });
    await browser.api.guests.startVisit();
    return browser.cookies.device[0]!.value;
  }

  /** A code nobody has, different on each call, so that tests do not share a code's budget. */
  async function unusedPasskey(...also: string[]): Promise<string> {
    const taken = (await app.deps.db.selectFrom('users').select('passkey').execute()).map((row) => row.passkey);
    for (;;) {
      unusedCounter += 1;
      const candidate = `Q${String(unusedCounter).padStart(5, '0')}`;
      if (!taken.includes(candidate) && !also.includes(candidate)) return candidate;
    }
  }

  describe('currentPasskey', () => {
    it('creates a 6-character uppercase code on first use and stores it', async () => {
      const stored = await app.deps.db.selectFrom('users').select('passkey').where('id', '=', owner.id).executeTakeFirstOrThrow();
      expect(stored.passkey).toBeNull();
      const result = await callerFor(app.deps, { user: owner, sessionId: 's1' }).api.guests.currentPasskey();
      expect(Object.keys(result)).toEqual(['passkey']);
      expect(result.passkey).toMatch(PASSKEY);
      passkey = result.passkey;
      const after = await app.deps.db.selectFrom('users').select('passkey').where('id', '=', owner.id).executeTakeFirstOrThrow();
      expect(after.passkey).toBe(passkey);
    });

    it('returns the same code afterwards', async () => {
      for (let call = 0; call < 3; call += 1) {
        expect(await callerFor(app.deps, { user: owner, sessionId: 's1' }).api.guests.currentPasskey()).toEqual({ passkey });
      }
    });

    it('returns one code for simultaneous first calls', async () => {
      const api = callerFor(app.deps, { user: other, sessionId: 's2' }).api;
      const results = await Promise.all(Array.from({ length: 5 }, () => api.guests.currentPasskey()));
      expect(new Set(results.map((result) => result.passkey)).size).toBe(1);
      const stored = await app.deps.db.selectFrom('users').select('passkey').where('id', '=', other.id).executeTakeFirstOrThrow();
      expect(results[0]).toEqual({ passkey: stored.passkey });
    });

    it('gives different users different codes', async () => {
      const mine = await callerFor(app.deps, { user: owner, sessionId: 's1' }).api.guests.currentPasskey();
      const theirs = await callerFor(app.deps, { user: other, sessionId: 's2' }).api.guests.currentPasskey();
      expect(mine.passkey).not.toBe(theirs.passkey);
    });

    it('needs a signed-in user', async () => {
      await expectError(callerFor(app.deps).api.guests.currentPasskey(), 'UNAUTHORIZED', 'Authentication required');
    });
  });

  describe('verifyPasskey', () => {
    it('accepts the code as shown, in lowercase, and with spaces or dashes', async () => {
      const { api } = callerFor(app.deps, { ip: nextIp() });
      const expected = { valid: true, message: 'Passkey verified' };
      expect(await api.guests.verifyPasskey({ passkey })).toEqual(expected);
      expect(await api.guests.verifyPasskey({ passkey: passkey.toLowerCase() })).toEqual(expected);
      expect(await api.guests.verifyPasskey({ passkey: ` ${passkey.slice(0, 3)} ${passkey.slice(3)} ` })).toEqual(expected);
      expect(await api.guests.verifyPasskey({ passkey: `${passkey.slice(0, 3)}-${passkey.slice(3)}` })).toEqual(expected);
    });

    it('answers 404 for a code nobody has', async () => {
      const theirs = (await app.deps.db.selectFrom('users').select('passkey').where('id', '=', other.id).executeTakeFirstOrThrow()).passkey!;
      const { api } = callerFor(app.deps, { ip: nextIp() });
      await expectError(api.guests.verifyPasskey({ passkey: otherPasskey(passkey, theirs) }), 'NOT_FOUND', 'Invalid passkey');
    });

    it('answers 400 for fewer or more than 6 characters', async () => {
      const { api } = callerFor(app.deps, { ip: nextIp() });
      const message = 'Please enter a 6-character passkey';
      await expectError(api.guests.verifyPasskey({ passkey: passkey.slice(0, 5) }), 'BAD_REQUEST', message);
      await expectError(api.guests.verifyPasskey({ passkey: `${passkey}A` }), 'BAD_REQUEST', message);
      await expectError(api.guests.verifyPasskey({ passkey: '' }), 'BAD_REQUEST', message);
      await expectError(api.guests.verifyPasskey({ passkey: '!!!!!!' }), 'BAD_REQUEST', message);
      // @ts-expect-error a script may send anything
      await expectError(api.guests.verifyPasskey({}), 'BAD_REQUEST', message);
    });

    it('logs a verification for the owner, without the passkey', async () => {
      await app.deps.db.deleteFrom('logs').execute();
      const ip = nextIp();
      await callerFor(app.deps, { ip }).api.guests.verifyPasskey({ passkey });
      expect(await storedLogs(app.deps)).toEqual([
        { level: 'INFO', logger: 'guests', message: `A guest verified owner's passkey from ${ip}`, exception: null, user_id: owner.id },
      ]);
    });

    it('counts wrong guesses only: 10 of them lock the address, even for the right code; right codes spend nothing', async () => {
      const wrong = await unusedPasskey();
      const { api, cookies } = callerFor(app.deps, { ip: nextIp() });
      for (let attempt = 0; attempt < 9; attempt += 1) {
        await expectError(api.guests.verifyPasskey({ passkey: wrong }), 'NOT_FOUND', 'Invalid passkey');
        expect(await api.guests.verifyPasskey({ passkey })).toEqual({ valid: true, message: 'Passkey verified' });
      }
      await expectError(api.guests.verifyPasskey({ passkey: wrong }), 'NOT_FOUND', 'Invalid passkey');
      await expectError(api.guests.verifyPasskey({ passkey }), 'TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.');
      await expectError(api.guests.verifyPasskey({ passkey: wrong }), 'TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.');
      // The answer says when to come back: the ten-minute window of the address.
      expect(cookies.retryAfter.at(-1)).toBeGreaterThan(9 * 60);
      expect(cookies.retryAfter.at(-1)).toBeLessThanOrEqual(10 * 60);
      // Other addresses are not affected.
      expect(await callerFor(app.deps, { ip: nextIp() }).api.guests.verifyPasskey({ passkey })).toEqual({ valid: true, message: 'Passkey verified' });
    });

    it('never locks anyone out for loading a shared link again and again', async () => {
      const { api } = callerFor(app.deps, { ip: nextIp() });
      for (let load = 0; load < 40; load += 1) {
        expect(await api.guests.verifyPasskey({ passkey })).toEqual({ valid: true, message: 'Passkey verified' });
      }
      // The whole budget for mistakes is still there.
      const wrong = await unusedPasskey();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await expectError(api.guests.verifyPasskey({ passkey: wrong }), 'NOT_FOUND', 'Invalid passkey');
      }
    });

    it('locks one code for everybody after 20 wrong guesses at it from many addresses', async () => {
      const wrong = await unusedPasskey();
      for (let attempt = 0; attempt < 20; attempt += 1) {
        await expectError(callerFor(app.deps, { ip: nextIp() }).api.guests.verifyPasskey({ passkey: wrong }), 'NOT_FOUND', 'Invalid passkey');
      }
      const fresh = callerFor(app.deps, { ip: nextIp() });
      await expectError(fresh.api.guests.verifyPasskey({ passkey: wrong }), 'TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.');
      expect(fresh.cookies.retryAfter.at(-1)).toBeGreaterThan(59 * 60);
      // That refusal cost the fresh address nothing, and other codes answer as before.
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await expectError(fresh.api.guests.verifyPasskey({ passkey: await unusedPasskey(wrong) }), 'NOT_FOUND', 'Invalid passkey');
      }
      expect(await callerFor(app.deps, { ip: nextIp() }).api.guests.verifyPasskey({ passkey })).toEqual({ valid: true, message: 'Passkey verified' });
      // The code is kept only as an HMAC: no passkey, guessed or real, is stored in the throttle table.
      const keys = JSON.stringify(await app.deps.db.selectFrom('rate_limits').select('key').execute());
      expect(keys).not.toContain(wrong);
      expect(keys).not.toContain(passkey);
    });

    it('lets a spammer spend only their own budget: a guest in another browser behind the same address still gets in', async () => {
      const sharedAddress = nextIp();
      const wrong = await unusedPasskey();
      // A script guessing without a guest visit spends the budget of every such client at the address…
      const spammer = callerFor(app.deps, { ip: sharedAddress }).api;
      for (let attempt = 0; attempt < 10; attempt += 1) await expectError(spammer.guests.verifyPasskey({ passkey: wrong }), 'NOT_FOUND', 'Invalid passkey');
      await expectError(spammer.guests.verifyPasskey({ passkey }), 'TOO_MANY_REQUESTS', TOO_MANY);
      // …and one that keeps its visit spends its own.
      const spammingBrowser = callerFor(app.deps, { ip: sharedAddress, deviceCookie: await visitCookie(sharedAddress) }).api;
      for (let attempt = 0; attempt < 10; attempt += 1) await expectError(spammingBrowser.guests.verifyPasskey({ passkey: wrong }), 'NOT_FOUND', 'Invalid passkey');
      await expectError(spammingBrowser.guests.verifyPasskey({ passkey }), 'TOO_MANY_REQUESTS', TOO_MANY);

      // The guest's browser opened /connect (a visit of its own) behind the same address: the right code works,
      // for verification and for the connection, and a typo or two is still allowed.
      const guest = callerFor(app.deps, { ip: sharedAddress, deviceCookie: await visitCookie(sharedAddress) }).api;
      await expectError(guest.guests.verifyPasskey({ passkey: await unusedPasskey(wrong) }), 'NOT_FOUND', 'Invalid passkey');
      expect(await guest.guests.verifyPasskey({ passkey })).toEqual({ valid: true, message: 'Passkey verified' });
      await expectError(guest.tiktok.guestAuthUrl({ passkey }), 'SERVICE_UNAVAILABLE', TIKTOK_NOT_CONFIGURED);
    });

    it('keeps the visit a browser has, and adds it to the cookie without dropping sign-in entries', async () => {
      const first = callerFor(app.deps, { ip: nextIp() });
      expect(await first.api.guests.startVisit()).toEqual({ message: 'Guest visit started' });
      const cookie = first.cookies.device[0]!.value;
      const again = callerFor(app.deps, { ip: nextIp(), deviceCookie: cookie });
      await again.api.guests.startVisit();
      expect(again.cookies.device).toEqual([]);
      // A browser that signed in before keeps that entry beside the visit.
      const signedIn = callerFor(app.deps, { ip: nextIp() });
      await signedIn.api.auth.login({ username: 'owner', password: OWNER_PASSWORD });
      const withVisit = callerFor(app.deps, { ip: nextIp(), deviceCookie: signedIn.cookies.device[0]!.value });
      await withVisit.api.guests.startVisit();
      expect(withVisit.cookies.device[0]!.value.split('~')).toHaveLength(2);
      expect(withVisit.cookies.device[0]!.value).toContain(signedIn.cookies.device[0]!.value);
    });

    it('bounds what starting visit after visit buys: 30 wrong guesses per address in 10 minutes, whatever the cookies', async () => {
      const address = nextIp();
      const wrong = await unusedPasskey();
      for (let visit = 0; visit < 3; visit += 1) {
        const browser = callerFor(app.deps, { ip: address, deviceCookie: await visitCookie(address) }).api;
        for (let attempt = 0; attempt < 10; attempt += 1) await expectError(browser.guests.verifyPasskey({ passkey: await unusedPasskey(wrong) }), 'NOT_FOUND', 'Invalid passkey');
      }
      const next = callerFor(app.deps, { ip: address, deviceCookie: await visitCookie(address) });
      await expectError(next.api.guests.verifyPasskey({ passkey: wrong }), 'TOO_MANY_REQUESTS', TOO_MANY);
      // Right and wrong codes answer alike from here on (anything else would tell a walk which code is right).
      await expectError(next.api.guests.verifyPasskey({ passkey }), 'TOO_MANY_REQUESTS', TOO_MANY);
      expect(next.cookies.retryAfter.at(-1)).toBeGreaterThan(9 * 60);
      expect(await callerFor(app.deps, { ip: nextIp() }).api.guests.verifyPasskey({ passkey })).toEqual({ valid: true, message: 'Passkey verified' });
    });

    it('limits right codes per address and owner to 60 in 10 minutes, which only someone who has the code can spend', async () => {
      const address = nextIp();
      const theirs = (await callerFor(app.deps, { user: other, sessionId: 's2' }).api.guests.currentPasskey()).passkey;
      const browser = callerFor(app.deps, { ip: address, deviceCookie: await visitCookie(address) }).api;
      for (let load = 0; load < 60; load += 1) expect(await browser.guests.verifyPasskey({ passkey })).toEqual({ valid: true, message: 'Passkey verified' });
      await expectError(browser.guests.verifyPasskey({ passkey }), 'TOO_MANY_REQUESTS', TOO_MANY);
      // Another owner's code from that address, and this one from elsewhere, are not limited by it.
      expect(await browser.guests.verifyPasskey({ passkey: theirs })).toEqual({ valid: true, message: 'Passkey verified' });
      expect(await callerFor(app.deps, { ip: nextIp() }).api.guests.verifyPasskey({ passkey })).toEqual({ valid: true, message: 'Passkey verified' });
    });

    it('applies the same budget to the guest TikTok connection', async () => {
      const ip = nextIp();
      const { api } = callerFor(app.deps, { ip });
      // TikTok is not configured here: the right code passes the passkey check and spends nothing.
      for (let load = 0; load < 15; load += 1) {
        await expectError(api.tiktok.guestAuthUrl({ passkey }), 'SERVICE_UNAVAILABLE', TIKTOK_NOT_CONFIGURED);
      }
      const wrong = await unusedPasskey();
      for (let attempt = 0; attempt < 5; attempt += 1) {
        await expectError(api.tiktok.guestAuthUrl({ passkey: wrong }), 'NOT_FOUND', 'Invalid passkey');
        await expectError(api.guests.verifyPasskey({ passkey: wrong }), 'NOT_FOUND', 'Invalid passkey');
      }
      await expectError(api.tiktok.guestAuthUrl({ passkey }), 'TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.');
      await expectError(api.guests.verifyPasskey({ passkey }), 'TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.');
    });
  });
});
