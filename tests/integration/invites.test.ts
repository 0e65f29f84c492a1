import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INVITE_ALPHABET, normalizeInviteCode, type PublicUser } from '@clipshift/shared';
import { generateInviteCode } from '../../server/src/domains/invites/service.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { expectError, findUser, inviteFrom, register } from './support.ts';

const DAY = 24 * 60 * 60 * 1000;
const ALPHABET_CLASS = `[${INVITE_ALPHABET}]`;
const SHOWN_CODE = new RegExp(`^${ALPHABET_CLASS}{4}(-${ALPHABET_CLASS}{4}){5}$`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('invite codes', () => {
  let app: TestApp;
  let admin: PublicUser;
  let member: PublicUser;
  const adminApi = () => callerFor(app.deps, { user: admin, sessionId: 's-admin' }).api;

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    admin = await register(app.deps, 'admin');
    member = await register(app.deps, 'member', 'correct horse battery', await inviteFrom(app.deps, admin));
  });
  afterAll(() => app.close());

  describe('generate', () => {
    it('makes a code valid 7 days by default, shown in dashed groups and stored plain', async () => {
      const invite = await adminApi().invites.generate();
      expect(invite).toEqual({
        id: expect.stringMatching(UUID),
        code: expect.stringMatching(SHOWN_CODE),
        created_at: expect.stringMatching(ISO),
        expires_at: expect.stringMatching(ISO),
        days_valid: 7,
      });
      expect(Date.parse(invite.expires_at) - Date.parse(invite.created_at)).toBe(7 * DAY);
      const row = await app.deps.db
        .selectFrom('invite_codes')
        .select(['code', 'created_by', 'used_at', 'used_by_user_id', 'created_at', 'expires_at'])
        .where('id', '=', invite.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        code: invite.code.replaceAll('-', ''),
        created_by: admin.id,
        used_at: null,
        used_by_user_id: null,
        created_at: new Date(invite.created_at),
        expires_at: new Date(invite.expires_at),
      });
    });

    it('also defaults to 7 days for an empty object', async () => {
      expect((await adminApi().invites.generate({})).days_valid).toBe(7);
    });

    it('makes a code valid 1 day, and one valid 365 days', async () => {
      const oneDay = await adminApi().invites.generate({ days_valid: 1 });
      expect(oneDay.days_valid).toBe(1);
      expect(Date.parse(oneDay.expires_at) - Date.parse(oneDay.created_at)).toBe(DAY);
      const year = await adminApi().invites.generate({ days_valid: 365 });
      expect(Date.parse(year.expires_at) - Date.parse(year.created_at)).toBe(365 * DAY);
    });

    it.each([
      [0, 'days_valid must be between 1 and 365'],
      [366, 'days_valid must be between 1 and 365'],
      [-1, 'days_valid must be between 1 and 365'],
      [2.5, 'days_valid must be a whole number of days'],
    ])('refuses days_valid %j with 400', async (days_valid, message) => {
      await expectError(adminApi().invites.generate({ days_valid }), 'BAD_REQUEST', message);
    });

    it('logs who generated a code, but not the code', async () => {
      await app.deps.db.deleteFrom('logs').execute();
      const invite = await adminApi().invites.generate({ days_valid: 1 });
      const logs = await app.deps.db.selectFrom('logs').select(['level', 'logger', 'message', 'user_id']).execute();
      expect(logs).toEqual([{ level: 'INFO', logger: 'invites', message: 'admin generated an invite code valid for 1 day', user_id: admin.id }]);
      const plain = normalizeInviteCode(invite.code);
      expect(logs[0]!.message).not.toContain(plain);
      expect(logs[0]!.message).not.toContain(invite.code);
    });
  });

  describe('list', () => {
    beforeEach(async () => {
      await app.deps.db.deleteFrom('invite_codes').execute();
    });

    it('lists codes newest first, with who used them', async () => {
      const made: string[] = [];
      for (let index = 0; index < 6; index += 1) made.push((await adminApi().invites.generate({ days_valid: index + 1 })).code);
      const user = await register(app.deps, 'listuser', 'correct horse battery', made[2]!.toLowerCase());
      const list = await adminApi().invites.list();
      expect(list.map((invite) => invite.code)).toEqual([...made].reverse());
      const used = list.find((invite) => invite.code === made[2])!;
      expect(used).toEqual({
        id: expect.stringMatching(UUID),
        code: made[2],
        created_at: expect.stringMatching(ISO),
        expires_at: expect.stringMatching(ISO),
        is_used: true,
        used_by_user_id: user.id,
        used_by_username: user.username,
        used_at: expect.stringMatching(ISO),
      });
      const unused = list.find((invite) => invite.code === made[0])!;
      expect(unused).toMatchObject({ is_used: false, used_by_user_id: null, used_by_username: null, used_at: null });
    });

    it('lists codes generated back to back in the order they were made', async () => {
      // Back-to-back calls often land in the same millisecond.
      const made: string[] = [];
      for (let index = 0; index < 20; index += 1) made.push((await adminApi().invites.generate()).code);
      expect((await adminApi().invites.list({ limit: 20 })).map((invite) => invite.code)).toEqual([...made].reverse());
    });

    it('honours the limit, keeping the newest', async () => {
      const made: string[] = [];
      for (let index = 0; index < 4; index += 1) made.push((await adminApi().invites.generate()).code);
      expect((await adminApi().invites.list({ limit: 2 })).map((invite) => invite.code)).toEqual([made[3], made[2]]);
      expect(await adminApi().invites.list({ limit: 1 })).toHaveLength(1);
    });

    it('defaults to 50 codes', async () => {
      await sql`insert into invite_codes (code, expires_at, created_at)
        select upper(substr(md5(i::text) || md5((i + 1000)::text), 1, 24)), now() + interval '1 day', now() - make_interval(secs => i)
        from generate_series(1, 60) as i`.execute(app.deps.db);
      // md5 is hex: digits and A-F are all in the alphabet.
      expect(await adminApi().invites.list()).toHaveLength(50);
      expect(await adminApi().invites.list({ limit: 200 })).toHaveLength(60);
    });

    it.each([0, 201])('refuses limit %j with 400', async (limit) => {
      await expectError(adminApi().invites.list({ limit }), 'BAD_REQUEST', 'limit must be between 1 and 200');
    });
  });

  describe('cleanup', () => {
    it('removes used and expired codes only', async () => {
      await app.deps.db.deleteFrom('invite_codes').execute();
      const active = await adminApi().invites.generate();
      const expired = await adminApi().invites.generate();
      const used = await adminApi().invites.generate();
      const usedAndExpired = await adminApi().invites.generate();
      await register(app.deps, 'cleanup1', 'correct horse battery', used.code);
      await register(app.deps, 'cleanup2', 'correct horse battery', usedAndExpired.code);
      await sql`update invite_codes set expires_at = now() - interval '1 minute' where id in (${expired.id}, ${usedAndExpired.id})`.execute(app.deps.db);

      expect(await adminApi().invites.cleanup()).toEqual({ deleted: 3, message: 'Removed 3 used or expired invite codes' });
      expect((await adminApi().invites.list()).map((invite) => invite.id)).toEqual([active.id]);
      expect(await adminApi().invites.cleanup()).toEqual({ deleted: 0, message: 'Removed 0 used or expired invite codes' });
    });

    it('says "code" for a single one', async () => {
      const expired = await adminApi().invites.generate();
      await sql`update invite_codes set expires_at = now() - interval '1 minute' where id = ${expired.id}`.execute(app.deps.db);
      expect(await adminApi().invites.cleanup()).toEqual({ deleted: 1, message: 'Removed 1 used or expired invite code' });
    });

    it('keeps the accounts that used a removed code', async () => {
      const code = await inviteFrom(app.deps, admin);
      const user = await register(app.deps, 'keeper', 'correct horse battery', code);
      await adminApi().invites.cleanup();
      expect(await findUser(app.deps, 'keeper')).toEqual(user);
    });
  });

  describe('permissions', () => {
    it('refuses a non-administrator with FORBIDDEN', async () => {
      const { api } = callerFor(app.deps, { user: member, sessionId: 's-member' });
      const message = 'This action needs an administrator account';
      await expectError(api.invites.generate(), 'FORBIDDEN', message);
      await expectError(api.invites.list(), 'FORBIDDEN', message);
      await expectError(api.invites.cleanup(), 'FORBIDDEN', message);
    });

    it('refuses an anonymous caller with UNAUTHORIZED', async () => {
      const { api } = callerFor(app.deps);
      await expectError(api.invites.generate(), 'UNAUTHORIZED', 'Authentication required');
      await expectError(api.invites.list(), 'UNAUTHORIZED', 'Authentication required');
      await expectError(api.invites.cleanup(), 'UNAUTHORIZED', 'Authentication required');
    });

    it('checks permission before validating input', async () => {
      const { api } = callerFor(app.deps, { user: member, sessionId: 's-member' });
      await expectError(api.invites.generate({ days_valid: 0 }), 'FORBIDDEN', 'This action needs an administrator account');
    });
  });
});

describe('generateInviteCode', () => {
  it('draws 24 characters from the alphabet, all distinct over 1,000 codes', () => {
    const codes = Array.from({ length: 1000 }, () => generateInviteCode());
    const shape = new RegExp(`^${ALPHABET_CLASS}{24}$`);
    for (const code of codes) expect(code).toMatch(shape);
    expect(new Set(codes).size).toBe(1000);
  });

  it('uses every symbol of the alphabet, in every position', () => {
    // 1,000 codes put about 31 draws of each symbol in each position; missing one by chance has
    // a probability near 32 × 24 × (31/32)^1000, about 1e-11.
    const codes = Array.from({ length: 1000 }, () => generateInviteCode());
    for (let position = 0; position < 24; position += 1) {
      expect(new Set(codes.map((code) => code[position])).size).toBe(32);
    }
  });
});
