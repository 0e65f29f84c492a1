import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCodeVerifier } from '../../server/src/platform/pkce.ts';
import { encryptSecret } from '../../server/src/platform/crypto.ts';
import { startFakeYouTube, type FakeYouTube } from '../fakes/youtube/index.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { adminAndMember, errorBody, expectNoSecrets, RestClient, userIdOf } from './client.ts';

describe('REST YouTube: connection, posting refusals, review choices and streamer links', () => {
  let youtube: FakeYouTube;
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let bob: RestClient;
  let aliceId: string;
  let bobId: string;
  let channelSub: string;
  let guestSub: string;

  /** Follows an authorize URL as the popup would, up to our callback: its query. */
  async function authorizeAnswer(authUrl: string): Promise<string> {
    const authorize = await fetch(authUrl, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    return new URL(authorize.headers.get('location')!).search;
  }

  async function accountOf(userId: string): Promise<string> {
    return (await app.deps.db.selectFrom('accounts').select('id').where('user_id', '=', userId).where('platform', '=', 'youtube').executeTakeFirstOrThrow()).id;
  }

  beforeAll(async () => {
    youtube = await startFakeYouTube();
    channelSub = youtube.addUser({ channelTitle: 'Alice Plays', handle: '@aliceplays' }).sub;
    guestSub = youtube.addUser({ channelTitle: 'Guest Channel', handle: '@guestchannel' }).sub;
    app = await createTestApp({ ...youtube.env, REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin: alice, member: bob } = await adminAndMember(server.baseUrl));
    aliceId = await userIdOf(alice);
    bobId = await userIdOf(bob);
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
    await youtube?.close();
  });

  it('answers 503 with the variables to set when YouTube is not configured', async () => {
    const bare = await createTestApp();
    const bareServer = await startTestServer(bare.deps);
    try {
      const { admin } = await adminAndMember(bareServer.baseUrl);
      const reply = await admin.get('/api/youtube/auth-url');
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual(errorBody('SERVICE_UNAVAILABLE', 'YouTube is not configured on this server (YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET)'));
      expect(await bare.deps.db.selectFrom('oauth_states').select('state_hash').execute()).toEqual([]);
    } finally {
      await bareServer.close();
      await bare.close();
    }
  });

  it('connects a channel through auth-url and the callback; the state is single-use', async () => {
    expect((await new RestClient(server.baseUrl).get('/api/youtube/auth-url')).status).toBe(401);
    const reply = await alice.get('/api/youtube/auth-url');
    expect(reply.status).toBe(200);
    const { auth_url } = reply.body as { auth_url: string };
    expect(new URL(auth_url).searchParams.get('access_type')).toBe('offline');
    youtube.setAuthorizingUser(channelSub);
    const query = await authorizeAnswer(auth_url);
    const page = await fetch(`${server.baseUrl}/api/youtube/callback${query}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    const html = await page.text();
    expect(html).toContain('"type":"youtube-auth","success":true');
    expect(html).toContain('YouTube account connected');
    const accounts = (await alice.get('/api/accounts')).body;
    expect(accounts).toEqual([expect.objectContaining({ platform: 'youtube', display_name: 'Alice Plays', username: 'aliceplays', status: 'ok' })]);

    const again = await fetch(`${server.baseUrl}/api/youtube/callback${query}`);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already used or expired');
    expectNoSecrets([...alice.seen, html], [youtube.clientSecret]);
  });

  it("refuses a TikTok flow's state on the YouTube callback and leaves it unspent", async () => {
    const state = 'tiktok-state-0123456789abcdefghijklmnopqrstuvwxyz';
    const stateHash = createHash('sha256').update(state).digest('hex');
    await app.deps.db
      .insertInto('oauth_states')
      .values({ state_hash: stateHash, user_id: aliceId, via: 'owner', platform: 'tiktok', code_verifier_enc: encryptSecret(newCodeVerifier(), app.deps.appSecret), expires_at: new Date(Date.now() + 60_000) })
      .execute();
    const page = await fetch(`${server.baseUrl}/api/youtube/callback?state=${state}&code=4/abc`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('"type":"youtube-auth","success":false');
    const row = await app.deps.db.selectFrom('oauth_states').select('used_at').where('state_hash', '=', stateHash).executeTakeFirstOrThrow();
    expect(row.used_at).toBeNull();
    // Google's code was never redeemed: nothing reached its token endpoint.
    expect(youtube.requestsTo('token').filter((request) => request.form?.code === '4/abc')).toEqual([]);
  });

  it("connects a guest's channel to the passkey's owner; a wrong passkey is 404", async () => {
    const { passkey } = (await bob.get('/api/guest/current-passkey')).body as { passkey: string };
    const guest = new RestClient(server.baseUrl);
    expect((await guest.post('/api/guest/youtube/auth-url', { passkey: 'ZZZZZZ' })).body).toEqual(errorBody('NOT_FOUND', 'Invalid passkey'));
    const reply = await guest.post('/api/guest/youtube/auth-url', { passkey: passkey.toLowerCase() });
    expect(reply.status).toBe(200);
    youtube.setAuthorizingUser(guestSub);
    const query = await authorizeAnswer((reply.body as { auth_url: string }).auth_url);
    expect((await fetch(`${server.baseUrl}/api/youtube/callback${query}`)).status).toBe(200);
    const row = await app.deps.db.selectFrom('accounts').select(['user_id', 'connected_via', 'display_name']).where('platform', '=', 'youtube').where('user_id', '=', bobId).executeTakeFirstOrThrow();
    expect(row).toEqual({ user_id: bobId, connected_via: 'guest', display_name: 'Guest Channel' });
  });

  describe('POST /api/clips/{id}/post to a YouTube account', () => {
    let accountId: string;
    beforeAll(async () => {
      accountId = await accountOf(aliceId);
      await seedClip(app.deps, aliceId, { clip_id: 'Refused' });
    });
    const post = (body: Record<string, unknown>, clipId = 'Refused') => alice.post(`/api/clips/${clipId}/post`, { description: 'x #a', account_ids: [accountId], youtube_privacy: 'private', ...body });
    const noUploads = async () => expect(await app.deps.db.selectFrom('uploads').select('id').where('account_id', '=', accountId).execute()).toEqual([]);

    it('refuses a title over 100 characters, or with < or >', async () => {
      const tooLong = 'Title must be at most 100 characters';
      expect((await post({ title: 'x'.repeat(101) })).body).toEqual(errorBody('BAD_REQUEST', tooLong, { issues: [{ message: tooLong, path: ['title'] }] }));
      const brackets = 'Title must not contain < or > (YouTube refuses them)';
      expect((await post({ title: 'a <b> c' })).body).toEqual(errorBody('BAD_REQUEST', brackets, { issues: [{ message: brackets, path: ['title'] }] }));
      await noUploads();
    });

    it('refuses a post without the YouTube privacy, or with one YouTube does not have', async () => {
      expect((await post({ youtube_privacy: undefined })).body).toEqual(errorBody('BAD_REQUEST', 'Choose who can see the video on YouTube'));
      expect((await post({ youtube_privacy: 'friends' })).status).toBe(400);
      await noUploads();
    });

    it('refuses, before anything is queued, a landscape video or one over 3 minutes (postPreflight)', async () => {
      await app.deps.db.updateTable('clips').set({ width: 1920, height: 1080 }).where('clip_id', '=', 'Refused').execute();
      expect((await post({})).body).toEqual(errorBody('BAD_REQUEST', 'The video is 1920×1080 (landscape); YouTube Shorts must be vertical or square.'));
      await app.deps.db.updateTable('clips').set({ width: 1080, height: 1920, output_duration: 181.5 }).where('clip_id', '=', 'Refused').execute();
      expect((await post({})).body).toEqual(errorBody('BAD_REQUEST', 'The video is 181.5 s long; YouTube Shorts can be at most 180 s (3 minutes).'));
      await noUploads();
      expect(youtube.requestsTo('upload_init')).toEqual([]);
      // The clip shows what the wizard's own preflight needs.
      const details = (await alice.get('/api/clips/Refused')).body as Record<string, unknown>;
      expect(details).toMatchObject({ width: 1080, height: 1920, video_bytes: 65_536, output_duration: 181.5 });
    });

    it("refuses another user's YouTube account (404)", async () => {
      const bobAccount = await accountOf(bobId);
      expect((await post({ account_ids: [bobAccount] })).status).toBe(404);
    });
  });

  it('links a YouTube account to a streamer through link-tiktok / unlink-tiktok', async () => {
    const accountId = await accountOf(aliceId);
    await seedStreamer(app.deps, aliceId, 'shroud');
    const linked = await alice.post('/api/streamers/shroud/link-tiktok', { tiktok_account_id: accountId });
    expect(linked.status).toBe(200);
    expect((linked.body as { tiktok_accounts: unknown[] }).tiktok_accounts).toEqual([expect.objectContaining({ id: accountId, display_name: 'Alice Plays', username: 'aliceplays' })]);
    expect(((await alice.get('/api/accounts')).body as { linked_streamers: string[] }[])[0]!.linked_streamers).toEqual(['shroud']);
    expect((await bob.post('/api/streamers/shroud/link-tiktok', { tiktok_account_id: accountId })).status).toBe(404);
    const unlinked = await alice.post('/api/streamers/shroud/unlink-tiktok', { tiktok_account_id: accountId });
    expect((unlinked.body as { tiktok_accounts: unknown[] }).tiktok_accounts).toEqual([]);
  });

  it("keeps a YouTube account's choice for approved posts, which go out with it and the clip's title", async () => {
    const accountId = await accountOf(aliceId);
    const listed = (await alice.get('/api/review/accounts')).body;
    expect(listed).toEqual([{ tiktok_account_id: accountId, account: '@aliceplays', platform: 'youtube', privacy_level: null, youtube_privacy: null, youtube_notify_subscribers: false, disable_comment: false, disable_duet: false, disable_stitch: false }]);
    expect((await alice.request('PUT', `/api/review/accounts/${accountId}`, { json: { privacy_level: 'SELF_ONLY' } })).body).toEqual(errorBody('BAD_REQUEST', 'Choose who can see the video on YouTube'));
    const saved = await alice.request('PUT', `/api/review/accounts/${accountId}`, { json: { youtube_privacy: 'unlisted', disable_comment: true } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ platform: 'youtube', privacy_level: null, youtube_privacy: 'unlisted', disable_comment: false });

    const { id: clipRowId } = await seedClip(app.deps, aliceId, { clip_id: 'Approved', title: 'Approve   me <now>', descriptions: [{ description: 'best #gg', rank: 0.9 }] });
    await app.deps.db.updateTable('clips').set({ review_status: 'pending' }).where('id', '=', clipRowId).execute();
    const approved = await alice.post('/api/review/Approved/approve', { account_ids: [accountId] });
    expect(approved.status).toBe(200);
    const upload = await app.deps.db.selectFrom('uploads').selectAll().where('clip_row_id', '=', clipRowId).executeTakeFirstOrThrow();
    expect(upload).toMatchObject({ platform: 'youtube', privacy_level: 'unlisted', title: 'Approve me now', description: 'best #gg', disable_comment: false, youtube_notify_subscribers: false });
  });

  it("sends youtube_notify_subscribers of an approval, else the account's choice (false until chosen)", async () => {
    const accountId = await accountOf(aliceId);
    const approve = async (clipId: string, body: Record<string, unknown>) => {
      const { id: clipRowId } = await seedClip(app.deps, aliceId, { clip_id: clipId, descriptions: [{ description: 'best #gg', rank: 0.9 }] });
      await app.deps.db.updateTable('clips').set({ review_status: 'pending' }).where('id', '=', clipRowId).execute();
      const approved = await alice.post(`/api/review/${clipId}/approve`, { account_ids: [accountId], ...body });
      expect(approved.status, approved.text).toBe(200);
      return (await app.deps.db.selectFrom('uploads').select('youtube_notify_subscribers').where('clip_row_id', '=', clipRowId).executeTakeFirstOrThrow()).youtube_notify_subscribers;
    };
    expect(await approve('NotifyAsked', { youtube_notify_subscribers: true })).toBe(true);
    const saved = await alice.request('PUT', `/api/review/accounts/${accountId}`, { json: { youtube_privacy: 'public', youtube_notify_subscribers: true } });
    expect(saved.body).toMatchObject({ youtube_privacy: 'public', youtube_notify_subscribers: true });
    expect(await approve('NotifyChosen', {})).toBe(true);
    expect(await approve('NotifyDeclined', { youtube_notify_subscribers: false })).toBe(false);
  });
});
