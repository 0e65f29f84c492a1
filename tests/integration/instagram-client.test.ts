import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadEnv } from '../../server/src/platform/env.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { callbackError, instagramFromEnv, isMetaError, MetaError, type InstagramClient } from '../../server/src/engines/providers/instagram/index.ts';
import type { InstagramTokens, ReelContainerRequest } from '../../server/src/engines/providers/instagram/types.ts';
import type { MetaErrorKind } from '../../server/src/engines/providers/meta/errors.ts';
import { createInstagramClient, type InstagramClientConfig } from '../../server/src/engines/providers/instagram/client.ts';
import { parseMetaJson } from '../../server/src/engines/providers/meta/graph.ts';
import { startFakeInstagram, type FakeInstagram, type FakeInstagramUser } from '../fakes/instagram/index.ts';

const REDIRECT_URI = 'http://127.0.0.1:9/api/instagram/callback';
const CLIENT_NOW = Date.UTC(2026, 4, 1, 12);
const LONG_LIVED_MS = 5_183_944_000;

let fake: FakeInstagram;
let media: { server: Server; url: string; hits: string[] };
/** An MP4's first box is "ftyp": what Instagram's download checks for; the rest is random. */
const VIDEO = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), randomBytes(200_000)]);

beforeAll(async () => {
  fake = await startFakeInstagram({ redirectUris: [REDIRECT_URI] });
  media = await startMediaServer();
});

afterAll(async () => {
  await fake.close();
  await new Promise<void>((resolve) => media.server.close(() => resolve()));
});

beforeEach(() => {
  fake.reset();
  media.hits.length = 0;
});

/** Where the app's signed media URLs would point: the video, an HTML page, and a missing file. */
async function startMediaServer(): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url === '/clip.mp4') {
      res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': String(VIDEO.length) });
      res.end(VIDEO);
    } else if (req.url === '/page.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>Sign in</title>');
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not Found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

interface TestClient {
  client: InstagramClient;
  sleeps: number[];
}

function makeClient(overrides: Partial<InstagramClientConfig> = {}): TestClient {
  const sleeps: number[] = [];
  const client = createInstagramClient({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    authUrl: fake.authUrl,
    tokenUrl: fake.tokenUrl,
    graphUrl: fake.graphUrl,
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
function addUser(): FakeInstagramUser {
  userCount++;
  return fake.addUser({ username: `creator.${userCount}`, name: `Creator ${userCount}` });
}

/** The browser's part: open the consent URL and read the redirect it answers with. */
async function authorize(client: InstagramClient, state = `state-${randomBytes(4).toString('hex')}`): Promise<{ query: URLSearchParams; location: URL }> {
  const response = await fetch(client.buildAuthorizeUrl({ state }), { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  expect(location.searchParams.get('state')).toBe(state);
  return { query: location.searchParams, location };
}

async function connect(client: InstagramClient, user: FakeInstagramUser): Promise<InstagramTokens> {
  fake.setAuthorizingUser(user.userId);
  const { query } = await authorize(client);
  return client.exchangeCode({ code: query.get('code') ?? '' });
}

async function expectMetaError(promise: Promise<unknown>, kind: MetaErrorKind, code?: string): Promise<MetaError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a MetaError of kind ${kind}, but the call succeeded`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MetaError);
  const metaError = error as MetaError;
  expect({ kind: metaError.kind, code: metaError.code, platform: metaError.platform }).toEqual({ kind, code: code ?? metaError.code, platform: 'instagram' });
  return metaError;
}

const REEL: ReelContainerRequest = { videoUrl: '', caption: 'Clutch 1v4 #cs2 #clutch', shareToFeed: true, collaborators: [], trialReel: false };
const reel = (path: string, overrides: Partial<ReelContainerRequest> = {}): ReelContainerRequest => ({ ...REEL, videoUrl: `${media.url}${path}`, ...overrides });

/** A connected account: its client, tokens and professional account id. */
async function account(): Promise<{ client: InstagramClient; sleeps: number[]; user: FakeInstagramUser; token: string; igUserId: string }> {
  const { client, sleeps } = makeClient();
  const user = addUser();
  const tokens = await connect(client, user);
  const me = await client.getMe(tokens.accessToken);
  return { client, sleeps, user, token: tokens.accessToken, igUserId: me.userId };
}

// ---------------------------------------------------------------------------------------------

describe('configuration', () => {
  it('is off without client id and secret, and defaults to Instagram and PUBLIC_URL + /api/instagram/callback', () => {
    const env = loadEnv({ PUBLIC_URL: 'https://clips.example/' });
    expect(instagramFromEnv(env, createLogger('silent'))).toBeNull();
    expect(instagramFromEnv({ ...env, INSTAGRAM_CLIENT_ID: 'id' }, createLogger('silent'))).toBeNull();
    expect(env).toMatchObject({
      INSTAGRAM_AUTH_URL: 'https://www.instagram.com/oauth/authorize',
      INSTAGRAM_TOKEN_URL: 'https://api.instagram.com/oauth/access_token',
      INSTAGRAM_GRAPH_URL: 'https://graph.instagram.com',
      instagramRedirectUri: 'https://clips.example/api/instagram/callback',
    });
    const configured = loadEnv({ ...fake.env, INSTAGRAM_REDIRECT_URI: REDIRECT_URI });
    expect(configured.instagramRedirectUri).toBe(REDIRECT_URI);
    expect(instagramFromEnv(configured, createLogger('silent'))?.buildAuthorizeUrl({ state: 's' })).toContain(fake.authUrl);
    expect(() => loadEnv({ INSTAGRAM_GRAPH_URL: 'not a url' })).toThrow(/INSTAGRAM_GRAPH_URL/);
  });
});

describe('OAuth', () => {
  it('builds the consent URL with both scopes, comma-separated', () => {
    const url = new URL(makeClient().client.buildAuthorizeUrl({ state: 'abc' }));
    expect(`${url.origin}${url.pathname}`).toBe(fake.authUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: fake.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'instagram_business_basic,instagram_business_content_publish',
      state: 'abc',
    });
  });

  it('exchanges the code for a short-lived token, then a long-lived one, keeping the user id exact', async () => {
    const { client } = makeClient();
    const user = addUser();
    fake.setAuthorizingUser(user.userId);
    const { query, location } = await authorize(client);
    expect(location.hash).toBe('#_');
    const code = query.get('code') ?? '';
    const tokens = await client.exchangeCode({ code });
    // Instagram sends user_id as a bare number above 2^53: read as a number it would be another id.
    expect(Number(user.scopedId)).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
    expect(tokens).toEqual({
      accessToken: expect.stringMatching(/^IGAAL/),
      expiresAt: new Date(CLIENT_NOW + LONG_LIVED_MS),
      userId: user.scopedId,
      permissions: ['instagram_business_basic', 'instagram_business_content_publish'],
    });
    expect(fake.requestsTo('token')[0]?.params).toEqual({ client_id: fake.clientId, client_secret: fake.clientSecret, grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, code });
    const exchange = fake.requestsTo('exchange')[0];
    expect(exchange?.query).toEqual({ grant_type: 'ig_exchange_token', client_secret: fake.clientSecret, access_token: expect.stringMatching(/^IGAAS/) });
    await expect(client.getMe(tokens.accessToken)).resolves.toEqual({ userId: user.userId, username: user.username, name: user.name, avatarUrl: user.avatarUrl });
    expect(fake.requestsTo('me')[0]).toMatchObject({ authorization: `Bearer ${tokens.accessToken}`, query: { fields: 'user_id,username,name,profile_picture_url' } });
  });

  it('refreshes a long-lived token into a new one with 60 days ahead', async () => {
    const { client, token, user } = await account();
    const refreshed = await client.refreshToken(token);
    expect(refreshed.accessToken).not.toBe(token);
    expect(refreshed.expiresAt).toEqual(new Date(CLIENT_NOW + LONG_LIVED_MS));
    expect(fake.requestsTo('refresh')[0]?.query).toEqual({ grant_type: 'ig_refresh_token', access_token: token });
    await expect(client.getMe(refreshed.accessToken)).resolves.toMatchObject({ userId: user.userId });
  });

  it('refuses a used code, a wrong secret, a refused consent and a dead token with typed errors', async () => {
    const { client } = makeClient();
    const user = addUser();
    fake.setAuthorizingUser(user.userId);
    const code = (await authorize(client)).query.get('code') ?? '';
    await client.exchangeCode({ code });
    const again = await expectMetaError(client.exchangeCode({ code }), 'reconnect_required');
    expect(again.message).toMatch(/connect the account again/);
    expect(again.retryable).toBe(false);

    const second = (await authorize(client)).query.get('code') ?? '';
    await expectMetaError(makeClient({ clientSecret: 'wrong-secret' }).client.exchangeCode({ code: second }), 'config');
    const mismatch = (await authorize(client)).query.get('code') ?? '';
    const redirect = await expectMetaError(client.exchangeCode({ code: mismatch, redirectUri: 'http://127.0.0.1:9/elsewhere' }), 'config');
    expect(redirect.message).toMatch(/INSTAGRAM_REDIRECT_URI/);

    fake.denyAuthorization();
    const denied = await authorize(client);
    expect(denied.query.get('code')).toBeNull();
    expect(callbackError(denied.query)).toMatchObject({ kind: 'access_denied', platform: 'instagram' });
    expect(callbackError(new URLSearchParams({ code: 'x' }))).toBeNull();
  });

  it('reads a revoked or expired token as reconnect needed (code 190), on refresh and on any call', async () => {
    const { client, token, user } = await account();
    fake.revoke(user.userId);
    const revoked = await expectMetaError(client.refreshToken(token), 'reconnect_required', '190/458');
    expect(revoked.message).toBe('The Instagram connection has expired or was removed: reconnect the account.');
    await expectMetaError(client.getMe(token), 'reconnect_required', '190/458');
    const other = await account();
    fake.expireTokens(other.user.userId);
    await expectMetaError(other.client.publishingLimit(other.token, other.igUserId), 'reconnect_required', '190/463');
  });
});

describe('Reel containers', () => {
  it('creates a container Instagram fills from the video URL, waits for FINISHED and publishes it once', async () => {
    const { client, sleeps, token, igUserId, user } = await account();
    const containerId = await client.createReelContainer(token, igUserId, reel('/clip.mp4', { shareToFeed: false, collaborators: ['pro.player', '@coach_x'], trialReel: true }));
    expect(fake.requestsTo('create_container')[0]?.params).toEqual({
      media_type: 'REELS',
      video_url: `${media.url}/clip.mp4`,
      caption: REEL.caption,
      share_to_feed: false,
      collaborators: ['pro.player', '@coach_x'],
      trial_params: { graduation_strategy: 'SS_PERFORMANCE' },
    });
    const ready = await client.waitForContainer(token, containerId);
    expect(ready).toMatchObject({ containerId, statusCode: 'FINISHED', errorSubcode: null });
    // The video was really downloaded, every byte of it.
    expect(media.hits).toEqual(['GET /clip.mp4']);
    const container = fake.containers.get(containerId);
    expect(container?.fetch).toMatchObject({ status: 200, contentType: 'video/mp4', error: null });
    expect(container?.fetch?.bytes.equals(VIDEO)).toBe(true);
    expect(fake.requestsTo('node').map((request) => request.query.fields)).toEqual(['status_code,status', 'status_code,status', 'status_code,status']);
    expect(sleeps).toEqual([3_000, 5_000]);

    const mediaId = await client.publishContainer(token, igUserId, containerId);
    expect(fake.requestsTo('publish')[0]?.params).toEqual({ creation_id: containerId });
    expect(fake.media.get(mediaId)?.videoBytes.equals(VIDEO)).toBe(true);
    expect(fake.publishedPosts().find((post) => post.mediaId === mediaId)).toMatchObject({ username: user.username, caption: REEL.caption, collaborators: ['pro.player', '@coach_x'], trial: true, bytes: VIDEO.length });

    // Instagram refuses a second media_publish of the same container; its status says why.
    const twice = await expectMetaError(client.publishContainer(token, igUserId, containerId), 'already_published');
    expect(twice.retryable).toBe(false);
    expect(fake.requestsTo('publish').map((request) => request.status)).toEqual([200, 400]);
    expect(fake.media.size).toBeGreaterThan(0);
    expect([...fake.media.values()].filter((entry) => entry.containerId === containerId)).toHaveLength(1);
  });

  it('ends in ERROR when the URL answers no video: a missing file (2207052), a web page (2207026), nothing at all', async () => {
    const { client, token, igUserId } = await account();
    const missing = await client.createReelContainer(token, igUserId, reel('/gone.mp4'));
    const gone = await expectMetaError(client.waitForContainer(token, missing), 'media_rejected', '2207052');
    expect(gone.message).toMatch(/could not download the video.*PUBLIC_URL/);
    expect(fake.containers.get(missing)?.fetch).toMatchObject({ status: 404 });

    const page = await client.createReelContainer(token, igUserId, reel('/page.html'));
    const notVideo = await expectMetaError(client.waitForContainer(token, page), 'media_rejected', '2207026');
    expect(notVideo.message).toMatch(/format is not supported/);
    expect(fake.containers.get(page)?.fetch).toMatchObject({ status: 200, contentType: 'text/html' });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await client.createReelContainer(token, igUserId, { ...REEL, videoUrl: `http://127.0.0.1:${port}/clip.mp4` });
    await expectMetaError(client.waitForContainer(token, unreachable), 'media_rejected', '2207052');
    expect(fake.containers.get(unreachable)?.fetch).toMatchObject({ status: null, error: expect.stringMatching(/ECONNREFUSED|fetch failed/) });
    // Publishing a failed container is refused, and the container says why.
    await expectMetaError(client.publishContainer(token, igUserId, page), 'media_rejected', '2207026');
  });

  it('reads EXPIRED as expired, while waiting and when publishing', async () => {
    const { client, token, igUserId } = await account();
    const waiting = await client.createReelContainer(token, igUserId, reel('/clip.mp4'));
    await client.containerStatus(token, waiting);
    fake.expireContainer(waiting);
    const expired = await expectMetaError(client.waitForContainer(token, waiting), 'expired');
    expect(expired.message).toMatch(/expired before it was published/);

    const finished = await client.createReelContainer(token, igUserId, reel('/clip.mp4'));
    await client.waitForContainer(token, finished);
    fake.expireContainer(finished);
    await expectMetaError(client.publishContainer(token, igUserId, finished), 'expired');
    expect(fake.requestsTo('publish').at(-1)?.status).toBe(400);
  });

  it('gives up waiting after its budget with a retryable not_ready, and publishing early is not_ready too', async () => {
    const { client, sleeps, token, igUserId } = await account();
    fake.setPollsToFinish(1_000);
    const containerId = await client.createReelContainer(token, igUserId, reel('/clip.mp4'));
    const error = await expectMetaError(client.waitForContainer(token, containerId, { budgetMs: 60_000 }), 'not_ready');
    expect(error.retryable).toBe(true);
    expect(sleeps.reduce((total, ms) => total + ms, 0)).toBe(60_000);
    expect(sleeps).toEqual([3_000, 5_000, 10_000, 15_000, 27_000]);
    await expectMetaError(client.publishContainer(token, igUserId, containerId), 'not_ready');
  });

  it('stops waiting when the caller aborts', async () => {
    const { client, token, igUserId } = await account();
    fake.setPollsToFinish(1_000);
    const containerId = await client.createReelContainer(token, igUserId, reel('/clip.mp4'));
    const controller = new AbortController();
    const waiting = client.waitForContainer(token, containerId, { signal: controller.signal, onPoll: () => controller.abort() });
    await expectMetaError(waiting, 'aborted');
  });

  it('refuses a caption or collaborators Instagram would refuse before sending anything', async () => {
    const { client, token, igUserId } = await account();
    const tooLong = await expectMetaError(client.createReelContainer(token, igUserId, reel('/clip.mp4', { caption: 'a'.repeat(2201) })), 'invalid_request', 'invalid_container');
    expect(tooLong.message).toBe('The caption has 2201 characters; Instagram allows 2200.');
    const tags = Array.from({ length: 31 }, (_, index) => `#tag${index}`).join(' ');
    await expectMetaError(client.createReelContainer(token, igUserId, reel('/clip.mp4', { caption: tags })), 'invalid_request');
    await expectMetaError(client.createReelContainer(token, igUserId, reel('/clip.mp4', { collaborators: ['a', 'b', 'c', 'd'] })), 'invalid_request');
    await expectMetaError(client.createReelContainer(token, igUserId, reel('/clip.mp4', { collaborators: ['not a name!'] })), 'invalid_request');
    await expectMetaError(client.createReelContainer(token, igUserId, { ...REEL, videoUrl: 'file:///etc/passwd' }), 'invalid_request');
    expect(fake.requestsTo('create_container')).toHaveLength(0);
  });
});

describe('content publishing limit', () => {
  it('reads the quota and its use, and turns a spent quota into rate_limited on media_publish', async () => {
    const { client, token, igUserId } = await account();
    await expect(client.publishingLimit(token, igUserId)).resolves.toEqual({ used: 0, total: 100, windowSeconds: 86_400 });
    expect(fake.requestsTo('publishing_limit')[0]?.query).toEqual({ fields: 'quota_usage,config' });
    const first = await client.createReelContainer(token, igUserId, reel('/clip.mp4'));
    await client.waitForContainer(token, first);
    await client.publishContainer(token, igUserId, first);
    fake.setPublishQuota(1);
    await expect(client.publishingLimit(token, igUserId)).resolves.toEqual({ used: 1, total: 1, windowSeconds: 86_400 });
    const second = await client.createReelContainer(token, igUserId, reel('/clip.mp4'));
    await client.waitForContainer(token, second);
    const limited = await expectMetaError(client.publishContainer(token, igUserId, second), 'rate_limited', '9/2207042');
    expect(limited.retryable).toBe(true);
    expect(limited.message).toMatch(/as many posts through apps as Instagram allows in 24 hours/);
    // A day later the window has moved on.
    fake.advanceTime(86_400_000 + 1);
    await expect(client.publishingLimit(token, igUserId)).resolves.toMatchObject({ used: 0 });
    await expect(client.publishContainer(token, igUserId, first)).rejects.toMatchObject({ kind: 'already_published' });
  });
});

describe('insights', () => {
  async function published(): Promise<{ client: InstagramClient; token: string; mediaId: string }> {
    const { client, token, igUserId } = await account();
    const containerId = await client.createReelContainer(token, igUserId, reel('/clip.mp4'));
    await client.waitForContainer(token, containerId);
    return { client, token, mediaId: await client.publishContainer(token, igUserId, containerId) };
  }

  it('reads views, likes, comments and shares in one call', async () => {
    const { client, token, mediaId } = await published();
    fake.setCounts(mediaId, { views: 12_345, likes: 678, comments: 90, shares: 12 });
    await expect(client.getInsights(token, mediaId)).resolves.toEqual({ views: 12_345, likes: 678, comments: 90, shares: 12 });
    expect(fake.requestsTo('insights').map((request) => request.query.metric)).toEqual(['views,likes,comments,shares']);
  });

  it('asks each metric alone when one is refused, and takes likes and comments from the media when those are', async () => {
    const { client, token, mediaId } = await published();
    fake.setCounts(mediaId, { views: 500, likes: 40, comments: 3, shares: 7 });
    fake.refuseMetric('shares');
    await expect(client.getInsights(token, mediaId)).resolves.toEqual({ views: 500, likes: 40, comments: 3, shares: null });
    expect(fake.requestsTo('insights').map((request) => [request.query.metric, request.status])).toEqual([
      ['views,likes,comments,shares', 400],
      ['views', 200],
      ['likes', 200],
      ['comments', 200],
      ['shares', 400],
    ]);
    fake.reset();
    fake.refuseMetric('likes');
    fake.refuseMetric('comments');
    await expect(client.getInsights(token, mediaId)).resolves.toEqual({ views: 500, likes: 40, comments: 3, shares: 7 });
    expect(fake.requestsTo('node').at(-1)?.query.fields).toBe('like_count,comments_count');
  });
});

describe('Graph errors', () => {
  const cases: [string, { code: number; subcode?: number; status?: number }, MetaErrorKind][] = [
    ['application rate limit (4)', { code: 4 }, 'rate_limited'],
    ['user rate limit (17)', { code: 17 }, 'rate_limited'],
    ['page rate limit (32)', { code: 32 }, 'rate_limited'],
    ['too many calls to this account (613)', { code: 613 }, 'rate_limited'],
    ['Instagram business use case limit (80002)', { code: 80002 }, 'rate_limited'],
    ['a dead token (190)', { code: 190, subcode: 460 }, 'reconnect_required'],
    ['a missing permission (10)', { code: 10 }, 'reconnect_required'],
    ['a media download failure (9004/2207052)', { code: 9004, subcode: 2207052 }, 'media_rejected'],
    ['an unsupported format (352/2207026)', { code: 352, subcode: 2207026 }, 'media_rejected'],
    ['a restricted account (25/2207050)', { code: 25, subcode: 2207050 }, 'blocked'],
    ['suspected spam (4/2207051)', { code: 4, subcode: 2207051 }, 'blocked'],
    ['a temporary publishing error (24/2207008)', { code: 24, subcode: 2207008 }, 'upstream'],
    ['a bad parameter (100)', { code: 100 }, 'invalid_request'],
  ];
  it.each(cases)('maps %s', async (_name, failure, kind) => {
    const { client, token, igUserId } = await account();
    fake.failNext('create_container', failure);
    const error = await expectMetaError(client.createReelContainer(token, igUserId, reel('/clip.mp4')), kind);
    expect(error.graphCode).toBe(failure.code);
    expect(error.graphSubcode).toBe(failure.subcode ?? null);
    expect(error.code).toBe(failure.subcode === undefined ? String(failure.code) : `${failure.code}/${failure.subcode}`);
  });

  it('retries a 5xx and gives up after three attempts with a retryable upstream error', async () => {
    const { client, sleeps, token } = await account();
    fake.failNext('me', 503);
    await expect(client.getMe(token)).resolves.toMatchObject({ username: expect.any(String) });
    expect(sleeps).toEqual([1_000]);
    fake.failNext('me', 500, 3);
    const error = await expectMetaError(client.getMe(token), 'upstream', '2');
    expect(error.retryable).toBe(true);
    expect(fake.requestsTo('me').map((request) => request.status)).toEqual([200, 503, 200, 500, 500, 500]);
  });

  it('does not resend media_publish after a lost answer: the container says whether it went out', async () => {
    const { client, token, igUserId } = await account();
    const containerId = await client.createReelContainer(token, igUserId, reel('/clip.mp4'));
    await client.waitForContainer(token, containerId);
    fake.failNext('publish', 503);
    await expectMetaError(client.publishContainer(token, igUserId, containerId), 'upstream');
    expect(fake.requestsTo('publish')).toHaveLength(1);
    await expect(client.publishContainer(token, igUserId, containerId)).resolves.toMatch(/^\d+$/);
  });

  it('never puts a token, a secret or a code in an error, even when Meta echoes one', async () => {
    const { client, token, igUserId, user } = await account();
    const errors: unknown[] = [];
    const collect = async (promise: Promise<unknown>) => errors.push(await promise.then(() => null, (error: unknown) => error));
    fake.failNext('me', { code: 190, message: `Error validating access token: ${token} is not valid` });
    await collect(client.getMe(token));
    fake.failNext('exchange', { code: 100, message: `Invalid token ${token} for secret ${fake.clientSecret}` });
    fake.setAuthorizingUser(user.userId);
    const code = (await authorize(client)).query.get('code') ?? '';
    await collect(client.exchangeCode({ code }));
    fake.failNext('token', { code: 400, message: `code ${code} refused for ${fake.clientSecret}` });
    await collect(client.exchangeCode({ code }));
    fake.failNext('refresh', { code: 190, message: `Session for ${token} has expired` });
    await collect(client.refreshToken(token));
    fake.failNext('create_container', { code: 9004, subcode: 2207052, message: `could not fetch https://x.example/clip.mp4?access_token=${token}&sig=abc` });
    await collect(client.createReelContainer(token, igUserId, reel('/clip.mp4')));
    fake.revoke(user.userId);
    await collect(client.publishingLimit(token, igUserId));
    expect(errors.every((error) => isMetaError(error))).toBe(true);
    expect(errors).toHaveLength(6);
    for (const error of errors as MetaError[]) {
      const everything = [error.message, error.detail, String(error), JSON.stringify(error), error.stack ?? ''].join('\n');
      for (const secret of [token, fake.clientSecret, code]) expect(everything).not.toContain(secret);
    }
    expect((errors[0] as MetaError).detail).toContain('[redacted]');
  });
});

describe('parseMetaJson', () => {
  it('keeps ids above 2^53 exact and leaves other numbers alone', () => {
    expect(parseMetaJson('{"user_id": 17841405793187218, "expires_in": 5183944, "data":[{"id":27001234567890123}]}')).toEqual({
      user_id: '17841405793187218',
      expires_in: 5183944,
      data: [{ id: '27001234567890123' }],
    });
    expect(parseMetaJson('not json')).toBeUndefined();
    expect(parseMetaJson('')).toBeUndefined();
  });
});
