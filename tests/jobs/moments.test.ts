import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_TWITCH_FOR_MOMENTS, type PublicUser } from '@clipshift/shared';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { checkLiveStreams, recordMoment } from '../../server/src/domains/moments/service.ts';
import { startChatWatcher, type ChatWatcher } from '../../server/src/domains/moments/watcher.ts';
import { findStreamerById } from '../../server/src/domains/streamers/service.ts';
import { chatScript, HYPE_LINES, startFakeTwitch, startFakeTwitchChat, type FakeTwitch, type FakeTwitchChat } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { renderLimitMs } from '../helpers/limits.ts';
import { connectTwitch } from '../helpers/twitch-connection.ts';
import { waitUntil } from '../helpers/wait.ts';

/** A moment's way to the inbox renders one clip. */
const CLIP_WAIT_MS = renderLimitMs(1) + 30_000;

/*
 * Issue 23 end to end on the real worker: the live check over the fake Helix, the chat watcher
 * reading the fake Twitch chat over a real WebSocket, a burst becoming a moment, the moment a Twitch
 * clip (live, or from the VOD after the stream), the clip downloaded, rendered and held for review
 * with the moment's score and reasons.
 */
describe('moments from live chat to the review inbox', { timeout: 6 * CLIP_WAIT_MS }, () => {
  let fake: FakeTwitch;
  let chat: FakeTwitchChat;
  let app: TestApp;
  let worker: WorkerHandle;
  const watchers: ChatWatcher[] = [];
  let owner: PublicUser;

  const newUser = (username: string) => app.deps.db.insertInto('users').values({ username, password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  const watcher = (instance: string) => {
    // Ticks are driven by the test; the beat only runs if the test forgets one.
    const started = startChatWatcher(app.deps, { identity: { host: 'test', pid: 1, instance }, chatUrl: chat.url, tickMs: 3_600_000, leaseSeconds: 30, backoff: { initialMs: 50, maxMs: 200 } });
    watchers.push(started);
    return started;
  };
  const momentsOf = (userId: string) => app.deps.db.selectFrom('moments').selectAll().where('user_id', '=', userId).orderBy('stream_offset').execute();

  beforeAll(async () => {
    fake = await startFakeTwitch();
    chat = await startFakeTwitchChat({ channel: 'livechannel' });
    app = await createTestApp({ ...fake.env, TWITCH_CHAT_URL: chat.url, WORKER_CONCURRENCY: '2' });
    worker = await startWorker(app.deps, app.database.pool, 2, { cron: [], chatWatcher: false });
    owner = await newUser('streamerowner');
    await connectTwitch(app.deps, fake, owner.id, 'livechannel');
    await callerFor(app.deps, { user: owner }).api.streamers.create({
      name: 'livechannel',
      watch_live: true,
      moment_threshold: 0.5,
      auto_publish: true,
      publish_mode: 'review',
      layout: 'blur',
    });
  });
  afterAll(async () => {
    await Promise.all(watchers.map((started) => started.stop()));
    await worker?.stop();
    await app?.close();
    await chat?.close();
    await fake?.close();
  });

  it('reads a live stream with one reader across two workers, finds the burst with its reasons, clips it live and holds the clip for review', async () => {
    const streamId = fake.setLive('livechannel', true, { startedAt: new Date(chat.streamStartedAt), title: 'Ranked grind' });
    await checkLiveStreams(app.deps);
    const watch = await app.deps.db.selectFrom('live_watches').selectAll().executeTakeFirstOrThrow();
    expect(watch).toMatchObject({ live: true, stream_id: streamId, login: 'livechannel', stream_title: 'Ranked grind' });

    // Two workers look for streams to read: one takes the lease, the other leaves it.
    const first = watcher('worker-a');
    const second = watcher('worker-b');
    await first.tick();
    await second.tick();
    expect([...first.reading(), ...second.reading()]).toHaveLength(1);
    await waitUntil(() => chat.joinedNow(), { until: (joined) => joined === 1, message: 'the reader joining the chat' });

    chat.load(chatScript({ seed: 23, seconds: 480, baselineRate: 1.5, regulars: 40, bursts: [{ atSeconds: 300, seconds: 12, rate: 25, chatters: 90, lines: HYPE_LINES }] }));
    await chat.playAll();

    const [moment] = await waitUntil(() => momentsOf(owner.id), { until: (rows) => rows.length > 0, message: 'the moment', timeoutMs: 20_000 });
    // The clip starts a little before the burst (chat reacts after what it reacts to).
    expect(moment!.stream_offset).toBeGreaterThanOrEqual(300 - 20);
    expect(moment!.stream_offset).toBeLessThanOrEqual(300 + 10);
    expect(moment!.score).toBeGreaterThanOrEqual(0.5);
    expect(moment!.reasons.join(' | ')).toMatch(/^Chat \d+(\.\d)?× its usual pace \(\d+ messages in 10 s from \d+ chatters\)/);

    const clipped = await waitUntil(() => momentsOf(owner.id), { until: (rows) => rows[0]?.status === 'clipped', message: 'the moment clipped', timeoutMs: 30_000 });
    expect(clipped).toHaveLength(1);
    expect(fake.requestsTo('create_clip')).toHaveLength(1);
    const clipId = clipped[0]!.clip_id!;

    const api = callerFor(app.deps, { user: owner }).api;
    const waiting = await waitUntil(() => api.review.list(), { until: (list) => list.some((clip) => clip.clip_id === clipId), message: "the moment's clip in the review inbox", timeoutMs: CLIP_WAIT_MS });
    const inInbox = waiting.find((clip) => clip.clip_id === clipId)!;
    expect(inInbox.moment).toEqual({ score: expect.closeTo(moment!.score, 3), reasons: moment!.reasons });

    const listed = await api.moments.list({ streamer: 'livechannel' });
    expect(listed).toEqual([expect.objectContaining({ streamer: 'livechannel', status: 'clipped', clip_id: clipId, reasons: moment!.reasons, error: null })]);
  });

  it('clips a moment from the VOD once the stream has ended', async () => {
    const watch = await app.deps.db.selectFrom('live_watches').selectAll().executeTakeFirstOrThrow();
    fake.setLive('livechannel', false);
    const videoId = fake.addVideo('livechannel', watch.stream_id!);
    await app.deps.db.updateTable('live_watches').set({ checked_at: null }).execute();
    await checkLiveStreams(app.deps);
    // The stream ended: the reader stops and hands the stream back.
    await Promise.all(watchers.map((started) => started.tick()));
    expect(watchers.flatMap((started) => started.reading())).toEqual([]);

    const streamer = (await findStreamerById(app.deps.db, watch.streamer_id))!;
    const saved = await recordMoment(app.deps, { streamer, broadcasterId: watch.broadcaster_id!, streamId: watch.stream_id!, startedAt: watch.stream_started_at! }, { streamOffsetSeconds: 100, score: 0.9, reasons: ['Emote burst: KEKW ×87'] });
    expect(saved).toBeDefined();
    const clipped = await waitUntil(() => app.deps.db.selectFrom('moments').selectAll().where('id', '=', saved!.id).executeTakeFirstOrThrow(), {
      until: (row) => row.status !== 'found',
      message: 'the VOD moment clipped',
      timeoutMs: 30_000,
    });
    expect(clipped).toMatchObject({ status: 'clipped', error: null });
    const [request] = fake.requestsTo('vod_clip');
    expect(request!.query).toMatchObject({ vod_id: [videoId], vod_offset: ['130'], duration: ['30.0'], title: ['Ranked grind'] });

    const api = callerFor(app.deps, { user: owner }).api;
    await waitUntil(() => api.review.list(), { until: (list) => list.some((clip) => clip.clip_id === clipped.clip_id), message: 'the VOD clip in the review inbox', timeoutMs: CLIP_WAIT_MS });
  });

  it("keeps a moment waiting with 'Connect Twitch to turn moments into clips' when no account is connected, and skips one below the threshold", async () => {
    const other = await newUser('notconnected');
    fake.addBroadcaster({ login: 'otherchannel' });
    await callerFor(app.deps, { user: other }).api.streamers.create({ name: 'otherchannel', watch_live: true, moment_threshold: 0.7 });
    const streamer = (await app.deps.db.selectFrom('streamers').selectAll().where('user_id', '=', other.id).executeTakeFirstOrThrow())!;
    const stream = { streamer, broadcasterId: '424242', streamId: '999', startedAt: new Date() };
    const strong = await recordMoment(app.deps, stream, { streamOffsetSeconds: 60, score: 0.8, reasons: ['Chat 6.2× its usual pace (412 messages in 10 s from 240 chatters)'] });
    const weak = await recordMoment(app.deps, stream, { streamOffsetSeconds: 600, score: 0.42, reasons: ['Emote burst: LUL ×12'] });
    // A burst closer than a clip's length to a saved one is that moment.
    expect(await recordMoment(app.deps, stream, { streamOffsetSeconds: 75, score: 0.95, reasons: ['later look at the same burst'] })).toBeUndefined();

    const rows = await waitUntil(() => momentsOf(other.id), { until: (list) => list[0]?.error !== null, message: 'the strong moment settled', timeoutMs: 20_000 });
    expect(rows.map((row) => [row.id, row.status, row.error])).toEqual([
      [strong!.id, 'found', CONNECT_TWITCH_FOR_MOMENTS],
      [weak!.id, 'skipped', "Below this streamer's threshold (42% < 70%)"],
    ]);
    const logs = await app.deps.db.selectFrom('logs').select('message').where('user_id', '=', other.id).where('logger', '=', 'moments').execute();
    expect(logs.map((row) => row.message)).toContain("Moment in otherchannel's stream at 1:00 (80%): Chat 6.2× its usual pace (412 messages in 10 s from 240 chatters)");
  });
});
