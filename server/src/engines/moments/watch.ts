// The reader and the scorer together: what a moments job runs for one live channel.
import { watchChat, type ChatReaderEvent, type ChatReaderStats } from '../providers/twitch/index.ts';
import { createMomentScorer, type DetectedMoment, type MomentScorer, type MomentScorerOptions } from './scorer.ts';

export interface WatchMomentsOptions {
  /** The channel's login. */
  channel: string;
  /** When the stream went live (Helix started_at), epoch ms. */
  streamStartedAt: number;
  /** Stops watching; the moment still pending is confirmed before watchMoments resolves. */
  signal: AbortSignal;
  onMoment: (moment: DetectedMoment) => void;
  /** TWITCH_CHAT_URL. */
  url?: string;
  onEvent?: (event: ChatReaderEvent) => void;
  scoring?: Omit<MomentScorerOptions, 'streamStartedAt'>;
  backoff?: { initialMs?: number; maxMs?: number };
  /** How often quiet chat still moves the scorer's clock (default 1 s). */
  tickMs?: number;
  /** The local clock (tests). */
  now?: () => number;
}

export interface WatchMomentsResult {
  chat: ChatReaderStats;
  scoring: MomentScorer['stats'];
}

/**
 * Reads a channel's chat into a moment scorer until `signal` aborts, handing each confirmed moment to
 * onMoment. The scorer runs on the chat's clock (tmi-sent-ts); between messages it is moved by the local
 * clock corrected by the latest message's (sentAt − arrival), so a skewed local clock drops nothing.
 */
export async function watchMoments(options: WatchMomentsOptions): Promise<WatchMomentsResult> {
  const now = options.now ?? Date.now;
  const scorer = createMomentScorer({ ...options.scoring, streamStartedAt: options.streamStartedAt });
  const emit = (moments: DetectedMoment[]) => moments.forEach((moment) => options.onMoment(moment));
  let skew: number | null = null;
  const ticker = setInterval(() => {
    if (skew !== null) emit(scorer.advance(now() + skew));
  }, options.tickMs ?? 1_000);
  try {
    const chat = await watchChat({
      channel: options.channel,
      url: options.url,
      signal: options.signal,
      backoff: options.backoff,
      onEvent: options.onEvent,
      onMessage: (message) => {
        skew = message.sentAt - now();
        emit(scorer.push(message));
      },
    });
    emit(scorer.flush());
    return { chat, scoring: { ...scorer.stats } };
  } finally {
    clearInterval(ticker);
  }
}
