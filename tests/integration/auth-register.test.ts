import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatInviteCode, INVITE_ALPHABET } from '@clipshift/shared';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { countRows, expectError, findUser, inviteFrom, nextIp, register, storedLogs } from './support.ts';

const PASSWORD = 'correct horse battery';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A well-formed code that was never issued. */
const NEVER_ISSUED = formatInviteCode(INVITE_ALPHABET.slice(0, 24));

describe('auth.register in invite mode (the default)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
  });
  afterAll(() => app.close());

  it('is open while no user exists', async () => {
    const { api } = callerFor(app.deps);
    expect(await api.auth.registrationStatus()).toEqual({ enabled: true, invite_required: false });
  });

  it('makes the first account the administrator, with no code', async () => {
    const { api, cookies } = callerFor(app.deps, { ip: nextIp() });
    const result = await api.auth.register({ username: 'Alice', password: PASSWORD });
    expect(result).toEqual({ message: 'Registration successful', user: { id: expect.stringMatching(UUID), username: 'Alice', is_admin: true } });
    // Registration does not sign in: the client logs in afterwards.
    expect(cookies.set).toEqual([]);
    const row = await app.deps.db.selectFrom('users').select(['username', 'is_admin', 'password_hash']).executeTakeFirstOrThrow();
    expect(row.username).toBe('Alice');
    expect(row.is_admin).toBe(true);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
  });

  it('answers the invite mode once a user exists', async () => {
    const { api } = callerFor(app.deps);
    expect(await api.auth.registrationStatus()).toEqual({ enabled: false, invite_required: true });
  });

  it('logs the registration of the administrator', async () => {
    const logs = await storedLogs(app.deps);
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'INFO', logger: 'auth', message: 'Alice registered as the first user and administrator' }),
    );
  });

  it('requires an invite code from the second account on', async () => {
    const { api } = callerFor(app.deps, { ip: nextIp() });
    await expectError(api.auth.register({ username: 'bob', password: PASSWORD }), 'BAD_REQUEST', 'Invite code is required for registration');
    await expectError(
      api.auth.register({ username: 'bob', password: PASSWORD, invite_code: ' - ' }),
      'BAD_REQUEST',
      'Invite code is required for registration',
    );
    await expectError(
      api.auth.register({ username: 'bob', password: PASSWORD, invite_code: null }),
      'BAD_REQUEST',
      'Invite code is required for registration',
    );
    expect(await countRows(app.deps, 'users')).toBe(1);
  });

  it('refuses a code that was never issued and creates no user', async () => {
    const { api } = callerFor(app.deps, { ip: nextIp() });
    await expectError(
      api.auth.register({ username: 'bob', password: PASSWORD, invite_code: NEVER_ISSUED }),
      'BAD_REQUEST',
      'Invalid or expired invite code',
    );
    await expectError(
      api.auth.register({ username: 'bob', password: PASSWORD, invite_code: 'nonsense' }),
      'BAD_REQUEST',
      'Invalid or expired invite code',
    );
    expect(await countRows(app.deps, 'users')).toBe(1);
  });

  it('accepts a code as shown, marks it used by the new account, which is not an administrator', async () => {
    const admin = await findUser(app.deps, 'Alice');
    const code = await inviteFrom(app.deps, admin);
    const { api } = callerFor(app.deps, { ip: nextIp() });
    const result = await api.auth.register({ username: 'bob', password: PASSWORD, invite_code: code });
    expect(result).toEqual({ message: 'Registration successful', user: { id: expect.stringMatching(UUID), username: 'bob', is_admin: false } });
    const invite = await app.deps.db
      .selectFrom('invite_codes')
      .select(['used_by_user_id', 'used_at'])
      .where('code', '=', code.replaceAll('-', ''))
      .executeTakeFirstOrThrow();
    expect(invite.used_by_user_id).toBe(result.user.id);
    expect(invite.used_at).toBeInstanceOf(Date);
  });

  it('accepts a code typed in lowercase, and one without dashes', async () => {
    const admin = await findUser(app.deps, 'Alice');
    const lower = (await inviteFrom(app.deps, admin)).toLowerCase();
    expect((await register(app.deps, 'carol', PASSWORD, lower)).username).toBe('carol');
    const plain = (await inviteFrom(app.deps, admin)).replaceAll('-', '');
    expect(plain).toHaveLength(24);
    expect((await register(app.deps, 'dave', PASSWORD, plain)).username).toBe('dave');
    const spaced = (await inviteFrom(app.deps, admin)).toLowerCase().replaceAll('-', ' ');
    expect((await register(app.deps, 'erin', PASSWORD, spaced)).username).toBe('erin');
  });

  it('refuses a code that was already used', async () => {
    const admin = await findUser(app.deps, 'Alice');
    const code = await inviteFrom(app.deps, admin);
    await register(app.deps, 'frank', PASSWORD, code);
    const { api } = callerFor(app.deps, { ip: nextIp() });
    await expectError(api.auth.register({ username: 'grace', password: PASSWORD, invite_code: code }), 'BAD_REQUEST', 'Invalid or expired invite code');
    expect(await app.deps.db.selectFrom('users').select('id').where('username', '=', 'grace').executeTakeFirst()).toBeUndefined();
  });

  it('refuses an expired code and leaves it unused', async () => {
    const admin = await findUser(app.deps, 'Alice');
    const code = await inviteFrom(app.deps, admin);
    const stored = code.replaceAll('-', '');
    await sql`update invite_codes set expires_at = now() - interval '1 second' where code = ${stored}`.execute(app.deps.db);
    const { api } = callerFor(app.deps, { ip: nextIp() });
    await expectError(api.auth.register({ username: 'heidi', password: PASSWORD, invite_code: code }), 'BAD_REQUEST', 'Invalid or expired invite code');
    const invite = await app.deps.db.selectFrom('invite_codes').select(['used_at', 'used_by_user_id']).where('code', '=', stored).executeTakeFirstOrThrow();
    expect(invite).toEqual({ used_at: null, used_by_user_id: null });
  });

  it('lets exactly one of two simultaneous registrations use one code', async () => {
    const admin = await findUser(app.deps, 'Alice');
    const code = await inviteFrom(app.deps, admin);
    const attempt = (username: string) =>
      callerFor(app.deps, { ip: nextIp() }).api.auth.register({ username, password: PASSWORD, invite_code: code }).then(
        (result) => ({ ok: true as const, username: result.user.username }),
        (error: { code: string; message: string }) => ({ ok: false as const, code: error.code, message: error.message }),
      );
    const results = await Promise.all([attempt('racer1'), attempt('racer2')]);
    const winners = results.filter((result) => result.ok);
    const losers = results.filter((result) => !result.ok);
    expect(winners).toHaveLength(1);
    expect(losers).toEqual([{ ok: false, code: 'BAD_REQUEST', message: 'Invalid or expired invite code' }]);
    const created = await app.deps.db.selectFrom('users').select('username').where('username', 'in', ['racer1', 'racer2']).execute();
    expect(created).toEqual([{ username: winners[0]!.username }]);
  });

  it('refuses a username that is taken, in any case, with 409', async () => {
    const admin = await findUser(app.deps, 'Alice');
    const code = await inviteFrom(app.deps, admin);
    for (const username of ['Alice', 'alice', 'ALICE', '  alice  ']) {
      const { api } = callerFor(app.deps, { ip: nextIp() });
      await expectError(api.auth.register({ username, password: PASSWORD, invite_code: code }), 'CONFLICT', 'Username is already taken');
    }
    // The code was not spent by the refused attempts.
    expect((await register(app.deps, 'ivan', PASSWORD, code)).username).toBe('ivan');
  });

  it('checks the invite before the username, so a caller without a valid code learns nothing about taken names', async () => {
    const admin = await findUser(app.deps, 'Alice');
    const used = await inviteFrom(app.deps, admin);
    await register(app.deps, 'kate', PASSWORD, used);
    const expired = await inviteFrom(app.deps, admin);
    await sql`update invite_codes set expires_at = now() - interval '1 second' where code = ${expired.replaceAll('-', '')}`.execute(app.deps.db);
    for (const inviteCode of [NEVER_ISSUED, 'nonsense', used, expired]) {
      // A taken name and a free one get the very same answer.
      for (const username of ['alice', 'nobody-has-this']) {
        const { api } = callerFor(app.deps, { ip: nextIp() });
        await expectError(api.auth.register({ username, password: PASSWORD, invite_code: inviteCode }), 'BAD_REQUEST', 'Invalid or expired invite code');
      }
    }
    const { api } = callerFor(app.deps, { ip: nextIp() });
    await expectError(api.auth.register({ username: 'alice', password: PASSWORD }), 'BAD_REQUEST', 'Invite code is required for registration');
    expect(await app.deps.db.selectFrom('users').select('id').where('username', '=', 'nobody-has-this').executeTakeFirst()).toBeUndefined();
  });

  it('refuses a weak password or a bad username with 400 and the rule', async () => {
    const { api } = callerFor(app.deps, { ip: nextIp() });
    await expectError(api.auth.register({ username: 'judy', password: 'short77' }), 'BAD_REQUEST', 'Password must be at least 8 characters');
    await expectError(
      api.auth.register({ username: 'ju', password: PASSWORD }),
      'BAD_REQUEST',
      'Username must be 3 to 32 characters: letters, digits, _, - or .',
    );
    await expectError(
      api.auth.register({ username: 'judy smith', password: PASSWORD }),
      'BAD_REQUEST',
      'Username must be 3 to 32 characters: letters, digits, _, - or .',
    );
    await expectError(
      api.auth.register({ username: 'j'.repeat(33), password: PASSWORD }),
      'BAD_REQUEST',
      'Username must be 3 to 32 characters: letters, digits, _, - or .',
    );
    await expectError(api.auth.register({ username: '  ', password: PASSWORD }), 'BAD_REQUEST', 'Username and password are required');
    await expectError(api.auth.register({ username: 'judy', password: '' }), 'BAD_REQUEST', 'Username and password are required');
  });

  it('carries the failing field in the validation error', async () => {
    const { api } = callerFor(app.deps, { ip: nextIp() });
    const error = await expectError(api.auth.register({ username: 'judy', password: 'short77' }), 'BAD_REQUEST', 'Password must be at least 8 characters');
    expect(error.cause).toBeDefined();
    expect((error.cause as unknown as { issues: { path: unknown[]; message: string }[] }).issues.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: ['password'], message: 'Password must be at least 8 characters' },
    ]);
  });

  it('throttles registrations from one address', async () => {
    const ip = nextIp();
    const { api } = callerFor(app.deps, { ip });
    // Five attempts a minute are allowed, failed ones included.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await expectError(api.auth.register({ username: `spam${attempt}`, password: PASSWORD }), 'BAD_REQUEST', 'Invite code is required for registration');
    }
    await expectError(
      api.auth.register({ username: 'spam6', password: PASSWORD }),
      'TOO_MANY_REQUESTS',
      'Too many attempts. Please wait a moment and try again.',
    );
    // Another address is not affected.
    const other = callerFor(app.deps, { ip: nextIp() }).api;
    await expectError(other.auth.register({ username: 'spam7', password: PASSWORD }), 'BAD_REQUEST', 'Invite code is required for registration');
  });
});

describe('auth.register in closed mode', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'closed' });
  });
  afterAll(() => app.close());

  it('still lets the first account in, as administrator', async () => {
    expect(await callerFor(app.deps).api.auth.registrationStatus()).toEqual({ enabled: true, invite_required: false });
    expect(await register(app.deps, 'root')).toMatchObject({ username: 'root', is_admin: true });
  });

  it('then refuses everyone with 403, even with a valid invite code', async () => {
    expect(await callerFor(app.deps).api.auth.registrationStatus()).toEqual({ enabled: false, invite_required: false });
    const admin = await findUser(app.deps, 'root');
    const code = await inviteFrom(app.deps, admin);
    const { api } = callerFor(app.deps, { ip: nextIp() });
    await expectError(api.auth.register({ username: 'bob', password: PASSWORD }), 'FORBIDDEN', 'Registration is closed');
    await expectError(api.auth.register({ username: 'bob', password: PASSWORD, invite_code: code }), 'FORBIDDEN', 'Registration is closed');
    expect(await countRows(app.deps, 'users')).toBe(1);
  });
});

describe('auth.register in open mode', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'open' });
  });
  afterAll(() => app.close());

  it('lets anyone register without a code; only the first is an administrator', async () => {
    expect(await register(app.deps, 'first')).toMatchObject({ username: 'first', is_admin: true });
    expect(await callerFor(app.deps).api.auth.registrationStatus()).toEqual({ enabled: true, invite_required: false });
    expect(await register(app.deps, 'second')).toMatchObject({ username: 'second', is_admin: false });
    expect(await register(app.deps, 'third', PASSWORD, 'whatever-code')).toMatchObject({ username: 'third', is_admin: false });
  });

  it('still refuses a duplicate username', async () => {
    const { api } = callerFor(app.deps, { ip: nextIp() });
    await expectError(api.auth.register({ username: 'SECOND', password: PASSWORD }), 'CONFLICT', 'Username is already taken');
  });
});

describe('auth.register: the first account', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'open' });
  });
  afterAll(() => app.close());

  it('is administrator for exactly one of two simultaneous first registrations', async () => {
    const results = await Promise.all([register(app.deps, 'one'), register(app.deps, 'two'), register(app.deps, 'three')]);
    expect(results.filter((user) => user.is_admin)).toHaveLength(1);
    const admins = await app.deps.db.selectFrom('users').select('username').where('is_admin', '=', true).execute();
    expect(admins).toHaveLength(1);
  });
});
