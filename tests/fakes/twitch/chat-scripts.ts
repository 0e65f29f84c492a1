import type { ScriptedMessage } from './chat.ts';

/*
 * Scripted chats for the fake (and the scorer's unit tests): calm chatter at a channel's usual pace,
 * bursts at known offsets, a single spammer, a bot repeating one line. Deterministic (seeded), so a
 * script is the same chat every run.
 */

/** A small seeded generator (mulberry32): 0 ≤ x < 1. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Twitch global emotes, with their real ids, that scripts use. */
export const TWITCH_EMOTES = { LUL: '425618', PogChamp: '305954156', Kappa: '25' } as const;

const CALM_LINES = [
  'hello chat',
  'how is everyone doing',
  'nice play',
  'what game is this',
  'gg',
  'lol',
  'that was close',
  'LUL',
  'Kappa',
  'anyone know the song',
  'first time here',
  'this build is interesting',
  'hydrate',
  'good luck next round',
];

export interface Burst {
  /** Seconds after the stream started. */
  atSeconds: number;
  seconds: number;
  /** Messages per second during the burst. */
  rate: number;
  /** Distinct chatters taking part. */
  chatters: number;
  /** What they say, picked at random per message. */
  lines: string[];
}

export interface ChatScriptSpec {
  seed: number;
  /** Length of the script. */
  seconds: number;
  /** The channel's usual messages per second. */
  baselineRate: number;
  /** How many regulars talk in calm chat. */
  regulars: number;
  bursts?: Burst[];
  /** One user posting `rate` messages a second (varied text) from atSeconds for `seconds`. */
  spammers?: { atSeconds: number; seconds: number; rate: number; text: string }[];
  /** `users` bots posting the same `text` every `everySeconds` from atSeconds for `seconds`. */
  bots?: { atSeconds: number; seconds: number; users: number; everySeconds: number; text: string }[];
}

const user = (prefix: string, index: number) => ({ userId: `${prefix === 'regular' ? 1 : prefix === 'burst' ? 2 : prefix === 'spam' ? 3 : 4}${String(index).padStart(7, '0')}`, login: `${prefix}_${index}` });

/** Twitch emotes among a line's words, for the fake's emotes tag. */
function emotesIn(text: string): ScriptedMessage['emotes'] {
  const found = Object.entries(TWITCH_EMOTES).filter(([name]) => text.split(' ').includes(name));
  return found.map(([name, id]) => ({ id, name }));
}

/** Messages at a Poisson-like `rate` per second over [fromSeconds, fromSeconds + seconds). */
function stream(random: () => number, fromSeconds: number, seconds: number, rate: number, pick: () => { userId: string; login: string; text: string }): ScriptedMessage[] {
  const messages: ScriptedMessage[] = [];
  for (let second = 0; second < seconds; second += 1) {
    // Whole messages for the integer part, one more with the fractional part's chance.
    const count = Math.floor(rate) + (random() < rate - Math.floor(rate) ? 1 : 0);
    for (let index = 0; index < count; index += 1) {
      const picked = pick();
      const at = Math.floor((fromSeconds + second + random()) * 1000);
      messages.push({ at, ...picked, emotes: emotesIn(picked.text) });
    }
  }
  return messages;
}

export function chatScript(spec: ChatScriptSpec): ScriptedMessage[] {
  const random = seededRandom(spec.seed);
  const pickFrom = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  // Calm chat's longer lines are each someone's own words (the scorer counts copies of a long line once).
  const calmLine = () => {
    const line = pickFrom(CALM_LINES);
    return line.split(' ').length > 3 ? `${line} ${Math.floor(random() * 1e6)}` : line;
  };
  const messages = stream(random, 0, spec.seconds, spec.baselineRate, () => ({ ...user('regular', Math.floor(random() * spec.regulars)), text: calmLine() }));
  for (const burst of spec.bursts ?? []) {
    messages.push(...stream(random, burst.atSeconds, burst.seconds, burst.rate, () => ({ ...user('burst', Math.floor(random() * burst.chatters)), text: pickFrom(burst.lines) })));
  }
  for (const spammer of spec.spammers ?? []) {
    let n = 0;
    messages.push(...stream(random, spammer.atSeconds, spammer.seconds, spammer.rate, () => ({ ...user('spam', 0), text: `${spammer.text} ${(n += 1)}` })));
  }
  for (const bot of spec.bots ?? []) {
    for (let second = 0; second < bot.seconds; second += bot.everySeconds) {
      for (let index = 0; index < bot.users; index += 1) {
        messages.push({ at: Math.floor((bot.atSeconds + second) * 1000 + index * 37), ...user('bot', index), text: bot.text });
      }
    }
  }
  return messages.sort((a, b) => a.at - b.at);
}

/** What a hyped chat says: an emote wall, clip calls, disbelief. */
export const HYPE_LINES = ['KEKW', 'KEKW KEKW', 'KEKW KEKW KEKW', 'clip it', 'CLIP THAT', 'NO WAY', 'OMEGALUL', 'LUL LUL', 'KEKW', 'what just happened'];
