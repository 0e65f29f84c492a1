import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generatedInvite, INVITE_ALPHABET, inviteCode } from '@clipshift/shared';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { ADMIN, adminAndMember, bodyOf, errorBody, expectNoSecrets, field, MEMBER, resetThrottles, RestClient } from './client.ts';

const DAY = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SHOWN = new RegExp(`^[${INVITE_ALPHABET}]{4}(-[${INVITE_ALPHABET}]{4}){5}$`);
const NOT_ADMIN = errorBody('FORBIDDEN', 'This action needs an administrator account');

describe('REST invite codes', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;
  const seen: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl, seen));
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(() => resetThrottles(app.deps));

  describe('POST /api/admin/invite-codes/generate', () => {
    it('201 with a code valid 7 days when no body is sent', async () => {
      const reply = await admin.post('/api/admin/invite-codes/generate');
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual({
        id: expect.stringMatching(UUID),
        code: expect.stringMatching(SHOWN),
        created_at: expect.stringMatching(ISO),
        expires_at: expect.stringMatching(ISO),
        days_valid: 7,
      });
      const invite = bodyOf(reply, generatedInvite);
      expect(Date.parse(invite.expires_at) - Date.parse(invite.created_at)).toBe(7 * DAY);
    });

    it('201 with 7 days for an empty object, and with the days asked for', async () => {
      expect(field(await admin.post('/api/admin/invite-codes/generate', {}), 'days_valid')).toBe(7);
      const oneDay = await admin.post('/api/admin/invite-codes/generate', { days_valid: 1 });
      expect(oneDay.status).toBe(201);
      expect(field(oneDay, 'days_valid')).toBe(1);
      const invite = bodyOf(oneDay, generatedInvite);
      expect(Date.parse(invite.expires_at) - Date.parse(invite.created_at)).toBe(DAY);
    });

    it.each([0, 366, 'forever'])('400 for days_valid %j', async (days_valid) => {
      const reply = await admin.post('/api/admin/invite-codes/generate', { days_valid });
      expect(reply.status).toBe(400);
      const message = days_valid === 'forever' ? 'days_valid must be a number' : 'days_valid must be between 1 and 365';
      expect(reply.body).toEqual(errorBody('BAD_REQUEST', message, { issues: [{ path: ['days_valid'], message }] }));
    });

    it('403 for a member, 401 without a session', async () => {
      const forbidden = await member.post('/api/admin/invite-codes/generate', {});
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual(NOT_ADMIN);
      const anonymous = await admin.fresh().post('/api/admin/invite-codes/generate', {});
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(errorBody('UNAUTHORIZED', 'Authentication required'));
    });
  });

  describe('GET /api/admin/invite-codes', () => {
    it('200 with the codes newest first, each in the contract shape', async () => {
      await app.deps.db.deleteFrom('invite_codes').where('used_at', 'is', null).execute();
      const made: string[] = [];
      for (let index = 0; index < 3; index += 1) made.push(bodyOf(await admin.post('/api/admin/invite-codes/generate', {}), generatedInvite).code);
      const reply = await admin.get('/api/admin/invite-codes?limit=50');
      expect(reply.status).toBe(200);
      expect(Array.isArray(reply.body)).toBe(true);
      // The member's (used) code is the oldest.
      expect(bodyOf(reply, z.array(inviteCode)).map((invite) => invite.code).slice(0, 3)).toEqual([...made].reverse());
      expect(reply.body).toHaveLength(4);
      const memberId = (await app.deps.db.selectFrom('users').select('id').where('username', '=', MEMBER.username).executeTakeFirstOrThrow()).id;
      expect(field(reply, 3)).toEqual({
        id: expect.stringMatching(UUID),
        code: expect.stringMatching(SHOWN),
        created_at: expect.stringMatching(ISO),
        expires_at: expect.stringMatching(ISO),
        is_used: true,
        used_by_user_id: memberId,
        used_by_username: MEMBER.username,
        used_at: expect.stringMatching(ISO),
      });
      expect(field(reply, 0)).toEqual({
        id: expect.stringMatching(UUID),
        code: made[2],
        created_at: expect.stringMatching(ISO),
        expires_at: expect.stringMatching(ISO),
        is_used: false,
        used_by_user_id: null,
        used_by_username: null,
        used_at: null,
      });
    });

    it('honours ?limit and refuses a bad one', async () => {
      const two = await admin.get('/api/admin/invite-codes?limit=2');
      expect(two.status).toBe(200);
      expect(two.body).toHaveLength(2);
      const all = await admin.get('/api/admin/invite-codes');
      expect(two.body).toEqual(bodyOf(all, z.array(inviteCode)).slice(0, 2));
      for (const limit of ['0', '500', 'lots']) {
        const bad = await admin.get(`/api/admin/invite-codes?limit=${limit}`);
        expect(bad.status, limit).toBe(400);
        expect(field(bad, 'code')).toBe('BAD_REQUEST');
        expect(field(bad, 'error')).toBe(field(bad, 'message'));
      }
    });

    it('403 for a member, 401 without a session', async () => {
      const forbidden = await member.get('/api/admin/invite-codes');
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual(NOT_ADMIN);
      expect((await member.fresh().get('/api/admin/invite-codes')).status).toBe(401);
    });
  });

  describe('POST /api/admin/invite-codes/cleanup', () => {
    it('200 {deleted, message}, removing the used and the expired codes only', async () => {
      await app.deps.db.deleteFrom('invite_codes').where('used_at', 'is', null).execute();
      const active = bodyOf(await admin.post('/api/admin/invite-codes/generate', {}), generatedInvite);
      const expired = bodyOf(await admin.post('/api/admin/invite-codes/generate', {}), generatedInvite);
      await sql`update invite_codes set expires_at = now() - interval '1 hour' where id = ${expired.id}`.execute(app.deps.db);
      const reply = await admin.post('/api/admin/invite-codes/cleanup');
      expect(reply.status).toBe(200);
      // The expired one and the member's used one.
      expect(reply.body).toEqual({ deleted: 2, message: 'Removed 2 used or expired invite codes' });
      const left = await admin.get('/api/admin/invite-codes');
      expect(bodyOf(left, z.array(inviteCode)).map((invite) => invite.id)).toEqual([active.id]);
    });

    it('403 for a member, 401 without a session', async () => {
      const forbidden = await member.post('/api/admin/invite-codes/cleanup');
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual(NOT_ADMIN);
      expect((await member.fresh().post('/api/admin/invite-codes/cleanup')).status).toBe(401);
    });
  });

  it('never shows a secret in a body', () => {
    expectNoSecrets(seen, [ADMIN.password, MEMBER.password]);
  });
});
