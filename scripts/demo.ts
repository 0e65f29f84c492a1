// `npm run demo`: the whole product offline. Starts fake Twitch, TikTok, YouTube, Instagram, Facebook and speech-to-text servers
// (tests/fakes), points the app at them, starts the app, and seeds a demo account with streamers
// through the public REST API (scripts/demo-seed.ts; starting again on the same data folder seeds
// nothing twice).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeFacebook, type FakeFacebook } from '../tests/fakes/facebook/index.ts';
import { startFakeInstagram, type FakeInstagram } from '../tests/fakes/instagram/index.ts';
import { startFakeOpenAi } from '../tests/fakes/openai/index.ts';
import { startFakeTikTok, type FakeTikTok } from '../tests/fakes/tiktok/index.ts';
import { startFakeYouTube, type FakeYouTube } from '../tests/fakes/youtube/index.ts';
import { startFakeTwitch } from '../tests/fakes/twitch/index.ts';
import { ensureClientBuilt } from './client-build.mjs';
import { startDemoLiveStream } from './demo-live.ts';
import { DEMO_HOOK_PATH, DEMO_MEDIA, DEMO_USER, seedDemoAccount, seedFakes } from './demo-seed.ts';

const PORT = Number(process.env.PORT ?? 3000);
const BASE = `http://127.0.0.1:${PORT}`;

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

/**
 * What an audience would do: YouTube finishes processing each new upload within seconds, and every
 * post on either platform gains views, likes, comments and shares over time, so the statistics
 * (read every minute for a new post, then hourly) and the ranking have something to show.
 */
function simulateAudience(tiktokFake: FakeTikTok, youtubeFake: FakeYouTube, instagramFake: FakeInstagram, facebookFake: FakeFacebook): void {
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
    for (const post of instagramFake.publishedPosts()) {
      instagramFake.setCounts(post.mediaId, { views: grow(post.views, 700), likes: grow(post.likes, 70), comments: grow(post.comments, 7), shares: grow(post.shares, 4) });
    }
    for (const reel of facebookFake.publishedReels()) {
      facebookFake.setCounts(reel.videoId, { views: grow(reel.views, 500), likes: grow(reel.likes, 50), comments: grow(reel.comments, 5), shares: grow(reel.shares, 3) });
    }
  }, 15_000).unref();
}

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
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${DEMO_HOOK_PATH}` })));
}

const twitch = await startFakeTwitch({ media: DEMO_MEDIA });
// A fake TikTok and a fake Google whose consent pages sign in at once as Demo Creator, and a fake
// speech-to-text server, so connecting, posting and subtitles all work offline too.
const tiktok = await startFakeTikTok();
tiktok.setPollsUntilDone(1);
const youtube = await startFakeYouTube();
// Instagram fetches each Reel's video from the app (a signed media link), and finishes processing at once.
const instagram = await startFakeInstagram({ pollsToFinish: 0 });
const facebook = await startFakeFacebook();
facebook.setPollsToProcess(0);
await seedFakes({ twitch, tiktok, youtube, instagram, facebook });
const chat = await startDemoLiveStream(twitch);
simulateAudience(tiktok, youtube, instagram, facebook);
const speech = await startFakeOpenAi({ scenario: 'speech' });
const receiver = await startWebhookReceiver();
Object.assign(process.env, twitch.env, tiktok.env, youtube.env, instagram.env, facebook.env, {
  TWITCH_CHAT_URL: chat.url,
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
if (!(await seedDemoAccount(BASE, receiver.url))) console.log('Demo account exists with another password; skipping seeding.');
console.log(
  `\nClipshift demo is running at http://localhost:${PORT}\nSign in as ${DEMO_USER.username} / ${DEMO_USER.password}.\n` +
    `Fakes: Twitch ${twitch.url} · TikTok ${tiktok.url} · YouTube ${youtube.url} · Instagram ${instagram.url} · Facebook ${facebook.url} · speech-to-text ${speech.url} · webhook receiver ${receiver.url}\n` +
    'Clips are laid out by the camera found in them (layout auto): shroud’s is bottom-left, pokimane’s top-right, xQc has none (blurred background).\n' +
    'pokimane is in review mode (Review inbox), Demo Creator has posting slots every 4 minutes (Queue), and every event goes to the webhook receiver above.\n' +
    `pokimane is live with a scripted chat (${chat.url}); the demo account's Twitch is pokimane's own, so the chat's bursts (one every 2½ minutes) become Moments and their clips wait in the Review inbox.\n` +
    'shroud is linked to Demo Creator on TikTok, YouTube, Instagram and its Facebook Page: download its clips, open one and post it to all four at once; statistics appear within a minute of publishing (Settings › Connected accounts › Statistics).\n',
);
