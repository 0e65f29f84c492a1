import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser, StatusEntry } from '@clipshift/shared';
import { startWorker } from '../../server/src/app/jobs.ts';
import { DEMO_CATALOGUE, DEMO_MEDIA, DEMO_USER, demoMediaOf, seedDemoAccount, seedFakes } from '../../scripts/demo-seed.ts';
import { startFakeFacebook } from '../fakes/facebook/index.ts';
import { startFakeInstagram } from '../fakes/instagram/index.ts';
import { startFakeOpenAi } from '../fakes/openai/index.ts';
import { startFakeTikTok } from '../fakes/tiktok/index.ts';
import { cameraRegion, startFakeTwitch } from '../fakes/twitch/index.ts';
import { startFakeYouTube } from '../fakes/youtube/index.ts';
import { iou } from '../helpers/camera-sources.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { callerFor, createTestApp, startTestServer, type TestApp } from '../helpers/app.ts';
import { renderLimitMs, renderTestLimitMs } from '../helpers/limits.ts';
import { waitUntil } from '../helpers/wait.ts';
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
    await seedFakes({ twitch, tiktok, youtube, instagram, facebook });
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
    const streamers = await database.db.selectFrom('streamers').select(['name', 'layout', 'vertical', 'facecam']).where('user_id', '=', demo.id).orderBy('name').execute();
    expect(streamers.map((streamer) => streamer.name)).toEqual(['pokimane', 'shroud', 'xqc']);
    // Every clip is laid out by detection: vertical, `auto`, no rectangle drawn that would win over it.
    expect(streamers.map(({ layout, vertical, facecam }) => ({ layout, vertical, facecam }))).toEqual(Array(3).fill({ layout: 'auto', vertical: true, facecam: null }));
    const links = await database.db.selectFrom('streamer_accounts').select('streamer_id').execute();
    // shroud to all four platforms, pokimane to TikTok.
    expect(links).toHaveLength(5);
  });
});

/**
 * Issue 22, the demo's automatic look: each demo streamer's clips show its camera somewhere else
 * (xQc's none), and one clip of each, downloaded and rendered as `npm run demo` does, comes out
 * split at the camera detection found there, or blurred without one.
 */
describe('the demo lays its clips out by the camera each one shows', { timeout: renderTestLimitMs(DEMO_CATALOGUE.length) }, () => {
  const closers: (() => Promise<void>)[] = [];
  let app: TestApp;
  let demo: PublicUser;

  beforeAll(async () => {
    const [twitch, tiktok, youtube, instagram, facebook, speech, receiver] = await Promise.all([
      startFakeTwitch({ media: DEMO_MEDIA }), startFakeTikTok(), startFakeYouTube(), startFakeInstagram(), startFakeFacebook(), startFakeOpenAi({ scenario: 'speech' }), startReceiver(),
    ]);
    closers.push(twitch.close, tiktok.close, youtube.close, instagram.close, facebook.close, speech.close, receiver.close);
    await seedFakes({ twitch, tiktok, youtube, instagram, facebook });
    app = await createTestApp({
      ...twitch.env, ...tiktok.env, ...youtube.env, ...instagram.env, ...facebook.env,
      TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: speech.url, WHISPER_MODEL: 'whisper-1', REGISTRATION_MODE: 'open', WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    closers.push(app.close);
    const server = await startTestServer(app.deps);
    closers.push(server.close);
    const worker = await startWorker(app.deps, app.database.pool, DEMO_CATALOGUE.length);
    closers.push(() => worker.stop());
    expect(await seedDemoAccount(server.baseUrl, receiver.url('/hook'))).toBe(true);
    demo = await app.deps.db.selectFrom('users').select(['id', 'username', 'is_admin']).where('username', '=', DEMO_USER.username).executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  const finished = (entry: StatusEntry | undefined): entry is StatusEntry => entry !== undefined && !['downloading', 'stopping'].includes(entry.status);

  it('splits each camera streamer’s clips at its camera and blurs the clips without one', async () => {
    const { api } = callerFor(app.deps, { user: demo });
    // One clip each: every clip of a streamer shows the same camera.
    for (const { login } of DEMO_CATALOGUE) await api.downloads.start({ name: login, limit: 1 });
    for (const { login } of DEMO_CATALOGUE) {
      const entry = await waitUntil(async () => (await api.downloads.status())[login], { until: finished, message: `the ${login} run`, timeoutMs: renderLimitMs(DEMO_CATALOGUE.length) });
      expect(entry, login).toMatchObject({ status: 'completed', clips_downloaded: 1, clips_failed: 0 });
    }

    for (const broadcaster of DEMO_CATALOGUE) {
      const row = await app.deps.db.selectFrom('clips').select(['clip_id', 'layout']).where('streamer_name', '=', broadcaster.login).executeTakeFirstOrThrow();
      const { detected } = await api.clips.details({ id: row.clip_id });
      const truth = cameraRegion(demoMediaOf(broadcaster));
      if (truth) {
        expect(row.layout, broadcaster.login).toBe('split');
        expect(detected?.facecam, broadcaster.login).toBeTruthy();
        expect(iou(truth, detected!.facecam!), `${broadcaster.login}: found ${JSON.stringify(detected)}, camera at ${JSON.stringify(truth)}`).toBeGreaterThanOrEqual(0.8);
      } else {
        expect(row.layout, broadcaster.login).toBe('blur');
        expect(detected, broadcaster.login).toMatchObject({ facecam: null });
      }
    }
  });
});
