import { afterEach, describe, expect, it } from 'vitest';
import { createMomentScorer, type DetectedMoment } from '../../server/src/engines/moments/scorer.ts';
import { watchMoments } from '../../server/src/engines/moments/watch.ts';
import { backoffDelay, readChat, watchChat, type ChatReaderEvent, type ChatReaderStats } from '../../server/src/engines/providers/twitch/chat.ts';
import type { ChatMessage } from '../../server/src/engines/providers/twitch/irc.ts';
import { chatScript, HYPE_LINES, seededRandom, TWITCH_EMOTES } from '../fakes/twitch/chat-scripts.ts';
import { startFakeTwitchChat, type FakeTwitchChat, type ScriptedMessage } from '../fakes/twitch/chat.ts';
import { waitUntil } from '../helpers/wait.ts';

// The chat reader against the fake Twitch chat (IRC over a real WebSocket), and the whole way from
// the fake's scripted chat through the reader into the moment scorer.

const CHANNEL = 'clipshift_test';
const FAST_BACKOFF = { initialMs: 20, maxMs: 200 };
const LEAD_IN = 12;

let fake: FakeTwitchChat | null = null;
const stops: AbortController[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop.abort();
  await fake?.close();
  fake = null;
});

interface Reading {
  messages: ChatMessage[];
  events: ChatReaderEvent[];
  stop: AbortController;
  done: Promise<ChatReaderStats>;
}

/** Starts a reader on the fake and waits until it has joined. */
async function startReading(chat: FakeTwitchChat, onMessage?: (message: ChatMessage) => void): Promise<Reading> {
  const stop = new AbortController();
  stops.push(stop);
  const messages: ChatMessage[] = [];
  const events: ChatReaderEvent[] = [];
  const joinsBefore = chat.joins();
  const done = watchChat({
    channel: `#${CHANNEL.toUpperCase()}`,
    url: chat.url,
    signal: stop.signal,
    backoff: FAST_BACKOFF,
    onEvent: (event) => events.push(event),
    onMessage: (message) => {
      messages.push(message);
      onMessage?.(message);
    },
  });
  await waitUntil(() => chat.joins(), { message: 'the reader to join', until: (joins) => joins > joinsBefore });
  return { messages, events, stop, done };
}

const waitForCount = (reading: Reading, count: number) => waitUntil(() => reading.messages.length, { message: `${count} messages`, until: (n) => n >= count });

const calmScript = (seconds: number, rate = 5) => chatScript({ seed: 21, seconds, baselineRate: rate, regulars: 100 });

describe('the Twitch chat reader', () => {
  it('logs in anonymously, requests tags and commands, and joins the channel', async () => {
    fake = await startFakeTwitchChat({ channel: CHANNEL });
    await startReading(fake);
    const [lines] = fake.connections as [string[]];
    expect(lines.slice(0, 2)).toEqual(['CAP REQ :twitch.tv/tags twitch.tv/commands', 'PASS SCHMOOPIIE']);
    expect(lines[2]).toMatch(/^NICK justinfan\d+$/);
    expect(lines[3]).toBe(`JOIN #${CHANNEL}`);
    expect(fake.protocolErrors).toEqual([]);
  });

  it('delivers each PRIVMSG with its user, text, emotes, time and id, in order (async iterator)', async () => {
    fake = await startFakeTwitchChat({ channel: CHANNEL, linesPerFrame: 3 });
    const script: ScriptedMessage[] = [
      { at: 1_000, userId: '111', login: 'viewer_one', text: 'hello chat', id: 'm-1' },
      { at: 1_500, userId: '222', login: 'viewer_two', text: 'LUL that was LUL', emotes: [{ id: TWITCH_EMOTES.LUL, name: 'LUL' }], id: 'm-2' },
      { at: 2_250, userId: '333', login: 'viewer_three', text: '😂 Kappa; a\\b', emotes: [{ id: TWITCH_EMOTES.Kappa, name: 'Kappa;' }], id: 'm-3' },
    ];
    fake.load(script);
    const stop = new AbortController();
    stops.push(stop);
    const received: ChatMessage[] = [];
    const reading = (async () => {
      for await (const message of readChat({ channel: CHANNEL, url: fake!.url, signal: stop.signal })) {
        received.push(message);
        if (received.length === script.length) break;
      }
    })();
    await waitUntil(() => fake!.joins(), { message: 'the reader to join', until: (joins) => joins === 1 });
    await fake.playAll();
    await reading;
    expect(received).toEqual([
      { userId: '111', login: 'viewer_one', displayName: 'viewer_one', text: 'hello chat', emotes: [], sentAt: fake.streamStartedAt + 1_000, messageId: 'm-1' },
      { userId: '222', login: 'viewer_two', displayName: 'viewer_two', text: 'LUL that was LUL', emotes: [{ id: TWITCH_EMOTES.LUL, name: 'LUL', count: 2 }], sentAt: fake.streamStartedAt + 1_500, messageId: 'm-2' },
      { userId: '333', login: 'viewer_three', displayName: 'viewer_three', text: '😂 Kappa; a\\b', emotes: [{ id: TWITCH_EMOTES.Kappa, name: 'Kappa;', count: 1 }], sentAt: fake.streamStartedAt + 2_250, messageId: 'm-3' },
    ]);
    // Leaving the loop closed the connection.
    await waitUntil(() => fake!.joinedNow(), { message: 'the reader to leave', until: (n) => n === 0 });
  });

  it('answers PING with PONG', async () => {
    fake = await startFakeTwitchChat({ channel: CHANNEL });
    await startReading(fake);
    await fake.ping();
    await fake.ping();
    const pongs = fake.connections[0]!.filter((line) => line.startsWith('PONG :tmi.twitch.tv-'));
    expect(pongs).toHaveLength(2);
  });

  it('after a dropped connection, loses no more than what was said while away and counts nothing twice', async () => {
    fake = await startFakeTwitchChat({ channel: CHANNEL });
    const reading = await startReading(fake);
    const script = calmScript(200);
    fake.load(script);
    const first = await fake.playUntil(100_000);
    await waitForCount(reading, first.sent);
    // Twitch's side overlaps on the way back: the last 40 messages come again on the new connection.
    fake.replayOnNextJoin(40);
    fake.drop();
    const away = await fake.playUntil(105_000);
    await waitUntil(() => fake!.joins(), { message: 'the reader to rejoin', until: (joins) => joins === 2 });
    const rest = await fake.playAll();
    await waitForCount(reading, first.sent + rest.sent);
    await fake.ping();

    const expected = script.filter((message) => message.at <= 100_000 || message.at > 105_000);
    expect(away.lost).toBe(script.length - expected.length);
    expect(away.lost).toBeGreaterThan(0);
    expect(reading.messages.map((message) => message.sentAt)).toEqual(expected.map((message) => fake!.streamStartedAt + message.at));
    expect(new Set(reading.messages.map((message) => message.messageId)).size).toBe(reading.messages.length);
    expect(reading.messages.map((message) => message.messageId)).not.toContain(fake.lostIds[0]);
    const reconnect = reading.events.find((event) => event.type === 'reconnecting');
    expect(reconnect).toMatchObject({ type: 'reconnecting', reason: 'closed', attempt: 1 });
    reading.stop.abort();
    expect(await reading.done).toEqual({ messages: expected.length, duplicates: 40, connections: 2 });
  });

  it('reconnects at once on RECONNECT and keeps reading', async () => {
    fake = await startFakeTwitchChat({ channel: CHANNEL });
    const reading = await startReading(fake);
    const script = calmScript(60);
    fake.load(script);
    const first = await fake.playUntil(30_000);
    await waitForCount(reading, first.sent);
    fake.sendReconnect();
    await waitUntil(() => fake!.joins(), { message: 'the reader to rejoin', until: (joins) => joins === 2 });
    const rest = await fake.playAll();
    await waitForCount(reading, first.sent + rest.sent);
    expect(reading.events.filter((event) => event.type === 'reconnecting')).toEqual([{ type: 'reconnecting', reason: 'reconnect', delayMs: 0, attempt: 0 }]);
    expect(reading.messages).toHaveLength(script.length);
    expect(fake.connections).toHaveLength(2);
    expect(fake.connections[1]!.at(-1)).toBe(`JOIN #${CHANNEL}`);
  });

  it('pings a connection gone silent and, with no PONG, reconnects', async () => {
    fake = await startFakeTwitchChat({ channel: CHANNEL });
    const stop = new AbortController();
    stops.push(stop);
    const events: ChatReaderEvent[] = [];
    const options = { channel: CHANNEL, url: fake.url, signal: stop.signal, idleMs: 200, pongTimeoutMs: 200, onEvent: (event: ChatReaderEvent) => events.push(event), onMessage: () => {} };
    void watchChat(options);
    await waitUntil(() => fake!.joins(), { message: 'the reader to join', until: (joins) => joins === 1 });
    fake.goSilent();
    await waitUntil(() => fake!.joins(), { message: 'the reader to rejoin', until: (joins) => joins === 2 });
    // The reader asked before giving up (a ping may also have gone out, answered, before the silence began).
    expect(fake.connections[0]!.filter((line) => line === 'PING :tmi.twitch.tv').length).toBeGreaterThanOrEqual(1);
    expect(events.find((event) => event.type === 'reconnecting')).toMatchObject({ reason: 'silent' });
  });

  it('backs off exponentially with jitter, capped, while the server is gone, and stops on abort', async () => {
    const random = seededRandom(3);
    const delays = Array.from({ length: 10 }, (_, attempt) => backoffDelay(attempt, random, 1_000, 60_000));
    delays.forEach((delay, attempt) => {
      const cap = Math.min(60_000, 1_000 * 2 ** attempt);
      expect(delay).toBeGreaterThanOrEqual(cap / 2);
      expect(delay).toBeLessThanOrEqual(cap);
    });
    expect(delays.at(-1)).toBeGreaterThanOrEqual(30_000);

    fake = await startFakeTwitchChat({ channel: CHANNEL });
    const url = fake.url;
    await fake.close();
    fake = null;
    const stop = new AbortController();
    const events: ChatReaderEvent[] = [];
    const done = watchChat({ channel: CHANNEL, url, signal: stop.signal, backoff: FAST_BACKOFF, onEvent: (event) => events.push(event), onMessage: () => {} });
    await waitUntil(() => events.length, { message: 'five reconnect attempts', until: (n) => n >= 5 });
    stop.abort();
    const stats = await done;
    expect(stats.messages).toBe(0);
    expect(events.slice(0, 5).map((event) => (event.type === 'reconnecting' ? event.attempt : -1))).toEqual([1, 2, 3, 4, 5]);
    const waits = events.slice(0, 5).map((event) => (event.type === 'reconnecting' ? event.delayMs : -1));
    expect(waits[4]).toBeLessThanOrEqual(FAST_BACKOFF.maxMs);
    expect(waits[4]).toBeGreaterThanOrEqual(FAST_BACKOFF.maxMs / 2);
  });

  it('refuses a channel that is no Twitch login', async () => {
    await expect(watchChat({ channel: 'no such channel', url: 'ws://127.0.0.1:1', signal: new AbortController().signal, onMessage: () => {} })).rejects.toThrow('is not a Twitch channel login');
  });
});

describe('scripted chat through the reader into the scorer', () => {
  /** Plays a script through the fake and the reader into a scorer; returns the moments. */
  async function momentsThroughChat(script: ScriptedMessage[], linesPerFrame = 1): Promise<DetectedMoment[]> {
    fake = await startFakeTwitchChat({ channel: CHANNEL, linesPerFrame });
    const scorer = createMomentScorer({ streamStartedAt: fake.streamStartedAt, leadInSeconds: LEAD_IN });
    const moments: DetectedMoment[] = [];
    const reading = await startReading(fake, (message) => moments.push(...scorer.push(message)));
    fake.load(script);
    const played = await fake.playAll();
    await waitForCount(reading, played.sent);
    expect(played.sent).toBe(script.length);
    return [...moments, ...scorer.flush()];
  }

  const hype = (atSeconds: number, rate: number, chatters: number, seconds = 10) => ({ atSeconds, seconds, rate, chatters, lines: HYPE_LINES });
  const near = (moment: DetectedMoment, second: number) => Math.abs(moment.streamOffsetSeconds + LEAD_IN - second) <= 10;

  it('finds bursts at known offsets within 10 s, with their reasons', async () => {
    const script = chatScript({ seed: 31, seconds: 900, baselineRate: 3, regulars: 150, bursts: [hype(400, 25, 120), hype(700, 30, 150)] });
    const moments = await momentsThroughChat(script);
    expect(moments).toHaveLength(2);
    expect(near(moments[0]!, 400)).toBe(true);
    expect(near(moments[1]!, 700)).toBe(true);
    for (const moment of moments) {
      expect(moment.reasons[0]).toMatch(/^Chat \d+(\.\d)?× its usual pace \(\d+ messages in 10 s from \d+ chatters\)$/);
      expect(moment.reasons).toContainEqual(expect.stringMatching(/^Emote burst: KEKW ×\d+$/));
      expect(moment.score).toBeGreaterThanOrEqual(0.6);
    }
  });

  it('finds a small channel\'s burst and a big channel\'s burst alike', async () => {
    const small = await momentsThroughChat(chatScript({ seed: 32, seconds: 600, baselineRate: 0.2, regulars: 12, bursts: [hype(420, 3, 15)] }));
    expect(small).toHaveLength(1);
    expect(near(small[0]!, 420)).toBe(true);
    await fake!.close();
    const big = await momentsThroughChat(chatScript({ seed: 33, seconds: 480, baselineRate: 50, regulars: 3000, bursts: [hype(400, 250, 2000)] }), 20);
    expect(big).toHaveLength(1);
    expect(near(big[0]!, 400)).toBe(true);
  });

  it('finds no moment in calm chat, a single spammer or a repeated bot message', async () => {
    const script = chatScript({
      seed: 34,
      seconds: 900,
      baselineRate: 1,
      regulars: 40,
      spammers: [{ atSeconds: 300, seconds: 60, rate: 10, text: 'KEKW KEKW clip it' }],
      bots: [{ atSeconds: 500, seconds: 300, users: 3, everySeconds: 2, text: 'Get free viewers now at example dot com KEKW' }],
    });
    expect(await momentsThroughChat(script)).toEqual([]);
  });

  it('watchMoments reads, scores, moves the clock through quiet chat, and confirms what is pending when stopped', async () => {
    fake = await startFakeTwitchChat({ channel: CHANNEL });
    // The local clock is hours away from the chat's: the scorer must still run on the chat's.
    let localNow = Date.UTC(2020, 0, 1);
    const moments: DetectedMoment[] = [];
    const stop = new AbortController();
    stops.push(stop);
    const watching = watchMoments({ channel: CHANNEL, url: fake.url, streamStartedAt: fake.streamStartedAt, signal: stop.signal, onMoment: (moment) => moments.push(moment), tickMs: 20, now: () => localNow });
    await waitUntil(() => fake!.joins(), { message: 'the reader to join', until: (joins) => joins === 1 });
    // A burst at 400 s, then chat goes quiet: only the clock can confirm it.
    fake.load(chatScript({ seed: 35, seconds: 405, baselineRate: 2, regulars: 60, bursts: [hype(400, 20, 60, 5)] }));
    const first = await fake.playAll();
    await fake.ping();
    expect(moments).toEqual([]);
    localNow += 60_000;
    await waitUntil(() => moments.length, { message: 'the quiet clock to confirm the burst', until: (n) => n === 1 });
    expect(near(moments[0]!, 400)).toBe(true);

    // A second burst, then stop before it is confirmed: stopping confirms it.
    fake.load(chatScript({ seed: 36, seconds: 20, baselineRate: 0, regulars: 1, bursts: [hype(0, 20, 60, 5)] }).map((message) => ({ ...message, at: message.at + 600_000 })));
    const second = await fake.playAll();
    await fake.ping();
    stop.abort();
    const result = await watching;
    expect(moments).toHaveLength(2);
    expect(near(moments[1]!, 600)).toBe(true);
    expect(result.chat.messages).toBe(first.sent + second.sent);
    expect(result.scoring.seen).toBe(first.sent + second.sent);
  });
});
