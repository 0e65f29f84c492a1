// The far side of `npm run bench:chat`, in its own process so that the process measured only reads:
// the fake Twitch chat (tests/fakes/twitch/chat.ts) playing a busy channel's scripted chat over a
// real WebSocket whenever the parent asks (IPC: 'play' → 'played').
import { chatScript, HYPE_LINES } from '../../tests/fakes/twitch/chat-scripts.ts';
import { startFakeTwitchChat } from '../../tests/fakes/twitch/chat.ts';

const seconds = Number(process.env.BENCH_CHAT_SECONDS ?? 600);
const rate = Number(process.env.BENCH_CHAT_RATE ?? 300);
const linesPerFrame = Number(process.env.BENCH_CHAT_LINES_PER_FRAME ?? 1);

const hype = (atSeconds: number) => ({ atSeconds, seconds: 10, rate: rate * 4, chatters: 4000, lines: HYPE_LINES });
const script = chatScript({ seed: 48, seconds, baselineRate: rate, regulars: 20_000, bursts: [hype(seconds * 0.4), hype(seconds * 0.8)] });
const fake = await startFakeTwitchChat({ channel: 'bench_channel', linesPerFrame });

process.on('message', (message: { type: string }) => {
  if (message.type === 'play') {
    fake.load(script);
    void fake.playAll().then((played) => process.send?.({ type: 'played', ...played }));
  } else if (message.type === 'stop') {
    void fake.close().then(() => process.exit(0));
  }
});
process.send?.({ type: 'ready', url: fake.url, streamStartedAt: fake.streamStartedAt, messages: script.length, seconds, rate, linesPerFrame });
