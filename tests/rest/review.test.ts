import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REVIEW_BULK_MAX } from '@clipshift/shared';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { adminAndMember, errorBody, resetThrottles, userIdOf, type RestClient } from './client.ts';

const BULK_RULE = `clip_ids must list 1 to ${REVIEW_BULK_MAX} clips`;

/* The review routes' answers over HTTP: what a script gets for each mistake (no worker runs here). */
describe('REST review inbox: /api/review', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;
  let memberId: string;
  let accountId: string;

  /** A clip of the member's library in the given review state, its streamer linked to the member's account. */
  async function clip(clipId: string, reviewStatus: 'pending' | 'approved' | 'rejected' | null, options: { userId?: string; linked?: boolean } = {}) {
    const { id } = await seedClip(app.deps, options.userId ?? memberId, { clip_id: clipId, title: `title ${clipId}`, descriptions: [{ description: `best of ${clipId} #a`, rank: 0.9 }, { description: 'worse #b', rank: 0.2 }] });
    const streamerId = options.linked === false ? null : await linkedStreamer(options.userId ?? memberId);
    await app.deps.db.updateTable('clips').set({ review_status: reviewStatus, streamer_id: streamerId }).where('id', '=', id).execute();
  }

  async function linkedStreamer(userId: string): Promise<string> {
    const existing = await app.deps.db.selectFrom('streamers').select('id').where('user_id', '=', userId).where('name', '=', 'careful').executeTakeFirst();
    if (existing) return existing.id;
    const streamerId = await seedStreamer(app.deps, userId, 'careful');
    if (userId === memberId) await app.deps.db.insertInto('streamer_accounts').values({ streamer_id: streamerId, account_id: accountId }).execute();
    return streamerId;
  }

  beforeAll(async () => {
    app = await createTestApp();
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl));
    memberId = await userIdOf(member);
    const account = await app.deps.db
      .insertInto('accounts')
      .values({ user_id: memberId, open_id: 'open-member', display_name: 'Member', username: 'memberclips', access_token_enc: 'x', refresh_token_enc: 'x', access_expires_at: new Date(Date.now() + 3_600_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    accountId = account.id;
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(async () => {
    await resetThrottles(app.deps);
    await app.deps.db.deleteFrom('uploads').execute();
    await app.deps.db.deleteFrom('clips').execute();
    await app.deps.db.deleteFrom('account_post_settings').execute();
  });

  it('401 without a session', async () => {
    const anonymous = member.fresh();
    expect((await anonymous.get('/api/review')).status).toBe(401);
    expect((await anonymous.post('/api/review/x/approve', {})).status).toBe(401);
    expect((await anonymous.post('/api/review/x/reject')).status).toBe(401);
    expect((await anonymous.post('/api/review/approve', { clip_ids: ['x'] })).status).toBe(401);
  });

  it('lists only the caller’s pending clips, the longest waiting first', async () => {
    await clip('Older', 'pending');
    await clip('Settled', 'approved');
    await clip('Plain', null);
    await clip('Newer', 'pending');
    const listed = await member.get('/api/review');
    expect(listed.status).toBe(200);
    expect((listed.body as { clip_id: string }[]).map((row) => row.clip_id)).toEqual(['Older', 'Newer']);
    expect(listed.body).toEqual([expect.objectContaining({ clip_id: 'Older', title: 'title Older', metadata: { descriptions: [expect.objectContaining({ rank: 0.9 }), expect.objectContaining({ rank: 0.2 })] } }), expect.anything()]);
    expect((await admin.get('/api/review')).body).toEqual([]);
  });

  it('approve: 404 for a clip that is not the caller’s, 409 once it is not pending, 400 for bad input', async () => {
    await clip('Mine', 'pending');
    await clip('Done', 'rejected');
    await clip('Never', null);
    expect((await member.post('/api/review/Nope/approve', {})).body).toEqual(errorBody('NOT_FOUND', 'Clip Nope not found'));
    expect((await admin.post('/api/review/Mine/approve', {})).status).toBe(404);
    for (const id of ['Done', 'Never']) {
      const answer = await member.post(`/api/review/${id}/approve`, {});
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual(errorBody('CONFLICT', `Clip ${id} is not waiting for review`));
    }
    const tooLong = await member.post('/api/review/Mine/approve', { description: 'x'.repeat(2201) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ message: 'Description must be at most 2200 characters' });
    expect((await member.post('/api/review/Mine/approve', { account_ids: [] })).body).toMatchObject({ code: 'BAD_REQUEST', message: 'Choose at least one account' });
    expect((await member.post('/api/review/Mine/approve', { account_ids: 'all' })).status).toBe(400);
    expect((await member.post('/api/review/Mine/approve', { account_ids: ['not-a-uuid'] })).body).toEqual(errorBody('NOT_FOUND', 'Account not found'));
    expect((await member.post('/api/review/Mine/approve', { account_ids: [crypto.randomUUID()] })).status).toBe(404);
  });

  it('approve: 400 naming the account whose privacy was never chosen, then 200 with the queued upload once chosen', async () => {
    await clip('Held', 'pending');
    const refused = await member.post('/api/review/Held/approve', {});
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(errorBody('BAD_REQUEST', 'Choose who can see posts on @memberclips before approving'));

    expect((await member.request('PUT', '/api/review/accounts/not-a-uuid', { json: { privacy_level: 'SELF_ONLY' } })).status).toBe(404);
    expect((await admin.request('PUT', `/api/review/accounts/${accountId}`, { json: { privacy_level: 'SELF_ONLY' } })).status).toBe(404);
    const badLevel = await member.request('PUT', `/api/review/accounts/${accountId}`, { json: { privacy_level: 'EVERYBODY' } });
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toMatchObject({ message: 'privacy_level must be one of PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY' });
    const saved = await member.request('PUT', `/api/review/accounts/${accountId}`, { json: { privacy_level: 'SELF_ONLY', disable_duet: true } });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ tiktok_account_id: accountId, account: '@memberclips', platform: 'tiktok', privacy_level: 'SELF_ONLY', youtube_privacy: null, youtube_notify_subscribers: false, disable_comment: false, disable_duet: true, disable_stitch: false });
    expect((await member.get('/api/review/accounts')).body).toEqual([saved.body]);

    const approved = await member.post('/api/review/Held/approve', {});
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toEqual({ message: 'Approved: queued for 1 account', uploads: [expect.objectContaining({ clip_id: 'Held', tiktok_account_id: accountId, status: 'queued' })] });
    const row = await app.deps.db.selectFrom('uploads').select(['description', 'privacy_level', 'disable_duet']).executeTakeFirstOrThrow();
    expect(row).toEqual({ description: 'best of Held #a', privacy_level: 'SELF_ONLY', disable_duet: true });
    expect((await member.post('/api/review/Held/approve', {})).status).toBe(409);
  });

  it('approve: 400 when the clip’s streamer has no account and none is chosen', async () => {
    await clip('Lonely', 'pending', { linked: false });
    const answer = await member.post('/api/review/Lonely/approve', {});
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(errorBody('BAD_REQUEST', 'No account to post to: link one to streamer or choose one'));
  });

  it('reject: 200 once, then 409; 404 for other users’ and unknown clips', async () => {
    await clip('Meh', 'pending');
    expect((await admin.post('/api/review/Meh/reject')).status).toBe(404);
    expect((await member.post('/api/review/Nope/reject')).status).toBe(404);
    const rejected = await member.post('/api/review/Meh/reject');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ message: 'Rejected: the clip stays in your library and will not be posted' });
    expect((await member.post('/api/review/Meh/reject')).body).toEqual(errorBody('CONFLICT', 'Clip Meh is not waiting for review'));
    expect((await member.get('/api/clips/Meh')).status).toBe(200);
  });

  it('bulk approve: 400 for a missing, empty, oversized or mistyped list; 200 naming the clips it could not approve', async () => {
    for (const body of [{}, { clip_ids: [] }, { clip_ids: Array.from({ length: REVIEW_BULK_MAX + 1 }, (_, index) => `c${index}`) }, { clip_ids: 'A' }]) {
      const answer = await member.post('/api/review/approve', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body).toMatchObject({ code: 'BAD_REQUEST', message: BULK_RULE });
    }
    await member.request('PUT', `/api/review/accounts/${accountId}`, { json: { privacy_level: 'PUBLIC_TO_EVERYONE' } });
    await clip('One', 'pending');
    await clip('Two', 'pending');
    await clip('Old', 'approved');
    const answer = await member.post('/api/review/approve', { clip_ids: ['One', 'Old', 'Ghost', 'Two'] });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      approved: 2,
      uploads: [expect.objectContaining({ clip_id: 'One' }), expect.objectContaining({ clip_id: 'Two' })],
      failed: [
        { clip_id: 'Old', message: 'Clip Old is not waiting for review' },
        { clip_id: 'Ghost', message: 'Clip Ghost not found' },
      ],
    });
  });
});
