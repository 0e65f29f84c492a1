// Reads a channel's public chat anonymously over Twitch's IRC WebSocket. One connection at a time;
// drops reconnect with capped exponential backoff and jitter, RECONNECT at once, and a message id
// seen before (a reconnect can overlap) is never delivered twice. Twitch never replays history, so
// what is said while the reader is away is lost: at most the seconds away.
import { randomInt } from 'node:crypto';
import WebSocket from 'ws';
import { chatMessageFrom, parseIrcLine, splitIrcLines, type ChatMessage, type IrcLine } from './irc.ts';

export const DEFAULT_TWITCH_CHAT_URL = 'wss://irc-ws.chat.twitch.tv:443';

/** What the reader did, for logs and for tests that wait on it. */
export type ChatReaderEvent =
  | { type: 'joined'; channel: string; connection: number }
  | { type: 'reconnecting'; reason: ChatDisconnectReason; delayMs: number; attempt: number }
  | { type: 'notice'; msgId: string; text: string };

/** reconnect: Twitch asked (RECONNECT); closed/error: the connection dropped; silent: no answer to our PING. */
export type ChatDisconnectReason = 'reconnect' | 'closed' | 'error' | 'silent';

export interface ChatReaderOptions {
  /** The channel's login, with or without '#'. */
  channel: string;
  /** TWITCH_CHAT_URL; default wss://irc-ws.chat.twitch.tv:443. */
  url?: string;
  /** Stops the reader: the socket closes and watchChat resolves. */
  signal: AbortSignal;
  onEvent?: (event: ChatReaderEvent) => void;
  /** Backoff after a drop: initialMs × 2^attempt, capped at maxMs, then jittered to 50–100%. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** 0 ≤ x < 1; jitter and the justinfan number (tests make them deterministic). */
  random?: () => number;
  /** Silence after which the reader sends its own PING (Twitch PINGs about every 5 minutes). */
  idleMs?: number;
  /** How long that PING may go unanswered before the connection counts as dead. */
  pongTimeoutMs?: number;
  /** How many recent message ids are remembered to drop duplicates. */
  rememberIds?: number;
}

export interface ChatReaderStats {
  /** Messages delivered to onMessage. */
  messages: number;
  /** Messages dropped because their id had been delivered before. */
  duplicates: number;
  /** Connections opened, the first included. */
  connections: number;
}

const DEFAULTS = { initialMs: 1_000, maxMs: 60_000, idleMs: 6 * 60_000, pongTimeoutMs: 15_000, rememberIds: 50_000 };

/** The channel login as IRC wants it: lower case, no '#'. Throws on anything that is no Twitch login. */
export function chatChannel(channel: string): string {
  const login = channel.replace(/^#/, '').toLowerCase();
  if (!/^[a-z0-9_]{1,25}$/.test(login)) throw new Error(`"${channel}" is not a Twitch channel login`);
  return login;
}

/** The delay before reconnect attempt `attempt` (0-based): capped exponential, jittered to 50–100%. */
export function backoffDelay(attempt: number, random: () => number, initialMs = DEFAULTS.initialMs, maxMs = DEFAULTS.maxMs): number {
  const capped = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(capped * (0.5 + random() / 2));
}

/** The last `size` ids, as a set with first-in-first-out eviction. */
class RecentIds {
  private readonly ids = new Set<string>();
  private readonly order: string[];
  private next = 0;

  constructor(private readonly size: number) {
    this.order = new Array<string>(size);
  }

  /** True when the id is new (and remembers it). */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    const evicted = this.order[this.next];
    if (evicted !== undefined) this.ids.delete(evicted);
    this.order[this.next] = id;
    this.next = (this.next + 1) % this.size;
    this.ids.add(id);
    return true;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

interface Connection {
  url: string;
  channel: string;
  nick: string;
  signal: AbortSignal;
  idleMs: number;
  pongTimeoutMs: number;
  /** Every line of the connection that is no PING, RECONNECT or join confirmation. */
  onLine: (line: IrcLine) => void;
  onJoined: () => void;
}

type ConnectionEnd = ChatDisconnectReason | 'aborted';

/** One WebSocket from open to close: logs in, joins, answers PINGs; resolves with why it ended. */
function runConnection(connection: Connection): Promise<ConnectionEnd> {
  const { url, channel, nick, signal, idleMs, pongTimeoutMs, onLine, onJoined } = connection;
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { handshakeTimeout: pongTimeoutMs });
    let ended = false;
    let lastHeard = Date.now();
    let pingSentAt = 0;
    const end = (reason: ConnectionEnd, close: 'close' | 'terminate' | 'none') => {
      if (ended) return;
      ended = true;
      clearInterval(watchdog);
      signal.removeEventListener('abort', onAbort);
      if (close === 'close') socket.close(1000);
      else if (close === 'terminate') socket.terminate();
      resolve(reason);
    };
    const onAbort = () => end('aborted', 'close');
    signal.addEventListener('abort', onAbort, { once: true });
    // A half-open TCP connection can stay silent forever: ask, and give up when nothing answers.
    const watchdog = setInterval(
      () => {
        const now = Date.now();
        if (pingSentAt > 0 && lastHeard < pingSentAt && now - pingSentAt >= pongTimeoutMs) end('silent', 'terminate');
        else if (pingSentAt === 0 && now - lastHeard >= idleMs && socket.readyState === WebSocket.OPEN) {
          pingSentAt = now;
          socket.send('PING :tmi.twitch.tv');
        }
      },
      Math.max(50, Math.min(idleMs, pongTimeoutMs) / 4),
    );

    socket.on('open', () => {
      socket.send('CAP REQ :twitch.tv/tags twitch.tv/commands');
      socket.send('PASS SCHMOOPIIE');
      socket.send(`NICK ${nick}`);
      socket.send(`JOIN #${channel}`);
    });
    socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      if (ended) return;
      lastHeard = Date.now();
      pingSentAt = 0;
      const frame = isBinary ? '' : data.toString();
      for (const raw of splitIrcLines(frame)) {
        const line = parseIrcLine(raw);
        if (!line) continue;
        if (line.command === 'PING') socket.send(`PONG :${line.params.at(-1) ?? 'tmi.twitch.tv'}`);
        else if (line.command === 'RECONNECT') return end('reconnect', 'close');
        // 366 (end of names) follows our JOIN: the channel is joined and messages flow from here.
        else if (line.command === '366') onJoined();
        else onLine(line);
      }
    });
    socket.on('error', () => end('error', 'terminate'));
    socket.on('close', () => end('closed', 'none'));
  });
}

/**
 * Reads `channel`'s chat until `signal` aborts, handing each PRIVMSG to onMessage once. Resolves
 * with what it saw; never rejects for network trouble (it reconnects), only for a bad channel name.
 * onMessage runs inside the socket's event handler: it must not throw, and should not block.
 */
export async function watchChat(options: ChatReaderOptions & { onMessage: (message: ChatMessage) => void }): Promise<ChatReaderStats> {
  const channel = chatChannel(options.channel);
  const random = options.random ?? Math.random;
  const initialMs = options.backoff?.initialMs ?? DEFAULTS.initialMs;
  const maxMs = options.backoff?.maxMs ?? DEFAULTS.maxMs;
  const seen = new RecentIds(options.rememberIds ?? DEFAULTS.rememberIds);
  const stats: ChatReaderStats = { messages: 0, duplicates: 0, connections: 0 };
  const { signal, onMessage, onEvent } = options;
  let attempt = 0;
  while (!signal.aborted) {
    stats.connections += 1;
    let joined = false;
    const connection = stats.connections;
    const reason = await runConnection({
      url: options.url ?? DEFAULT_TWITCH_CHAT_URL,
      channel,
      nick: `justinfan${options.random ? Math.floor(random() * 90_000) + 10_000 : randomInt(10_000, 100_000)}`,
      signal,
      idleMs: options.idleMs ?? DEFAULTS.idleMs,
      pongTimeoutMs: options.pongTimeoutMs ?? DEFAULTS.pongTimeoutMs,
      onJoined: () => {
        joined = true;
        onEvent?.({ type: 'joined', channel, connection });
      },
      onLine: (line) => {
        const message = chatMessageFrom(line);
        if (message) {
          if (!seen.add(message.messageId)) stats.duplicates += 1;
          else {
            stats.messages += 1;
            onMessage(message);
          }
        } else if (line.command === 'NOTICE') onEvent?.({ type: 'notice', msgId: line.tags['msg-id'] ?? '', text: line.params.at(-1) ?? '' });
      },
    });
    if (reason === 'aborted' || signal.aborted) break;
    // A connection that got as far as joining resets the backoff: the next drop starts over.
    if (joined) attempt = 0;
    const delayMs = reason === 'reconnect' ? 0 : backoffDelay(attempt, random, initialMs, maxMs);
    if (reason !== 'reconnect') attempt += 1;
    onEvent?.({ type: 'reconnecting', reason, delayMs, attempt });
    await sleep(delayMs, signal);
  }
  return stats;
}

/** watchChat as an async iterator; ends when `signal` aborts or the consumer stops iterating. */
export async function* readChat(options: ChatReaderOptions): AsyncGenerator<ChatMessage, ChatReaderStats> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  if (options.signal.aborted) stop.abort();
  const queue: ChatMessage[] = [];
  let wake: (() => void) | null = null;
  const wakeUp = () => {
    wake?.();
    wake = null;
  };
  let finished = false;
  const running = watchChat({
    ...options,
    signal: stop.signal,
    onMessage: (message) => {
      queue.push(message);
      wakeUp();
    },
  }).finally(() => {
    finished = true;
    wakeUp();
  });
  try {
    for (;;) {
      if (queue.length > 0) {
        for (const message of queue.splice(0)) yield message;
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    options.signal.removeEventListener('abort', onAbort);
    stop.abort();
  }
  return running;
}
