// `npm run demo`: the whole product offline. Starts fake Twitch, TikTok, YouTube and speech-to-text servers
// (tests/fakes), points the app at them, starts the app, and seeds a demo account with streamers
// through the public REST API.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeOpenAi } from '../tests/fakes/openai/index.ts';
import { startFakeTikTok, type FakeTikTok } from '../tests/fakes/tiktok/index.ts';
import { startFakeYouTube, type FakeYouTube } from '../tests/fakes/youtube/index.ts';
import { cameraRegion, startFakeTwitch, type FakeTwitch } from '../tests/fakes/twitch/index.ts';
import { ensureClientBuilt } from './client-build.mjs';

const DEMO_USER = { username: 'demo', password: 'demo-password' };
/** Every fake clip shows a streamer's camera in its bottom-left corner, so the split layout has a face to show. */
const MEDIA = { width: 1280, height: 720, fps: 30, seconds: 6, camera: true };
const PORT = Number(process.env.PORT ?? 3000);
const BASE = `http://127.0.0.1:${PORT}`;

const CATALOGUE = [
  { login: 'shroud', display: 'shroud', game: 'VALORANT', titles: ['insane 1v5 clutch', 'the flick of the year', 'no scope across the map', 'he did NOT see that coming', 'calm under pressure', 'perfect spray transfer'] },
  { login: 'pokimane', display: 'pokimane', game: 'Just Chatting', titles: ['chat made me laugh so hard', 'the cat walked in', 'reacting to my old clips', 'best moment of the stream', 'she could not stop laughing', 'surprise guest appears'] },
  { login: 'xqc', display: 'xQc', game: 'Grand Theft Auto V', titles: ['speedrun gone wrong', 'the loudest reaction ever', 'chat is this real', 'juicers assemble', 'GTA police chase madness', 'he actually did it'] },
];

function seedTwitch(fake: FakeTwitch): void {
  CATALOGUE.forEach((entry, streamerIndex) => {
    fake.addBroadcaster({ login: entry.login, display_name: entry.display, broadcaster_type: 'partner' });
    const game = fake.addGame({ name: entry.game });
    entry.titles.forEach((title, index) => {
      fake.addClip({
        broadcaster: entry.login,
        title,
        view_count: 50_000 - index * 6_100 - streamerIndex * 900,
        created_at: new Date(Date.now() - (index + 1) * 9 * 3_600_000),
        game_id: game.id,
        language: 'en',
        duration: 6,
      });
    });
  });
}

async function waitForHealth(): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('The app did not become healthy in 2 minutes');
}

async function api(path: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
  return fetch(`${BASE}/api${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.cookie ? { cookie: init.cookie } : {}) },
  });
}

async function seedAccount(): Promise<void> {
  await api('/register', { method: 'POST', body: JSON.stringify(DEMO_USER) });
  const login = await api('/login', { method: 'POST', body: JSON.stringify(DEMO_USER) });
  if (!login.ok) {
    console.log('Demo account exists with another password; skipping seeding.');
    return;
  }
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const streamers = [
    // Facecam over gameplay, captions in the bold preset, a glossary for speech recognition.
    {
      name: 'shroud',
      clip_limit: 3,
      vertical: true,
      auto_subtitle: true,
      layout: 'split',
      facecam: cameraRegion(MEDIA),
      gameplay: { x: 0.2, y: 0, w: 0.8, h: 1 },
      caption_style: { preset: 'bold' },
      glossary: ['shroud', 'VALORANT', 'Jett'],
    },
    // New clips wait in the Review inbox; approved ones take the TikTok account's next posting slot.
    { name: 'pokimane', clip_limit: 3, vertical: true, layout: 'crop', auto_publish: true, publish_mode: 'review' },
    { name: 'xqc', clip_limit: 2, vertical: false, schedule: { interval: 6, unit: 'hours' } },
  ];
  for (const streamer of streamers) await api('/streamers', { method: 'POST', body: JSON.stringify(streamer), cookie });
  const accountId = await connectAccount(cookie, '/tiktok/auth-url', 'tiktok');
  const channelId = await connectAccount(cookie, '/youtube/auth-url', 'youtube');
  // shroud's clips go to both: post one from its details to TikTok and YouTube at once.
  for (const id of [accountId, channelId]) {
    if (id) await api('/streamers/shroud/link-tiktok', { method: 'POST', body: JSON.stringify({ tiktok_account_id: id }), cookie });
  }
  if (accountId) {
    await api('/streamers/pokimane/link-tiktok', { method: 'POST', body: JSON.stringify({ tiktok_account_id: accountId }), cookie });
    await api(`/accounts/${accountId}/schedule`, { method: 'PUT', body: JSON.stringify(demoSlots()), cookie });
  }
  await api('/webhooks', { method: 'POST', body: JSON.stringify({ url: receiver.url, kind: 'json', events: [...WEBHOOK_EVENTS] }), cookie });
}

/** The OAuth round trip a click on "Connect TikTok" or "Connect YouTube" makes, against the fakes: the account's id. */
async function connectAccount(cookie: string, authUrlPath: string, platform: 'tiktok' | 'youtube'): Promise<string | null> {
  const { auth_url: authUrl } = (await (await api(authUrlPath, { cookie })).json()) as { auth_url: string };
  const consent = await fetch(authUrl, { redirect: 'manual' });
  const callback = consent.headers.get('location');
  if (!callback) return null;
  await fetch(callback, { redirect: 'manual', headers: { cookie } });
  const accounts = (await (await api('/accounts', { cookie })).json()) as { id: string; platform: string }[];
  return accounts.find((account) => account.platform === platform)?.id ?? null;
}

/**
 * What an audience would do: YouTube finishes processing each new upload within seconds, and every
 * post on either platform gains views, likes, comments and shares over time, so the statistics
 * (read every minute for a new post, then hourly) and the ranking have something to show.
 */
function simulateAudience(tiktokFake: FakeTikTok, youtubeFake: FakeYouTube): void {
  const grow = (value: number, rate: number) => value + Math.round(Math.random() * rate);
  setInterval(() => {
    for (const video of youtubeFake.videos.values()) {
      if (video.processingStatus === 'processing') youtubeFake.finishProcessing(video.id);
      const stats = video.statistics;
      youtubeFake.setStatistics(video.id, { views: grow(stats.viewCount, 400), likes: grow(stats.likeCount, 40), comments: grow(stats.commentCount, 6) });
    }
    for (const [postId, video] of tiktokFake.videos) {
      if (!video.deleted) tiktokFake.setVideoStats(postId, { views: grow(video.views, 900), likes: grow(video.likes, 90), comments: grow(video.comments, 9), shares: grow(video.shares, 5) });
    }
  }, 15_000).unref();
}

/** Posting slots every few minutes from now on, every day, so approved clips visibly wait for theirs. */
function demoSlots() {
  const now = new Date();
  const slots = Array.from({ length: 8 }, (_, index) => {
    const at = new Date(now.getTime() + (index + 1) * 4 * 60_000);
    const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
    return Array.from({ length: 7 }, (_, day) => ({ day, time }));
  }).flat();
  return { timezone: 'UTC', slots, daily_cap: null, min_gap_minutes: 2 };
}

const WEBHOOK_EVENTS = ['run.completed', 'run.failed', 'clip.review', 'post.published', 'post.failed', 'account.reconnect'] as const;

/** A local webhook receiver that prints what it gets (point your own at it, or replace the URL in Settings). */
function startWebhookReceiver(): Promise<{ url: string }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      console.log(`[webhook receiver] ${request.headers['x-clipshift-event'] ?? 'event'}: ${body.slice(0, 300)}`);
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` })));
}

const fake = await startFakeTwitch({ media: MEDIA });
seedTwitch(fake);
// A fake TikTok whose authorize page signs in as "Demo Creator" at once, and a fake speech-to-text
// server, so connecting, posting and subtitles all work offline too.
const tiktok = await startFakeTikTok();
tiktok.addUser({ displayName: 'Demo Creator', username: 'democreator' });
tiktok.setPollsUntilDone(1);
// A fake Google whose consent page signs in at once as the owner of the "Demo Creator" channel.
const youtube = await startFakeYouTube();
youtube.addUser({ channelTitle: 'Demo Creator', handle: '@democreator' });
simulateAudience(tiktok, youtube);
const speech = await startFakeOpenAi({ scenario: 'speech' });
const receiver = await startWebhookReceiver();
Object.assign(process.env, fake.env, tiktok.env, youtube.env, {
  TRANSCRIBE_ENGINE: process.env.TRANSCRIBE_ENGINE ?? 'openai',
  TRANSCRIBE_API_URL: process.env.TRANSCRIBE_API_URL ?? speech.url,
  WHISPER_MODEL: process.env.WHISPER_MODEL ?? 'whisper-1',
  PORT: String(PORT),
  DATA_DIR: process.env.DATA_DIR ?? './data/demo',
  REGISTRATION_MODE: process.env.REGISTRATION_MODE ?? 'open',
  // The demo's webhook receiver listens on this machine.
  WEBHOOK_ALLOW_PRIVATE: process.env.WEBHOOK_ALLOW_PRIVATE ?? 'true',
});
ensureClientBuilt();
await import('../server/src/app/main.ts');
await waitForHealth();
await seedAccount();
console.log(
  `\nClipshift demo is running at http://localhost:${PORT}\nSign in as ${DEMO_USER.username} / ${DEMO_USER.password}.\n` +
    `Fakes: Twitch ${fake.url} · TikTok ${tiktok.url} · YouTube ${youtube.url} · speech-to-text ${speech.url} · webhook receiver ${receiver.url}\n` +
    'pokimane is in review mode (Review inbox), Demo Creator has posting slots every 4 minutes (Queue), and every event goes to the webhook receiver above.\n' +
    'shroud is linked to Demo Creator on TikTok and on YouTube: download its clips, open one and post it to both at once; statistics appear within a minute of publishing (Settings › Connected accounts › Statistics).\n',
);
