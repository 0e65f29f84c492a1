import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { APPROVAL_LINK_MESSAGES, approvalLinkState, approvalPage, shareClipResult } from '@clipshift/shared';
import { z } from 'zod';
import { RATE_LIMITS } from '../../server/src/platform/rate-limit.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { adminAndMember, APP_ORIGIN, bodyOf, errorBody, expectNoSecrets, resetThrottles, userIdOf, type RestClient } from './client.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/* Approval links over HTTP: the owner shares a clip waiting for review, someone without an account answers once. */
describe('REST approval links: /api/review/{clip_id}/share and /api/approval/{token}', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;
  /** Someone with the link and no account: never signed in. */
  let streamer: RestClient;
  let memberId: string;
  let accountId: string;
  let streamerId: string;

  /** A clip of the member's waiting for review, its streamer linked to the member's account. */
  async function pendingClip(clipId: string, options: { userId?: string; status?: 'pending' | 'approved' | null } = {}) {
    const { id } = await seedClip(app.deps, options.userId ?? memberId, {
      clip_id: clipId,
      title: `title ${clipId}`,
      streamer_name: 'careful',
      descriptions: [
        { description: `best of ${clipId} #a`, rank: 0.9 },
        { description: 'worse #b', rank: 0.2 },
      ],
    });
    const status = options.status === undefined ? 'pending' : options.status;
    await app.deps.db.updateTable('clips').set({ review_status: status, streamer_id: options.userId ? null : streamerId }).where('id', '=', id).execute();
    return id;
  }

  async function choosePrivacy() {
    const saved = await member.request('PUT', `/api/review/accounts/${accountId}`, { json: { privacy_level: 'SELF_ONLY' } });
    expect(saved.status, saved.text).toBe(200);
  }

  async function share(clipId: string, body: unknown = {}) {
    const reply = await member.post(`/api/review/${clipId}/share`, body);
    expect(reply.status, reply.text).toBe(201);
    const { url, expires_at } = bodyOf(reply, shareClipResult);
    const token = url.slice(url.lastIndexOf('/') + 1);
    return { url, token, expiresAt: new Date(expires_at) };
  }

  const reviewStatus = async (clipId: string) => (await app.deps.db.selectFrom('clips').select('review_status').where('clip_id', '=', clipId).executeTakeFirstOrThrow()).review_status;
  const memberLogs = async () => (await app.deps.db.selectFrom('logs').select(['level', 'message']).where('user_id', '=', memberId).orderBy('id').execute()).map((row) => `${row.level} ${row.message}`);

  beforeAll(async () => {
    app = await createTestApp();
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl));
    streamer = member.fresh();
    memberId = await userIdOf(member);
    const account = await app.deps.db
      .insertInto('accounts')
      .values({ user_id: memberId, open_id: 'open-member', display_name: 'Member', username: 'memberclips', access_token_enc: 'x', refresh_token_enc: 'x', access_expires_at: new Date(Date.now() + 3_600_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    accountId = account.id;
    streamerId = await seedStreamer(app.deps, memberId, 'careful');
    await app.deps.db.insertInto('streamer_accounts').values({ streamer_id: streamerId, account_id: accountId }).execute();
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
    await app.deps.db.deleteFrom('logs').execute();
  });

  it('share: 401 without a session, 404 for another user’s or an unknown clip, 409 once the clip is not waiting', async () => {
    await pendingClip('Mine');
    await pendingClip('Done', { status: 'approved' });
    expect((await streamer.post('/api/review/Mine/share', {})).status).toBe(401);
    expect((await admin.post('/api/review/Mine/share', {})).body).toEqual(errorBody('NOT_FOUND', 'Clip Mine not found'));
    expect((await member.post('/api/review/Nope/share', {})).status).toBe(404);
    expect((await member.post('/api/review/Done/share', {})).body).toEqual(errorBody('CONFLICT', 'Clip Done is not waiting for review'));
    expect((await member.post('/api/review/Mine/share', { account_ids: [crypto.randomUUID()] })).body).toEqual(errorBody('NOT_FOUND', 'Account not found'));
    expect(await app.deps.db.selectFrom('approval_links').select('id').execute()).toEqual([]);
  });

  it('share: 201 {url, expires_at} 7 days ahead; only a hash of the token is stored, and no log holds it', async () => {
    await pendingClip('Shared');
    const before = Date.now();
    const { url, token, expiresAt } = await share('Shared');
    const after = Date.now();
    expect(url).toBe(`${APP_ORIGIN}/approve/${token}`);
    expect(token).toMatch(TOKEN);
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 7 * DAY_MS);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(after + 7 * DAY_MS);

    const rows = await app.deps.db.selectFrom('approval_links').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash.equals(createHash('sha256').update(token).digest())).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.approval).toEqual({ description: 'best of Shared #a', account_ids: [accountId] });

    // Refusals naming the token in the path (a range past the end, an approval refused): nothing of it
    // in the logs table nor in stdout's lines, which name the path with {token} in its place.
    const stdout: unknown[] = [];
    const spies = (['info', 'warn', 'error'] as const).map((level) => vi.spyOn(app.deps.logger, level).mockImplementation((...args: unknown[]) => void stdout.push(args)));
    try {
      expect((await streamer.get(`/api/approval/${token}/video`, { headers: { range: 'bytes=999999999-' } })).status).toBe(416);
      expect((await streamer.post(`/api/approval/${token}/approve`, {})).status).toBe(400);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(JSON.stringify(stdout)).toContain('/approval/{token}/video');
    expect(JSON.stringify(stdout)).not.toContain(token);
    const logs = await app.deps.db.selectFrom('logs').select(['message', 'exception']).execute();
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs)).not.toContain(token);
    expect(await memberLogs()).toContain('INFO Shared "title Shared" for approval: the link works once, for 7 days');
  });

  it('the page shows the clip, the description and the accounts without a session; its video plays with Range', async () => {
    await pendingClip('Look');
    const { token } = await share('Look', { description: '  Edited by the owner #mine  ' });
    const page = await streamer.get(`/api/approval/${token}`);
    expect(page.status, page.text).toBe(200);
    expect(page.setCookies).toEqual([]);
    expect(bodyOf(page, approvalPage)).toEqual({
      status: 'open',
      title: 'title Look',
      streamer: 'careful',
      description: 'Edited by the owner #mine',
      accounts: [{ name: '@memberclips', platform: 'tiktok' }],
      format_type: 'vertical',
      video_url: `/api/approval/${token}/video`,
      thumbnail_url: `/api/approval/${token}/thumbnail`,
      expires_at: expect.any(String),
      answered_at: null,
      note: null,
    });
    const video = await fetch(`${server.baseUrl}/api/approval/${token}/video`, { headers: { range: 'bytes=0-99' } });
    expect(video.status).toBe(206);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect((await video.arrayBuffer()).byteLength).toBe(100);
    const thumbnail = await fetch(`${server.baseUrl}/api/approval/${token}/thumbnail`);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
    // The owner's own session changes nothing: the page is the link's.
    expect((await member.get(`/api/approval/${token}`)).status).toBe(200);
  });

  it('approve: once, as the owner’s approval (posts queued, the clip leaves the inbox), logged as Approved by link; a second answer is refused', async () => {
    await choosePrivacy();
    await pendingClip('Yes');
    const { token } = await share('Yes');
    const approved = await streamer.post(`/api/approval/${token}/approve`, {});
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toEqual({ status: 'approved', message: 'Approved: the clip will be posted. Thank you!' });
    expect(await reviewStatus('Yes')).toBe('approved');
    const uploads = await app.deps.db.selectFrom('uploads').select(['account_id', 'description', 'privacy_level', 'status']).execute();
    expect(uploads).toEqual([{ account_id: accountId, description: 'best of Yes #a', privacy_level: 'SELF_ONLY', status: 'queued' }]);
    expect(await memberLogs()).toContain('INFO Approved by link: "title Yes" queued for 1 account');

    const again = await streamer.post(`/api/approval/${token}/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body).toEqual(errorBody('CONFLICT', APPROVAL_LINK_MESSAGES.used));
    expect((await streamer.post(`/api/approval/${token}/reject`, { note: 'changed my mind' })).body).toEqual(errorBody('CONFLICT', APPROVAL_LINK_MESSAGES.used));
    expect(await reviewStatus('Yes')).toBe('approved');
    expect(await app.deps.db.selectFrom('uploads').select('id').execute()).toHaveLength(1);

    // The page now says what was answered, with no video; the video stops with the link.
    const page = bodyOf(await streamer.get(`/api/approval/${token}`), approvalPage);
    expect(page).toMatchObject({ status: 'approved', video_url: null, thumbnail_url: null, answered_at: expect.any(String) });
    expect((await streamer.get(`/api/approval/${token}/video`)).status).toBe(404);
  });

  it('reject: once, with an optional note, as the owner’s Reject; logged as Rejected by link with the note', async () => {
    await pendingClip('No');
    const { token } = await share('No');
    const tooLong = await streamer.post(`/api/approval/${token}/reject`, { note: 'x'.repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 'BAD_REQUEST', message: 'The note must be at most 500 characters' });
    const rejected = await streamer.post(`/api/approval/${token}/reject`, { note: '  Not this one, sorry  ' });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toEqual({ status: 'rejected', message: 'Rejected: the clip will not be posted. Thank you!' });
    expect(await reviewStatus('No')).toBe('rejected');
    expect(await app.deps.db.selectFrom('uploads').select('id').execute()).toEqual([]);
    expect(await memberLogs()).toContain('INFO Rejected by link: "title No" stays in the library and will not be posted. Their note: Not this one, sorry');
    expect((await streamer.post(`/api/approval/${token}/approve`, {})).body).toEqual(errorBody('CONFLICT', APPROVAL_LINK_MESSAGES.used));
    expect(bodyOf(await streamer.get(`/api/approval/${token}`), approvalPage)).toMatchObject({ status: 'rejected', note: 'Not this one, sorry', video_url: null });
  });

  it('two answers at once: exactly one wins', async () => {
    await choosePrivacy();
    await pendingClip('Race');
    const { token } = await share('Race');
    const answers = await Promise.all([streamer.post(`/api/approval/${token}/approve`, {}), streamer.fresh().post(`/api/approval/${token}/reject`, {}), streamer.fresh().post(`/api/approval/${token}/approve`, {})]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect(await app.deps.db.selectFrom('uploads').select('id').execute()).toHaveLength((await reviewStatus('Race')) === 'approved' ? 1 : 0);
  });

  it('an expired link: 409 "has expired" for the page and the answers, 404 for its video', async () => {
    await pendingClip('Late');
    const { token } = await share('Late');
    await app.deps.db.updateTable('approval_links').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    expect((await streamer.get(`/api/approval/${token}`)).body).toEqual(errorBody('CONFLICT', APPROVAL_LINK_MESSAGES.expired));
    expect((await streamer.post(`/api/approval/${token}/approve`, {})).body).toEqual(errorBody('CONFLICT', APPROVAL_LINK_MESSAGES.expired));
    expect((await streamer.post(`/api/approval/${token}/reject`, {})).status).toBe(409);
    expect((await streamer.get(`/api/approval/${token}/video`)).status).toBe(404);
    expect(await reviewStatus('Late')).toBe('pending');
  });

  it('a changed, cut or unknown token: 404 "not valid", never a 500', async () => {
    await pendingClip('Tamper');
    const { token } = await share('Tamper');
    const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    for (const bad of [flipped, token.slice(0, 42), `${token}x`, 'nope', '%20', encodeURIComponent('../../etc/passwd')]) {
      const page = await streamer.get(`/api/approval/${bad}`);
      expect(page.body, bad).toEqual(errorBody('NOT_FOUND', APPROVAL_LINK_MESSAGES.invalid));
      expect((await streamer.post(`/api/approval/${bad}/approve`, {})).status, bad).toBe(404);
      expect((await streamer.get(`/api/approval/${bad}/video`)).status, bad).toBe(404);
      await resetThrottles(app.deps);
    }
    expect((await streamer.get(`/api/approval/${'x'.repeat(201)}`)).status).toBe(400);
    expect(await reviewStatus('Tamper')).toBe('pending');
  });

  it('a new link for the clip replaces the one nobody answered', async () => {
    await pendingClip('Twice');
    const first = await share('Twice');
    const second = await share('Twice');
    expect((await streamer.get(`/api/approval/${first.token}`)).body).toEqual(errorBody('CONFLICT', APPROVAL_LINK_MESSAGES.replaced));
    expect((await streamer.get(`/api/approval/${first.token}/video`)).status).toBe(404);
    expect((await streamer.get(`/api/approval/${second.token}`)).status).toBe(200);
  });

  it('a clip the owner reviewed in the inbox meanwhile: the link says it needs no answer', async () => {
    await pendingClip('Owner');
    const { token } = await share('Owner');
    expect((await member.post('/api/review/Owner/reject')).status).toBe(200);
    expect((await streamer.get(`/api/approval/${token}`)).body).toEqual(errorBody('CONFLICT', APPROVAL_LINK_MESSAGES.settled));
    expect((await streamer.post(`/api/approval/${token}/approve`, {})).body).toEqual(errorBody('CONFLICT', APPROVAL_LINK_MESSAGES.settled));
  });

  it('an approval the inbox would refuse (no privacy chosen) leaves the link open and tells the owner', async () => {
    await pendingClip('Held');
    const { token } = await share('Held');
    const refused = await streamer.post(`/api/approval/${token}/approve`, {});
    expect(refused.body).toEqual(errorBody('BAD_REQUEST', 'Choose who can see posts on @memberclips before approving'));
    expect(await reviewStatus('Held')).toBe('pending');
    expect(await memberLogs()).toContain(
      'WARNING Approval by link of "title Held" could not be carried out: Choose who can see posts on @memberclips before approving. The link stays open.',
    );
    await choosePrivacy();
    expect((await streamer.post(`/api/approval/${token}/approve`, {})).status).toBe(200);
  });

  it('the owner’s inbox lists each clip’s latest link: open, approved, rejected or expired', async () => {
    await choosePrivacy();
    for (const clipId of ['Open', 'Approved', 'Rejected', 'Expired']) await pendingClip(clipId);
    await share('Open');
    await streamer.post(`/api/approval/${(await share('Approved')).token}/approve`, {});
    await streamer.post(`/api/approval/${(await share('Rejected')).token}/reject`, { note: 'too loud' });
    await share('Expired');
    await app.deps.db
      .updateTable('approval_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('clip_row_id', '=', (eb) => eb.selectFrom('clips').select('id').where('clip_id', '=', 'Expired'))
      .execute();
    const links = bodyOf(await member.get('/api/review/links'), z.array(approvalLinkState));
    expect(Object.fromEntries(links.map((link) => [link.clip_id, [link.status, link.note]]))).toEqual({
      Open: ['open', null],
      Approved: ['approved', null],
      Rejected: ['rejected', 'too loud'],
      Expired: ['expired', null],
    });
    expect((await admin.get('/api/review/links')).body).toEqual([]);
    expect((await streamer.get('/api/review/links')).status).toBe(401);
  });

  it('failed look-ups are throttled per address (429 with Retry-After); a good link spends nothing', async () => {
    await pendingClip('Busy');
    const { token } = await share('Busy');
    for (let index = 0; index < RATE_LIMITS.approvalLink.max + 5; index += 1) expect((await streamer.get(`/api/approval/${token}`)).status).toBe(200);
    for (let index = 0; index < RATE_LIMITS.approvalLink.max; index += 1) expect((await streamer.get(`/api/approval/${'A'.repeat(43)}`)).status).toBe(404);
    const limited = await streamer.get(`/api/approval/${'A'.repeat(43)}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await streamer.get(`/api/approval/${token}/video`)).status).toBe(429);
  });

  it('no answer shows a secret', () => {
    expectNoSecrets(member.seen, ['token_hash', 'access_token_enc']);
  });
});
