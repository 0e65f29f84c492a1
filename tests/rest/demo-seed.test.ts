import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, seedDemoAccount, seedFakes } from '../../scripts/demo-seed.ts';
import { startFakeFacebook } from '../fakes/facebook/index.ts';
import { startFakeInstagram } from '../fakes/instagram/index.ts';
import { startFakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeTwitch } from '../fakes/twitch/index.ts';
import { startFakeYouTube } from '../fakes/youtube/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { createTestApp, startTestServer } from '../helpers/app.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

/**
 * `npm run demo` twice on one data folder (issue 20): every start brings new fakes (new ports, no
 * memory of earlier tokens) and a new webhook receiver, and seeds the same database again.
 */
describe('the demo seeds one database again without adding anything twice', () => {
  let database: TestDatabase;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await database.close();
  });

  /** One `npm run demo`: fresh fakes and receiver, the app over the shared database, the seeding. Returns the receiver's URL. */
  async function startDemo(): Promise<string> {
    const [twitch, tiktok, youtube, instagram, facebook, receiver] = await Promise.all([startFakeTwitch(), startFakeTikTok(), startFakeYouTube(), startFakeInstagram(), startFakeFacebook(), startReceiver()]);
    seedFakes({ twitch, tiktok, youtube, instagram, facebook });
    const env = { ...twitch.env, ...tiktok.env, ...youtube.env, ...instagram.env, ...facebook.env, REGISTRATION_MODE: 'open', WEBHOOK_ALLOW_PRIVATE: 'true' };
    const app = await createTestApp(env, { database });
    const server = await startTestServer(app.deps);
    closers.push(server.close, app.close, twitch.close, tiktok.close, youtube.close, instagram.close, facebook.close, receiver.close);
    expect(await seedDemoAccount(server.baseUrl, receiver.url('/hook'))).toBe(true);
    // This start is over: its fakes and receiver go, as they do when the demo stops.
    for (const close of closers.splice(0).reverse()) await close();
    return receiver.url('/hook');
  }

  it('keeps one Demo Creator account per platform, connected, and one webhook to the current receiver', async () => {
    const firstReceiver = await startDemo();
    const currentReceiver = await startDemo();
    expect(currentReceiver).not.toBe(firstReceiver);

    const demo = await database.db.selectFrom('users').select('id').where('username', '=', DEMO_USER.username).executeTakeFirstOrThrow();
    const accounts = await database.db.selectFrom('accounts').select(['platform', 'display_name', 'needs_reconnect']).where('user_id', '=', demo.id).orderBy('platform').execute();
    expect(accounts).toEqual([
      { platform: 'facebook', display_name: 'Demo Creator Clips', needs_reconnect: false },
      { platform: 'instagram', display_name: 'Demo Creator', needs_reconnect: false },
      { platform: 'tiktok', display_name: 'Demo Creator', needs_reconnect: false },
      { platform: 'youtube', display_name: 'Demo Creator', needs_reconnect: false },
    ]);
    const webhooks = await database.db.selectFrom('webhooks').select('url').where('user_id', '=', demo.id).execute();
    expect(webhooks).toEqual([{ url: currentReceiver }]);
    const streamers = await database.db.selectFrom('streamers').select('name').where('user_id', '=', demo.id).orderBy('name').execute();
    expect(streamers.map((streamer) => streamer.name)).toEqual(['pokimane', 'shroud', 'xqc']);
    const links = await database.db.selectFrom('streamer_accounts').select('streamer_id').execute();
    // shroud to all four platforms, pokimane to TikTok.
    expect(links).toHaveLength(5);
  });
});
