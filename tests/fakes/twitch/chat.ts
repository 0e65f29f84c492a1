import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/*
 * A local Twitch chat: IRC over a WebSocket as irc-ws.chat.twitch.tv speaks it to anonymous readers.
 * It answers CAP REQ with ACK, accepts PASS and NICK justinfan<digits> with the 001–376 welcome,
 * JOIN with the JOIN echo, NAMES (353/366) and ROOMSTATE, answers the client's PING, and sends
 * tagged PRIVMSGs exactly as Twitch does (badges, display-name, emotes ranges, id, tmi-sent-ts,
 * user-id…). Tests drive it: PING (and wait for the PONG), RECONNECT, a dropped connection.
 *
 * Its clock is the script's: a loaded script plays up to an offset when the test says so, as fast
 * as the socket takes it, and each message's tmi-sent-ts is streamStartedAt + its offset. What is
 * played while no reader has joined is lost, as on Twitch (it keeps no history).
 */

/** One scripted chat message. */
export interface ScriptedMessage {
  /** Milliseconds after the stream started. */
  at: number;
  userId: string;
  login: string;
  text: string;
  /** Twitch emotes in the text, by name; their ranges are computed from the text. */
  emotes?: { id: string; name: string }[];
  /** The IRC message id; generated when absent. */
  id?: string;
}

export interface FakeTwitchChatOptions {
  channel: string;
  /** Epoch ms; default 2026-11-28T12:00:00Z. */
  streamStartedAt?: number;
  /** Twitch's room-id tag. */
  roomId?: string;
  /** How many PRIVMSG lines one WebSocket frame carries (Twitch packs several when chat is busy). */
  linesPerFrame?: number;
}

export interface FakeTwitchChat {
  url: string;
  channel: string;
  streamStartedAt: number;
  /** Every line each connection sent, in order (one array per connection, the first connection first). */
  readonly connections: string[][];
  /** Protocol mistakes of the client (a JOIN before NICK, a NICK that is no justinfan…). */
  readonly protocolErrors: string[];
  /** Joins completed so far, across connections. */
  joins(): number;
  /** Readers joined right now. */
  joinedNow(): number;
  /** Loads the script (sorted by `at`) and sets the play head to its start. */
  load(script: readonly ScriptedMessage[]): void;
  /** Plays the loaded script up to `offsetMs` (inclusive); resolves when written to the sockets. */
  playUntil(offsetMs: number): Promise<{ sent: number; lost: number }>;
  /** Plays the rest of the script. */
  playAll(): Promise<{ sent: number; lost: number }>;
  /** The ids of messages played while no reader had joined. */
  readonly lostIds: string[];
  /** On the next join, the last `count` messages already sent go out again (overlapping delivery). */
  replayOnNextJoin(count: number): void;
  /** Sends PING and resolves when every joined reader has answered with the matching PONG. */
  ping(): Promise<void>;
  /** Sends RECONNECT to every reader (Twitch does before a restart); the fake then closes them after `graceMs`. */
  sendReconnect(graceMs?: number): void;
  /** Cuts every connection at once, without a close frame. */
  drop(): void;
  /** From now on the current connections hear nothing and get no PONG: a half-open socket. */
  goSilent(): void;
  close(): Promise<void>;
}

const DEFAULT_STREAM_START = Date.UTC(2026, 10, 28, 12, 0, 0);
const HOST = 'tmi.twitch.tv';

/** The IRCv3 escaping of a tag value. */
function escapeTag(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\:').replace(/ /g, '\\s').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/** `id:start-end,start-end/id:…` with code-point indices of each whole-word occurrence. */
function emoteTag(text: string, emotes: ScriptedMessage['emotes']): string {
  if (!emotes || emotes.length === 0) return '';
  const words: { word: string; start: number }[] = [];
  let position = 0;
  for (const word of text.split(' ')) {
    words.push({ word, start: position });
    position += Array.from(word).length + 1;
  }
  return emotes
    .map((emote) => {
      const ranges = words.filter((entry) => entry.word === emote.name).map((entry) => `${entry.start}-${entry.start + Array.from(emote.name).length - 1}`);
      return ranges.length > 0 ? `${emote.id}:${ranges.join(',')}` : null;
    })
    .filter(Boolean)
    .join('/');
}

/** A PRIVMSG line as Twitch sends it with the tags capability. */
export function privmsgLine(channel: string, roomId: string, message: ScriptedMessage & { id: string }, sentAt: number): string {
  const tags = [
    'badge-info=',
    'badges=',
    `client-nonce=${message.id.replace(/-/g, '').slice(0, 32)}`,
    'color=#1E90FF',
    `display-name=${escapeTag(message.login)}`,
    `emotes=${emoteTag(message.text, message.emotes)}`,
    'first-msg=0',
    'flags=',
    `id=${message.id}`,
    'mod=0',
    'returning-chatter=0',
    `room-id=${roomId}`,
    'subscriber=0',
    `tmi-sent-ts=${sentAt}`,
    'turbo=0',
    `user-id=${message.userId}`,
    'user-type=',
  ].join(';');
  return `@${tags} :${message.login}!${message.login}@${message.login}.${HOST} PRIVMSG #${channel} :${message.text}`;
}

interface Client {
  socket: WebSocket;
  lines: string[];
  nick: string | null;
  joined: boolean;
  silent: boolean;
}

export async function startFakeTwitchChat(options: FakeTwitchChatOptions): Promise<FakeTwitchChat> {
  const channel = options.channel.toLowerCase();
  const streamStartedAt = options.streamStartedAt ?? DEFAULT_STREAM_START;
  const roomId = options.roomId ?? '141981764';
  const linesPerFrame = Math.max(1, options.linesPerFrame ?? 1);
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const clients = new Set<Client>();
  const connections: string[][] = [];
  const protocolErrors: string[] = [];
  const lostIds: string[] = [];
  const sentLines: string[] = [];
  let joins = 0;
  let replayCount = 0;
  let script: (ScriptedMessage & { id: string })[] = [];
  let head = 0;
  let pongWaiters: { token: string; pending: Set<Client>; resolve: () => void }[] = [];

  const send = (client: Client, lines: string[]) => {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(lines.map((line) => `${line}\r\n`).join(''));
  };

  function handle(client: Client, raw: string): void {
    client.lines.push(raw);
    const [command = '', ...rest] = raw.split(' ');
    const argument = rest.join(' ');
    switch (command.toUpperCase()) {
      case 'CAP':
        send(client, [`:${HOST} CAP * ACK :${argument.replace(/^REQ :/, '')}`]);
        break;
      case 'PASS':
        break;
      case 'NICK':
        if (!/^justinfan\d+$/.test(argument)) {
          protocolErrors.push(`NICK ${argument} is no anonymous login`);
          send(client, [`:${HOST} NOTICE * :Login authentication failed`]);
          client.socket.close();
          return;
        }
        client.nick = argument;
        send(client, [
          `:${HOST} 001 ${argument} :Welcome, GLHF!`,
          `:${HOST} 002 ${argument} :Your host is ${HOST}`,
          `:${HOST} 003 ${argument} :This server is rather new`,
          `:${HOST} 004 ${argument} :-`,
          `:${HOST} 375 ${argument} :-`,
          `:${HOST} 372 ${argument} :You are in a maze of twisty passages, all alike.`,
          `:${HOST} 376 ${argument} :>`,
        ]);
        break;
      case 'JOIN': {
        const nick = client.nick;
        if (!nick) {
          protocolErrors.push('JOIN before NICK');
          return;
        }
        if (argument.toLowerCase() !== `#${channel}`) {
          protocolErrors.push(`JOIN ${argument} (the fake serves #${channel})`);
          return;
        }
        send(client, [
          `:${nick}!${nick}@${nick}.${HOST} JOIN #${channel}`,
          `:${nick}.${HOST} 353 ${nick} = #${channel} :${nick}`,
          `:${nick}.${HOST} 366 ${nick} #${channel} :End of /NAMES list`,
          `@emote-only=0;followers-only=-1;r9k=0;room-id=${roomId};slow=0;subs-only=0 :${HOST} ROOMSTATE #${channel}`,
        ]);
        client.joined = true;
        joins += 1;
        if (replayCount > 0) {
          send(client, sentLines.slice(-replayCount));
          replayCount = 0;
        }
        break;
      }
      case 'PING':
        if (!client.silent) send(client, [`:${HOST} PONG ${HOST} ${argument}`]);
        break;
      case 'PONG': {
        const token = argument.replace(/^:/, '');
        for (const waiter of pongWaiters) if (waiter.token === token) waiter.pending.delete(client);
        settlePongs();
        break;
      }
      default:
        protocolErrors.push(`unexpected ${command}`);
    }
  }

  function settlePongs(): void {
    pongWaiters = pongWaiters.filter((waiter) => {
      if (waiter.pending.size > 0) return true;
      waiter.resolve();
      return false;
    });
  }

  server.on('connection', (socket) => {
    const client: Client = { socket, lines: [], nick: null, joined: false, silent: false };
    connections.push(client.lines);
    clients.add(client);
    socket.on('message', (data) => {
      for (const line of data.toString().split('\r\n')) if (line) handle(client, line);
    });
    socket.on('close', () => {
      clients.delete(client);
      for (const waiter of pongWaiters) waiter.pending.delete(client);
      settlePongs();
    });
  });

  const joined = () => [...clients].filter((client) => client.joined);

  /** Writes frames and resolves once the sockets took them (send callbacks), so a play has left the fake. */
  async function deliver(lines: string[]): Promise<void> {
    const readers = joined();
    const writes: Promise<void>[] = [];
    for (let start = 0; start < lines.length; start += linesPerFrame) {
      const frame = lines
        .slice(start, start + linesPerFrame)
        .map((line) => `${line}\r\n`)
        .join('');
      for (const reader of readers) {
        if (reader.socket.readyState !== reader.socket.OPEN) continue;
        writes.push(new Promise((resolve) => reader.socket.send(frame, () => resolve())));
      }
      // Let the socket drain now and then instead of queueing a whole script in memory.
      if (writes.length >= 2048) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
  }

  async function playUntil(offsetMs: number): Promise<{ sent: number; lost: number }> {
    const lines: string[] = [];
    let lost = 0;
    const anyoneJoined = joined().length > 0;
    while (head < script.length && script[head]!.at <= offsetMs) {
      const message = script[head]!;
      head += 1;
      if (!anyoneJoined) {
        lostIds.push(message.id);
        lost += 1;
        continue;
      }
      const line = privmsgLine(channel, roomId, message, streamStartedAt + message.at);
      lines.push(line);
      sentLines.push(line);
    }
    if (sentLines.length > 10_000) sentLines.splice(0, sentLines.length - 1_000);
    await deliver(lines);
    return { sent: lines.length, lost };
  }

  return {
    url,
    channel,
    streamStartedAt,
    connections,
    protocolErrors,
    lostIds,
    joins: () => joins,
    joinedNow: () => joined().length,
    load(messages) {
      script = [...messages].sort((a, b) => a.at - b.at).map((message) => ({ ...message, id: message.id ?? randomUUID() }));
      head = 0;
    },
    playUntil,
    playAll: () => playUntil(Infinity),
    replayOnNextJoin(count) {
      replayCount = count;
    },
    ping() {
      const readers = joined();
      const token = `${HOST}-${randomUUID().slice(0, 8)}`;
      const answered = new Promise<void>((resolve) => pongWaiters.push({ token, pending: new Set(readers), resolve }));
      for (const reader of readers) send(reader, [`PING :${token}`]);
      settlePongs();
      return answered;
    },
    sendReconnect(graceMs = 30_000) {
      for (const reader of joined()) {
        send(reader, [`:${HOST} RECONNECT`]);
        reader.joined = false;
        setTimeout(() => reader.socket.terminate(), graceMs).unref();
      }
    },
    drop() {
      for (const client of clients) {
        client.joined = false;
        client.socket.terminate();
      }
    },
    goSilent() {
      for (const client of clients) {
        client.silent = true;
        client.joined = false;
      }
    },
    async close() {
      for (const client of clients) client.socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
