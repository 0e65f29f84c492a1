// What `npm run demo` puts into the fakes and into the app, kept apart from starting them so that a
// test can seed one database twice. Every step can run again on a data folder an earlier demo left:
// the fakes' Demo Creator keeps its ids, so connecting again updates the same accounts (with tokens
// the new fakes know), and the webhook follows the receiver to its new port.
import type { FakeFacebook } from '../tests/fakes/facebook/index.ts';
import type { FakeInstagram } from '../tests/fakes/instagram/index.ts';
import type { FakeTikTok } from '../tests/fakes/tiktok/index.ts';
import type { FakeYouTube } from '../tests/fakes/youtube/index.ts';
import type { ClipMediaSpec, FakeCamera, FakeTwitch } from '../tests/fakes/twitch/index.ts';

export const DEMO_USER = { username: 'demo', password: 'demo-password' };
/** The fake clips' picture; each broadcaster's camera (DEMO_CATALOGUE) is drawn over it. */
export const DEMO_MEDIA: ClipMediaSpec = { width: 1280, height: 720, fps: 30, seconds: 6 };
/** The path the demo's webhook receiver listens on: a webhook to it on this machine is the demo's own. */
export const DEMO_HOOK_PATH = '/hook';

/** Demo Creator's username on TikTok and handle on YouTube (without "@"). */
const DEMO_CREATOR_HANDLE = 'democreator';
/** The creator whose consent pages sign in at once; fixed ids, so that every start connects the same accounts. */
const DEMO_CREATOR = {
  tiktok: { openId: 'demo-creator-open-id', unionId: 'demo-creator-union-id', displayName: 'Demo Creator', username: DEMO_CREATOR_HANDLE },
  youtube: { sub: '100000000000000000001', channelId: 'UCdemoCreator0000000000a', channelTitle: 'Demo Creator', handle: `@${DEMO_CREATOR_HANDLE}` },
  instagram: { userId: '17841400000000001', username: DEMO_CREATOR_HANDLE, name: 'Demo Creator' },
  facebook: { userId: '100000000000001', name: 'Demo Creator', page: { id: '100000000000002', name: 'Demo Creator Clips' } },
} as const;
/** How each platform's Demo Creator account is found among the user's accounts (a Page has no username). */
const isDemoCreator = (account: { username: string | null; display_name: string }) =>
  account.username === DEMO_CREATOR_HANDLE || account.display_name === DEMO_CREATOR.facebook.page.name;

interface DemoBroadcaster {
  login: string;
  display: string;
  game: string;
  titles: readonly string[];
  /** The streamer's camera in every clip (where and how it looks), or null: gameplay only. */
  camera: FakeCamera | null;
}

/**
 * The demo's broadcasters on the fake Twitch: their category, clip titles (the descriptions-quality
 * test reads them too) and camera. The cameras sit in different places and xQc has none, so the
 * `auto` layout shows what detection does: split with each camera where it is, blur without one.
 */
export const DEMO_CATALOGUE: readonly DemoBroadcaster[] = [
  {
    login: 'shroud', display: 'shroud', game: 'VALORANT',
    titles: ['insane 1v5 clutch', 'the flick of the year', 'no scope across the map', 'he did NOT see that coming', 'calm under pressure', 'perfect spray transfer'],
    camera: { anchor: 'bottom-left', width: 0.24, margin: 0.02, border: 6, borderColors: ['#ffffff'], look: 1 },
  },
  {
    login: 'pokimane', display: 'pokimane', game: 'Just Chatting',
    titles: ['chat made me laugh so hard', 'the cat walked in', 'reacting to my old clips', 'best moment of the stream', 'she could not stop laughing', 'surprise guest appears'],
    camera: { anchor: 'top-right', width: 0.22, look: 2 },
  },
  {
    login: 'xqc', display: 'xQc', game: 'Grand Theft Auto V',
    titles: ['speedrun gone wrong', 'the loudest reaction ever', 'chat is this real', 'juicers assemble', 'GTA police chase madness', 'he actually did it'],
    camera: null,
  },
];

/** What every clip of a demo broadcaster shows. */
export function demoMediaOf(broadcaster: Pick<DemoBroadcaster, 'camera'>): ClipMediaSpec {
  return broadcaster.camera ? { ...DEMO_MEDIA, camera: broadcaster.camera } : DEMO_MEDIA;
}

const WEBHOOK_EVENTS = ['run.completed', 'run.failed', 'clip.review', 'post.published', 'post.failed', 'account.reconnect'] as const;

/**
 * Three broadcasters with clips on the fake Twitch, each clip showing its broadcaster's camera (the
 * media is made with ffmpeg once, then reused); Demo Creator on the fake TikTok, YouTube, Instagram
 * and Facebook (a Page).
 */
export async function seedFakes(fakes: { twitch: FakeTwitch; tiktok: FakeTikTok; youtube: FakeYouTube; instagram?: FakeInstagram; facebook?: FakeFacebook }): Promise<void> {
  const media: Promise<void>[] = [];
  // Twitch's consent page signs in as pokimane: the demo account connects her own Twitch account.
  fakes.twitch.setAuthorizingUser({ login: 'pokimane' });
  DEMO_CATALOGUE.forEach((entry, streamerIndex) => {
    fakes.twitch.addBroadcaster({ login: entry.login, display_name: entry.display, broadcaster_type: 'partner' });
    const game = fakes.twitch.addGame({ name: entry.game });
    entry.titles.forEach((title, index) => {
      const clip = fakes.twitch.addClip({
        broadcaster: entry.login,
        title,
        view_count: 50_000 - index * 6_100 - streamerIndex * 900,
        created_at: new Date(Date.now() - (index + 1) * 9 * 3_600_000),
        game_id: game.id,
        language: 'en',
        duration: DEMO_MEDIA.seconds,
      });
      media.push(fakes.twitch.setClipMedia(clip.id, demoMediaOf(entry)));
    });
  });
  await Promise.all(media);
  fakes.tiktok.addUser(DEMO_CREATOR.tiktok);
  fakes.youtube.addUser(DEMO_CREATOR.youtube);
  fakes.instagram?.addUser(DEMO_CREATOR.instagram);
  const { facebook } = DEMO_CREATOR;
  fakes.facebook?.addUser(facebook.name, [facebook.page.name], { userId: facebook.userId, pageIds: [facebook.page.id] });
}

type Api = (path: string, init?: RequestInit & { cookie?: string }) => Promise<Response>;

function apiAt(baseUrl: string): Api {
  return (path, init = {}) =>
    fetch(`${baseUrl}/api${path}`, { ...init, headers: { 'content-type': 'application/json', ...(init.cookie ? { cookie: init.cookie } : {}) } });
}

/**
 * The demo account (registered on the first start, signed in on every start) with its streamers,
 * Demo Creator's TikTok account and YouTube channel linked to them, posting slots and one webhook
 * to `receiverUrl`, all through the public REST API. Returns false when the account exists with
 * another password (nothing is touched then).
 */
export async function seedDemoAccount(baseUrl: string, receiverUrl: string): Promise<boolean> {
  const api = apiAt(baseUrl);
  // Answers 409 once the account exists: signing in below is what counts.
  await api('/register', { method: 'POST', body: JSON.stringify(DEMO_USER) });
  const login = await api('/login', { method: 'POST', body: JSON.stringify(DEMO_USER) });
  if (!login.ok) return false;
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  // Streamers that exist already answer 409 and stay as the user left them.
  for (const streamer of demoStreamers()) await api('/streamers', { method: 'POST', body: JSON.stringify(streamer), cookie });
  const accountId = await connectAccount(api, baseUrl, cookie, 'tiktok');
  const channelId = await connectAccount(api, baseUrl, cookie, 'youtube');
  const instagramId = await connectAccount(api, baseUrl, cookie, 'instagram');
  const pageId = await connectAccount(api, baseUrl, cookie, 'facebook');
  // shroud's clips go to all four: post one from its details to every platform at once. Linking again changes nothing.
  for (const id of [accountId, channelId, instagramId, pageId]) {
    if (id) await api('/streamers/shroud/link-tiktok', { method: 'POST', body: JSON.stringify({ tiktok_account_id: id }), cookie });
  }
  if (accountId) {
    await api('/streamers/pokimane/link-tiktok', { method: 'POST', body: JSON.stringify({ tiktok_account_id: accountId }), cookie });
    await api(`/accounts/${accountId}/schedule`, { method: 'PUT', body: JSON.stringify(demoSlots()), cookie });
  }
  await pointDemoWebhookAt(api, cookie, receiverUrl);
  await watchLive(api, baseUrl, cookie);
  return true;
}

/**
 * pokimane's own Twitch account connected (moments are clipped with it), and her live chat watched:
 * turned on at every start, so an older demo folder shows moments too.
 */
async function watchLive(api: Api, baseUrl: string, cookie: string): Promise<void> {
  const started = await api('/twitch/auth-url', { cookie });
  if (started.ok) {
    const { auth_url: authUrl } = (await started.json()) as { auth_url: string };
    const location = (await fetch(authUrl, { redirect: 'manual' })).headers.get('location');
    if (location) {
      const callback = new URL(location);
      await fetch(`${baseUrl}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie } });
    }
  }
  await api('/streamers/pokimane', { method: 'PUT', body: JSON.stringify({ watch_live: true, moment_threshold: 0.5 }), cookie });
}

/**
 * The demo's streamers, all with the `auto` layout and no drawn rectangle: each clip is split with
 * the camera detection finds in it (shroud's bottom-left, pokimane's top-right), or blurred (xQc).
 */
function demoStreamers() {
  return [
    // Captions in the bold preset, a glossary for speech recognition.
    { name: 'shroud', clip_limit: 3, vertical: true, auto_subtitle: true, layout: 'auto', caption_style: { preset: 'bold' }, glossary: ['shroud', 'VALORANT', 'Jett'] },
    // New clips wait in the Review inbox; approved ones take the TikTok account's next posting slot.
    { name: 'pokimane', clip_limit: 3, vertical: true, layout: 'auto', auto_publish: true, publish_mode: 'review' },
    { name: 'xqc', clip_limit: 2, vertical: true, layout: 'auto', schedule: { interval: 6, unit: 'hours' } },
  ];
}

/**
 * The OAuth round trip a click on "Connect <platform>" makes, against the fakes: Demo Creator's
 * account id (without that platform's fake: null). The same creator again updates the account,
 * with tokens of the fakes now running. The callback is asked on `baseUrl`, wherever PUBLIC_URL
 * points the platform.
 */
async function connectAccount(api: Api, baseUrl: string, cookie: string, platform: 'tiktok' | 'youtube' | 'instagram' | 'facebook'): Promise<string | null> {
  const started = await api(`/accounts/${platform}/auth-url`, { cookie });
  if (!started.ok) return null;
  const { auth_url: authUrl } = (await started.json()) as { auth_url: string };
  const consent = await fetch(authUrl, { redirect: 'manual' });
  const location = consent.headers.get('location');
  if (!location) return null;
  const callback = new URL(location);
  await fetch(`${baseUrl}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie } });
  const accounts = (await (await api('/accounts', { cookie })).json()) as { id: string; platform: string; username: string | null; display_name: string }[];
  return accounts.find((account) => account.platform === platform && isDemoCreator(account))?.id ?? null;
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

/** A webhook to a receiver of an earlier demo on this machine: its port is gone with it. */
function isDemoReceiver(url: string): boolean {
  const parsed = new URL(url);
  return parsed.hostname === '127.0.0.1' && parsed.pathname === DEMO_HOOK_PATH;
}

/** One webhook to this start's receiver: those to earlier demos' receivers go, the user's own stay. */
async function pointDemoWebhookAt(api: Api, cookie: string, receiverUrl: string): Promise<void> {
  const webhooks = (await (await api('/webhooks', { cookie })).json()) as { id: string; url: string }[];
  const stale = webhooks.filter((webhook) => isDemoReceiver(webhook.url) && webhook.url !== receiverUrl);
  for (const webhook of stale) await api(`/webhooks/${webhook.id}`, { method: 'DELETE', cookie });
  if (webhooks.some((webhook) => webhook.url === receiverUrl)) return;
  await api('/webhooks', { method: 'POST', body: JSON.stringify({ url: receiverUrl, kind: 'json', events: [...WEBHOOK_EVENTS] }), cookie });
}
