import { describe, expect, it } from 'vitest';
import { createMomentScorer, formatRatio, scoreWindow, type DetectedMoment, type MomentScorerOptions, type WindowFeatures } from '../../server/src/engines/moments/scorer.ts';
import { chatMessageFrom, parseEmotes, parseIrcLine, splitIrcLines, unescapeTagValue } from '../../server/src/engines/providers/twitch/irc.ts';
import { chatScript, HYPE_LINES, type ChatScriptSpec } from '../fakes/twitch/chat-scripts.ts';
import type { ScriptedMessage } from '../fakes/twitch/chat.ts';

// The moment scorer (docs/decisions/0048-moment-scoring.md) fed scripted chats directly, and the
// IRC line parser the chat reader uses. The same scripts through the fake's WebSocket: twitch-chat.test.ts.

const STARTED = Date.UTC(2026, 10, 28, 12, 0, 0);
const LEAD_IN = 12;

const toScorer = (message: ScriptedMessage) => ({
  userId: message.userId,
  text: message.text,
  emotes: (message.emotes ?? []).map((emote) => ({ name: emote.name, count: message.text.split(' ').filter((word) => word === emote.name).length })),
  sentAt: STARTED + message.at,
});

function momentsOf(script: ScriptedMessage[], options: Partial<MomentScorerOptions> = {}): DetectedMoment[] {
  const scorer = createMomentScorer({ streamStartedAt: STARTED, ...options });
  const moments = script.flatMap((message) => scorer.push(toScorer(message)));
  return [...moments, ...scorer.flush()];
}

const hype = (atSeconds: number, rate: number, chatters: number, seconds = 10) => ({ atSeconds, seconds, rate, chatters, lines: HYPE_LINES });
const SMALL: Omit<ChatScriptSpec, 'seed'> = { seconds: 600, baselineRate: 0.2, regulars: 12 };
const BIG: Omit<ChatScriptSpec, 'seed'> = { seconds: 600, baselineRate: 50, regulars: 3000 };

/** The clip of a moment starts `LEAD_IN` s before the burst it found; the burst it found is within 10 s of the truth. */
const burstSecond = (moment: DetectedMoment) => moment.streamOffsetSeconds + LEAD_IN;

describe('scoreWindow', () => {
  const features: WindowFeatures = {
    seconds: 10,
    messages: 412,
    chatters: 240,
    topEmote: { name: 'KEKW', occurrences: 87, users: 120 },
    clipCallers: 14,
    clipPhrase: 'clip it',
    reactors: 30,
    reactionWord: 'no way',
  };

  it('writes its reasons as plain sentences in the contract\'s style, strongest signal first', () => {
    const { score, reasons } = scoreWindow(features, { messages: 66.4, chatters: 40 });
    expect(reasons).toEqual([
      'Chat 6.2× its usual pace (412 messages in 10 s from 240 chatters)',
      'Emote burst: KEKW ×87',
      '14 chatters asked for a clip ("clip it")',
      '30 chatters reacted ("no way")',
    ]);
    expect(score).toBeGreaterThan(0.8);
    expect(score).toBeLessThanOrEqual(1);
  });

  it('gives no moment to fewer chatters than the minimum, however fast they type', () => {
    expect(scoreWindow({ ...features, chatters: 4 }, { messages: 10, chatters: 3 })).toEqual({ score: 0, reasons: [] });
  });

  it('gives no moment when chat is only a little above its usual pace', () => {
    expect(scoreWindow(features, { messages: 300, chatters: 200 })).toEqual({ score: 0, reasons: [] });
  });

  it('scores higher the further chat is above its usual level', () => {
    const plain = { ...features, topEmote: null, clipCallers: 0, reactors: 0 };
    const scores = [150, 100, 60, 30].map((usual) => scoreWindow(plain, { messages: usual, chatters: usual / 2 }).score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(new Set(scores).size).toBe(scores.length);
  });

  it('names an emote burst only when one emote is a good share of the chatters', () => {
    const few = scoreWindow({ ...features, topEmote: { name: 'KEKW', occurrences: 20, users: 20 } }, { messages: 66.4, chatters: 40 });
    expect(few.reasons.some((reason) => reason.startsWith('Emote burst'))).toBe(false);
  });

  it('formats ratios with one decimal below ten and whole above', () => {
    expect([formatRatio(6.2048), formatRatio(1.5), formatRatio(15.4)]).toEqual(['6.2×', '1.5×', '15×']);
  });
});

describe('the streaming moment scorer', () => {
  it('finds a small channel\'s burst (0.2 messages/s usual, 3/s from 15 chatters) within 10 s, with its reasons', () => {
    const moments = momentsOf(chatScript({ seed: 4, ...SMALL, bursts: [hype(400, 3, 15)] }));
    expect(moments).toHaveLength(1);
    const [moment] = moments as [DetectedMoment];
    expect(Math.abs(burstSecond(moment) - 400)).toBeLessThanOrEqual(10);
    expect(moment.reasons[0]).toMatch(/^Chat \d+(\.\d)?× its usual pace \(\d+ messages in 10 s from 1[0-5] chatters\)$/);
    expect(moment.reasons).toContainEqual(expect.stringMatching(/^Emote burst: KEKW ×\d+$/));
    expect(moment.score).toBeGreaterThanOrEqual(0.6);
    expect(moment.detectedAt - (STARTED + 400_000)).toBeGreaterThan(0);
  });

  it('finds a big channel\'s burst (50 messages/s usual, 300/s) within 10 s, with its reasons', () => {
    const moments = momentsOf(chatScript({ seed: 5, ...BIG, bursts: [hype(400, 250, 2000, 12)] }));
    expect(moments).toHaveLength(1);
    const [moment] = moments as [DetectedMoment];
    expect(Math.abs(burstSecond(moment) - 400)).toBeLessThanOrEqual(10);
    expect(moment.reasons[0]).toMatch(/^Chat [4-7]\.\d× its usual pace \(\d{4} messages in 10 s from \d{4} chatters\)$/);
    expect(moment.reasons[1]).toMatch(/^Emote burst: KEKW ×\d{4}$/);
    expect(moment.reasons).toContainEqual(expect.stringMatching(/^\d+ chatters asked for a clip \("clip it"\)$/));
    expect(moment.score).toBeGreaterThanOrEqual(0.6);
  });

  it('finds nothing in calm chat, small or big, across seeds', () => {
    for (const seed of [11, 12, 13]) {
      expect(momentsOf(chatScript({ seed, ...SMALL, seconds: 900 }))).toEqual([]);
      expect(momentsOf(chatScript({ seed, seconds: 900, baselineRate: 2, regulars: 60 }))).toEqual([]);
      expect(momentsOf(chatScript({ seed, ...BIG }))).toEqual([]);
    }
  });

  it('finds nothing in a single spammer, even one varying the text', () => {
    const script = chatScript({ seed: 7, ...SMALL, baselineRate: 0.5, spammers: [{ atSeconds: 400, seconds: 60, rate: 8, text: 'KEKW clip it' }] });
    expect(script.filter((message) => message.login === 'spam_0').length).toBeGreaterThan(400);
    expect(momentsOf(script)).toEqual([]);
  });

  it('finds nothing in a few bots repeating one message', () => {
    const script = chatScript({ seed: 8, ...SMALL, baselineRate: 0.5, bots: [{ atSeconds: 300, seconds: 280, users: 4, everySeconds: 1, text: 'Follow for follow KEKW clip it' }] });
    expect(momentsOf(script)).toEqual([]);
  });

  it('merges bursts closer than the clip length into one moment, keeping the strongest', () => {
    const script = chatScript({ seed: 6, seconds: 700, baselineRate: 2, regulars: 60, bursts: [hype(400, 12, 40, 6), hype(418, 25, 80, 8), hype(560, 20, 60, 8)] });
    const moments = momentsOf(script);
    expect(moments.map(burstSecond).map((second) => Math.round(second / 10) * 10)).toEqual([420, 560]);
    const alone = momentsOf(chatScript({ seed: 6, seconds: 700, baselineRate: 2, regulars: 60, bursts: [hype(400, 12, 40, 6)] }));
    expect(alone).toHaveLength(1);
    expect(moments[0]!.score).toBeGreaterThanOrEqual(alone[0]!.score);
  });

  it('takes merge length, lead-in and minimum score as parameters', () => {
    const script = chatScript({ seed: 6, seconds: 700, baselineRate: 2, regulars: 60, bursts: [hype(400, 12, 40, 6), hype(418, 25, 80, 8)] });
    expect(momentsOf(script, { mergeSeconds: 10 })).toHaveLength(2);
    const [moment] = momentsOf(script, { leadInSeconds: 0 });
    expect(moment!.streamOffsetSeconds).toBe(Math.round((moment!.burstStartedAt - STARTED) / 1000));
    expect(momentsOf(script, { minScore: 1.01 })).toEqual([]);
  });

  it('does not take a quiet start for a burst: the first greetings after silence', () => {
    const scorer = createMomentScorer({ streamStartedAt: STARTED });
    scorer.push({ userId: 'u0', text: 'first', emotes: [], sentAt: STARTED });
    expect(scorer.advance(STARTED + 300_000)).toEqual([]);
    const greetings = Array.from({ length: 7 }, (_, index) => ({ userId: `u${index + 1}`, text: 'hi chat', emotes: [], sentAt: STARTED + 300_000 + index * 1000 }));
    const moments = [...greetings.flatMap((message) => scorer.push(message)), ...scorer.advance(STARTED + 400_000), ...scorer.flush()];
    expect(moments).toEqual([]);
  });

  it('confirms a burst through advance() when chat goes quiet after it', () => {
    const script = chatScript({ seed: 4, ...SMALL, seconds: 405, bursts: [hype(400, 3, 15, 5)] });
    const scorer = createMomentScorer({ streamStartedAt: STARTED });
    expect(script.flatMap((message) => scorer.push(toScorer(message)))).toEqual([]);
    const moments = scorer.advance(STARTED + 460_000);
    expect(moments).toHaveLength(1);
    expect(moments[0]!.detectedAt).toBeLessThanOrEqual(STARTED + 460_000);
  });

  it('is deterministic and counts a message that arrives a little out of order, not one far behind', () => {
    const script = chatScript({ seed: 4, ...SMALL, bursts: [hype(400, 3, 15)] });
    expect(momentsOf(script)).toEqual(momentsOf(script));
    const scorer = createMomentScorer({ streamStartedAt: STARTED });
    scorer.push({ userId: 'a', text: 'one', emotes: [], sentAt: STARTED + 10_000 });
    scorer.push({ userId: 'b', text: 'two', emotes: [], sentAt: STARTED + 9_500 });
    scorer.push({ userId: 'c', text: 'three', emotes: [], sentAt: STARTED + 20_000 });
    scorer.push({ userId: 'd', text: 'four', emotes: [], sentAt: STARTED + 9_000 });
    expect(scorer.stats).toEqual({ seen: 4, counted: 3, late: 1 });
  });
});

describe('the IRC parser', () => {
  const line =
    '@badge-info=;badges=broadcaster/1;color=#0000FF;display-name=Ronni\\sB;emotes=25:0-4,12-16/1902:6-10;id=b34ccfc7-4977-403a-8a94-33c6bac34fb8;mod=0;room-id=1337;subscriber=0;tmi-sent-ts=1507246572675;turbo=1;user-id=1337;user-type=global_mod :ronni!ronni@ronni.tmi.twitch.tv PRIVMSG #ronni :Kappa Keepo Kappa';

  it('reads a tagged PRIVMSG into a chat message', () => {
    expect(chatMessageFrom(parseIrcLine(line)!)).toEqual({
      userId: '1337',
      login: 'ronni',
      displayName: 'Ronni B',
      text: 'Kappa Keepo Kappa',
      emotes: [
        { id: '25', name: 'Kappa', count: 2 },
        { id: '1902', name: 'Keepo', count: 1 },
      ],
      sentAt: 1507246572675,
      messageId: 'b34ccfc7-4977-403a-8a94-33c6bac34fb8',
    });
  });

  it('indexes emotes by code point after an emoji, and unwraps /me', () => {
    // In UTF-16 units the emoji is two long and 2-6 would read ' Kapp'.
    expect(parseEmotes('25:2-6', '😂 Kappa')).toEqual([{ id: '25', name: 'Kappa', count: 1 }]);
    const action = chatMessageFrom(parseIrcLine('@id=x;user-id=7;tmi-sent-ts=5;emotes=25:6-10 :a!a@a.tmi.twitch.tv PRIVMSG #a :\u0001ACTION waves Kappa\u0001')!);
    expect(action).toMatchObject({ text: 'waves Kappa', emotes: [{ id: '25', name: 'Kappa', count: 1 }], login: 'a', displayName: 'a' });
  });

  it('reads PING, RECONNECT and numerics, splits frames, unescapes tags', () => {
    expect(parseIrcLine('PING :tmi.twitch.tv')).toEqual({ tags: {}, prefix: '', command: 'PING', params: ['tmi.twitch.tv'] });
    expect(parseIrcLine(':tmi.twitch.tv RECONNECT')).toMatchObject({ command: 'RECONNECT', params: [] });
    expect(parseIrcLine(':justinfan1.tmi.twitch.tv 366 justinfan1 #ronni :End of /NAMES list')).toMatchObject({ command: '366', params: ['justinfan1', '#ronni', 'End of /NAMES list'] });
    expect(splitIrcLines('PING :a\r\nPING :b\r\n')).toEqual(['PING :a', 'PING :b']);
    expect(unescapeTagValue('a\\sb\\:c\\\\d\\')).toBe('a b;c\\d');
    expect(parseIrcLine('')).toBeNull();
    expect(chatMessageFrom(parseIrcLine(':tmi.twitch.tv PRIVMSG #ronni :no tags')!)).toBeNull();
  });
});
