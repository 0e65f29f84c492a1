import { mkdtemp, open, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../server/src/platform/env.ts';
import { createLogger, type Logger } from '../../server/src/platform/logger.ts';
import { type TwitchClient } from '../../server/src/engines/providers/twitch/index.ts';
import { createTwitchClient, type TwitchClientConfig } from '../../server/src/engines/providers/twitch/client.ts';
import { defaultSleep } from '../../server/src/engines/providers/http/runtime.ts';
import { twitchFromEnv } from '../../server/src/engines/providers/twitch/from-env.ts';
import { TwitchError, type TwitchErrorKind } from '../../server/src/engines/providers/twitch/errors.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';

const DAY = 86_400_000;
/** A whole second, so Ratelimit-Reset arithmetic in the tests is exact. */
const NOW = Date.UTC(2026, 4, 1, 12, 0, 0);

let fake: FakeTwitch;
let workDir: string;

beforeAll(async () => {
  fake = await startFakeTwitch();
  workDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-twitch-client-'));
});

afterAll(async () => {
  await fake.close();
  await rm(workDir, { recursive: true, force: true });
});

beforeEach(() => fake.reset());

interface TestClient {
  client: TwitchClient;
  /** Every duration the client asked to sleep for (the injected sleep returns at once). */
  sleeps: number[];
  clock: { now: number };
}

/** A client on the fake whose sleeps are recorded instead of waited, with a clock the test can move. */
function makeClient(overrides: Partial<TwitchClientConfig> = {}, logger: Logger = createLogger('silent')): TestClient {
  const sleeps: number[] = [];
  const clock = { now: NOW };
  const client = createTwitchClient({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    authUrl: fake.authUrl,
    apiUrl: fake.apiUrl,
    gqlUrl: fake.gqlUrl,
    gqlClientId: fake.gqlClientId,
    clipHashes: [fake.hashes.current, fake.hashes.legacy],
    logger,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      signal?.throwIfAborted();
    },
    now: () => clock.now,
    ...overrides,
  });
  return { client, sleeps, clock };
}

async function expectTwitchError(promise: Promise<unknown>, kind: TwitchErrorKind, message?: RegExp | string): Promise<TwitchError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a TwitchError of kind ${kind}, but the call succeeded`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TwitchError);
  const twitchError = error as TwitchError;
  expect(twitchError.kind).toBe(kind);
  if (message !== undefined) expect(twitchError.message).toMatch(message);
  return twitchError;
}

function statusesOf(endpoint: Parameters<FakeTwitch['requestsTo']>[0], since: number): number[] {
  return fake.requests.slice(since).filter((request) => request.endpoint === endpoint).map((request) => request.status);
}

let loginCounter = 0;
function uniqueLogin(prefix: string): string {
  loginCounter++;
  return `${prefix}_${loginCounter}`;
}

async function firstBytes(file: string, count: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(count);
    await handle.read(buffer, 0, count, 0);
    return buffer;
  } finally {
    await handle.close();
  }
}

async function leftovers(prefix: string): Promise<string[]> {
  return (await readdir(workDir)).filter((name) => name.startsWith(prefix));
}

describe('app access token', () => {
  it('is minted once by client credentials and reused while valid', async () => {
    const login = uniqueLogin('cached');
    fake.addBroadcaster({ login });
    const { client } = makeClient();
    const since = fake.requests.length;

    await client.getUserByLogin(login);
    await client.getUserByLogin(login);
    await client.getGames(['509658']);

    expect(statusesOf('token', since)).toEqual([200]);
    expect(statusesOf('users', since)).toEqual([200, 200]);
    expect(statusesOf('games', since)).toEqual([200]);
  });

  it('is minted again shortly before expires_in runs out', async () => {
    const shortLived = await startFakeTwitch({ tokenLifetimeSeconds: 3600 });
    try {
      shortLived.addBroadcaster({ login: 'renewing' });
      const { client, clock } = makeClient({ authUrl: shortLived.authUrl, apiUrl: shortLived.apiUrl, clientId: shortLived.clientId, clientSecret: shortLived.clientSecret });
      await client.getUserByLogin('renewing');
      clock.now += 3000 * 1000; // well within the hour
      await client.getUserByLogin('renewing');
      expect(shortLived.tokensIssued()).toBe(1);
      clock.now += 590 * 1000; // 10 s before expiry: inside the renewal margin
      await client.getUserByLogin('renewing');
      expect(shortLived.tokensIssued()).toBe(2);
    } finally {
      await shortLived.close();
    }
  });

  it('is minted again once after a 401 (revoked token) and the request retried', async () => {
    const login = uniqueLogin('revoked');
    fake.addBroadcaster({ login });
    const { client } = makeClient();
    await client.getUserByLogin(login);
    const since = fake.requests.length;

    fake.failures.next('users', 'unauthorized');
    const user = await client.getUserByLogin(login);

    expect(user?.login).toBe(login);
    expect(statusesOf('users', since)).toEqual([401, 200]);
    expect(statusesOf('token', since)).toEqual([200]);
  });

  it('gives up with an auth error when a fresh token is refused too', async () => {
    const { client } = makeClient();
    fake.failures.next('users', 'unauthorized', { times: 2 });
    const since = fake.requests.length;
    await expectTwitchError(client.getUserByLogin('whoever'), 'auth', /Invalid OAuth token/);
    expect(statusesOf('users', since)).toEqual([401, 401]);
    expect(statusesOf('token', since)).toEqual([200, 200]);
  });

  it('names the rejected credential: 400 invalid client, 403 invalid client secret', async () => {
    await expectTwitchError(makeClient({ clientId: 'not-the-client' }).client.getUserByLogin('x'), 'auth', /TWITCH_CLIENT_ID \(invalid client\)/);
    await expectTwitchError(makeClient({ clientSecret: 'wrong' }).client.getUserByLogin('x'), 'auth', /TWITCH_CLIENT_SECRET \(invalid client secret\)/);
    await expectTwitchError(makeClient({ clientSecret: '' }).client.getUserByLogin('x'), 'auth', /not configured/);
  });
});

describe('configuration', () => {
  it('builds the client from the environment, or none without credentials', async () => {
    const login = uniqueLogin('fromenv');
    fake.addBroadcaster({ login });
    const logger = createLogger('silent');
    expect(twitchFromEnv(loadEnv({ NODE_ENV: 'test' }), logger)).toBeNull();
    const client = twitchFromEnv(loadEnv({ NODE_ENV: 'test', ...fake.env }), logger);
    expect((await client?.getUserByLogin(login))?.login).toBe(login);
  });
});

describe('rate limits and transient failures', () => {
  it('waits out a 429 until Ratelimit-Reset, then retries', async () => {
    const broadcaster = fake.addBroadcaster({ login: uniqueLogin('busy') });
    fake.addClip({ broadcaster: broadcaster.login, title: 'after the wait', view_count: 5, created_at: new Date(NOW - DAY) });
    const { client, sleeps } = makeClient();
    fake.failures.next('clips', 'rate_limit', { resetAt: NOW / 1000 + 2 });
    const since = fake.requests.length;

    const clips = await client.getTopClips(broadcaster.id, { limit: 5, maxWindows: 1 });

    expect(clips.map((clip) => clip.title)).toEqual(['after the wait']);
    expect(statusesOf('clips', since)).toEqual([429, 200]);
    expect(sleeps).toEqual([2000]);
  });

  it('caps the wait at 60 s whatever Ratelimit-Reset says', async () => {
    const { client, sleeps } = makeClient();
    fake.failures.next('games', 'rate_limit', { resetAt: NOW / 1000 + 3600 });
    await client.getGames(['33214']);
    expect(sleeps).toEqual([60_000]);
  });

  it('retries 5xx with exponential backoff', async () => {
    const { client, sleeps } = makeClient();
    await client.getGames(['33214']); // mint first so only the games calls are counted below
    fake.failures.next('games', 'server_error', { times: 2 });
    const since = fake.requests.length;

    const games = await client.getGames(['33214']);

    expect(games.get('33214')).toBe('Fortnite');
    expect(statusesOf('games', since)).toEqual([500, 500, 200]);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('reports an upstream error when 5xx outlasts the retries', async () => {
    const { client } = makeClient();
    fake.failures.next('games', 'server_error', { times: 3 });
    await expectTwitchError(client.getGames(['33214']), 'upstream', /failed after 3 attempts \(HTTP 500/);
  });

  it('retries network errors too', async () => {
    const { client, sleeps } = makeClient({ apiUrl: 'http://127.0.0.1:9/helix' });
    await expectTwitchError(client.getGames(['1']), 'upstream', /Helix GET \/games failed after 3 attempts/);
    expect(sleeps).toEqual([500, 1000]);
  });
});

describe('users and games', () => {
  it('finds a user by login and returns null for an unknown one', async () => {
    const login = uniqueLogin('known');
    const added = fake.addBroadcaster({ login, display_name: 'KnownStreamer' });
    const { client } = makeClient();

    const user = await client.getUserByLogin(login.toUpperCase());
    expect(user).toMatchObject({ id: added.id, login, display_name: 'KnownStreamer' });
    expect(await client.getUserByLogin('nobody_here_at_all')).toBeNull();
  });

  it('does not ask Twitch about a login that cannot exist', async () => {
    const { client } = makeClient();
    const since = fake.requests.length;
    expect(await client.getUserByLogin('not a login!')).toBeNull();
    expect(statusesOf('users', since)).toEqual([]);
  });

  it('maps game ids to names in batches of 100, without a request for no ids', async () => {
    const { client } = makeClient();
    const since = fake.requests.length;
    expect((await client.getGames([])).size).toBe(0);
    expect(statusesOf('games', since)).toEqual([]);

    const mine = fake.addGame({ name: 'Clipshift Simulator' });
    const ids = [...Array.from({ length: 140 }, (_, index) => `9${index}`), '33214', mine.id, '33214'];
    const names = await client.getGames(ids);

    expect(names).toEqual(new Map([['33214', 'Fortnite'], [mine.id, 'Clipshift Simulator']]));
    const batches = fake.requests.slice(since).filter((request) => request.endpoint === 'games');
    expect(batches.map((request) => request.query.id?.length)).toEqual([100, 42]);
  });
});

describe('top clips', () => {
  it('pages with the cursor and walks back window by window up to the limit', async () => {
    const broadcaster = fake.addBroadcaster({ login: uniqueLogin('prolific') });
    // Newest week: 130 clips; the week before: 40; the week before that: 10.
    const addWeek = (week: number, count: number) => {
      for (let index = 0; index < count; index++) {
        fake.addClip({
          broadcaster: broadcaster.login,
          title: `w${week}-${index}`,
          view_count: 1000 - index,
          created_at: new Date(NOW - week * 7 * DAY - (index + 1) * 60_000),
        });
      }
    };
    addWeek(0, 130);
    addWeek(1, 40);
    addWeek(2, 10);
    const { client } = makeClient();
    const since = fake.requests.length;

    const clips = await client.getTopClips(broadcaster.id, { limit: 150 });

    expect(clips).toHaveLength(150);
    expect(new Set(clips.map((clip) => clip.id)).size).toBe(150);
    // Newest window first, most viewed first inside each window.
    expect(clips.slice(0, 130).every((clip) => clip.title.startsWith('w0-'))).toBe(true);
    expect(clips.slice(130).map((clip) => clip.title)).toEqual(Array.from({ length: 20 }, (_, index) => `w1-${index}`));
    const views = clips.slice(0, 130).map((clip) => clip.view_count);
    expect(views).toEqual([...views].sort((a, b) => b - a));

    const calls = fake.requests.slice(since).filter((request) => request.endpoint === 'clips');
    expect(calls.map((call) => call.query.first?.[0])).toEqual(['100', '50', '20']);
    expect(calls.map((call) => Boolean(call.query.after))).toEqual([false, true, false]);
    const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
    expect(calls.map((call) => [call.query.started_at?.[0], call.query.ended_at?.[0]])).toEqual([
      [iso(NOW - 7 * DAY), iso(NOW)],
      [iso(NOW - 7 * DAY), iso(NOW)],
      [iso(NOW - 14 * DAY), iso(NOW - 7 * DAY)],
    ]);
  });

  it('stops after maxWindows even when the limit is not reached', async () => {
    const broadcaster = fake.addBroadcaster({ login: uniqueLogin('sparse') });
    fake.addClip({ broadcaster: broadcaster.login, title: 'recent', view_count: 3, created_at: new Date(NOW - 2 * DAY) });
    fake.addClip({ broadcaster: broadcaster.login, title: 'last week', view_count: 900, created_at: new Date(NOW - 9 * DAY) });
    fake.addClip({ broadcaster: broadcaster.login, title: 'long ago', view_count: 99_999, created_at: new Date(NOW - 60 * DAY) });
    const { client } = makeClient();
    const since = fake.requests.length;

    const clips = await client.getTopClips(broadcaster.id, { limit: 10, maxWindows: 3 });

    expect(clips.map((clip) => clip.title)).toEqual(['recent', 'last week']);
    expect(statusesOf('clips', since)).toEqual([200, 200, 200]);
  });

  it('returns the Helix fields, vod_offset null while Twitch has not computed it', async () => {
    const broadcaster = fake.addBroadcaster({ login: uniqueLogin('fresh'), display_name: 'FreshOne' });
    fake.addClip({ broadcaster: broadcaster.login, title: 'brand new', view_count: 1, vod_offset: null, game_id: '33214', created_at: new Date(NOW - 60_000) });
    const { client } = makeClient();

    const [clip] = await client.getTopClips(broadcaster.id, { limit: 1 });

    expect(clip).toMatchObject({
      broadcaster_id: broadcaster.id,
      broadcaster_name: 'FreshOne',
      title: 'brand new',
      view_count: 1,
      game_id: '33214',
      language: 'en',
      vod_offset: null,
      video_id: '',
    });
    expect(Object.keys(clip ?? {}).sort()).toEqual(
      ['broadcaster_id', 'broadcaster_name', 'created_at', 'creator_id', 'creator_name', 'duration', 'game_id', 'id', 'language', 'thumbnail_url', 'title', 'url', 'video_id', 'view_count', 'vod_offset', 'is_featured'].sort(),
    );
  });

  describe('past Twitch\'s ~1,000 clips per query', () => {
    /** 1,250 clips in the last week, a minute apart, views falling with age. */
    const addMany = (count: number) => {
      const broadcaster = fake.addBroadcaster({ login: uniqueLogin('huge') });
      for (let index = 0; index < count; index++) {
        fake.addClip({ broadcaster: broadcaster.login, title: `c${index}`, view_count: 100_000 - index, created_at: new Date(NOW - (index + 1) * 300_000) });
      }
      return broadcaster;
    };

    it.each([
      ['a well-behaved cursor', {}],
      ['a cursor that loops after three pages', { repeatCursorAfterPages: 3 }],
      ['pages that shift by one clip', { shiftPages: true }],
      ['both', { repeatCursorAfterPages: 2, shiftPages: true }],
    ])('reaches every clip of a period, none twice, with %s', async (_name, quirks) => {
      const broadcaster = addMany(1250);
      fake.setClipPaging(quirks);
      const { client } = makeClient();
      const since = fake.requests.length;

      const clips = await client.getTopClips(broadcaster.id, { limit: 5000, since: NOW - 7 * DAY });

      expect(clips).toHaveLength(1250);
      expect(new Set(clips.map((clip) => clip.id)).size).toBe(1250);
      const calls = fake.requests.slice(since).filter((request) => request.endpoint === 'clips');
      // Split windows, not one query paged past the cap.
      expect(new Set(calls.map((call) => call.query.started_at?.[0])).size).toBeGreaterThan(1);
      expect(calls.length).toBeLessThan(100);
    });

    it('lists one window from the period start to now and nothing older', async () => {
      const broadcaster = fake.addBroadcaster({ login: uniqueLogin('period') });
      fake.addClip({ broadcaster: broadcaster.login, title: 'today', view_count: 5, created_at: new Date(NOW - 3_600_000) });
      fake.addClip({ broadcaster: broadcaster.login, title: 'yesterday', view_count: 500, created_at: new Date(NOW - DAY - 3_600_000) });
      const { client } = makeClient();
      const since = fake.requests.length;

      const clips = await client.getTopClips(broadcaster.id, { limit: 100, since: NOW - DAY });

      expect(clips.map((clip) => clip.title)).toEqual(['today']);
      const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
      expect(fake.requests.slice(since).filter((request) => request.endpoint === 'clips').map((request) => [request.query.started_at?.[0], request.query.ended_at?.[0]])).toEqual([[iso(NOW - DAY), iso(NOW)]]);
    });

    it('stops paging once the caller has enough', async () => {
      const broadcaster = addMany(1250);
      const { client } = makeClient();
      const since = fake.requests.length;

      const clips = await client.getTopClips(broadcaster.id, { limit: 5000, since: NOW - 7 * DAY, enough: (so) => so.length >= 150 });

      expect(clips).toHaveLength(200);
      expect(fake.requests.slice(since).filter((request) => request.endpoint === 'clips')).toHaveLength(2);
    });
  });

  it('returns nothing for a limit of 0 without asking', async () => {
    const { client } = makeClient();
    const since = fake.requests.length;
    expect(await client.getTopClips('1', { limit: 0 })).toEqual([]);
    expect(fake.requests.length).toBe(since);
  });
});

describe('clip source (GQL VideoAccessToken_Clip)', () => {
  it('picks the highest quality from unordered qualities, skipping an empty sourceURL, without re-encoding it', async () => {
    const clip = fake.addClip({
      broadcaster: uniqueLogin('quality'),
      title: 'qualities',
      view_count: 1,
      qualities: ['360', '1080', '480', '720'],
      emptyQualities: ['1440'],
      sourceStyle: 'legacy',
    });
    const { client } = makeClient();

    const source = await client.resolveClipSource(clip.id);

    expect(source.quality).toBe('1080');
    expect(source.frameRate).toBeCloseTo(30.0067, 3);
    expect(source.url).toMatch(/\/cdn\/AT-cm%7C\d+-1080\.mp4\?sig=[0-9a-f]{40}&token=%7B/);
    expect(source.url.split('?')[0]).not.toContain('%257C');
  });

  it('falls back to the legacy hash when the current one is unknown', async () => {
    const clip = fake.addClip({ broadcaster: uniqueLogin('legacy'), title: 'legacy', view_count: 1 });
    fake.setAcceptedHashes([fake.hashes.legacy]);
    const { client } = makeClient();
    const since = fake.requests.length;

    const source = await client.resolveClipSource(clip.id);

    expect(source.quality).toBe('720'); // the fake lists an empty "1080" above it by default
    const calls = fake.requests.slice(since).filter((request) => request.endpoint === 'gql');
    expect(calls.map((call) => call.hashes)).toEqual([[fake.hashes.current], [fake.hashes.legacy]]);
  });

  it('names PersistedQueryNotFound and every hash tried when all fail', async () => {
    const clip = fake.addClip({ broadcaster: uniqueLogin('rotated'), title: 'rotated', view_count: 1 });
    fake.setAcceptedHashes([]);
    const { client } = makeClient();

    const error = await expectTwitchError(client.resolveClipSource(clip.id), 'persisted_query_not_found', /PersistedQueryNotFound/);
    expect(error.message).toContain(fake.hashes.current);
    expect(error.message).toContain(fake.hashes.legacy);
  });

  it('reports a null clip for an unknown slug', async () => {
    const { client } = makeClient();
    await expectTwitchError(client.resolveClipSource('NoSuchClipAnywhere'), 'null_clip', 'Clip NoSuchClipAnywhere not found (null clip)');
  });

  it('reports clips without a downloadable quality clearly', async () => {
    const nullQualities = fake.addClip({ broadcaster: uniqueLogin('none'), title: 'none', view_count: 1, qualities: null });
    const onlyEmpty = fake.addClip({ broadcaster: uniqueLogin('empty'), title: 'empty', view_count: 1, qualities: [], emptyQualities: ['1080', '720'] });
    const { client } = makeClient();
    await expectTwitchError(client.resolveClipSource(nullQualities.id), 'no_source', /videoQualities is null/);
    await expectTwitchError(client.resolveClipSource(onlyEmpty.id), 'no_source', /every sourceURL is empty/);
  });

  it('retries a GQL 5xx', async () => {
    const clip = fake.addClip({ broadcaster: uniqueLogin('gql5xx'), title: 'gql', view_count: 1 });
    const { client, sleeps } = makeClient();
    fake.failures.next('gql', 'server_error');
    await expect(client.resolveClipSource(clip.id)).resolves.toMatchObject({ quality: '720' });
    expect(sleeps).toEqual([500]);
  });
});

describe('clip download', () => {
  async function signedSource(client: TwitchClient, title: string) {
    const clip = fake.addClip({ broadcaster: uniqueLogin('dl'), title, view_count: 1 });
    return client.resolveClipSource(clip.id);
  }

  it('streams a real MP4 into place, reporting progress, leaving no .part', async () => {
    const { client } = makeClient();
    const source = await signedSource(client, 'download');
    const destination = path.join(workDir, 'whole.mp4');
    const progress: [number, number | null][] = [];

    const result = await client.downloadClip(source.url, destination, { onProgress: (bytes, total) => progress.push([bytes, total]) });

    const { size } = await stat(fake.mediaPath);
    expect(result).toEqual({ path: destination, bytes: size });
    expect((await stat(destination)).size).toBe(size);
    expect((await firstBytes(destination, 16)).toString('latin1')).toContain('ftyp');
    expect(progress.at(-1)).toEqual([size, size]);
    expect(await leftovers('whole.mp4.part')).toEqual([]);
  });

  it('retries a transfer that breaks mid-way and succeeds, leaving no .part', async () => {
    const { client, sleeps } = makeClient();
    const source = await signedSource(client, 'broken once');
    const destination = path.join(workDir, 'retried.mp4');
    fake.failures.next('cdn', 'broken_transfer');
    const since = fake.requests.length;

    const result = await client.downloadClip(source.url, destination);

    expect(result.bytes).toBe((await stat(fake.mediaPath)).size);
    expect(fake.requests.slice(since).filter((request) => request.endpoint === 'cdn')).toHaveLength(2);
    expect(sleeps).toEqual([500]);
    expect(await leftovers('retried.mp4')).toEqual(['retried.mp4']);
  });

  it('detects fewer bytes than Content-Length and fails after the retries without leaving files', async () => {
    const { client, sleeps } = makeClient();
    const source = await signedSource(client, 'always short');
    const destination = path.join(workDir, 'short.mp4');
    fake.failures.next('cdn', 'short_transfer', { times: 3 });
    const { size } = await stat(fake.mediaPath);

    const error = await expectTwitchError(client.downloadClip(source.url, destination), 'transfer');
    expect(error.message).toMatch(new RegExp(`\\b\\d+ of ${size} bytes`));
    expect(sleeps).toEqual([500, 1000]);
    expect(await leftovers('short.mp4')).toEqual([]);
  });

  it('treats a transfer that stalls as broken and retries it', async () => {
    const { client, sleeps } = makeClient();
    const source = await signedSource(client, 'stalls once');
    const destination = path.join(workDir, 'stalled.mp4');
    fake.failures.next('cdn', 'stalled_transfer');

    // The stall is silence that never ends; the limit leaves a loaded machine's healthy retry room (200 ms once failed it in CI).
    const result = await client.downloadClip(source.url, destination, { idleTimeoutMs: 2000 });

    expect(result.bytes).toBe((await stat(fake.mediaPath)).size);
    expect(sleeps).toEqual([500]);
    expect(await leftovers('stalled.mp4')).toEqual(['stalled.mp4']);
  });

  it('counts the bytes itself: a body that ends cleanly but short of Content-Length is not accepted', async () => {
    // Over real HTTP undici already fails such a body ("terminated"); a proxy or another fetch may not, so the client checks too.
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(Buffer.from('0123456789'), { headers: { 'Content-Length': '4096' } }));
    try {
      const { client, sleeps } = makeClient();
      const destination = path.join(workDir, 'counted.mp4');
      await expectTwitchError(client.downloadClip('http://127.0.0.1:9/clip.mp4', destination), 'transfer', 'Download came up short: 10 of 4096 bytes announced by Content-Length');
      expect(spy).toHaveBeenCalledTimes(3);
      expect(sleeps).toEqual([500, 1000]);
      expect(await leftovers('counted.mp4')).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it('stops at once when aborted mid-transfer and removes the .part', async () => {
    const { client } = makeClient();
    const source = await signedSource(client, 'aborted');
    const destination = path.join(workDir, 'aborted.mp4');
    const controller = new AbortController();

    await expectTwitchError(
      client.downloadClip(source.url, destination, { signal: controller.signal, onProgress: () => controller.abort() }),
      'aborted',
    );
    expect(await leftovers('aborted.mp4')).toEqual([]);
  });

  it('stops at once when aborted while waiting to retry', async () => {
    const controller = new AbortController();
    // A real, abortable sleep of a minute: if the abort were not honoured the test would time out.
    const { client } = makeClient({
      sleep: (_ms, signal) => {
        const waiting = defaultSleep(60_000, signal);
        setImmediate(() => controller.abort());
        return waiting;
      },
    });
    const source = await signedSource(client, 'aborted in backoff');
    fake.failures.next('cdn', 'broken_transfer', { times: 3 });

    await expectTwitchError(client.downloadClip(source.url, path.join(workDir, 'backoff.mp4'), { signal: controller.signal }), 'aborted');
    expect(await leftovers('backoff.mp4')).toEqual([]);
  });

  it('does not retry a URL the CDN refuses (bad sig)', async () => {
    const { client, sleeps } = makeClient();
    const source = await signedSource(client, 'tampered');
    const tampered = source.url.replace(/sig=[0-9a-f]{40}/, `sig=${'0'.repeat(40)}`);
    await expectTwitchError(client.downloadClip(tampered, path.join(workDir, 'tampered.mp4')), 'not_found', /HTTP 404/);
    expect(sleeps).toEqual([]);
    expect(await leftovers('tampered.mp4')).toEqual([]);
  });

  it('never logs tokens, secrets or sig/token values', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const { client } = makeClient({}, createLogger('trace', sink));
    const clip = fake.addClip({ broadcaster: uniqueLogin('quiet'), title: 'quiet', view_count: 1 });
    fake.failures.next('users', 'unauthorized');
    await client.getUserByLogin(clip.broadcaster_name.toLowerCase());
    fake.setAcceptedHashes([fake.hashes.legacy]);
    const source = await client.resolveClipSource(clip.id);
    fake.failures.next('cdn', 'broken_transfer');
    await client.downloadClip(source.url, path.join(workDir, 'quiet.mp4'));

    const log = lines.join('');
    expect(log).toContain('retrying'); // the retries were logged…
    const signature = /sig=([0-9a-f]{40})/.exec(source.url)?.[1] ?? 'missing';
    const token = new URL(source.url).searchParams.get('token') ?? 'missing';
    for (const secret of [signature, token, encodeURIComponent(token), fake.clientSecret]) expect(log).not.toContain(secret);
  });
});

describe('the fake behaves like Twitch', () => {
  async function appToken(): Promise<string> {
    // Query-string credentials work as well as a form body (A1).
    const search = new URLSearchParams({ client_id: fake.clientId, client_secret: fake.clientSecret, grant_type: 'client_credentials' });
    const response = await fetch(`${fake.authUrl}/oauth2/token?${search}`, { method: 'POST' });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  async function helix(pathAndQuery: string, token: string) {
    const response = await fetch(`${fake.apiUrl}${pathAndQuery}`, { headers: { Authorization: `Bearer ${token}`, 'Client-Id': fake.clientId } });
    return { response, body: (await response.json()) as Record<string, unknown> };
  }

  it('answers Helix with the envelope, Ratelimit headers, {} pagination on the last page and error bodies', async () => {
    const token = await appToken();
    const broadcaster = fake.addBroadcaster({ login: uniqueLogin('raw') });
    for (const view_count of [5, 50, 20]) fake.addClip({ broadcaster: broadcaster.login, title: `v${view_count}`, view_count });

    const first = await helix(`/clips?broadcaster_id=${broadcaster.id}&first=2`, token);
    expect(first.response.headers.get('ratelimit-limit')).toBe('800');
    expect(Number(first.response.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect((first.body.data as { view_count: number }[]).map((clip) => clip.view_count)).toEqual([50, 20]);
    const cursor = (first.body.pagination as { cursor: string }).cursor;
    const last = await helix(`/clips?broadcaster_id=${broadcaster.id}&first=2&after=${cursor}`, token);
    expect(last.body).toMatchObject({ data: [{ view_count: 5 }], pagination: {} });

    const endedOnly = await helix(`/clips?broadcaster_id=${broadcaster.id}&ended_at=2026-01-01T00:00:00Z`, token);
    expect(endedOnly.response.status).toBe(400);
    expect(endedOnly.body).toEqual({ error: 'Bad Request', status: 400, message: 'started_at is required if ended_at is provided' });

    const unauthorized = await helix('/users?login=x', 'not-a-token');
    expect(unauthorized.body).toEqual({ error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' });
    expect(unauthorized.response.headers.get('ratelimit-remaining')).not.toBeNull();
  });

  it('answers an object GQL body with an object, and the CDN supports HEAD only with a valid token', async () => {
    const clip = fake.addClip({ broadcaster: uniqueLogin('gqlraw'), title: 'raw', view_count: 1 });
    const response = await fetch(fake.gqlUrl, {
      method: 'POST',
      headers: { 'Client-ID': fake.gqlClientId },
      body: JSON.stringify({
        operationName: 'VideoAccessToken_Clip',
        variables: { slug: clip.id },
        extensions: { persistedQuery: { version: 1, sha256Hash: fake.hashes.legacy } },
      }),
    });
    const body = (await response.json()) as {
      data: { clip: { playbackAccessToken: { signature: string; value: string }; videoQualities: { quality: string; sourceURL: string }[] } };
    };
    const { playbackAccessToken, videoQualities } = body.data.clip;
    expect(playbackAccessToken.signature).toMatch(/^[0-9a-f]{40}$/);
    expect(JSON.parse(playbackAccessToken.value)).toMatchObject({ clip_slug: clip.id, version: 2 });
    expect(videoQualities.some((quality) => quality.sourceURL === '')).toBe(true);

    const usable = videoQualities.find((quality) => quality.sourceURL !== '');
    const url = `${usable?.sourceURL}?sig=${playbackAccessToken.signature}&token=${encodeURIComponent(playbackAccessToken.value)}`;
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String((await stat(fake.mediaPath)).size));
    expect((await fetch(usable?.sourceURL ?? '', { method: 'HEAD' })).status).toBe(404);
  });
});
