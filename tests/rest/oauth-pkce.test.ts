import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccountPlatform } from '@clipshift/shared';
import { decryptSecret } from '../../server/src/platform/crypto.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeYouTube, type FakeYouTube } from '../fakes/youtube/index.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { adminAndMember, resetThrottles, RestClient, userIdOf } from './client.ts';

/**
 * PKCE on both platforms (issue 20): each flow's code_challenge goes into the authorize URL and its
 * verifier, kept encrypted with the single-use state, into the code exchange. The fakes check the
 * verifier against the challenge their authorize page got for that code, as TikTok and Google do,
 * so a code minted for one flow cannot complete another flow, even with that flow's valid state.
 */
describe('REST OAuth: a code only completes the flow it was minted for (PKCE)', () => {
  let tiktok: FakeTikTok;
  let youtube: FakeYouTube;
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let bob: RestClient;
  let aliceId: string;
  let bobId: string;
  /** Per platform: who signs in on the consent page for Alice, for Mallory (an attacker) and for a guest. */
  const people = { tiktok: { alice: '', mallory: '', guest: '' }, youtube: { alice: '', mallory: '', guest: '' } };

  beforeAll(async () => {
    tiktok = await startFakeTikTok();
    youtube = await startFakeYouTube();
    people.tiktok = {
      alice: tiktok.addUser({ displayName: 'Alice Clips', username: 'aliceclips' }).openId,
      mallory: tiktok.addUser({ displayName: 'Mallory', username: 'mallory' }).openId,
      guest: tiktok.addUser({ displayName: 'Guest Clips', username: 'guestclips' }).openId,
    };
    people.youtube = {
      alice: youtube.addUser({ channelTitle: 'Alice Plays', handle: '@aliceplays' }).sub,
      mallory: youtube.addUser({ channelTitle: 'Mallory TV', handle: '@mallorytv' }).sub,
      guest: youtube.addUser({ channelTitle: 'Guest Channel', handle: '@guestchannel' }).sub,
    };
    app = await createTestApp({ ...tiktok.env, ...youtube.env, REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin: alice, member: bob } = await adminAndMember(server.baseUrl));
    aliceId = await userIdOf(alice);
    bobId = await userIdOf(bob);
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
    await tiktok?.close();
    await youtube?.close();
  });
  beforeEach(async () => {
    await resetThrottles(app.deps);
    await app.deps.db.deleteFrom('accounts').execute();
  });

  function signInOnConsentPage(platform: AccountPlatform, who: keyof (typeof people)['tiktok']): void {
    if (platform === 'tiktok') tiktok.setAuthorizingUser(people.tiktok[who]);
    else youtube.setAuthorizingUser(people.youtube[who]);
  }

  async function ownerAuthUrl(client: RestClient, platform: AccountPlatform): Promise<URL> {
    const reply = await client.get(`/api/${platform}/auth-url`);
    expect(reply.status, reply.text).toBe(200);
    return new URL((reply.body as { auth_url: string }).auth_url);
  }

  /** The popup's trip through the consent page: the query the platform sends our callback. */
  async function consent(authUrl: URL): Promise<URLSearchParams> {
    const page = await fetch(authUrl, { redirect: 'manual' });
    expect(page.status).toBe(302);
    return new URL(page.headers.get('location')!).searchParams;
  }

  async function callback(platform: AccountPlatform, query: URLSearchParams, client?: RestClient): Promise<{ status: number; html: string }> {
    const reply = await fetch(`${server.baseUrl}/api/${platform}/callback?${query.toString()}`, { headers: client?.cookie ? { cookie: client.cookie } : {} });
    return { status: reply.status, html: await reply.text() };
  }

  const accountsOf = (userId: string, platform: AccountPlatform) =>
    app.deps.db.selectFrom('accounts').select(['display_name', 'connected_via']).where('user_id', '=', userId).where('platform', '=', platform).execute();

  const codeExchanges = (platform: AccountPlatform) =>
    (platform === 'tiktok' ? tiktok.requestsTo('token') : youtube.requestsTo('token')).filter((request) => request.form?.grant_type === 'authorization_code');

  describe.each(['tiktok', 'youtube'] as const)('%s', (platform) => {
    it('puts an S256 challenge in the authorize URL and keeps its verifier only encrypted, with the state', async () => {
      const url = await ownerAuthUrl(alice, platform);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      const challenge = url.searchParams.get('code_challenge') ?? '';
      const stateHash = createHash('sha256').update(url.searchParams.get('state') ?? '').digest('hex');
      const row = await app.deps.db.selectFrom('oauth_states').select('code_verifier_enc').where('state_hash', '=', stateHash).executeTakeFirstOrThrow();
      const verifier = decryptSecret(row.code_verifier_enc, app.deps.appSecret);
      expect(verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
      // TikTok wants the digest in hex, Google in base64url (RFC 7636).
      expect(challenge).toBe(createHash('sha256').update(verifier).digest(platform === 'tiktok' ? 'hex' : 'base64url'));
      const { rows } = await sql<{ dump: string }>`select row_to_json(s)::text as dump from oauth_states s`.execute(app.deps.db);
      expect(rows.map((entry) => entry.dump).join()).not.toContain(verifier);
    });

    it("refuses a code minted for one flow when it comes with another user's valid state", async () => {
      // Mallory starts a flow as Bob's account would and consents with her own platform account,
      // but does not finish it: she plants its code in Alice's flow.
      signInOnConsentPage(platform, 'mallory');
      const planted = (await consent(await ownerAuthUrl(bob, platform))).get('code') ?? '';
      expect(planted).not.toBe('');
      const aliceState = (await ownerAuthUrl(alice, platform)).searchParams.get('state') ?? '';
      const before = codeExchanges(platform).length;

      const forged = await callback(platform, new URLSearchParams({ code: planted, state: aliceState }), alice);
      expect(forged.status).toBe(400);
      expect(forged.html).toContain(`"type":"${platform}-auth","success":false`);
      // The platform was asked, with Alice's flow's verifier, and said no: nobody got Mallory's account.
      expect(codeExchanges(platform).slice(before)).toEqual([expect.objectContaining({ form: expect.objectContaining({ code: planted, code_verifier: expect.any(String) }) })]);
      expect(await accountsOf(aliceId, platform)).toEqual([]);
      expect(await accountsOf(bobId, platform)).toEqual([]);
    });

    it('still connects the normal way, for an owner and for a guest with a passkey', async () => {
      signInOnConsentPage(platform, 'alice');
      const own = await callback(platform, await consent(await ownerAuthUrl(alice, platform)), alice);
      expect(own.status, own.html).toBe(200);
      expect(own.html).toContain(`"type":"${platform}-auth","success":true`);
      expect(await accountsOf(aliceId, platform)).toEqual([expect.objectContaining({ connected_via: 'owner' })]);

      const { passkey } = (await bob.get('/api/guest/current-passkey')).body as { passkey: string };
      const guest = new RestClient(server.baseUrl);
      const reply = await guest.post(`/api/guest/${platform}/auth-url`, { passkey });
      expect(reply.status, reply.text).toBe(200);
      signInOnConsentPage(platform, 'guest');
      const guestCallback = await callback(platform, await consent(new URL((reply.body as { auth_url: string }).auth_url)));
      expect(guestCallback.status, guestCallback.html).toBe(200);
      expect(await accountsOf(bobId, platform)).toEqual([expect.objectContaining({ connected_via: 'guest' })]);
    });
  });
});
