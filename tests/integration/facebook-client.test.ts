import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadEnv } from '../../server/src/platform/env.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { callbackError, facebookFromEnv, missingPermissions, type FacebookClient, type FacebookPage } from '../../server/src/engines/providers/facebook/index.ts';
import type { ReelUpload } from '../../server/src/engines/providers/facebook/types.ts';
import { createFacebookClient, type FacebookClientConfig } from '../../server/src/engines/providers/facebook/client.ts';
import { isMetaError, MetaError, type MetaErrorKind } from '../../server/src/engines/providers/meta/errors.ts';
import { PAGE_SCOPES, startFakeFacebook, type FakeFacebook, type FakeFacebookUser, type FakePage } from '../fakes/facebook/index.ts';

const MIB = 1024 * 1024;
const REDIRECT_URI = 'http://127.0.0.1:9/api/facebook/callback';
const CLIENT_NOW = Date.UTC(2026, 4, 1, 12);
const LONG_LIVED_MS = 5_183_944_000;

let fake: FakeFacebook;
let workDir: string;
/** Random bytes of an odd size, so a byte sent twice, skipped or cut wrong cannot go unnoticed. */
let video: { path: string; bytes: Buffer };

beforeAll(async () => {
  fake = await startFakeFacebook({ redirectUris: [REDIRECT_URI] });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-facebook-client-'));
  video = { path: path.join(workDir, 'reel.mp4'), bytes: randomBytes(3 * MIB + 12_345) };
  await writeFile(video.path, video.bytes);
});

afterAll(async () => {
  await fake.close();
  await rm(workDir, { recursive: true, force: true });
});

beforeEach(() => fake.reset());

interface TestClient {
  client: FacebookClient;
  sleeps: number[];
}

function makeClient(overrides: Partial<FacebookClientConfig> = {}, onSleep?: () => void): TestClient {
  const sleeps: number[] = [];
  const client = createFacebookClient({
    appId: fake.appId,
    appSecret: fake.appSecret,
    authUrl: fake.authUrl,
    graphUrl: fake.graphUrl,
    ruploadUrl: fake.ruploadUrl,
    redirectUri: REDIRECT_URI,
    logger: createLogger('silent'),
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      onSleep?.();
      signal?.throwIfAborted();
    },
    now: () => CLIENT_NOW,
    ...overrides,
  });
  return { client, sleeps };
}

let userCount = 0;
function addUser(pages = 1): { user: FakeFacebookUser; pages: FakePage[] } {
  userCount++;
  return fake.addUser(`Creator ${userCount}`, Array.from({ length: pages }, (_, index) => `Creator ${userCount} Page ${index + 1}`));
}

/** The browser's part: open the dialog URL and read the redirect it answers with. */
async function authorize(client: FacebookClient, state = `state-${randomBytes(4).toString('hex')}`): Promise<URLSearchParams> {
  const response = await fetch(client.buildAuthorizeUrl({ state }), { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  expect(location.searchParams.get('state')).toBe(state);
  return location.searchParams;
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
  expect({ kind: metaError.kind, code: metaError.code, platform: metaError.platform }).toEqual({ kind, code: code ?? metaError.code, platform: 'facebook' });
  return metaError;
}

/** A person connected through the dialog, and their first Page as the client lists it. */
async function connectedPage(): Promise<{ client: FacebookClient; sleeps: number[]; user: FakeFacebookUser; userToken: string; page: FacebookPage }> {
  const { client, sleeps } = makeClient();
  const { user } = addUser();
  fake.setAuthorizingUser(user.userId);
  const userToken = (await client.exchangeCode({ code: (await authorize(client)).get('code') ?? '' })).accessToken;
  const [page] = await client.listPages(userToken);
  if (!page) throw new Error('no Page listed');
  return { client, sleeps, user, userToken, page };
}

function ruploads(): { offset: string | undefined; fileSize: string | undefined; status: number }[] {
  return fake.requestsTo('rupload').map((request) => ({ offset: request.offset, fileSize: request.fileSize, status: request.status }));
}

// ---------------------------------------------------------------------------------------------

describe('configuration', () => {
  it('is off without app id and secret, and defaults to Facebook and PUBLIC_URL + /api/facebook/callback', () => {
    const env = loadEnv({ PUBLIC_URL: 'https://clips.example' });
    expect(facebookFromEnv(env, createLogger('silent'))).toBeNull();
    expect(facebookFromEnv({ ...env, FACEBOOK_APP_SECRET: 'secret' }, createLogger('silent'))).toBeNull();
    expect(env).toMatchObject({
      FACEBOOK_AUTH_URL: 'https://www.facebook.com/v21.0/dialog/oauth',
      FACEBOOK_GRAPH_URL: 'https://graph.facebook.com/v21.0',
      FACEBOOK_RUPLOAD_URL: 'https://rupload.facebook.com',
      facebookRedirectUri: 'https://clips.example/api/facebook/callback',
    });
    const configured = loadEnv({ ...fake.env, FACEBOOK_REDIRECT_URI: REDIRECT_URI });
    expect(facebookFromEnv(configured, createLogger('silent'))?.buildAuthorizeUrl({ state: 's' })).toContain(fake.authUrl);
    expect(() => loadEnv({ FACEBOOK_RUPLOAD_URL: 'rupload' })).toThrow(/FACEBOOK_RUPLOAD_URL/);
  });
});

describe('Facebook Login', () => {
  it('builds the dialog URL with the four Page permissions', () => {
    const url = new URL(makeClient().client.buildAuthorizeUrl({ state: 'abc' }));
    expect(`${url.origin}${url.pathname}`).toBe(fake.authUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: fake.appId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'pages_show_list,pages_read_engagement,pages_manage_posts,publish_video',
      state: 'abc',
    });
  });

  it('exchanges the code for a user token, then for a long-lived one, and reads what was granted', async () => {
    const { client } = makeClient();
    const { user } = addUser();
    fake.setAuthorizingUser(user.userId);
    const code = (await authorize(client)).get('code') ?? '';
    const token = await client.exchangeCode({ code });
    expect(token).toEqual({ accessToken: expect.stringMatching(/^EAAG/), expiresAt: new Date(CLIENT_NOW + LONG_LIVED_MS) });
    const [first, second] = fake.requestsTo('token');
    expect(first?.query).toEqual({ client_id: fake.appId, redirect_uri: REDIRECT_URI, client_secret: fake.appSecret, code });
    expect(second?.query).toEqual({ grant_type: 'fb_exchange_token', client_id: fake.appId, client_secret: fake.appSecret, fb_exchange_token: expect.stringMatching(/^EAAG/) });
    expect(second?.query.fb_exchange_token).not.toBe(token.accessToken);
    const granted = await client.grantedPermissions(token.accessToken);
    expect(missingPermissions(granted)).toEqual([]);
    expect(fake.requestsTo('permissions')[0]?.authorization).toBe(`Bearer ${token.accessToken}`);
  });

  it('names the permissions a person unticked', async () => {
    const { client } = makeClient();
    const { user } = addUser();
    fake.setAuthorizingUser(user.userId, { grantScopes: ['pages_show_list', 'pages_read_engagement'] });
    const token = await client.exchangeCode({ code: (await authorize(client)).get('code') ?? '' });
    expect(missingPermissions(await client.grantedPermissions(token.accessToken))).toEqual(['pages_manage_posts', 'publish_video']);
  });

  it('refuses a used code, a wrong secret, another redirect URI and a refused dialog with typed errors', async () => {
    const { client } = makeClient();
    const { user } = addUser();
    fake.setAuthorizingUser(user.userId);
    const code = (await authorize(client)).get('code') ?? '';
    await client.exchangeCode({ code });
    const used = await expectMetaError(client.exchangeCode({ code }), 'reconnect_required', '100/36009');
    expect(used.message).toMatch(/connect the account again/);
    const second = (await authorize(client)).get('code') ?? '';
    const secret = await expectMetaError(makeClient({ appSecret: 'wrong' }).client.exchangeCode({ code: second }), 'config', '1');
    expect(secret.message).toMatch(/FACEBOOK_APP_ID and FACEBOOK_APP_SECRET/);
    await expectMetaError(client.exchangeCode({ code: second, redirectUri: 'http://127.0.0.1:9/other' }), 'config', '100/36008');
    fake.denyAuthorization();
    const denied = await authorize(client);
    expect(callbackError(denied)).toMatchObject({ kind: 'access_denied', platform: 'facebook', code: 'access_denied' });
  });
});

describe('Pages', () => {
  it('lists every Page with its token, following the cursor with the token kept out of URLs', async () => {
    const { client } = makeClient();
    const { user, pages } = addUser(5);
    const userToken = fake.issueUserToken(user.userId);
    fake.setMaxPageSize(2);
    const listed = await client.listPages(userToken);
    expect(listed).toEqual(
      pages.map((page) => ({ pageId: page.pageId, name: page.name, accessToken: fake.pageToken(user.userId, page.pageId), pictureUrl: page.pictureUrl, tasks: page.tasks })),
    );
    const requests = fake.requestsTo('accounts');
    expect(requests).toHaveLength(3);
    expect(requests.map((request) => request.query.after === undefined)).toEqual([true, false, false]);
    expect(requests.every((request) => request.query.access_token === undefined && request.authorization === `Bearer ${userToken}`)).toBe(true);
    expect(requests[0]?.query.fields).toBe('id,name,access_token,picture,tasks');
  });

  it('reads a revoked grant as reconnect needed, for the user token and its Page tokens', async () => {
    const { client, user, userToken, page } = await connectedPage();
    fake.revoke(user.userId);
    await expectMetaError(client.listPages(userToken), 'reconnect_required', '190/458');
    await expectMetaError(client.startReel(page.accessToken, page.pageId), 'reconnect_required', '190/458');
  });
});

describe('Reel upload', () => {
  it('starts, sends the bytes to the upload host with the Page token, finishes and publishes', async () => {
    const { client, page } = await connectedPage();
    const reel = await client.startReel(page.accessToken, page.pageId);
    expect(reel.uploadUrl).toBe(`${fake.ruploadUrl}/video-upload/v21.0/${reel.videoId}`);
    expect(fake.requestsTo('reels_start')[0]?.params).toEqual({ upload_phase: 'start' });
    const progress: number[] = [];
    await client.uploadBytes(page.accessToken, reel, video.path, video.bytes.length, { onProgress: (received) => progress.push(received) });
    const stored = fake.reels.get(reel.videoId);
    expect(stored?.bytes().equals(video.bytes)).toBe(true);
    expect(stored?.bytesReceived).toBe(video.bytes.length);
    expect(ruploads()).toEqual([{ offset: '0', fileSize: String(video.bytes.length), status: 200 }]);
    expect(fake.requestsTo('rupload')[0]?.authorization).toBe(`OAuth ${page.accessToken}`);
    expect(progress).toEqual([video.bytes.length]);
    await expect(client.reelStatus(page.accessToken, reel.videoId)).resolves.toMatchObject({ videoStatus: 'upload_complete', uploading: { status: 'complete', bytesTransferred: video.bytes.length } });

    await client.finishReel(page.accessToken, page.pageId, reel.videoId, { description: 'Clutch 1v4 #cs2' });
    expect(fake.requestsTo('reels_finish')[0]?.params).toEqual({ upload_phase: 'finish', video_id: reel.videoId, video_state: 'PUBLISHED', description: 'Clutch 1v4 #cs2' });
    await expect(client.reelStatus(page.accessToken, reel.videoId)).resolves.toEqual({
      videoId: reel.videoId,
      videoStatus: 'ready',
      uploading: { status: 'complete', bytesTransferred: video.bytes.length },
      processing: { status: 'complete', error: null },
      publishing: { status: 'complete', publishStatus: 'published', error: null },
    });
    expect(fake.publishedReels().find((entry) => entry.videoId === reel.videoId)).toMatchObject({ pageId: page.pageId, pageName: page.name, description: 'Clutch 1v4 #cs2', bytes: video.bytes.length });
  });

  it('resumes a connection broken mid-way from the offset Facebook reports, sending no byte twice that it kept', async () => {
    const { client, sleeps, page } = await connectedPage();
    const reel = await client.startReel(page.accessToken, page.pageId);
    const size = video.bytes.length;
    fake.breakNextUpload({ afterBytes: 1_000_003 });
    fake.breakNextUpload({ afterBytes: 777_777 });
    await client.uploadBytes(page.accessToken, reel, video.path, size);
    const stored = fake.reels.get(reel.videoId);
    expect(stored?.bytes().equals(video.bytes)).toBe(true);
    expect(stored?.breaks.map((cut) => ({ offset: cut.offset, kept: cut.kept }))).toEqual([
      { offset: 0, kept: 1_000_003 },
      { offset: 1_000_003, kept: 777_777 },
    ]);
    const extra = (stored?.breaks ?? []).reduce((total, cut) => total + cut.read - cut.kept, 0);
    expect(stored?.bytesReceived).toBe(size + extra);
    expect(ruploads().map((request) => [request.offset, request.status])).toEqual([
      ['0', 0],
      ['1000003', 0],
      ['1777780', 200],
    ]);
    expect(fake.requestsTo('video').map((request) => request.query.fields)).toEqual(['status', 'status']);
    expect(sleeps).toEqual([1_000, 1_000]);
  });

  it('lets a job that crashed mid-upload resume from reelStatus with startAt', async () => {
    const controller = new AbortController();
    const { client: crashing } = makeClient({}, () => controller.abort());
    const { page } = await connectedPage();
    const reel = await crashing.startReel(page.accessToken, page.pageId);
    const size = video.bytes.length;
    fake.breakNextUpload({ afterBytes: 2 * MIB });
    await expectMetaError(crashing.uploadBytes(page.accessToken, reel, video.path, size, { signal: controller.signal }), 'aborted');
    const { client } = makeClient();
    const status = await client.reelStatus(page.accessToken, reel.videoId);
    expect(status.uploading).toEqual({ status: 'in_progress', bytesTransferred: 2 * MIB });
    await client.uploadBytes(page.accessToken, reel, async (from, to) => video.bytes.subarray(from, to), size, { startAt: status.uploading.bytesTransferred ?? 0 });
    expect(fake.reels.get(reel.videoId)?.bytes().equals(video.bytes)).toBe(true);
    expect(ruploads().map((request) => request.offset)).toEqual(['0', String(2 * MIB)]);
  });

  it('asks where the upload stands after a 5xx and sends again from there; a refusal stops at once', async () => {
    const { client, page } = await connectedPage();
    const reel = await client.startReel(page.accessToken, page.pageId);
    fake.failNext('rupload', 503);
    await client.uploadBytes(page.accessToken, reel, video.path, video.bytes.length);
    expect(ruploads().map((request) => [request.offset, request.status])).toEqual([
      ['0', 503],
      ['0', 200],
    ]);
    expect(fake.reels.get(reel.videoId)?.bytes().equals(video.bytes)).toBe(true);

    const other = await client.startReel(page.accessToken, page.pageId);
    fake.failNext('rupload', { status: 400, code: 0, message: 'The video file is corrupt' });
    const refused = await expectMetaError(client.uploadBytes(page.accessToken, other, video.path, video.bytes.length), 'upload_failed', 'upload_rejected');
    expect(refused.detail).toMatch(/corrupt/);
  });

  it('gives up after five failures in a row without progress', async () => {
    const { client, sleeps, page } = await connectedPage();
    const reel = await client.startReel(page.accessToken, page.pageId);
    fake.failNext('rupload', 500, 5);
    await expectMetaError(client.uploadBytes(page.accessToken, reel, video.path, video.bytes.length), 'upload_failed', 'upload_server_error');
    expect(sleeps).toEqual([1_000, 2_000, 4_000, 8_000]);
  });

  it('sends the Page token to no upload URL outside FACEBOOK_RUPLOAD_URL', async () => {
    const { client, page } = await connectedPage();
    const reel = await client.startReel(page.accessToken, page.pageId);
    const elsewhere: ReelUpload = { videoId: reel.videoId, uploadUrl: `${fake.url}/video-upload/v21.0/${reel.videoId}` };
    const error = await expectMetaError(client.uploadBytes(page.accessToken, elsewhere, video.path, video.bytes.length), 'invalid_request', 'upload_untrusted');
    expect(error.message).toMatch(/FACEBOOK_RUPLOAD_URL/);
    expect(fake.requests.filter((request) => request.authorization?.includes(page.accessToken) && request.endpoint !== 'reels_start')).toEqual([]);
  });

  it('refuses an empty, oversized or changed file before sending it', async () => {
    const { client, page } = await connectedPage();
    const reel = await client.startReel(page.accessToken, page.pageId);
    await expectMetaError(client.uploadBytes(page.accessToken, reel, video.path, 0), 'file', 'video_empty');
    const tooBig = await expectMetaError(client.uploadBytes(page.accessToken, reel, async () => new Uint8Array(0), 1_000_000_001), 'file', 'video_too_large');
    expect(tooBig.message).toBe('The video is larger than the 1 GB Facebook Reels accept.');
    await expectMetaError(client.uploadBytes(page.accessToken, reel, video.path, video.bytes.length - 1), 'file', 'video_changed');
    expect(fake.requestsTo('rupload')).toHaveLength(0);
  });

  it('reports processing as it goes, and a processing failure with its reason', async () => {
    const { client, page } = await connectedPage();
    fake.setPollsToProcess(2);
    const reel = await client.startReel(page.accessToken, page.pageId);
    await expectMetaError(client.finishReel(page.accessToken, page.pageId, reel.videoId, { description: 'early' }), 'invalid_request', '6000');
    await client.uploadBytes(page.accessToken, reel, video.path, video.bytes.length);
    await client.finishReel(page.accessToken, page.pageId, reel.videoId, { description: 'Ace' });
    const phases = [];
    for (let read = 0; read < 3; read++) {
      const status = await client.reelStatus(page.accessToken, reel.videoId);
      phases.push([status.videoStatus, status.processing.status, status.publishing.status]);
    }
    expect(phases).toEqual([
      ['processing', 'in_progress', 'not_started'],
      ['processing', 'in_progress', 'not_started'],
      ['ready', 'complete', 'complete'],
    ]);
    const failing = await client.startReel(page.accessToken, page.pageId);
    await client.uploadBytes(page.accessToken, failing, video.path, video.bytes.length);
    await client.finishReel(page.accessToken, page.pageId, failing.videoId, { description: 'Broken' });
    fake.failProcessing(failing.videoId, 'The video has no picture.');
    await expect(client.reelStatus(page.accessToken, failing.videoId)).resolves.toMatchObject({ videoStatus: 'error', processing: { status: 'error', error: 'The video has no picture. (1363008)' } });
  });

  it('does not resend finish after a failure: the status says whether the Reel went out', async () => {
    const { client, page } = await connectedPage();
    const reel = await client.startReel(page.accessToken, page.pageId);
    await client.uploadBytes(page.accessToken, reel, video.path, video.bytes.length);
    fake.failNext('reels_finish', 503);
    await expectMetaError(client.finishReel(page.accessToken, page.pageId, reel.videoId, { description: 'x' }), 'upstream');
    expect(fake.requestsTo('reels_finish')).toHaveLength(1);
    await expect(client.reelStatus(page.accessToken, reel.videoId)).resolves.toMatchObject({ videoStatus: 'upload_complete' });
  });
});

describe('insights', () => {
  async function publishedReel(): Promise<{ client: FacebookClient; page: FacebookPage; videoId: string }> {
    const { client, page } = await connectedPage();
    const reel = await client.startReel(page.accessToken, page.pageId);
    await client.uploadBytes(page.accessToken, reel, async (from, to) => video.bytes.subarray(from, to), 300_000);
    await client.finishReel(page.accessToken, page.pageId, reel.videoId, { description: 'GG' });
    return { client, page, videoId: reel.videoId };
  }

  it('reads plays, reactions, comments and shares from the Reel insights', async () => {
    const { client, page, videoId } = await publishedReel();
    await expect(client.getInsights(page.accessToken, videoId)).resolves.toEqual({ views: 0, likes: 0, comments: 0, shares: 0 });
    fake.setCounts(videoId, { views: 4_321, likes: 210, comments: 33, shares: 9 });
    await expect(client.getInsights(page.accessToken, videoId)).resolves.toEqual({ views: 4_321, likes: 210, comments: 33, shares: 9 });
    expect(fake.requestsTo('video_insights')[0]?.query.metric).toBe('blue_reels_play_count,post_video_likes_by_reaction_type,post_video_social_actions');
    expect(fake.publishedReels().find((entry) => entry.videoId === videoId)).toMatchObject({ views: 4_321, likes: 210, comments: 33, shares: 9 });
  });

  it('falls back to the like and comment totals when the insights are refused, but not when the token is dead', async () => {
    const { client, page, videoId } = await publishedReel();
    fake.setCounts(videoId, { views: 100, likes: 12, comments: 4, shares: 2 });
    fake.refuseInsights();
    await expect(client.getInsights(page.accessToken, videoId)).resolves.toEqual({ views: null, likes: 12, comments: 4, shares: null });
    expect(fake.requestsTo('video').at(-1)?.query.fields).toBe('likes.summary(true).limit(0),comments.summary(true).limit(0)');
    fake.refuseInsights({ code: 10, message: '(#10) Insights not granted' });
    await expect(client.getInsights(page.accessToken, videoId)).resolves.toMatchObject({ likes: 12, comments: 4 });
    fake.refuseInsights({ code: 190, subcode: 460 });
    await expectMetaError(client.getInsights(page.accessToken, videoId), 'reconnect_required', '190/460');
  });
});

describe('Graph errors', () => {
  const cases: [string, number | { code: number; subcode?: number }, MetaErrorKind, string][] = [
    ['application rate limit (4)', { code: 4 }, 'rate_limited', '4'],
    ['user rate limit (17)', { code: 17 }, 'rate_limited', '17'],
    ['Page rate limit (32)', { code: 32 }, 'rate_limited', '32'],
    ['too many calls (613)', { code: 613 }, 'rate_limited', '613'],
    ['Page business use case limit (80001)', { code: 80001 }, 'rate_limited', '80001'],
    ['an expired session (190/463)', { code: 190, subcode: 463 }, 'reconnect_required', '190/463'],
    ['a permission error (200)', { code: 200 }, 'reconnect_required', '200'],
    ['a policy block (368)', { code: 368 }, 'blocked', '368'],
    ['three 5xx in a row', 503, 'upstream', '2'],
  ];
  it.each(cases)('maps %s', async (_name, failure, kind, code) => {
    const { client, page } = await connectedPage();
    fake.failNext('reels_start', failure, typeof failure === 'number' ? 3 : 1);
    const error = await expectMetaError(client.startReel(page.accessToken, page.pageId), kind, code);
    expect(error.retryable).toBe(kind === 'rate_limited' || kind === 'upstream');
  });

  it('never puts a token, the app secret or a code in an error, even when Meta echoes one', async () => {
    const { client, user, userToken, page } = await connectedPage();
    const errors: unknown[] = [];
    const collect = async (promise: Promise<unknown>) => errors.push(await promise.then(() => null, (error: unknown) => error));
    fake.setAuthorizingUser(user.userId);
    const code = (await authorize(client)).get('code') ?? '';
    fake.failNext('token', { code: 100, message: `Invalid code ${code} for secret ${fake.appSecret}` });
    await collect(client.exchangeCode({ code }));
    fake.failNext('accounts', { code: 190, message: `Error validating access token ${userToken}` });
    await collect(client.listPages(userToken));
    const reel = await client.startReel(page.accessToken, page.pageId);
    fake.failNext('rupload', { status: 400, code: 0, message: `Bad Authorization: OAuth ${page.accessToken}` });
    await collect(client.uploadBytes(page.accessToken, reel, video.path, video.bytes.length));
    fake.failNext('reels_finish', { code: 100, message: `?access_token=${page.accessToken}&video_id=${reel.videoId}` });
    await collect(client.finishReel(page.accessToken, page.pageId, reel.videoId, { description: 'x' }));
    fake.failNext('video_insights', { code: 190, message: `token ${page.accessToken} expired` });
    await collect(client.getInsights(page.accessToken, reel.videoId));
    expect(errors).toHaveLength(5);
    expect(errors.every((error) => isMetaError(error))).toBe(true);
    for (const error of errors as MetaError[]) {
      const everything = [error.message, error.detail, String(error), JSON.stringify(error), error.stack ?? ''].join('\n');
      for (const secret of [userToken, page.accessToken, fake.appSecret, code]) expect(everything).not.toContain(secret);
    }
  });
});

describe('the fake', () => {
  it('holds uploads to the offset it has: a client that skips or repeats bytes is refused', async () => {
    const { client, page } = await connectedPage();
    const reel = await client.startReel(page.accessToken, page.pageId);
    const send = (offset: number, body: Buffer) =>
      fetch(reel.uploadUrl, { method: 'POST', headers: { Authorization: `OAuth ${page.accessToken}`, offset: String(offset), file_size: String(video.bytes.length) }, body: new Uint8Array(body) });
    const skipped = await send(10, video.bytes.subarray(10));
    expect(skipped.status).toBe(400);
    expect(await skipped.json()).toMatchObject({ debug_info: { type: 'OffsetMismatchError', retriable: false } });
    const noHeaders = await fetch(reel.uploadUrl, { method: 'POST', headers: { Authorization: `OAuth ${page.accessToken}` }, body: new Uint8Array(video.bytes.subarray(0, 10)) });
    expect(noHeaders.status).toBe(400);
    const userToken = await fetch(reel.uploadUrl, { method: 'POST', headers: { Authorization: 'OAuth EAAGnotapagetoken', offset: '0', file_size: '10' }, body: new Uint8Array(10) });
    expect(userToken.status).toBe(401);
    expect(fake.reels.get(reel.videoId)?.received).toBe(0);
    expect(PAGE_SCOPES).toContain('publish_video');
  });
});
