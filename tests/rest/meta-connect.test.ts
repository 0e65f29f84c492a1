import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../server/src/platform/crypto.ts';
import { startFakeFacebook, type FakeFacebook } from '../fakes/facebook/index.ts';
import { startFakeInstagram, type FakeInstagram } from '../fakes/instagram/index.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { adminAndMember, errorBody, expectNoSecrets, resetThrottles, RestClient, userIdOf } from './client.ts';

type MetaPlatform = 'instagram' | 'facebook';

/** Meta's access tokens as the fakes mint them (Instagram IGAA…, Facebook EAA…). */
const META_TOKEN = /IGAA[A-Za-z0-9_-]{8,}|EAA[A-Za-z0-9_-]{8,}/;

/**
 * Connecting Instagram professional accounts and Facebook Pages through the generic routes
 * (issue 21): GET /api/accounts/{platform}/auth-url → the fake's consent page → our callback, for
 * an owner and for a guest with the passkey; the state is single-use and bound to its platform.
 */
describe('REST Instagram and Facebook: connecting accounts through the generic routes', () => {
  let instagram: FakeInstagram;
  let facebook: FakeFacebook;
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let bob: RestClient;
  let aliceId: string;
  let bobId: string;
  const people = { aliceIg: '', guestIg: '', aliceFb: '', guestFb: '' };
  const pages = { gaming: '', clips: '', analyst: '', guest: '' };

  beforeAll(async () => {
    instagram = await startFakeInstagram();
    facebook = await startFakeFacebook();
    people.aliceIg = instagram.addUser({ username: 'alice.reels', name: 'Alice Reels' }).userId;
    people.guestIg = instagram.addUser({ username: 'guest.reels', name: 'Guest Reels' }).userId;
    const fbAlice = facebook.addUser('Alice Person', ['Alice Gaming', 'Alice Clips']);
    people.aliceFb = fbAlice.user.userId;
    [pages.gaming, pages.clips] = fbAlice.pages.map((page) => page.pageId) as [string, string];
    // A Page Alice may only look at: it cannot be posted to, so it is no account of hers.
    pages.analyst = facebook.addPage(people.aliceFb, 'Alice Analytics', ['ANALYZE']).pageId;
    const fbGuest = facebook.addUser('Guest Person', ['Guest Page']);
    people.guestFb = fbGuest.user.userId;
    pages.guest = fbGuest.pages[0]!.pageId;
    app = await createTestApp({ ...instagram.env, ...facebook.env, REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin: alice, member: bob } = await adminAndMember(server.baseUrl));
    aliceId = await userIdOf(alice);
    bobId = await userIdOf(bob);
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
    await instagram?.close();
    await facebook?.close();
  });
  beforeEach(async () => {
    instagram.reset();
    facebook.reset();
    await resetThrottles(app.deps);
  });

  function signInOnConsentPage(platform: MetaPlatform, who: 'alice' | 'guest'): void {
    if (platform === 'instagram') instagram.setAuthorizingUser(who === 'alice' ? people.aliceIg : people.guestIg);
    else facebook.setAuthorizingUser(who === 'alice' ? people.aliceFb : people.guestFb);
  }

  async function ownerAuthUrl(client: RestClient, platform: string): Promise<URL> {
    const reply = await client.get(`/api/accounts/${platform}/auth-url`);
    expect(reply.status, reply.text).toBe(200);
    return new URL((reply.body as { auth_url: string }).auth_url);
  }

  /** The popup's trip through the consent page: the query the platform sends our callback. */
  async function consent(authUrl: URL): Promise<URLSearchParams> {
    const page = await fetch(authUrl, { redirect: 'manual' });
    expect(page.status).toBe(302);
    return new URL(page.headers.get('location')!).searchParams;
  }

  async function callback(platform: string, query: URLSearchParams, client?: RestClient): Promise<{ status: number; html: string }> {
    const reply = await fetch(`${server.baseUrl}/api/${platform}/callback?${query.toString()}`, { headers: client?.cookie ? { cookie: client.cookie } : {} });
    return { status: reply.status, html: await reply.text() };
  }

  const accountsOf = (userId: string, platform: MetaPlatform) =>
    app.deps.db.selectFrom('accounts').selectAll().where('user_id', '=', userId).where('platform', '=', platform).orderBy('display_name').execute();

  const stateRow = (state: string) =>
    app.deps.db.selectFrom('oauth_states').select(['used_at', 'platform']).where('state_hash', '=', createHash('sha256').update(state).digest('hex')).executeTakeFirstOrThrow();

  async function everyRowAndLog(): Promise<string> {
    const { rows } = await sql<{ dump: string }>`select row_to_json(t)::text as dump from accounts t`.execute(app.deps.db);
    const { rows: logs } = await sql<{ dump: string }>`select row_to_json(l)::text as dump from logs l`.execute(app.deps.db);
    return [...rows, ...logs].map((row) => row.dump).join('\n');
  }

  it('lists which platforms can be connected here, naming the variables of those that cannot', async () => {
    const reply = await alice.get('/api/accounts/platforms');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      { platform: 'tiktok', configured: false, message: expect.stringContaining('TIKTOK_CLIENT_KEY') },
      { platform: 'youtube', configured: false, message: 'YouTube is not configured on this server (YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET)' },
      { platform: 'instagram', configured: true, message: null },
      { platform: 'facebook', configured: true, message: null },
    ]);
    expect((await new RestClient(server.baseUrl).get('/api/accounts/platforms')).status).toBe(401);
  });

  it('answers an unknown platform with a 400 JSON error, for owners and guests, storing no state', async () => {
    const reply = await alice.get('/api/accounts/myspace/auth-url');
    expect(reply.status).toBe(400);
    expect(reply.contentType).toMatch(/^application\/json/);
    expect(reply.body).toMatchObject({ code: 'BAD_REQUEST', error: expect.stringMatching(/platform/i) });
    const { passkey } = (await bob.get('/api/guest/current-passkey')).body as { passkey: string };
    const guest = await new RestClient(server.baseUrl).post('/api/guest/myspace/auth-url', { passkey });
    expect(guest.status).toBe(400);
    expect(guest.body).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await app.deps.db.selectFrom('oauth_states').select('state_hash').where('platform', 'not in', ['instagram', 'facebook']).execute()).toEqual([]);
  });

  it('answers 503 naming the variables to set when the platform is not configured, storing no state', async () => {
    const tiktok = await alice.get('/api/accounts/tiktok/auth-url');
    expect(tiktok.status).toBe(503);
    expect(tiktok.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', error: expect.stringContaining('TIKTOK_CLIENT_KEY') });
    const bare = await createTestApp();
    const bareServer = await startTestServer(bare.deps);
    try {
      const { admin, member } = await adminAndMember(bareServer.baseUrl);
      expect((await admin.get('/api/accounts/instagram/auth-url')).body).toEqual(
        errorBody('SERVICE_UNAVAILABLE', 'Instagram is not configured on this server (INSTAGRAM_CLIENT_ID and INSTAGRAM_CLIENT_SECRET)'),
      );
      const fb = await admin.get('/api/accounts/facebook/auth-url');
      expect(fb.status).toBe(503);
      expect(fb.body).toEqual(errorBody('SERVICE_UNAVAILABLE', 'Facebook is not configured on this server (FACEBOOK_APP_ID and FACEBOOK_APP_SECRET)'));
      const { passkey } = (await member.get('/api/guest/current-passkey')).body as { passkey: string };
      expect((await new RestClient(bareServer.baseUrl).post('/api/guest/instagram/auth-url', { passkey })).status).toBe(503);
      expect(await bare.deps.db.selectFrom('oauth_states').select('state_hash').execute()).toEqual([]);
    } finally {
      await bareServer.close();
      await bare.close();
    }
  });

  it('connects an Instagram professional account: long-lived token stored only encrypted, listed with platform instagram', async () => {
    const url = await ownerAuthUrl(alice, 'instagram');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: instagram.clientId,
      redirect_uri: 'http://localhost:3000/api/instagram/callback',
      response_type: 'code',
      scope: 'instagram_business_basic,instagram_business_content_publish',
    });
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    signInOnConsentPage('instagram', 'alice');
    const query = await consent(url);
    const page = await callback('instagram', query, alice);
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain('"type":"instagram-auth","success":true');
    expect(page.html).toContain('Instagram account connected');

    const [row] = await accountsOf(aliceId, 'instagram');
    expect(row).toMatchObject({ platform: 'instagram', open_id: people.aliceIg, display_name: 'Alice Reels', username: 'alice.reels', connected_via: 'owner', needs_reconnect: false });
    const token = decryptSecret(row!.access_token_enc, app.deps.appSecret);
    // The long-lived token (60 days), which is also what refreshes it.
    expect(token).toMatch(/^IGAAL/);
    expect(instagram.requestsTo('exchange')).toHaveLength(1);
    expect(decryptSecret(row!.refresh_token_enc, app.deps.appSecret)).toBe(token);
    expect(row!.access_expires_at.getTime()).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    const dump = await everyRowAndLog();
    expect(dump).not.toMatch(META_TOKEN);
    expect(dump).not.toContain(token);
    expect(dump).toContain('Connected Instagram account @alice.reels');

    const listed = (await alice.get('/api/accounts')).body as Record<string, unknown>[];
    expect(listed).toEqual([expect.objectContaining({ id: row!.id, platform: 'instagram', display_name: 'Alice Reels', username: 'alice.reels', status: 'ok' })]);
    expectNoSecrets([...alice.seen, page.html], [instagram.clientSecret, token]);

    // The state was spent by the first callback.
    const again = await callback('instagram', query, alice);
    expect(again.status).toBe(400);
    expect(again.html).toContain('"type":"instagram-auth","success":false');
    expect(again.html).toContain('already used or expired');
    expect(instagram.requestsTo('token')).toHaveLength(1);
  });

  it("refuses an Instagram flow's state on the Facebook callback and leaves it unspent for its own", async () => {
    signInOnConsentPage('instagram', 'alice');
    const query = await consent(await ownerAuthUrl(alice, 'instagram'));
    const state = query.get('state')!;
    const wrong = await callback('facebook', query, alice);
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('"type":"facebook-auth","success":false');
    expect(wrong.html).toContain('already used or expired');
    expect(await stateRow(state)).toEqual({ used_at: null, platform: 'instagram' });
    // Instagram's code went to neither platform's token endpoint.
    expect(facebook.requestsTo('token')).toEqual([]);
    expect(instagram.requestsTo('token')).toEqual([]);

    const right = await callback('instagram', query, alice);
    expect(right.status, right.html).toBe(200);
    expect((await stateRow(state)).used_at).toBeInstanceOf(Date);
  });

  it('answers a refused consent (access_denied) in plain words, connecting nothing', async () => {
    const before = (await accountsOf(aliceId, 'instagram')).length;
    instagram.denyAuthorization();
    const query = await consent(await ownerAuthUrl(alice, 'instagram'));
    expect(query.get('error')).toBe('access_denied');
    const page = await callback('instagram', query, alice);
    expect(page.status).toBe(400);
    expect(page.html).toContain('Could not connect Instagram: The Instagram connection was cancelled: permission was not granted on Instagram.');
    expect(page.html).not.toContain('user_denied');
    expect(instagram.requestsTo('token')).toEqual([]);
    expect(await accountsOf(aliceId, 'instagram')).toHaveLength(before);

    facebook.denyAuthorization();
    const fbPage = await callback('facebook', await consent(await ownerAuthUrl(alice, 'facebook')), alice);
    expect(fbPage.status).toBe(400);
    expect(fbPage.html).toContain('Could not connect Facebook: The Facebook connection was cancelled: permission was not granted on Facebook.');
    expect(await accountsOf(aliceId, 'facebook')).toEqual([]);
  });

  it('brings each Page that allows creating content as an account of its own, Page tokens stored only encrypted', async () => {
    const url = await ownerAuthUrl(alice, 'facebook');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: facebook.appId,
      redirect_uri: 'http://localhost:3000/api/facebook/callback',
      response_type: 'code',
      scope: 'pages_show_list,pages_read_engagement,pages_manage_posts,publish_video',
    });
    signInOnConsentPage('facebook', 'alice');
    const page = await callback('facebook', await consent(url), alice);
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain('"type":"facebook-auth","success":true');

    const rows = await accountsOf(aliceId, 'facebook');
    expect(rows.map((row) => [row.open_id, row.display_name, row.connected_via])).toEqual([
      [pages.clips, 'Alice Clips', 'owner'],
      [pages.gaming, 'Alice Gaming', 'owner'],
    ]);
    for (const row of rows) {
      expect(decryptSecret(row.access_token_enc, app.deps.appSecret)).toBe(facebook.pageToken(people.aliceFb, row.open_id));
    }
    const dump = await everyRowAndLog();
    expect(dump).not.toMatch(META_TOKEN);
    expect(dump).toContain('Connected Facebook Page Alice Gaming, Facebook Page Alice Clips');

    const listed = ((await alice.get('/api/accounts')).body as { platform: string; display_name: string; status: string }[]).filter((account) => account.platform === 'facebook');
    expect(listed.map((account) => [account.platform, account.display_name, account.status]).sort()).toEqual([
      ['facebook', 'Alice Clips', 'ok'],
      ['facebook', 'Alice Gaming', 'ok'],
    ]);
    expect(JSON.stringify(listed)).not.toContain(pages.analyst);
    expectNoSecrets([...alice.seen, page.html], [facebook.appSecret, facebook.pageToken(people.aliceFb, pages.gaming)]);

    // Connecting again updates the same rows, no second account per Page.
    signInOnConsentPage('facebook', 'alice');
    expect((await callback('facebook', await consent(await ownerAuthUrl(alice, 'facebook')), alice)).status).toBe(200);
    expect((await accountsOf(aliceId, 'facebook')).map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort());
  });

  it.each(['instagram', 'facebook'] as const)("connects a guest's %s account to the passkey's owner", async (platform) => {
    const { passkey } = (await bob.get('/api/guest/current-passkey')).body as { passkey: string };
    const guest = new RestClient(server.baseUrl);
    expect((await guest.post(`/api/guest/${platform}/auth-url`, { passkey: 'ZZZZZZ' })).body).toEqual(errorBody('NOT_FOUND', 'Invalid passkey'));
    const reply = await guest.post(`/api/guest/${platform}/auth-url`, { passkey });
    expect(reply.status, reply.text).toBe(200);
    signInOnConsentPage(platform, 'guest');
    const page = await callback(platform, await consent(new URL((reply.body as { auth_url: string }).auth_url)));
    expect(page.status, page.html).toBe(200);
    const rows = await accountsOf(bobId, platform);
    expect(rows.map((row) => [row.display_name, row.connected_via])).toEqual([[platform === 'instagram' ? 'Guest Reels' : 'Guest Page', 'guest']]);
    const logs = await app.deps.db.selectFrom('logs').select('message').where('user_id', '=', bobId).execute();
    expect(logs.map((log) => log.message)).toContain(`Connected ${platform === 'instagram' ? 'Instagram account @guest.reels' : 'Facebook Page Guest Page'} (by a guest with your passkey)`);
    expect(await everyRowAndLog()).not.toMatch(META_TOKEN);
  });
});
