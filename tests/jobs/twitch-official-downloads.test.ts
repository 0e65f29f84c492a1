import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreateStreamerInput, PublicUser, StatusEntry } from '@clipshift/shared';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { PORTRAIT_MEDIA, startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { renderLimitMs } from '../helpers/limits.ts';
import { connectTwitch } from '../helpers/twitch-connection.ts';
import { waitUntil } from '../helpers/wait.ts';

/** A run here renders at most two clips. */
const RUN_WAIT_MS = renderLimitMs(2);

/*
 * Issue 23's official downloads end to end: runs on the real worker against the fake Twitch fetch
 * the clip files of channels the connected account edits through Get Clips Download (the portrait
 * version as it is with the `auto` layout), and every other channel's through GQL as before.
 */
describe('clip files through Get Clips Download for channels the connected account edits', { timeout: 8 * RUN_WAIT_MS }, () => {
  let fake: FakeTwitch;
  let app: TestApp;
  let worker: WorkerHandle;
  let owner: PublicUser;
  let limited: PublicUser;

  const newUser = (username: string) => app.deps.db.insertInto('users').values({ username, password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();

  beforeAll(async () => {
    fake = await startFakeTwitch();
    app = await createTestApp({ ...fake.env, WORKER_CONCURRENCY: '2' });
    worker = await startWorker(app.deps, app.database.pool, 2);
    owner = await newUser('channelowner');
    limited = await newUser('limitedscope');
    await connectTwitch(app.deps, fake, owner.id, 'ownchannel');
    // An editor of a second channel too.
    fake.addEditor('friendchannel', 'ownchannel');
    // Twitch answers Get Clips Download with 401 for a missing scope (A6a).
    await connectTwitch(app.deps, fake, limited.id, 'scopedchannel', ['clips:edit']);
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const finished = (entry: StatusEntry | undefined): entry is StatusEntry => entry !== undefined && !['downloading', 'stopping'].includes(entry.status);

  async function run(user: PublicUser, settings: CreateStreamerInput | (Partial<CreateStreamerInput> & { name: string })): Promise<void> {
    const api = callerFor(app.deps, { user }).api;
    await api.streamers.create(settings);
    await api.downloads.start({ name: settings.name });
    const entry = await waitUntil(async () => (await api.downloads.status())[settings.name], { until: finished, message: `the ${settings.name} run`, timeoutMs: RUN_WAIT_MS });
    expect(entry.status).toBe('completed');
  }

  const clipsOf = (userId: string, streamer: string) =>
    app.deps.db.selectFrom('clips').select(['title', 'portrait_source', 'width', 'height', 'detected', 'layout']).where('user_id', '=', userId).where('streamer_name', '=', streamer).orderBy('title').execute();
  const officialFiles = () => fake.requestsTo('official').map((request) => request.path.split('/').pop());
  const warningsOf = (userId: string) =>
    app.deps.db.selectFrom('logs').select('message').where('user_id', '=', userId).where('level', '=', 'WARNING').where('logger', '=', 'downloads').execute();

  it("uses the streamer's portrait version as it is with the auto layout: no GQL, no camera detection", async () => {
    fake.addClip({ broadcaster: 'ownchannel', title: 'vertical edit', view_count: 50, portrait: true });
    await run(owner, { name: 'ownchannel', clip_limit: 1 });

    const [clip] = await clipsOf(owner.id, 'ownchannel');
    expect(clip).toMatchObject({ title: 'vertical edit', portrait_source: true, width: 1080, height: 1920, detected: null });
    expect(officialFiles()).toEqual(['portrait.mp4']);
    expect(fake.requestsTo('gql')).toEqual([]);
    expect(fake.requestsTo('clip_downloads').map((request) => request.status)).toEqual([200]);
    const [listed] = (await callerFor(app.deps, { user: owner }).api.clips.list({ streamer: 'ownchannel' })).clips;
    expect(listed).toMatchObject({ portrait_source: true, format_type: 'vertical' });
    // The portrait file is 9:16 already: fitted whole, it fills the frame (PORTRAIT_MEDIA is 360x640).
    expect(PORTRAIT_MEDIA.width / PORTRAIT_MEDIA.height).toBeCloseTo(9 / 16);
  });

  it('takes the landscape file when the layout is not auto, and for a clip without a portrait version', async () => {
    fake.addClip({ broadcaster: 'friendchannel', title: 'friend clip', view_count: 40, portrait: true });
    await run(owner, { name: 'friendchannel', clip_limit: 1, layout: 'blur' });
    expect(await clipsOf(owner.id, 'friendchannel')).toEqual([expect.objectContaining({ title: 'friend clip', portrait_source: false, layout: 'blur' })]);
    expect(officialFiles()).toEqual(['landscape.mp4']);
    expect(fake.requestsTo('gql')).toEqual([]);
  });

  it("fetches other channels' clips through GQL as before, asking Get Clips Download once per run", async () => {
    fake.addClip({ broadcaster: 'stranger', title: 'stranger one', view_count: 30 });
    fake.addClip({ broadcaster: 'stranger', title: 'stranger two', view_count: 20 });
    await run(owner, { name: 'stranger', clip_limit: 2, layout: 'blur' });
    expect((await clipsOf(owner.id, 'stranger')).map((clip) => [clip.title, clip.portrait_source])).toEqual([
      ['stranger one', false],
      ['stranger two', false],
    ]);
    expect(fake.requestsTo('clip_downloads').map((request) => request.status)).toEqual([403]);
    expect(officialFiles()).toEqual([]);
    expect(fake.requestsTo('gql')).toHaveLength(2);
    expect(await warningsOf(owner.id)).toEqual([]);
  });

  it('falls back to GQL with exactly one warning per run when Twitch refuses the scope', async () => {
    fake.addClip({ broadcaster: 'scopedchannel', title: 'scoped one', view_count: 30, portrait: true });
    fake.addClip({ broadcaster: 'scopedchannel', title: 'scoped two', view_count: 20, portrait: true });
    await run(limited, { name: 'scopedchannel', clip_limit: 2, layout: 'blur' });
    expect((await clipsOf(limited.id, 'scopedchannel')).map((clip) => clip.portrait_source)).toEqual([false, false]);
    expect(fake.requestsTo('gql')).toHaveLength(2);
    expect(officialFiles()).toEqual([]);
    const warnings = await warningsOf(limited.id);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/^Twitch refused the connected account's access to scopedchannel's clip files \(.*Missing scope.*\); this run fetches them as before/);
    // A refused scope says nothing about the grant: the connection still works for the rest.
    expect((await app.deps.db.selectFrom('twitch_connections').select('needs_reconnect').where('user_id', '=', limited.id).executeTakeFirstOrThrow()).needs_reconnect).toBe(false);
  });

  it('featured_only picks only the clips Twitch marks as featured', async () => {
    fake.addClip({ broadcaster: 'featurer', title: 'featured', view_count: 10, is_featured: true });
    fake.addClip({ broadcaster: 'featurer', title: 'plain', view_count: 999 });
    await run(owner, { name: 'featurer', clip_limit: 2, layout: 'blur', featured_only: true });
    expect((await clipsOf(owner.id, 'featurer')).map((clip) => clip.title)).toEqual(['featured']);
    const listings = fake.requestsTo('clips').filter((request) => request.query.broadcaster_id);
    expect(listings.length).toBeGreaterThan(0);
    expect(listings.every((request) => request.query.is_featured?.[0] === 'true')).toBe(true);
    expect((await callerFor(app.deps, { user: owner }).api.streamers.list()).find((streamer) => streamer.name === 'featurer')?.featured_only).toBe(true);
  });
});
