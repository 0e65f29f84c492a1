// Finds moments in a live chat: the seconds when chat reacts far beyond its own usual level.
// Pure and deterministic: time comes only from the messages' sentAt (or advance()), so the same
// chat gives the same moments. Streaming: feed messages as they come; moments come back once
// confirmed. Weights, windows and thresholds: docs/decisions/0048-moment-scoring.md.
import { clipCall, KNOWN_EMOTES, MAX_EMOTE_COUNT_PER_MESSAGE, reactionWord } from './words.ts';

/** What the scorer needs of a chat message (the reader's ChatMessage has it). */
export interface ScorerMessage {
  userId: string;
  text: string;
  emotes: readonly { name: string; count: number }[];
  /** Epoch milliseconds (tmi-sent-ts). */
  sentAt: number;
}

export interface MomentWeights {
  pace: number;
  chatters: number;
  emote: number;
  words: number;
}

export interface MomentScorerOptions {
  /** When the stream went live (Helix started_at), epoch ms: moments are placed relative to it. */
  streamStartedAt: number;
  /** Seconds of chat one score looks at. */
  windowSeconds?: number;
  /** Seconds before the window whose median is the stream's usual level. */
  baselineSeconds?: number;
  /** Seconds of chat needed before anything is scored (the baseline needs history). */
  warmupSeconds?: number;
  /** Bursts that start closer than this (the clip length) are one moment; also how long a burst waits to be confirmed. */
  mergeSeconds?: number;
  /** How far before the burst the clip starts: chat reacts seconds after what it reacts to. */
  leadInSeconds?: number;
  /** The lowest score reported as a moment (the streamer's moment_threshold decides which become clips). */
  minScore?: number;
  /** Fewest distinct chatters beyond the usual number in a window for any moment: a few extra voices are no moment. */
  minChatters?: number;
  /** How late (behind the newest message) a message may arrive and still count. */
  latenessMs?: number;
  /** The same text from the same user within this many seconds counts once (bots, copy-paste spam). */
  repeatSeconds?: number;
  /** The usual level is never taken below these: a quiet start must not make every "hi" a burst. */
  floor?: { messagesPerSecond?: number; chattersPerWindow?: number };
  weights?: Partial<MomentWeights>;
}

export interface DetectedMoment {
  /** Where the clip should start, seconds into the stream (burst start minus the lead-in, never below 0). */
  streamOffsetSeconds: number;
  /** When the moment was confirmed, epoch ms on the chat's clock. */
  detectedAt: number;
  /** When the burst began, epoch ms on the chat's clock. */
  burstStartedAt: number;
  /** 0..1, two decimals. */
  score: number;
  /** Plain sentences, strongest signal first: 'Chat 6.2× its usual pace (412 messages in 10 s from 240 chatters)'. */
  reasons: string[];
}

export interface MomentScorer {
  /** Counts one message; returns the moments this confirmed (usually none). */
  push(message: ScorerMessage): DetectedMoment[];
  /**
   * Moves the clock to `now` without a message, for quiet chat; returns confirmed moments. `now` is on the
   * chat's clock (tmi-sent-ts): a local clock running ahead would close seconds before their messages
   * arrive, so pass Date.now() corrected by (sentAt − local arrival time) of the latest message.
   */
  advance(now: number): DetectedMoment[];
  /** The stream ended: scores what is left and confirms a pending burst. */
  flush(): DetectedMoment[];
  /** Messages seen, counted (after spam rules) and dropped as too late. */
  readonly stats: { seen: number; counted: number; late: number };
}

/** What one window of chat looked like. */
export interface WindowFeatures {
  seconds: number;
  messages: number;
  chatters: number;
  topEmote: { name: string; occurrences: number; users: number } | null;
  clipCallers: number;
  clipPhrase: string | null;
  reactors: number;
  reactionWord: string | null;
}

/** The stream's usual window (median over the baseline, floors applied). */
export interface Baseline {
  messages: number;
  chatters: number;
}

export interface WindowScore {
  score: number;
  reasons: string[];
}

export const DEFAULT_WEIGHTS: MomentWeights = { pace: 0.35, chatters: 0.3, emote: 0.2, words: 0.15 };

const DEFAULTS = {
  windowSeconds: 10,
  baselineSeconds: 300,
  warmupSeconds: 60,
  mergeSeconds: 30,
  leadInSeconds: 12,
  minScore: 0.4,
  minChatters: 5,
  latenessMs: 2_000,
  repeatSeconds: 30,
  messagesPerSecond: 0.3,
  chattersPerWindow: 3,
};

/** A ratio reaching this many times the usual level scores full marks (on a log scale: 2× → ⅓, 4× → ⅔). */
const FULL_RATIO = 8;
/** Both pace and chatters must be at least this far above usual for any moment. */
const MIN_RATIO = 1.5;
/** Share of the window's chatters using one emote: below EMOTE_SHARE_FROM nothing, from EMOTE_SHARE_FULL full marks. */
const EMOTE_SHARE_FROM = 0.15;
const EMOTE_SHARE_FULL = 0.5;
/** Share of chatters calling for a clip (reactions at half weight) that scores full marks. */
const WORDS_SHARE_FULL = 0.25;
const REACTION_WEIGHT = 0.5;
/** Most messages one chatter counts for in a window: a fast typist is one voice, not a crowd. */
const MAX_MESSAGES_PER_CHATTER = 2;

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
const logRatio = (ratio: number) => clamp01(Math.log2(ratio) / Math.log2(FULL_RATIO));

/** 6.2× below ten, 15× from ten: the precision chat-pace claims deserve. */
export function formatRatio(ratio: number): string {
  return ratio < 10 ? `${ratio.toFixed(1)}×` : `${Math.round(ratio)}×`;
}

/** Scores one window against the stream's usual level; score 0 and no reasons when it is no moment. */
export function scoreWindow(features: WindowFeatures, baseline: Baseline, options: { minChatters?: number; weights?: Partial<MomentWeights> } = {}): WindowScore {
  const minChatters = options.minChatters ?? DEFAULTS.minChatters;
  const weights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const paceRatio = features.messages / baseline.messages;
  const chatterRatio = features.chatters / baseline.chatters;
  if (features.chatters - baseline.chatters < minChatters || paceRatio < MIN_RATIO || chatterRatio < MIN_RATIO) return { score: 0, reasons: [] };

  const emote = features.topEmote && features.topEmote.users >= minChatters ? features.topEmote : null;
  const emoteScore = emote ? clamp01((emote.users / features.chatters - EMOTE_SHARE_FROM) / (EMOTE_SHARE_FULL - EMOTE_SHARE_FROM)) : 0;
  const wordsShare = (features.clipCallers + REACTION_WEIGHT * features.reactors) / features.chatters;
  const parts = {
    pace: logRatio(paceRatio),
    chatters: logRatio(chatterRatio),
    emote: emoteScore,
    words: clamp01(wordsShare / WORDS_SHARE_FULL),
  };
  const score = weights.pace * parts.pace + weights.chatters * parts.chatters + weights.emote * parts.emote + weights.words * parts.words;

  const reasons = [`Chat ${formatRatio(paceRatio)} its usual pace (${features.messages} messages in ${features.seconds} s from ${features.chatters} chatters)`];
  if (emote && emoteScore > 0) reasons.push(`Emote burst: ${emote.name} ×${emote.occurrences}`);
  if (features.clipCallers >= 2 && features.clipPhrase) reasons.push(`${features.clipCallers} chatters asked for a clip ("${features.clipPhrase}")`);
  if (features.reactors >= minChatters && features.reactionWord) reasons.push(`${features.reactors} chatters reacted ("${features.reactionWord}")`);
  return { score: Math.round(clamp01(score) * 100) / 100, reasons };
}

/**
 * A line of more than LONG_LINE_WORDS words: when others post it word for word within repeatSeconds
 * it counts once (bot accounts, copy-paste spam). Short lines ('KEKW', 'clip it', 'NO WAY') are what
 * a reacting crowd repeats, and count per chatter.
 */
const LONG_LINE_WORDS = 3;
const isLongLine = (text: string) => text.split(/\s+/, LONG_LINE_WORDS + 1).length > LONG_LINE_WORDS;

/** One counted message, reduced to what the window needs. */
interface Counted {
  userId: string;
  emotes: [name: string, count: number][];
  clip: string | null;
  reaction: string | null;
}

interface Bin {
  users: Set<string>;
  messages: Counted[];
}

interface Burst {
  start: number;
  score: number;
  reasons: string[];
}

interface PendingMoment {
  firstStart: number;
  confirmAt: number;
  best: Burst;
}

/** The names a message reacts with: Twitch's emotes from the tag, then known third-party ones in the text. */
function emotesOf(message: ScorerMessage): [string, number][] {
  const found = new Map<string, number>();
  for (const emote of message.emotes) found.set(emote.name, (found.get(emote.name) ?? 0) + emote.count);
  for (const word of message.text.split(/\s+/)) {
    if (KNOWN_EMOTES.has(word) && !message.emotes.some((emote) => emote.name === word)) found.set(word, (found.get(word) ?? 0) + 1);
  }
  return [...found].map(([name, count]) => [name, Math.min(count, MAX_EMOTE_COUNT_PER_MESSAGE)]);
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The most frequent key of a count map (ties: the first seen). */
function mostFrequent(counts: Map<string, number>): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [key, count] of counts) {
    if (count > bestCount) [best, bestCount] = [key, count];
  }
  return best;
}

export function createMomentScorer(options: MomentScorerOptions): MomentScorer {
  const settings = { ...DEFAULTS, ...options, ...options.floor };
  const W = settings.windowSeconds;
  const weights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const bins = new Map<number, Bin>();
  /** Per closed second: the window ending there ([second - W + 1, second]). */
  const history = new Map<number, Baseline>();
  /** Each user's last counted text and when, for the repeat rule. */
  const lastByUser = new Map<string, { text: string; at: number }>();
  /** When each long line was last seen from anyone, for the copy rule. */
  const lastByText = new Map<string, number>();
  const stats = { seen: 0, counted: 0, late: 0 };
  let firstSecond: number | null = null;
  /** Every second up to here is closed (scored); messages for them come too late. */
  let closedThrough: number | null = null;
  let newest = -Infinity;
  let pending: PendingMoment | null = null;
  /** After a confirmed moment, chat must calm down (a second below minScore) before the next burst begins. */
  let cooling = false;
  let lastPrune = 0;

  const binAt = (second: number): Bin => {
    let bin = bins.get(second);
    if (!bin) bins.set(second, (bin = { users: new Set(), messages: [] }));
    return bin;
  };

  function windowFeatures(end: number): WindowFeatures {
    const emotes = new Map<string, { occurrences: number; users: Set<string> }>();
    const clipUsers = new Set<string>();
    const reactUsers = new Set<string>();
    const clipPhrases = new Map<string, number>();
    const reactionWords = new Map<string, number>();
    const perUser = new Map<string, number>();
    let messages = 0;
    for (let second = end - W + 1; second <= end; second += 1) {
      const bin = bins.get(second);
      if (!bin) continue;
      for (const message of bin.messages) {
        const sent = (perUser.get(message.userId) ?? 0) + 1;
        perUser.set(message.userId, sent);
        if (sent <= MAX_MESSAGES_PER_CHATTER) messages += 1;
        for (const [name, count] of message.emotes) {
          let entry = emotes.get(name);
          if (!entry) emotes.set(name, (entry = { occurrences: 0, users: new Set() }));
          entry.occurrences += count;
          entry.users.add(message.userId);
        }
        if (message.clip && !clipUsers.has(message.userId)) {
          clipUsers.add(message.userId);
          clipPhrases.set(message.clip, (clipPhrases.get(message.clip) ?? 0) + 1);
        }
        if (message.reaction && !reactUsers.has(message.userId)) {
          reactUsers.add(message.userId);
          reactionWords.set(message.reaction, (reactionWords.get(message.reaction) ?? 0) + 1);
        }
      }
    }
    let topEmote: WindowFeatures['topEmote'] = null;
    for (const [name, entry] of emotes) {
      if (!topEmote || entry.users.size > topEmote.users) topEmote = { name, occurrences: entry.occurrences, users: entry.users.size };
    }
    return {
      seconds: W,
      messages,
      chatters: perUser.size,
      topEmote,
      clipCallers: clipUsers.size,
      clipPhrase: mostFrequent(clipPhrases),
      reactors: reactUsers.size,
      reactionWord: mostFrequent(reactionWords),
    };
  }

  /** Median of the windows that ended in the baseline span before this window, floors applied. */
  function baselineBefore(end: number): Baseline {
    const messages: number[] = [];
    const chatters: number[] = [];
    for (let second = end - W; second > end - W - settings.baselineSeconds; second -= 1) {
      const past = history.get(second);
      if (!past) break;
      messages.push(past.messages);
      chatters.push(past.chatters);
    }
    return {
      messages: Math.max(median(messages), settings.messagesPerSecond * W),
      chatters: Math.max(median(chatters), settings.chattersPerWindow),
    };
  }

  /** The first second of the window clearly above the usual per-second pace: where the burst began. */
  function burstStart(end: number, baseline: Baseline): number {
    const busy = Math.max(2, (2 * baseline.messages) / W);
    for (let second = end - W + 1; second <= end; second += 1) {
      if ((bins.get(second)?.messages.length ?? 0) >= busy) return second;
    }
    return end - W + 1;
  }

  function toMoment(burst: Burst, confirmedSecond: number): DetectedMoment {
    const offset = (burst.start * 1000 - settings.streamStartedAt) / 1000 - settings.leadInSeconds;
    return {
      streamOffsetSeconds: Math.max(0, Math.round(offset)),
      detectedAt: (confirmedSecond + 1) * 1000,
      burstStartedAt: burst.start * 1000,
      score: burst.score,
      reasons: burst.reasons,
    };
  }

  function closeSecond(second: number, out: DetectedMoment[]): void {
    firstSecond ??= second;
    const features = windowFeatures(second);
    history.set(second, { messages: features.messages, chatters: features.chatters });
    history.delete(second - W - settings.baselineSeconds - 1);
    bins.delete(second - W - 1);

    let result: WindowScore = { score: 0, reasons: [] };
    if (second - firstSecond >= settings.warmupSeconds) {
      const baseline = baselineBefore(second);
      result = scoreWindow(features, baseline, { minChatters: settings.minChatters, weights });
      if (result.score >= settings.minScore && !cooling) {
        const burst: Burst = { start: burstStart(second, baseline), score: result.score, reasons: result.reasons };
        if (!pending) pending = { firstStart: burst.start, confirmAt: burst.start + settings.mergeSeconds, best: burst };
        else if (burst.score > pending.best.score) pending.best = burst;
      }
    }
    if (result.score < settings.minScore) cooling = false;
    if (pending && second >= pending.confirmAt) {
      out.push(toMoment(pending.best, second));
      pending = null;
      cooling = true;
    }
  }

  /** Closes every second that no message can still arrive for. */
  function closeUpTo(now: number, out: DetectedMoment[]): void {
    const through = Math.floor((now - settings.latenessMs) / 1000) - 1;
    if (closedThrough === null) {
      const earliest = Math.min(...bins.keys());
      if (!Number.isFinite(earliest)) return;
      // The first message may itself be up to latenessMs behind others still to come.
      closedThrough = Math.min(earliest - 1, through);
    }
    while (closedThrough < through) {
      closedThrough += 1;
      closeSecond(closedThrough, out);
    }
    if (now - lastPrune > 60_000) pruneUsers(now);
  }

  function pruneUsers(now: number): void {
    lastPrune = now;
    for (const [user, last] of lastByUser) if (now - last.at > settings.repeatSeconds * 1000) lastByUser.delete(user);
    for (const [text, at] of lastByText) if (now - at > settings.repeatSeconds * 1000) lastByText.delete(text);
  }

  function count(message: ScorerMessage): void {
    const second = Math.floor(message.sentAt / 1000);
    if (closedThrough !== null && second <= closedThrough) {
      stats.late += 1;
      return;
    }
    const bin = binAt(second);
    // One message per chatter per second, and no repeats of the same text: spam and bots add nothing.
    if (bin.users.has(message.userId)) return;
    const text = message.text.trim().toLowerCase();
    const last = lastByUser.get(message.userId);
    if (last && last.text === text && message.sentAt - last.at < settings.repeatSeconds * 1000) {
      // Each repeat restarts the quiet period: a bot posting one line every few seconds counts once, ever.
      last.at = message.sentAt;
      return;
    }
    if (isLongLine(text)) {
      const copied = lastByText.get(text);
      if (copied !== undefined && message.sentAt - copied < settings.repeatSeconds * 1000) {
        lastByText.set(text, message.sentAt);
        return;
      }
      lastByText.set(text, message.sentAt);
    }
    lastByUser.set(message.userId, { text, at: message.sentAt });
    bin.users.add(message.userId);
    bin.messages.push({ userId: message.userId, emotes: emotesOf(message), clip: clipCall(text), reaction: reactionWord(text) });
    stats.counted += 1;
  }

  return {
    stats,
    push(message) {
      stats.seen += 1;
      count(message);
      const out: DetectedMoment[] = [];
      if (message.sentAt > newest) {
        newest = message.sentAt;
        closeUpTo(newest, out);
      }
      return out;
    },
    advance(now) {
      const out: DetectedMoment[] = [];
      if (now > newest) {
        newest = now;
        closeUpTo(now, out);
      }
      return out;
    },
    flush() {
      const out: DetectedMoment[] = [];
      const last = Math.max(newest, ...[...bins.keys()].map((second) => (second + 1) * 1000));
      if (Number.isFinite(last)) closeUpTo(last + settings.latenessMs + 1000, out);
      if (pending) {
        out.push(toMoment(pending.best, closedThrough ?? pending.firstStart));
        pending = null;
      }
      return out;
    },
  };
}
