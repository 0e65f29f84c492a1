import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queueItem } from '@clipshift/shared';
import { z } from 'zod';
import { queueUploads } from '../../server/src/domains/publishing/uploads.ts';
import { POST_JOB } from '../../server/src/platform/queue/contracts.ts';
import { findJob, jobKey } from '../../server/src/platform/queue/queue.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { adminAndMember, bodyOf, errorBody, resetThrottles, userIdOf, type RestClient } from './client.ts';

const postJobKey = (uploadId: string) => jobKey(POST_JOB, { uploadId });

const ZONE_RULE = 'timezone must be an IANA time zone such as Europe/Berlin or America/New_York';
const TIME_RULE = "time must be a 24-hour time 'HH:MM' (00:00 to 23:59)";
const MISSING = '00000000-0000-4000-8000-000000000000';

describe('REST posting slots and queue: /api/accounts/{id}/schedule, /api/queue', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;
  let memberId: string;
  let accountId: string;

  async function addAccount(userId: string, openId: string): Promise<string> {
    const row = await app.deps.db
      .insertInto('accounts')
      .values({ user_id: userId, open_id: openId, display_name: openId, username: openId, access_token_enc: 'x', refresh_token_enc: 'x', access_expires_at: new Date(Date.now() + 86_400_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Posts a new clip to the member's account the way auto-publish does (into its next slot). */
  async function queueClip(clipId: string) {
    const clip = await seedClip(app.deps, memberId, { clip_id: clipId, title: `Title ${clipId}` });
    const [row] = await app.deps.db.transaction().execute((trx) =>
      queueUploads(trx, { userId: memberId, clipRowId: clip.id, accountIds: [accountId], description: 'd', mode: 'direct' }, { timing: 'next-slot' }),
    );
    return row!;
  }

  beforeAll(async () => {
    app = await createTestApp();
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl));
    memberId = await userIdOf(member);
    accountId = await addAccount(memberId, 'queue-open');
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(async () => {
    await resetThrottles(app.deps);
    await app.deps.db.deleteFrom('uploads').execute();
    await app.deps.db.deleteFrom('posting_schedules').execute();
  });

  it('401 without a session', async () => {
    const anonymous = member.fresh();
    expect((await anonymous.get(`/api/accounts/${accountId}/schedule`)).status).toBe(401);
    expect((await anonymous.get('/api/queue')).status).toBe(401);
    expect((await anonymous.request('DELETE', `/api/queue/${MISSING}`)).status).toBe(401);
  });

  it('answers the defaults until saved, then the saved schedule (zone canonical, slots sorted); 404 for others’ accounts', async () => {
    const defaults = await member.get(`/api/accounts/${accountId}/schedule`);
    expect(defaults.status).toBe(200);
    expect(defaults.body).toEqual({ timezone: 'UTC', slots: [], daily_cap: null, min_gap_minutes: 0, updated_at: null });

    const saved = await member.request('PUT', `/api/accounts/${accountId}/schedule`, {
      json: { timezone: 'europe/berlin', slots: [{ day: 5, time: '18:00' }, { day: 1, time: '09:30' }, { day: 5, time: '18:00' }], daily_cap: 2, min_gap_minutes: 90 },
    });
    expect(saved.status, saved.text).toBe(200);
    const expected = { timezone: 'Europe/Berlin', slots: [{ day: 1, time: '09:30' }, { day: 5, time: '18:00' }], daily_cap: 2, min_gap_minutes: 90, updated_at: expect.any(String) };
    expect(saved.body).toEqual(expected);
    expect((await member.get(`/api/accounts/${accountId}/schedule`)).body).toEqual(expected);

    for (const path of [`/api/accounts/${accountId}/schedule`, `/api/accounts/${MISSING}/schedule`, '/api/accounts/not-a-uuid/schedule']) {
      const reply = await admin.get(path);
      expect(reply.status, path).toBe(404);
      expect(reply.body).toMatchObject(errorBody('NOT_FOUND', 'Account not found'));
    }
    const body = { timezone: 'UTC', slots: [], daily_cap: null, min_gap_minutes: 0 };
    expect((await admin.request('PUT', `/api/accounts/${accountId}/schedule`, { json: body })).status).toBe(404);
  });

  it('400 with the rule for an unknown zone, a bad time or day, a cap or gap out of range', async () => {
    const good = { timezone: 'UTC', slots: [{ day: 1, time: '09:00' }], daily_cap: null, min_gap_minutes: 0 };
    const cases: [Record<string, unknown>, string][] = [
      [{ timezone: 'Mars/Olympus_Mons' }, `${ZONE_RULE}: "Mars/Olympus_Mons" is not one`],
      [{ timezone: 42 }, ZONE_RULE],
      [{ slots: [{ day: 1, time: '24:00' }] }, TIME_RULE],
      [{ slots: [{ day: 1, time: '9:00' }] }, TIME_RULE],
      [{ slots: [{ day: 7, time: '09:00' }] }, 'day must be a whole number from 0 (Sunday) to 6 (Saturday)'],
      [{ daily_cap: 0 }, 'daily_cap must be null (no cap) or a whole number from 1 to 100'],
      [{ min_gap_minutes: 1441 }, 'min_gap_minutes must be a whole number from 0 to 1440'],
    ];
    for (const [change, message] of cases) {
      const reply = await member.request('PUT', `/api/accounts/${accountId}/schedule`, { json: { ...good, ...change } });
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(reply.body).toMatchObject(errorBody('BAD_REQUEST', message));
    }
    expect((await member.get(`/api/accounts/${accountId}/schedule`)).body).toMatchObject({ updated_at: null });
  });

  it('lists unfinished posts soonest first; cancel (200, then 409) and post-now (202; 409 once uploading); 404 for others', async () => {
    const now = new Date();
    // Slots every hour of every day: new posts take the next hours, one each (60 min gap).
    const slots = [0, 1, 2, 3, 4, 5, 6].flatMap((day) => Array.from({ length: 24 }, (_, hour) => ({ day, time: `${String(hour).padStart(2, '0')}:00` })));
    expect((await member.request('PUT', `/api/accounts/${accountId}/schedule`, { json: { timezone: 'UTC', slots, daily_cap: null, min_gap_minutes: 60 } })).status).toBe(200);
    const first = await queueClip('q1');
    const second = await queueClip('q2');
    expect(first.status).toBe('scheduled');
    expect(second.scheduled_for!.getTime() - first.scheduled_for!.getTime()).toBe(3_600_000);
    expect(first.scheduled_for!.getTime()).toBeGreaterThan(now.getTime());

    const listed = bodyOf(await member.get('/api/queue'), z.array(queueItem));
    expect(listed.map((item) => [item.clip_id, item.status, item.platform, item.account_id, item.timezone])).toEqual([
      ['q1', 'scheduled', 'tiktok', accountId, 'UTC'],
      ['q2', 'scheduled', 'tiktok', accountId, 'UTC'],
    ]);
    expect(listed[0]).toMatchObject({ id: first.id, scheduled_for: first.scheduled_for!.toISOString(), error: null, clip_title: 'Title q1', account: '@queue-open' });
    expect((await admin.get('/api/queue')).body).toEqual([]);

    // Others' and unknown posts are missing.
    for (const [client, id] of [[admin, first.id], [member, MISSING], [member, 'nope']] as const) {
      expect((await client.request('DELETE', `/api/queue/${id}`)).status).toBe(404);
      expect((await client.post(`/api/queue/${id}/post-now`)).status).toBe(404);
    }

    expect(await findJob(app.deps.db, postJobKey(first.id))).toBeDefined();
    const canceled = await member.request('DELETE', `/api/queue/${first.id}`);
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body).toEqual({ message: 'The post was taken off the queue' });
    const again = await member.request('DELETE', `/api/queue/${first.id}`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject(errorBody('CONFLICT', 'This post cannot be canceled: it is canceled'));
    expect(await findJob(app.deps.db, postJobKey(first.id))).toBeUndefined();

    const posted = await member.post(`/api/queue/${second.id}/post-now`);
    expect(posted.status, posted.text).toBe(202);
    expect(posted.body).toEqual({ message: 'The post goes to TikTok now' });
    const job = await sql<{ run_at: Date }>`select run_at from graphile_worker.jobs where key = ${postJobKey(second.id)}`.execute(app.deps.db);
    expect(job.rows[0]!.run_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(bodyOf(await member.get('/api/queue'), z.array(queueItem)).map((item) => [item.id, item.status])).toEqual([[second.id, 'queued']]);
    // Already going: post-now again changes nothing.
    expect((await member.post(`/api/queue/${second.id}/post-now`)).status).toBe(202);

    await app.deps.db.updateTable('uploads').set({ status: 'uploading' }).where('id', '=', second.id).execute();
    const late = await member.request('DELETE', `/api/queue/${second.id}`);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject(errorBody('CONFLICT', 'This post cannot be canceled: it is already being sent to TikTok'));
    expect((await member.post(`/api/queue/${second.id}/post-now`)).status).toBe(409);
  });
});
