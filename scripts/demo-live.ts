// `npm run demo`'s live stream: pokimane is live on the fake Twitch with a scripted chat played in
// real time (calm chat, a burst every couple of minutes), so the chat watcher finds moments and
// they become clips in the Review inbox.
import { chatScript, HYPE_LINES, startFakeTwitchChat, type FakeTwitch, type FakeTwitchChat } from '../tests/fakes/twitch/index.ts';

export const DEMO_LIVE_LOGIN = 'pokimane';
/** The stream started a few minutes before the demo, so its chat has a usual level to compare with. */
const STARTED_BEFORE_MS = 5 * 60_000;
/** Seconds between bursts, and how long the script runs (the demo plays it in real time). */
const BURST_EVERY_S = 150;
const SCRIPT_S = 4 * 3600;

/** Starts the fake chat and the stream, and plays the chat as the clock goes; returns the chat (its url is TWITCH_CHAT_URL). */
export async function startDemoLiveStream(twitch: FakeTwitch): Promise<FakeTwitchChat> {
  const startedAt = Date.now() - STARTED_BEFORE_MS;
  const chat = await startFakeTwitchChat({ channel: DEMO_LIVE_LOGIN, streamStartedAt: startedAt, linesPerFrame: 4 });
  twitch.setLive(DEMO_LIVE_LOGIN, true, { startedAt: new Date(startedAt), title: 'Just chatting with chat' });
  // The first burst comes once the reader has joined and seen a minute of chat (the live check runs each minute).
  const firstBurst = Math.round(STARTED_BEFORE_MS / 1000) + 150;
  const bursts = Array.from({ length: Math.floor((SCRIPT_S - firstBurst) / BURST_EVERY_S) }, (_, index) => ({
    atSeconds: firstBurst + index * BURST_EVERY_S,
    seconds: 12,
    rate: 18,
    chatters: 70,
    lines: HYPE_LINES,
  }));
  chat.load(chatScript({ seed: 2026, seconds: SCRIPT_S, baselineRate: 1.2, regulars: 40, bursts }));
  const timer = setInterval(() => void chat.playUntil(Date.now() - startedAt), 1_000);
  timer.unref();
  return chat;
}
