// `npm run bench:chat`: how many chat messages a second one worker handles through the Twitch chat
// reader with moment scoring on, beside the same WebSocket delivering its lines into a no-op
// consumer. A child process (bench/lib/chat-feeder.ts) runs the fake Twitch chat and plays a busy
// channel's script (300 messages/s of stream time with two bursts) as fast as the socket takes it;
// this process reads it. Writes docs/benchmarks.md ("Chat moments"). BENCH_RUNS sets repetitions
// (default 3); BENCH_CHAT_SECONDS, BENCH_CHAT_RATE and BENCH_CHAT_LINES_PER_FRAME shape the script.
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { createMomentScorer, type DetectedMoment } from '../server/src/engines/moments/scorer.ts';
import { watchChat } from '../server/src/engines/providers/twitch/chat.ts';
import { machineDescription, median, writeSection } from './lib/report.ts';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const GOAL = 5_000;
const CHANNEL = 'bench_channel';

interface Ready {
  type: 'ready';
  url: string;
  streamStartedAt: number;
  messages: number;
  seconds: number;
  rate: number;
  linesPerFrame: number;
}

type PathName = 'bare' | 'reader' | 'scored';
const LABELS: Record<PathName, string> = {
  bare: '(a) bare: the WebSocket, frames split into lines, no-op consumer',
  reader: '(b) chat reader: lines parsed into messages, deduplicated, no-op consumer',
  scored: '(c) chat reader + moment scorer (the worker\'s path)',
};

interface Round {
  wall: number;
  cpu: number;
  messages: number;
  moments: DetectedMoment[];
}

function startFeeder(): Promise<{ feeder: ChildProcess; ready: Ready }> {
  const feeder = fork(path.resolve(import.meta.dirname, 'lib/chat-feeder.ts'), { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    feeder.once('error', reject);
    feeder.on('message', (message: { type: string }) => {
      if (message.type === 'ready') resolve({ feeder, ready: message as Ready });
    });
  });
}

/** Counts the first to the last message: the feeder's setup and the reader's handshake stay outside. */
class Clock {
  private started = 0n;
  private cpuStart: NodeJS.CpuUsage = { user: 0, system: 0 };
  wall = 0;
  cpu = 0;

  first(): void {
    this.started = process.hrtime.bigint();
    this.cpuStart = process.cpuUsage();
  }

  last(): void {
    this.wall = Number(process.hrtime.bigint() - this.started) / 1e9;
    const cpu = process.cpuUsage(this.cpuStart);
    this.cpu = (cpu.user + cpu.system) / 1e6;
  }
}

/** The baseline: a raw WebSocket that logs in and joins like the reader, then only splits and counts lines. */
function bareReader(url: string, total: number, onJoined: () => void, clock: Clock): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    let count = 0;
    socket.on('open', () => {
      for (const line of ['CAP REQ :twitch.tv/tags twitch.tv/commands', 'PASS SCHMOOPIIE', 'NICK justinfan12345', `JOIN #${CHANNEL}`]) socket.send(line);
    });
    socket.on('message', (data) => {
      for (const line of data.toString().split('\r\n')) {
        if (line.startsWith('@') && line.includes(' PRIVMSG ')) {
          count += 1;
          if (count === 1) clock.first();
          if (count === total) {
            clock.last();
            socket.close();
            resolve(count);
          }
        } else if (line.includes(' 366 ')) onJoined();
      }
    });
  });
}

async function round(name: PathName, feeder: ChildProcess, ready: Ready): Promise<Round> {
  const clock = new Clock();
  let joined!: () => void;
  const joinedNow = new Promise<void>((resolve) => (joined = resolve));
  const moments: DetectedMoment[] = [];
  let reading: Promise<number>;
  if (name === 'bare') {
    reading = bareReader(ready.url, ready.messages, joined, clock);
  } else {
    const scorer = name === 'scored' ? createMomentScorer({ streamStartedAt: ready.streamStartedAt }) : null;
    const stop = new AbortController();
    let count = 0;
    reading = watchChat({
      channel: CHANNEL,
      url: ready.url,
      signal: stop.signal,
      onEvent: (event) => {
        if (event.type === 'joined') joined();
      },
      onMessage: (message) => {
        count += 1;
        if (count === 1) clock.first();
        if (scorer) for (const moment of scorer.push(message)) moments.push(moment);
        if (count === ready.messages) {
          if (scorer) moments.push(...scorer.flush());
          clock.last();
          stop.abort();
        }
      },
    }).then((stats) => stats.messages);
  }
  await joinedNow;
  feeder.send({ type: 'play' });
  const messages = await reading;
  process.stdout.write(`  ${name}: ${messages} messages in ${clock.wall.toFixed(2)} s (${Math.round(messages / clock.wall)} msg/s), ${clock.cpu.toFixed(2)} s CPU\n`);
  return { wall: clock.wall, cpu: clock.cpu, messages, moments };
}

function report(ready: Ready, rounds: Record<PathName, Round[]>, machine: string): string {
  const rate = (r: Round) => (r.messages - 1) / r.wall;
  const perCpu = (r: Round) => r.messages / r.cpu;
  const rows = (Object.keys(LABELS) as PathName[]).map((name) => {
    const list = rounds[name];
    const usPerMessage = median(list.map((r) => (1e6 * r.cpu) / r.messages));
    return `| ${LABELS[name]} | **${Math.round(median(list.map(rate))).toLocaleString('en')}** | ${usPerMessage.toFixed(1)} µs | ${Math.round(median(list.map(perCpu))).toLocaleString('en')} | ${list.map((r) => Math.round(rate(r)).toLocaleString('en')).join(', ')} |`;
  });
  const wallRate = (name: PathName) => median(rounds[name].map(rate));
  const cpuPerMessage = (name: PathName) => median(rounds[name].map((r) => r.cpu / r.messages));
  const [bare, reader, scored] = [wallRate('bare'), wallRate('reader'), wallRate('scored')];
  const [bareCpu, readerCpu, scoredCpu] = [cpuPerMessage('bare'), cpuPerMessage('reader'), cpuPerMessage('scored')];
  const moments = rounds.scored[0]!.moments;
  return [
    `Script: ${ready.messages.toLocaleString('en')} chat messages (tests/fakes/twitch/chat-scripts.ts: ${ready.rate} messages/s of stream time for ${ready.seconds} s from 20,000 chatters, ` +
      `two 10 s bursts at 4× that rate), played by the fake Twitch chat (tests/fakes/twitch/chat.ts) in a child process over a real WebSocket on loopback, ` +
      `${ready.linesPerFrame} IRC line${ready.linesPerFrame === 1 ? '' : 's'} per frame, as fast as the socket takes them. ` +
      `This process only reads; rates run from its first message to its last. Median of ${RUNS} interleaved rounds; CPU = user + system seconds of the reading process.`,
    '',
    '| path | messages/s (median) | CPU per message | messages per CPU second | messages/s per round |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `- c (reader + scorer): **${Math.round(scored).toLocaleString('en')} messages/s** on one worker — the goal is ≥ ${GOAL.toLocaleString('en')}: ${scored >= GOAL ? 'met' : 'NOT met'}`,
    `- c/a wall: ${(scored / bare).toFixed(2)}; CPU per message c/a ${(scoredCpu / bareCpu).toFixed(2)}x, b/a ${(readerCpu / bareCpu).toFixed(2)}x (parsing), c/b ${(scoredCpu / readerCpu).toFixed(2)}x (scoring)`,
    `- bare wall rate vs reader: ${Math.round(bare).toLocaleString('en')} vs ${Math.round(reader).toLocaleString('en')} messages/s; where they are close, the feeder, not the reader, sets the pace`,
    `- moments found in the script: ${moments.map((m) => `${m.streamOffsetSeconds} s (score ${m.score})`).join(', ') || 'none'}`,
    '',
    'Machine:',
    machine,
    '',
    'Re-run: `npm run bench:chat` (BENCH_RUNS=5 for more rounds; BENCH_CHAT_LINES_PER_FRAME=10 packs lines as Twitch does when chat is busy).',
  ].join('\n');
}

async function main(): Promise<void> {
  const { feeder, ready } = await startFeeder();
  console.log(`Fake Twitch chat at ${ready.url}: ${ready.messages} messages a round, ${RUNS} rounds.`);
  const rounds: Record<PathName, Round[]> = { bare: [], reader: [], scored: [] };
  for (let run = 0; run < RUNS; run += 1) {
    for (const name of ['bare', 'reader', 'scored'] as const) rounds[name].push(await round(name, feeder, ready));
  }
  feeder.send({ type: 'stop' });
  // Wall rates move with whatever else the machine runs; CPU per message barely does. Say how busy it was.
  const load = `Load average (1, 5, 15 min) at the end: ${os.loadavg().map((value) => value.toFixed(1)).join(', ')}`;
  const text = report(ready, rounds, await machineDescription([load]));
  console.log(`\n${text}\n`);
  await writeSection('Chat moments', text);
}

await main();
