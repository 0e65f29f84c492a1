import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountPlatform } from '@clipshift/shared';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeYouTube, type FakeYouTube } from '../fakes/youtube/index.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { adminAndMember, type RestClient, userIdOf } from './client.ts';

const TRACKER = 'https://tracker.example/pixel.gif?who=alice';
const TIKTOK_PICTURE = 'https://p16-sign-va.tiktokcdn.com/tos-maliva-avt-0068/alice~c5_168x168.jpeg?x-expires=1700000000';
const YOUTUBE_PICTURE = 'https://yt3.ggpht.com/ytc/alice=s88-c-k-c0x00ffffff-no-rj';

/**
 * A provider's avatar URL goes into the page's <img src>: only the platforms' own picture hosts
 * may get there (issue 20), so that an avatar cannot be a tracking pixel on anybody's server.
 */
describe('REST account avatars: the platforms’ picture hosts only', () => {
  let tiktok: FakeTikTok;
  let youtube: FakeYouTube;
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let aliceId: string;

  beforeAll(async () => {
    tiktok = await startFakeTikTok();
    youtube = await startFakeYouTube();
    app = await createTestApp({ ...tiktok.env, ...youtube.env, REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin: alice } = await adminAndMember(server.baseUrl));
    aliceId = await userIdOf(alice);
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
    await tiktok?.close();
    await youtube?.close();
  });

  /** Owner's connection through the consent page and our callback, as the popup makes it. */
  async function connect(platform: AccountPlatform): Promise<void> {
    const { auth_url } = (await alice.get(`/api/${platform}/auth-url`)).body as { auth_url: string };
    const consent = await fetch(auth_url, { redirect: 'manual' });
    const query = new URL(consent.headers.get('location')!).search;
    const page = await fetch(`${server.baseUrl}/api/${platform}/callback${query}`, { headers: { cookie: alice.cookie! } });
    expect(await page.text()).toContain('"success":true');
  }

  const storedAvatars = async () =>
    (await app.deps.db.selectFrom('accounts').select(['platform', 'avatar_url']).where('user_id', '=', aliceId).orderBy('platform').execute());

  const answeredAvatars = async () => ((await alice.get('/api/accounts')).body as { platform: string; avatar_url: string | null }[]).map((account) => account.avatar_url);

  it('stores and answers no avatar when the platform names a picture on another host', async () => {
    tiktok.setAuthorizingUser(tiktok.addUser({ displayName: 'Alice Clips', username: 'aliceclips', avatarUrl: TRACKER }).openId);
    await connect('tiktok');
    const channelOwner = youtube.addUser({ channelTitle: 'Alice Plays', handle: '@aliceplays' });
    channelOwner.channel!.avatarUrl = 'https://tracker.example/s88/pixel.gif';
    youtube.setAuthorizingUser(channelOwner.sub);
    await connect('youtube');

    expect(await storedAvatars()).toEqual([
      { platform: 'tiktok', avatar_url: null },
      { platform: 'youtube', avatar_url: null },
    ]);
    expect(await answeredAvatars()).toEqual([null, null]);
  });

  it('keeps a picture on the platform’s own host', async () => {
    await app.deps.db.deleteFrom('accounts').execute();
    tiktok.setAuthorizingUser(tiktok.addUser({ displayName: 'Alice Again', username: 'alicealso', avatarUrl: TIKTOK_PICTURE }).openId);
    await connect('tiktok');
    const channelOwner = youtube.addUser({ channelTitle: 'Alice Again', handle: '@aliceagain' });
    channelOwner.channel!.avatarUrl = YOUTUBE_PICTURE;
    youtube.setAuthorizingUser(channelOwner.sub);
    await connect('youtube');
    expect(await answeredAvatars()).toEqual([TIKTOK_PICTURE, YOUTUBE_PICTURE]);
  });

  it('never answers a foreign avatar stored before the check, in any list that carries avatars', async () => {
    await app.deps.db.deleteFrom('accounts').execute();
    const stored = await app.deps.db
      .insertInto('accounts')
      .values({ user_id: aliceId, open_id: 'open-old', union_id: null, display_name: 'Old', username: 'old', avatar_url: TRACKER, access_token_enc: 'x', refresh_token_enc: 'x', access_expires_at: new Date(), refresh_expires_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const streamer = await seedStreamer(app.deps, aliceId, 'shroud');
    await app.deps.db.insertInto('streamer_accounts').values({ streamer_id: streamer, account_id: stored.id }).execute();

    const bodies = [await alice.get('/api/accounts'), await alice.get('/api/tiktok/accounts'), await alice.get('/api/streamers')];
    for (const reply of bodies) {
      expect(reply.status, reply.text).toBe(200);
      expect(reply.text).toContain('"avatar_url":null');
      expect(reply.text).not.toContain('tracker.example');
    }
  });

  it('lets the page load pictures from the platforms’ picture hosts only', async () => {
    const policy = (await fetch(`${server.baseUrl}/api/health`)).headers.get('content-security-policy') ?? '';
    const imgSrc = policy.split(';').map((part) => part.trim()).find((part) => part.startsWith('img-src')) ?? '';
    expect(imgSrc.split(/\s+/).slice(1).sort()).toEqual(
      ["'self'", 'blob:', 'data:', 'https://*.tiktokcdn-eu.com', 'https://*.tiktokcdn-us.com', 'https://*.tiktokcdn.com', 'https://yt3.ggpht.com', 'https://yt3.googleusercontent.com', 'https://*.cdninstagram.com', 'https://*.fbcdn.net', 'https://platform-lookaside.fbsbx.com'].sort(),
    );
  });
});
