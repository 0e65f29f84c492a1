import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import {
  createSession,
  deleteExpiredSessions,
  invalidateSession,
  SESSION_TTL_MS,
  validateSessionToken,
} from '../../server/src/domains/auth/sessions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { register } from './support.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2030-01-01T00:00:00.000Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

describe('sessions', () => {
  let app: TestApp;
  let user: PublicUser;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'open' });
    user = await register(app.deps, 'sam');
  });
  afterAll(() => app.close());

  const storedExpiry = async (token: string) =>
    (await app.deps.db.selectFrom('sessions').select('expires_at').where('id', '=', token.split('.')[0]!).executeTakeFirst())?.expires_at;

  it('creates a 30-day session with a 120-bit id and a 160-bit secret', async () => {
    const session = await createSession(app.deps.db, user.id, T0);
    expect(session.expiresAt).toEqual(at(30));
    const [id, secret] = session.token.split('.');
    expect(id).toMatch(/^[a-z2-7]{24}$/);
    expect(secret).toMatch(/^[a-z2-7]{32}$/);
    expect(await storedExpiry(session.token)).toEqual(at(30));
  });

  it('gives every session different random parts', async () => {
    const tokens = await Promise.all(Array.from({ length: 20 }, () => createSession(app.deps.db, user.id, T0)));
    const ids = new Set(tokens.map(({ token }) => token.split('.')[0]));
    const secrets = new Set(tokens.map(({ token }) => token.split('.')[1]));
    expect(ids.size).toBe(20);
    expect(secrets.size).toBe(20);
  });

  it('validates a fresh session without renewing it', async () => {
    const { token } = await createSession(app.deps.db, user.id, T0);
    expect(await validateSessionToken(app.deps.db, token, at(1))).toEqual({
      sessionId: token.split('.')[0],
      user,
      expiresAt: at(30),
      renewed: false,
    });
    // Exactly half the lifetime left: still no renewal.
    expect((await validateSessionToken(app.deps.db, token, at(15)))?.renewed).toBe(false);
    expect(await storedExpiry(token)).toEqual(at(30));
  });

  it('slides the expiry forward once less than half the lifetime is left', async () => {
    const { token } = await createSession(app.deps.db, user.id, T0);
    const now = new Date(at(15).getTime() + 1);
    const session = await validateSessionToken(app.deps.db, token, now);
    expect(session).toMatchObject({ renewed: true, user });
    expect(session!.expiresAt).toEqual(new Date(now.getTime() + SESSION_TTL_MS));
    expect(await storedExpiry(token)).toEqual(session!.expiresAt);
    // Used on day 29: more than half of the renewed lifetime is left, so no second write.
    expect(await validateSessionToken(app.deps.db, token, at(29))).toMatchObject({ renewed: false, user, expiresAt: session!.expiresAt });
    // Used on day 31, past the original expiry but within the renewed one: still valid.
    expect(await validateSessionToken(app.deps.db, token, at(31))).toMatchObject({ renewed: true, user });
  });

  it('refuses an expired session and deletes it', async () => {
    const { token } = await createSession(app.deps.db, user.id, T0);
    expect(await validateSessionToken(app.deps.db, token, at(31))).toBeNull();
    expect(await storedExpiry(token)).toBeUndefined();
    // Even when asked again at a time it would have been valid.
    expect(await validateSessionToken(app.deps.db, token, at(1))).toBeNull();
  });

  it('refuses a session at the very instant it expires', async () => {
    const { token } = await createSession(app.deps.db, user.id, T0);
    expect(await validateSessionToken(app.deps.db, token, at(30))).toBeNull();
  });

  it('refuses a tampered secret and keeps the real session usable', async () => {
    const { token } = await createSession(app.deps.db, user.id, T0);
    const [id, secret] = token.split('.') as [string, string];
    const flipped = `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    expect(await validateSessionToken(app.deps.db, `${id}.${flipped}`, at(1))).toBeNull();
    expect(await validateSessionToken(app.deps.db, `${id}.${secret}x`, at(1))).toBeNull();
    expect(await validateSessionToken(app.deps.db, `${id}.`, at(1))).toBeNull();
    // A tampered token must not be able to delete the session, even when expired.
    expect(await validateSessionToken(app.deps.db, `${id}.${flipped}`, at(31))).toBeNull();
    expect(await storedExpiry(token)).toEqual(at(30));
    expect(await validateSessionToken(app.deps.db, token, at(1))).toMatchObject({ user });
  });

  it('refuses malformed tokens', async () => {
    for (const token of ['', '.', 'nodot', `${'a'.repeat(65)}.b`, `a.${'b'.repeat(65)}`, 'unknownid.unknownsecret']) {
      expect(await validateSessionToken(app.deps.db, token, at(1))).toBeNull();
    }
  });

  it('refuses a session that was invalidated', async () => {
    const { token } = await createSession(app.deps.db, user.id, T0);
    await invalidateSession(app.deps.db, token.split('.')[0]!);
    expect(await validateSessionToken(app.deps.db, token, at(1))).toBeNull();
  });

  it('deleteExpiredSessions removes only the expired ones', async () => {
    await app.deps.db.deleteFrom('sessions').execute();
    const old = await createSession(app.deps.db, user.id, at(-40));
    const current = await createSession(app.deps.db, user.id, T0);
    expect(await deleteExpiredSessions(app.deps.db, at(1))).toBe(1);
    expect(await storedExpiry(old.token)).toBeUndefined();
    expect(await storedExpiry(current.token)).toEqual(at(30));
  });

  it('ends the sessions of a deleted user', async () => {
    const gone = await register(app.deps, 'gone');
    const { token } = await createSession(app.deps.db, gone.id, T0);
    await app.deps.db.deleteFrom('users').where('id', '=', gone.id).execute();
    expect(await validateSessionToken(app.deps.db, token, at(1))).toBeNull();
  });
});
