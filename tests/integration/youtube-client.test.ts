import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newCodeVerifier } from '../../server/src/platform/pkce.ts';
import { loadEnv } from '../../server/src/platform/env.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { callbackError, explainQuotaWait, youtubeDescription, youtubeFromEnv, YouTubeQuotaExceededError, youtubeTags, youtubeTitle, type YouTubeClient, type YouTubeVideoMetadata } from '../../server/src/engines/providers/youtube/index.ts';
import type { YouTubeTokens } from '../../server/src/engines/providers/youtube/types.ts';
import { createYouTubeClient, type YouTubeClientConfig } from '../../server/src/engines/providers/youtube/client.ts';
import { metadataProblems, shortsPreflight, tagsLength } from '../../server/src/engines/providers/youtube/rules.ts';
import { nextPacificMidnight } from '../../server/src/engines/providers/youtube/quota.ts';
import { receivedBytes } from '../../server/src/engines/providers/youtube/upload.ts';
import { YouTubeError, type YouTubeErrorKind } from '../../server/src/engines/providers/youtube/errors.ts';
import { startFakeYouTube, UPLOAD_BLOCK, type FakeGoogleUser, type FakeYouTube } from '../fakes/youtube/index.ts';

const MIB = 1024 * 1024;
const REDIRECT_URI = 'http://127.0.0.1:9/api/youtube/callback';
const SCOPE = 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly';
/** 2026-05-01 12:00 UTC, 05:00 in Los Angeles (PDT): the quota resets at 2026-05-02 07:00 UTC. */
const CLIENT_NOW = Date.UTC(2026, 4, 1, 12);

let fake: FakeYouTube;
let workDir: string;
/** Random bytes, not a multiple of 256 KiB, so a chunk sent twice, skipped or cut wrong cannot go unnoticed. */
let video: { path: string; bytes: Buffer };
let small: { path: string; bytes: Buffer };

beforeAll(async () => {
  fake = await startFakeYouTube({ redirectUris: [REDIRECT_URI] });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-youtube-client-'));
  video = await randomFile('three.mp4', 3 * MIB + 12_345);
  small = await randomFile('small.mp4', 100_000);
});

afterAll(async () => {
  await fake.close();
  await rm(workDir, { recursive: true, force: true });
});

beforeEach(() => fake.reset());

async function randomFile(name: string, size: number): Promise<{ path: string; bytes: Buffer }> {
  const bytes = randomBytes(size);
  const filePath = path.join(workDir, name);
  await writeFile(filePath, bytes);
  return { path: filePath, bytes };
}

interface TestClient {
  client: YouTubeClient;
  /** Every wait the client asked for (the injected sleep returns at once). */
  sleeps: number[];
}

function makeClient(overrides: Partial<YouTubeClientConfig> = {}): TestClient {
  const sleeps: number[] = [];
  const client = createYouTubeClient({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    authUrl: fake.authUrl,
    tokenUrl: fake.tokenUrl,
    apiUrl: fake.apiUrl,
    redirectUri: REDIRECT_URI,
    logger: createLogger('silent'),
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      signal?.throwIfAborted();
    },
    now: () => CLIENT_NOW,
    ...overrides,
  });
  return { client, sleeps };
}

let userCount = 0;
function addUser(channel = true): FakeGoogleUser {
  userCount++;
  return fake.addUser({ channelTitle: channel ? `Creator ${userCount}` : null, handle: `@creator${userCount}` });
}

/** The PKCE verifier of the flows these tests start (the app draws one per flow). */
const VERIFIER = newCodeVerifier();
/** A code of a flow started with VERIFIER, as the callback hands it to the exchange. */
const grant = (code: string | null) => ({ code: code ?? '', codeVerifier: VERIFIER });

/** The browser's part: open the consent URL and read the redirect it answers with. */
async function authorize(client: YouTubeClient, state = `state-${randomBytes(4).toString('hex')}`): Promise<URLSearchParams> {
  const response = await fetch(client.buildAuthorizeUrl({ state, codeVerifier: VERIFIER }), { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  expect(location.searchParams.get('state')).toBe(state);
  return location.searchParams;
}

async function connect(client: YouTubeClient, user: FakeGoogleUser): Promise<YouTubeTokens> {
  fake.setAuthorizingUser(user.sub);
  const callback = await authorize(client);
  return client.exchangeCode(grant(callback.get('code')));
}

async function expectYouTubeError(promise: Promise<unknown>, kind: YouTubeErrorKind, code?: string): Promise<YouTubeError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a YouTubeError of kind ${kind}, but the call succeeded`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(YouTubeError);
  const youtubeError = error as YouTubeError;
  expect({ kind: youtubeError.kind, code: youtubeError.code }).toEqual({ kind, code: code ?? youtubeError.code });
  return youtubeError;
}

const METADATA: YouTubeVideoMetadata = { title: 'Clutch 1v4 on Inferno', description: 'What a round #clutch #cs2', tags: ['clutch', 'cs2'], privacyStatus: 'unlisted', madeForKids: false };

function dataPuts(): { contentRange: string; contentLength: number; status: number }[] {
  return fake
    .requestsTo('upload')
    .filter((request) => !request.headers.contentRange?.startsWith('bytes */'))
    .map((request) => ({ contentRange: request.headers.contentRange ?? '', contentLength: Number(request.headers.contentLength), status: request.status }));
}

function statusQueries(): number {
  return fake.requestsTo('upload').filter((request) => request.headers.contentRange?.startsWith('bytes */')).length;
}

// ---------------------------------------------------------------------------------------------

describe('nextPacificMidnight (pure)', () => {
  const cases: [string, string, string][] = [
    ['winter (PST, UTC-8)', '2026-01-15T12:00:00Z', '2026-01-16T08:00:00.000Z'],
    ['summer (PDT, UTC-7)', '2026-07-15T12:00:00Z', '2026-07-16T07:00:00.000Z'],
    ['the day before clocks go forward: that midnight is still PST', '2026-03-07T20:00:00Z', '2026-03-08T08:00:00.000Z'],
    ['the day clocks go forward (Mar 8): the next midnight is PDT', '2026-03-08T11:00:00Z', '2026-03-09T07:00:00.000Z'],
    ['the day before clocks go back: that midnight is still PDT', '2026-10-31T20:00:00Z', '2026-11-01T07:00:00.000Z'],
    ['the day clocks go back (Nov 1): the next midnight is PST', '2026-11-01T12:00:00Z', '2026-11-02T08:00:00.000Z'],
    ['at 01:30 PDT on Nov 1, before the change: PDT now, PST at the next midnight', '2026-11-01T08:30:00Z', '2026-11-02T08:00:00.000Z'],
    ['at 01:00 PST on Mar 8, before the change: PST now, PDT at the next midnight', '2026-03-08T09:00:00Z', '2026-03-09T07:00:00.000Z'],
    ['at exactly midnight: the next one, a day later', '2026-01-16T08:00:00Z', '2026-01-17T08:00:00.000Z'],
    ['a millisecond before midnight', '2026-01-16T07:59:59.999Z', '2026-01-16T08:00:00.000Z'],
    ['over the new year', '2026-12-31T20:00:00Z', '2027-01-01T08:00:00.000Z'],
    ['late evening UTC is still the same Pacific day', '2026-05-01T06:59:00Z', '2026-05-01T07:00:00.000Z'],
  ];
  it.each(cases)('%s', (_name, now, expected) => {
    expect(nextPacificMidnight(new Date(now)).toISOString()).toBe(expected);
    expect(nextPacificMidnight(Date.parse(now)).toISOString()).toBe(expected);
  });

  it('says when the quota returns in plain words, in the reader’s time or UTC', () => {
    const retryAt = new Date('2026-01-16T08:00:00Z');
    expect(explainQuotaWait(retryAt, { timeZone: 'Europe/Berlin' })).toBe(
      "YouTube's daily upload quota is used up; the post waits until it resets at midnight Pacific time (09:00 your time).",
    );
    expect(explainQuotaWait(retryAt)).toContain('(08:00 UTC)');
  });
});

describe('title, description, tags and Shorts preflight (pure)', () => {
  it('keeps a short title, removes < and >, collapses blanks, and never leaves an empty one', () => {
    expect(youtubeTitle('Clutch 1v4')).toBe('Clutch 1v4');
    expect(youtubeTitle('  <b>GG</b>   ez  ')).toBe('bGG/b ez');
    expect(youtubeTitle('<>  ')).toBe('Stream clip');
  });

  it('cuts a long title to 100 characters at a word boundary', () => {
    const words = 'insane clutch round '.repeat(8).trim();
    const title = youtubeTitle(words);
    expect(title.length).toBeLessThanOrEqual(100);
    expect(words.startsWith(title)).toBe(true);
    expect(words.charAt(title.length)).toBe(' ');
    // A cut that lands exactly on a blank keeps the whole last word.
    expect(youtubeTitle(`${'a'.repeat(100)} b`)).toBe('a'.repeat(100));
    // One word longer than the limit is cut hard.
    expect(youtubeTitle('x'.repeat(150))).toBe('x'.repeat(100));
  });

  it('never splits an emoji when cutting', () => {
    const title = youtubeTitle(`${'a'.repeat(99)}😀`);
    expect(title).toBe('a'.repeat(99));
    expect(metadataProblems({ title, description: '', tags: [] })).toEqual([]);
  });

  it('makes tags from hashtags: without #, unique, within 500 characters as YouTube counts them', () => {
    expect(youtubeTags('Nice #clutch play #Gaming #CLUTCH mid#word #gg_wp')).toEqual(['clutch', 'Gaming', 'gg_wp']);
    const many = Array.from({ length: 60 }, (_, index) => `#tag${String(index).padStart(2, '0')}${'x'.repeat(6)}`).join(' ');
    const tags = youtubeTags(many);
    expect(tagsLength(tags)).toBeLessThanOrEqual(500);
    expect(tagsLength(tags)).toBeGreaterThan(480);
    expect(tags[0]).toBe('tag00xxxxxx');
    expect(tagsLength(['a b', 'c'])).toBe(3 + 2 + 1 + 1);
  });

  it('cuts a description to 5,000 bytes on a character boundary and drops < and >', () => {
    const description = youtubeDescription(`<${'é'.repeat(2600)}>`);
    expect(Buffer.byteLength(description, 'utf8')).toBe(5000);
    expect(description).toBe('é'.repeat(2500));
    expect(metadataProblems({ title: 'ok', description: 'a'.repeat(5001), tags: [] })).toEqual([expect.stringContaining('5001 bytes')]);
  });

  it('accepts a vertical H.264 MP4 of up to 3 minutes and names every problem otherwise', () => {
    const good = { durationSec: 180, width: 1080, height: 1920, sizeBytes: 50 * MIB, container: 'mov,mp4,m4a,3gp,3g2,mj2', videoCodec: 'h264' };
    expect(shortsPreflight(good)).toEqual([]);
    expect(shortsPreflight({ ...good, width: 1080, height: 1080 })).toEqual([]);
    const problems = shortsPreflight({ durationSec: 180.4, width: 1920, height: 1080, sizeBytes: 257 * 1024 ** 3, container: 'matroska,webm', videoCodec: 'vp9' });
    expect(problems).toHaveLength(5);
    expect(problems.join(' ')).toMatch(/landscape.*180\.4 s.*256 GB.*matroska,webm.*vp9/);
  });
});

describe('configuration', () => {
  it('is off without client id and secret, and defaults to Google and PUBLIC_URL + /api/youtube/callback', () => {
    const env = loadEnv({ PUBLIC_URL: 'https://clips.example/' });
    expect(youtubeFromEnv(env, createLogger('silent'))).toBeNull();
    expect(env).toMatchObject({
      YOUTUBE_AUTH_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
      YOUTUBE_TOKEN_URL: 'https://oauth2.googleapis.com/token',
      YOUTUBE_API_URL: 'https://www.googleapis.com',
      youtubeRedirectUri: 'https://clips.example/api/youtube/callback',
    });
    const configured = loadEnv({ ...fake.env, YOUTUBE_REDIRECT_URI: REDIRECT_URI });
    expect(youtubeFromEnv(configured, createLogger('silent'))?.buildAuthorizeUrl({ state: 's', codeVerifier: VERIFIER })).toContain(fake.authUrl);
  });
});

describe('OAuth', () => {
  it('builds Google’s consent URL with offline access, forced consent and both scopes', () => {
    const url = new URL(makeClient().client.buildAuthorizeUrl({ state: 'abc', codeVerifier: VERIFIER }));
    expect(`${url.origin}${url.pathname}`).toBe(fake.authUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: fake.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: SCOPE,
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state: 'abc',
      // RFC 7636's S256: the verifier's SHA-256 in base64url.
      code_challenge: createHash('sha256').update(VERIFIER).digest('base64url'),
      code_challenge_method: 'S256',
    });
  });

  it('exchanges a code once: tokens with a refresh token, and invalid_grant for the same code again', async () => {
    const { client } = makeClient();
    const user = addUser();
    fake.setAuthorizingUser(user.sub);
    const code = (await authorize(client)).get('code') ?? '';
    const tokens = await client.exchangeCode(grant(code));
    expect(tokens).toEqual({ accessToken: expect.stringMatching(/^ya29\./), refreshToken: expect.stringMatching(/^1\/\//), scope: SCOPE, expiresAt: new Date(CLIENT_NOW + 3599_000) });
    expect(fake.requestsTo('token')[0]?.form).toEqual({
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: VERIFIER,
    });
    const again = await expectYouTubeError(client.exchangeCode(grant(code)), 'reconnect_required', 'invalid_grant');
    expect(again.message).toMatch(/reconnect the account/);
    expect(again.retryable).toBe(false);
  });

  it('reads a refusal on the consent page and a wrong client secret as typed errors', async () => {
    const { client } = makeClient();
    addUser();
    fake.denyAuthorization();
    const callback = await authorize(client);
    expect(callback.get('code')).toBeNull();
    expect(callbackError(callback)).toMatchObject({ kind: 'access_denied', code: 'access_denied' });
    fake.denyAuthorization(false);
    const code = (await authorize(client)).get('code') ?? '';
    const wrong = makeClient({ clientSecret: 'GOCSPX-wrong' }).client;
    await expectYouTubeError(wrong.exchangeCode(grant(code)), 'config', 'invalid_client');
  });

  it("refuses a code presented with another flow's PKCE verifier with invalid_grant, as Google does", async () => {
    const { client } = makeClient();
    fake.setAuthorizingUser(addUser().sub);
    const code = (await authorize(client)).get('code') ?? '';
    const refused = await expectYouTubeError(client.exchangeCode({ code, codeVerifier: newCodeVerifier() }), 'reconnect_required', 'invalid_grant');
    expect(refused.httpStatus).toBe(400);
    // The flow's own verifier still redeems it.
    expect((await client.exchangeCode(grant(code))).accessToken).toMatch(/^ya29\./);
  });

  it('refreshes without a new refresh token: the old one keeps working', async () => {
    const { client } = makeClient();
    const user = addUser();
    const tokens = await connect(client, user);
    const refreshed = await client.refreshToken(tokens.refreshToken ?? '');
    expect(refreshed.refreshToken).toBeNull();
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.expiresAt).toEqual(new Date(CLIENT_NOW + 3599_000));
    const again = await client.refreshToken(tokens.refreshToken ?? '');
    await expect(client.getMyChannel(again.accessToken)).resolves.toMatchObject({ channelId: user.channel?.id });
  });

  it('turns a revoked grant into reconnect_required, and a dead access token into token_invalid', async () => {
    const { client } = makeClient();
    const user = addUser();
    const tokens = await connect(client, user);
    fake.revoke(user.sub);
    const error = await expectYouTubeError(client.refreshToken(tokens.refreshToken ?? ''), 'reconnect_required', 'invalid_grant');
    expect(error.httpStatus).toBe(400);
    await expectYouTubeError(client.getMyChannel(tokens.accessToken), 'token_invalid', 'authError');
  });
});

describe('channels.list', () => {
  it('maps the channel of the token’s account', async () => {
    const { client } = makeClient();
    const user = addUser();
    const tokens = await connect(client, user);
    await expect(client.getMyChannel(tokens.accessToken)).resolves.toEqual({
      channelId: user.channel?.id,
      title: user.channel?.title,
      handle: user.channel?.handle,
      avatarUrl: user.channel?.avatarUrl,
    });
    expect(fake.requestsTo('channels')[0]).toMatchObject({ query: { part: 'snippet', mine: 'true' }, headers: { authorization: `Bearer ${tokens.accessToken}` } });
  });

  it('says plainly that an account without a channel cannot post', async () => {
    const { client } = makeClient();
    const tokens = await connect(client, addUser(false));
    const error = await expectYouTubeError(client.getMyChannel(tokens.accessToken), 'no_channel');
    expect(error.message).toMatch(/no YouTube channel/);
  });
});

describe('resumable upload', () => {
  async function start(client: YouTubeClient, size = video.bytes.length, metadata = METADATA): Promise<{ uploadUrl: string; user: FakeGoogleUser; tokens: YouTubeTokens }> {
    const user = addUser();
    const tokens = await connect(client, user);
    return { uploadUrl: await client.startUpload(tokens.accessToken, metadata, size), user, tokens };
  }

  it('uploads a 3 MiB file in 1 MiB chunks: the fake holds exactly its bytes and the video exists', async () => {
    const { client } = makeClient();
    const { uploadUrl, user } = await start(client);
    expect(uploadUrl).toMatch(new RegExp(`^${fake.apiUrl}/upload/youtube/v3/videos\\?uploadType=resumable&upload_id=`));
    const init = fake.requestsTo('upload_init')[0];
    // notifySubscribers always sent: YouTube's own default (true) would tell every subscriber.
    expect(init?.query).toEqual({ uploadType: 'resumable', part: 'snippet,status', notifySubscribers: 'false' });
    expect(init?.json).toEqual({
      snippet: { title: METADATA.title, description: METADATA.description, tags: ['clutch', 'cs2'], categoryId: '20' },
      status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
    });
    const progress: number[] = [];
    const videoId = await client.uploadChunks(uploadUrl, video.path, video.bytes.length, { chunkSize: MIB, onProgress: (received) => progress.push(received) });
    const session = fake.sessionFor(uploadUrl);
    expect(session?.bytes().equals(video.bytes)).toBe(true);
    expect(session?.bytesReceived).toBe(video.bytes.length);
    expect(session?.videoId).toBe(videoId);
    const size = video.bytes.length;
    expect(dataPuts()).toEqual([
      { contentRange: `bytes 0-${MIB - 1}/${size}`, contentLength: MIB, status: 308 },
      { contentRange: `bytes ${MIB}-${2 * MIB - 1}/${size}`, contentLength: MIB, status: 308 },
      { contentRange: `bytes ${2 * MIB}-${3 * MIB - 1}/${size}`, contentLength: MIB, status: 308 },
      { contentRange: `bytes ${3 * MIB}-${size - 1}/${size}`, contentLength: 12_345, status: 200 },
    ]);
    expect(progress).toEqual([MIB, 2 * MIB, 3 * MIB, size]);
    expect(fake.videos.get(videoId)).toMatchObject({ sub: user.sub, privacyStatus: 'unlisted', selfDeclaredMadeForKids: false, uploadStatus: 'uploaded' });
    // An upload spends one of the day's uploads, no units.
    expect({ units: fake.quotaLeft(), uploads: fake.uploadsLeft() }).toEqual({ units: 10_000, uploads: 99 });
    await expect(client.queryUpload(uploadUrl, size)).resolves.toEqual({ complete: videoId });
  });

  it('resumes after a dropped connection from the Range the server reports, re-sending only what it did not keep', async () => {
    const { client, sleeps } = makeClient();
    const { uploadUrl } = await start(client);
    const size = video.bytes.length;
    fake.dropNextChunk({ afterBytes: 600 * 1024 });
    const videoId = await client.uploadChunks(uploadUrl, video.path, size, { chunkSize: MIB });
    const session = fake.sessionFor(uploadUrl);
    expect(session?.bytes().equals(video.bytes)).toBe(true);
    expect(session?.drops).toEqual([{ read: expect.any(Number), kept: 2 * UPLOAD_BLOCK }]);
    const drop = session?.drops[0] ?? { read: 0, kept: 0 };
    // Every byte arrived once, plus only the part of the cut chunk the server threw away.
    expect(session?.bytesReceived).toBe(size + drop.read - drop.kept);
    expect(fake.requestsTo('upload_init')).toHaveLength(1);
    expect(statusQueries()).toBe(1);
    const puts = dataPuts();
    expect(puts[0]).toEqual({ contentRange: `bytes 0-${MIB - 1}/${size}`, contentLength: MIB, status: 0 });
    expect(puts[1]?.contentRange).toBe(`bytes ${2 * UPLOAD_BLOCK}-${2 * UPLOAD_BLOCK + MIB - 1}/${size}`);
    expect(puts.every((put, index) => index === puts.length - 1 || put.contentLength % UPLOAD_BLOCK === 0)).toBe(true);
    expect(sleeps).toEqual([1000]);
    expect(fake.videos.get(videoId)).toBeDefined();
  });

  it('starts over from byte 0 when the server kept nothing of a cut chunk, and after a 5xx asks before resending', async () => {
    const { client } = makeClient();
    const { uploadUrl } = await start(client);
    const size = video.bytes.length;
    fake.dropNextChunk({ keep: 'none' });
    fake.failNext('upload', 503);
    await client.uploadChunks(uploadUrl, video.path, size, { chunkSize: MIB });
    const session = fake.sessionFor(uploadUrl);
    expect(session?.bytes().equals(video.bytes)).toBe(true);
    expect(dataPuts().map((put) => put.status).slice(0, 3)).toEqual([0, 503, 308]);
    expect(dataPuts().slice(0, 3).map((put) => put.contentRange.split('/')[0])).toEqual([`bytes 0-${MIB - 1}`, `bytes 0-${MIB - 1}`, `bytes 0-${MIB - 1}`]);
    expect(statusQueries()).toBe(2);
    expect(fake.requestsTo('upload_init')).toHaveLength(1);
  });

  it('restarts from 0 on a 308 without Range (the server lost what it held)', async () => {
    const { client } = makeClient();
    const { uploadUrl } = await start(client);
    const size = video.bytes.length;
    let scripted = false;
    const videoId = await client.uploadChunks(uploadUrl, video.path, size, {
      chunkSize: MIB,
      onProgress: (received) => {
        if (received === MIB && !scripted) {
          scripted = true;
          fake.failNext('upload', 'forget');
        }
      },
    });
    const session = fake.sessionFor(uploadUrl);
    expect(session?.bytes().equals(video.bytes)).toBe(true);
    expect(session?.bytesReceived).toBe(size + 2 * MIB);
    expect(dataPuts().map((put) => put.contentRange.split('/')[0])).toEqual([
      `bytes 0-${MIB - 1}`,
      `bytes ${MIB}-${2 * MIB - 1}`,
      `bytes 0-${MIB - 1}`,
      `bytes ${MIB}-${2 * MIB - 1}`,
      `bytes ${2 * MIB}-${3 * MIB - 1}`,
      `bytes ${3 * MIB}-${size - 1}`,
    ]);
    expect(fake.videos.get(videoId)).toBeDefined();
  });

  it('resumes a session a crashed job left behind: queryUpload, then uploadChunks from there', async () => {
    const { client } = makeClient();
    const { uploadUrl } = await start(client);
    const size = video.bytes.length;
    await expect(client.queryUpload(uploadUrl, size)).resolves.toEqual({ received: 0 });
    const crash = new AbortController();
    const crashed = client.uploadChunks(uploadUrl, video.path, size, { chunkSize: MIB, signal: crash.signal, onProgress: (received) => received >= 2 * MIB && crash.abort() });
    await expectYouTubeError(crashed, 'aborted');
    const state = await client.queryUpload(uploadUrl, size);
    expect(state).toEqual({ received: 2 * MIB });
    const videoId = await client.uploadChunks(uploadUrl, video.path, size, { chunkSize: MIB, startAt: 'received' in state ? state.received : 0 });
    expect(fake.sessionFor(uploadUrl)?.bytes().equals(video.bytes)).toBe(true);
    expect(fake.sessionFor(uploadUrl)?.bytesReceived).toBe(size);
    expect(fake.requestsTo('upload_init')).toHaveLength(1);
    expect(fake.videos.size).toBeGreaterThan(0);
    expect(fake.videos.get(videoId)).toBeDefined();
  });

  it('uploads from a byte-range reader as well as from a file', async () => {
    const { client } = makeClient();
    const { uploadUrl } = await start(client, small.bytes.length);
    const videoId = await client.uploadChunks(uploadUrl, async (from, to) => small.bytes.subarray(from, to), small.bytes.length);
    expect(fake.videos.get(videoId)?.bytes.equals(small.bytes)).toBe(true);
    expect(dataPuts()).toEqual([{ contentRange: `bytes 0-99999/100000`, contentLength: 100_000, status: 200 }]);
  });

  it('reports an unknown or expired session as upload_expired', async () => {
    const { client } = makeClient();
    const { uploadUrl } = await start(client);
    const size = video.bytes.length;
    fake.expireUploadSession(fake.sessionFor(uploadUrl)?.uploadId);
    const error = await expectYouTubeError(client.uploadChunks(uploadUrl, video.path, size, { chunkSize: MIB }), 'upload_expired', 'upload_session_expired');
    expect(error.message).toMatch(/upload session expired/);
    await expectYouTubeError(client.queryUpload(uploadUrl, size), 'upload_expired');
    await expectYouTubeError(client.queryUpload(`${fake.apiUrl}/upload/youtube/v3/videos?uploadType=resumable&upload_id=nope`, size), 'upload_expired');
  });

  it('enforces the 256 KiB rule in the fake, and the client never breaks it', async () => {
    const { client } = makeClient();
    const { uploadUrl } = await start(client);
    const size = video.bytes.length;
    const odd = await fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Range': `bytes 0-99999/${size}` }, body: new Uint8Array(video.bytes.subarray(0, 100_000)) });
    expect(odd.status).toBe(400);
    expect(JSON.stringify(await odd.json())).toMatch(/multiple of 262144/);
    expect(fake.sessionFor(uploadUrl)?.received).toBe(0);
    await expect(client.uploadChunks(uploadUrl, video.path, size, { chunkSize: MIB + 1 })).rejects.toThrow(RangeError);
    await client.uploadChunks(uploadUrl, video.path, size, { chunkSize: 3 * UPLOAD_BLOCK });
    expect(fake.sessionFor(uploadUrl)?.bytes().equals(video.bytes)).toBe(true);
    expect(dataPuts().filter((put) => put.status !== 400).every((put, index, all) => index === all.length - 1 || put.contentLength === 3 * UPLOAD_BLOCK)).toBe(true);
  });

  it('has the fake refuse an insert without the audience declaration, and the client refuse bad metadata before sending', async () => {
    const { client } = makeClient();
    const user = addUser();
    const tokens = await connect(client, user);
    const response = await fetch(`${fake.apiUrl}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.accessToken}`, 'Content-Type': 'application/json', 'X-Upload-Content-Length': '10', 'X-Upload-Content-Type': 'video/mp4' },
      body: JSON.stringify({ snippet: { title: 'x' }, status: { privacyStatus: 'private' } }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/selfDeclaredMadeForKids/);
    const before = fake.requestsTo('upload_init').length;
    await expectYouTubeError(client.startUpload(tokens.accessToken, { ...METADATA, title: 'a <b> title' }, 10), 'invalid_request', 'invalid_metadata');
    expect(fake.requestsTo('upload_init')).toHaveLength(before);
  });
});

describe('quota', () => {
  it('turns quotaExceeded into YouTubeQuotaExceededError with retryAt at the next Pacific midnight', async () => {
    const { client } = makeClient();
    const user = addUser();
    const tokens = await connect(client, user);
    fake.setUploadsLeft(0);
    const error = await expectYouTubeError(client.startUpload(tokens.accessToken, METADATA, 10), 'quota_exceeded', 'quotaExceeded');
    expect(error).toBeInstanceOf(YouTubeQuotaExceededError);
    expect((error as YouTubeQuotaExceededError).retryAt.toISOString()).toBe('2026-05-02T07:00:00.000Z');
    expect(error.message).toBe("YouTube's daily upload quota is used up; the post waits until it resets at midnight Pacific time (07:00 UTC).");
    expect(error.retryable).toBe(true);
    // A list call spends units, a bucket apart from the uploads: still allowed.
    await expect(client.getMyChannel(tokens.accessToken)).resolves.toMatchObject({ channelId: user.channel?.id });
    fake.setQuota(0);
    await expectYouTubeError(client.getMyChannel(tokens.accessToken), 'quota_exceeded');
    expect(fake.requestsTo('channels').at(-1)?.status).toBe(403);
  });

  it('gives the quota back at midnight Pacific on the fake’s clock', () => {
    fake.setQuota(0);
    const now = fake.now();
    fake.advanceTime(nextPacificMidnight(now).getTime() - now + 1);
    expect(fake.quotaLeft()).toBe(10_000);
  });
});

describe('videos.list', () => {
  it('parses status, processing and string statistics into numbers; unknown ids are absent', async () => {
    const { client } = makeClient();
    const user = addUser();
    const tokens = await connect(client, user);
    const upload = async () => client.uploadChunks(await client.startUpload(tokens.accessToken, METADATA, small.bytes.length), small.path, small.bytes.length);
    const processed = await upload();
    const rejected = await upload();
    const processing = await upload();
    fake.finishProcessing(processed);
    fake.setStatistics(processed, { views: 12_345_678_901, likes: 4, comments: 1 });
    fake.finishProcessing(rejected, { rejected: 'duplicate' });
    const states = await client.getVideos(tokens.accessToken, [processed, 'doesNotExist', rejected, processing, processed]);
    expect(states).toEqual([
      { videoId: processed, uploadStatus: 'processed', privacyStatus: 'unlisted', rejectionReason: null, processingStatus: 'succeeded', stats: { views: 12_345_678_901, likes: 4, comments: 1, shares: null } },
      { videoId: rejected, uploadStatus: 'rejected', privacyStatus: 'unlisted', rejectionReason: 'duplicate', processingStatus: 'succeeded', stats: { views: 0, likes: 0, comments: 0, shares: null } },
      { videoId: processing, uploadStatus: 'uploaded', privacyStatus: 'unlisted', rejectionReason: null, processingStatus: 'processing', stats: { views: 0, likes: 0, comments: 0, shares: null } },
    ]);
    const request = fake.requestsTo('videos')[0];
    expect(request?.query.part).toBe('status,processingDetails,statistics');
    expect(request?.query.id?.split(',')).toEqual([processed, 'doesNotExist', rejected, processing]);
  });

  it('reads a Range header as the bytes held', () => {
    expect(receivedBytes(null, 10)).toBe(0);
    expect(receivedBytes('bytes=0-4', 10)).toBe(5);
    expect(() => receivedBytes('bytes=0-10', 10)).toThrow(YouTubeError);
    expect(() => receivedBytes('bytes=5-9', 10)).toThrow(YouTubeError);
  });
});
