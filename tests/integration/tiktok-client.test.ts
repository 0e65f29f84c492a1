import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newCodeVerifier } from '../../server/src/platform/pkce.ts';
import { loadEnv } from '../../server/src/platform/env.ts';
import { createLogger, type Logger } from '../../server/src/platform/logger.ts';
import { assertDurationAllowed, callbackError, planChunks, tiktokFromEnv, type TikTokClient, type TikTokTokens } from '../../server/src/engines/providers/tiktok/index.ts';
import { createTikTokClient, type TikTokClientConfig } from '../../server/src/engines/providers/tiktok/client.ts';
import { explainDurationTooLong, explainTikTokError, TikTokError, type TikTokErrorKind } from '../../server/src/engines/providers/tiktok/errors.ts';
import { MAX_VIDEO_SIZE, MIB } from '../../server/src/engines/providers/tiktok/chunks.ts';
import { missingScopes } from '../../server/src/engines/providers/tiktok/oauth.ts';
import { resumeChunkIndex } from '../../server/src/engines/providers/tiktok/upload.ts';
import { type DirectPostInfo } from '../../server/src/engines/providers/tiktok/types.ts';
import { chunkRuleViolation, startFakeTikTok, type FakeTikTok, type FakeTikTokUser } from '../fakes/tiktok/index.ts';

const REDIRECT_URI = 'http://127.0.0.1:9/api/tiktok/callback';
const RECONNECT = 'The TikTok connection has expired: reconnect the account.';

let fake: FakeTikTok;
let workDir: string;
/** Random bytes, so a chunk sent twice, out of order or shifted by one byte cannot go unnoticed. */
let sixMiB: { path: string; bytes: Buffer };
let twelveMiB: { path: string; bytes: Buffer };

beforeAll(async () => {
  fake = await startFakeTikTok({ redirectUris: [REDIRECT_URI] });
  workDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-tiktok-client-'));
  sixMiB = await randomFile('six.mp4', 6 * MIB);
  twelveMiB = await randomFile('twelve.mp4', 12 * MIB);
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
  client: TikTokClient;
  /** Every duration the client asked to sleep for (the injected sleep returns at once, moving the clock). */
  sleeps: number[];
  clock: { now: number };
}

function makeClient(overrides: Partial<TikTokClientConfig> = {}, logger: Logger = createLogger('silent')): TestClient {
  const sleeps: number[] = [];
  const clock = { now: Date.UTC(2026, 4, 1, 12) };
  const client = createTikTokClient({
    clientKey: fake.clientKey,
    clientSecret: fake.clientSecret,
    authUrl: fake.authUrl,
    apiUrl: fake.apiUrl,
    redirectUri: REDIRECT_URI,
    logger,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      clock.now += ms;
      signal?.throwIfAborted();
    },
    now: () => clock.now,
    ...overrides,
  });
  return { client, sleeps, clock };
}

let userCount = 0;
function addUser(overrides: Partial<Parameters<FakeTikTok['addUser']>[0]> = {}): FakeTikTokUser {
  userCount++;
  return fake.addUser({ displayName: `Creator ${userCount}`, username: `creator_${userCount}`, ...overrides });
}

/** The PKCE verifier of the flows these tests start (the app draws one per flow). */
const VERIFIER = newCodeVerifier();
/** A code of a flow started with VERIFIER, as the callback hands it to the exchange. */
const grant = (code: string | null) => ({ code: code ?? '', codeVerifier: VERIFIER });

/** The browser's part of Login Kit: open the authorize URL and read the redirect it answers with. */
async function authorize(client: TikTokClient, state = `state-${randomBytes(4).toString('hex')}`): Promise<URLSearchParams> {
  const response = await fetch(client.buildAuthorizeUrl({ state, codeVerifier: VERIFIER }), { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  expect(location.searchParams.get('state')).toBe(state);
  return location.searchParams;
}

async function connect(client: TikTokClient, user: FakeTikTokUser): Promise<TikTokTokens> {
  fake.setAuthorizingUser(user.openId);
  const callback = await authorize(client);
  return client.exchangeCode(grant(callback.get('code')));
}

async function expectTikTokError(promise: Promise<unknown>, kind: TikTokErrorKind, code?: string | null): Promise<TikTokError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a TikTokError of kind ${kind}, but the call succeeded`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TikTokError);
  const tiktokError = error as TikTokError;
  expect({ kind: tiktokError.kind, code: tiktokError.code }).toEqual({ kind, code: code === undefined ? tiktokError.code : code });
  return tiktokError;
}

const SELF_ONLY_POST: DirectPostInfo = { title: 'Clutch play #gaming', privacyLevel: 'SELF_ONLY', disableComment: false, disableDuet: false, disableStitch: true };

function statusesSince(endpoint: Parameters<FakeTikTok['requestsTo']>[0], since: number): number[] {
  return fake.requests.slice(since).filter((request) => request.endpoint === endpoint).map((request) => request.status);
}

// ---------------------------------------------------------------------------------------------

describe('planChunks (pure)', () => {
  it('sends 1 byte and 4.9 MB as one chunk whose chunk_size is the video size', () => {
    expect(planChunks(1)).toEqual({ videoSize: 1, chunkSize: 1, totalChunkCount: 1, chunks: [{ index: 0, start: 0, end: 0, size: 1 }] });
    const size = Math.floor(4.9 * MIB);
    expect(planChunks(size)).toEqual({ videoSize: size, chunkSize: size, totalChunkCount: 1, chunks: [{ index: 0, start: 0, end: size - 1, size }] });
  });

  it('sends exactly 5 MB as one chunk (smaller than the 10 MiB chunk size)', () => {
    const size = 5 * MIB;
    expect(planChunks(size)).toMatchObject({ chunkSize: size, totalChunkCount: 1, chunks: [{ start: 0, end: size - 1, size }] });
  });

  it('cuts 64 MB into 10 MiB chunks, the last one absorbing the remainder', () => {
    const plan = planChunks(64 * MIB);
    expect(plan.chunkSize).toBe(10 * MIB);
    expect(plan.totalChunkCount).toBe(6);
    expect(plan.chunks.at(-1)).toEqual({ index: 5, start: 50 * MIB, end: 64 * MIB - 1, size: 14 * MIB });
  });

  it('gives 64 MB + 1 byte to the last chunk', () => {
    const plan = planChunks(64 * MIB + 1);
    expect(plan.totalChunkCount).toBe(6);
    expect(plan.chunks.at(-1)).toEqual({ index: 5, start: 50 * MIB, end: 64 * MIB, size: 14 * MIB + 1 });
  });

  it('cuts 200 MB into twenty 10 MiB chunks', () => {
    const plan = planChunks(200 * MIB);
    expect(plan.totalChunkCount).toBe(20);
    expect(plan.chunks.every((chunk) => chunk.size === 10 * MIB)).toBe(true);
    expect(plan.chunks.at(-1)?.end).toBe(200 * MIB - 1);
  });

  it('accepts exactly 4 GB and refuses 4 GB + 1 byte and empty files with plain words', () => {
    const plan = planChunks(MAX_VIDEO_SIZE);
    expect(plan.totalChunkCount).toBe(409);
    expect(plan.chunks.at(-1)?.size).toBe(16 * MIB);
    const tooBig = (() => {
      try {
        planChunks(MAX_VIDEO_SIZE + 1);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(tooBig).toBeInstanceOf(TikTokError);
    expect(tooBig).toMatchObject({ kind: 'file', code: 'video_too_large' });
    expect((tooBig as TikTokError).message).toMatch(/larger than the 4 GB TikTok accepts/);
    expect(() => planChunks(0)).toThrow(/empty/);
  });

  it('follows the documented example with a 10,000,000-byte chunk size', () => {
    const plan = planChunks(50_000_123, { chunkSize: 10_000_000 });
    expect(plan.totalChunkCount).toBe(5);
    expect(plan.chunks.at(-1)).toEqual({ index: 4, start: 40_000_000, end: 50_000_122, size: 10_000_123 });
  });

  it('still splits a video over 64 MiB when the preferred chunk size would leave one chunk', () => {
    const plan = planChunks(64 * MIB + 1, { chunkSize: 64 * MIB });
    expect(plan.chunks.map((chunk) => chunk.size)).toEqual([32 * MIB, 32 * MIB + 1]);
    expect(() => planChunks(10 * MIB, { chunkSize: 4 * MIB })).toThrow(RangeError);
    expect(() => planChunks(10 * MIB, { chunkSize: 65 * MIB })).toThrow(RangeError);
  });

  it('produces contiguous plans that the fake accepts, for sizes around every boundary', () => {
    const sizes = [1, 5 * MIB - 1, 5_000_000, 5 * MIB, 10 * MIB - 1, 10 * MIB, 20 * MIB - 1, 20 * MIB, 64_000_000, 64 * MIB, 64 * MIB + 1, 128 * MIB + 7, 1234 * MIB + 5, MAX_VIDEO_SIZE];
    for (const size of sizes) {
      for (const chunkSize of [undefined, 5 * MIB, 64 * MIB]) {
        const plan = planChunks(size, { chunkSize });
        expect(chunkRuleViolation(plan), `size ${size}, chunk ${chunkSize}`).toBeNull();
        expect(plan.chunks.length).toBe(plan.totalChunkCount);
        expect(plan.totalChunkCount).toBe(Math.floor(size / plan.chunkSize));
        plan.chunks.forEach((chunk, index) => {
          expect(chunk.start).toBe(index * plan.chunkSize);
          expect(chunk.size).toBe(chunk.end - chunk.start + 1);
        });
        expect(plan.chunks.at(-1)?.end).toBe(size - 1);
      }
    }
  });

  it('reads the upload server’s Content-Range in either convention', () => {
    const plan = planChunks(12 * MIB, { chunkSize: 5 * MIB });
    expect(resumeChunkIndex(`bytes */${12 * MIB}`, plan)).toBe(0);
    expect(resumeChunkIndex(`bytes 0-${5 * MIB - 1}/${12 * MIB}`, plan)).toBe(1);
    expect(resumeChunkIndex(`bytes 0-${5 * MIB}/${12 * MIB}`, plan)).toBe(1);
    expect(resumeChunkIndex(`bytes 0-${12 * MIB - 1}/${12 * MIB}`, plan)).toBe(2);
    expect(resumeChunkIndex('bytes 0-12345/999', plan)).toBeNull();
    expect(resumeChunkIndex(null, plan)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------

describe('OAuth', () => {
  it('builds the authorize URL, exchanges the code and reads the user', async () => {
    const { client } = makeClient();
    const user = addUser({ displayName: 'Clip Queen', username: 'clipqueen' });
    const authorizeUrl = new URL(client.buildAuthorizeUrl({ state: 'abc', codeVerifier: VERIFIER }));
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(fake.authUrl);
    expect(Object.fromEntries(authorizeUrl.searchParams)).toEqual({
      client_key: fake.clientKey,
      scope: 'user.info.basic,user.info.profile,video.publish,video.upload,video.list',
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      state: 'abc',
      // TikTok's S256 challenge is the verifier's SHA-256 in hex.
      code_challenge: createHash('sha256').update(VERIFIER).digest('hex'),
      code_challenge_method: 'S256',
    });

    fake.setAuthorizingUser(user.openId);
    const callback = await authorize(client);
    expect(callback.get('scopes')).toBe('user.info.basic,user.info.profile,video.publish,video.upload,video.list');
    const tokens = await client.exchangeCode(grant(callback.get('code')));
    expect(tokens).toEqual({
      accessToken: expect.stringMatching(/^act\./),
      expiresIn: 86_400,
      refreshToken: expect.stringMatching(/^rft\./),
      refreshExpiresIn: 31_536_000,
      openId: user.openId,
      scope: 'user.info.basic,user.info.profile,video.publish,video.upload,video.list',
    });
    const exchange = fake.requestsTo('token').at(-1);
    expect(exchange?.headers.contentType).toBe('application/x-www-form-urlencoded');
    expect(exchange?.form).toMatchObject({ grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, client_key: fake.clientKey, code_verifier: VERIFIER });

    const since = fake.requests.length;
    expect(await client.getUserInfo(tokens.accessToken)).toEqual({
      openId: user.openId,
      unionId: user.unionId,
      avatarUrl: user.avatarUrl,
      displayName: 'Clip Queen',
      username: 'clipqueen',
    });
    expect(fake.requests[since]?.query.fields).toBe('open_id,union_id,avatar_url,display_name,username');
  });

  it('refuses a code used twice and a redirect_uri that differs from the authorize request', async () => {
    const { client } = makeClient();
    fake.setAuthorizingUser(addUser().openId);
    const code = (await authorize(client)).get('code') ?? '';
    await client.exchangeCode(grant(code));
    const reused = await expectTikTokError(client.exchangeCode(grant(code)), 'reconnect_required', 'invalid_grant');
    expect(reused.message).toBe(RECONNECT);
    expect(reused.httpStatus).toBe(400);
    expect(reused.logId).toMatch(/^\d{14}[0-9A-F]+$/);

    const other = (await authorize(client)).get('code') ?? '';
    await expectTikTokError(client.exchangeCode({ ...grant(other), redirectUri: 'http://127.0.0.1:9/elsewhere' }), 'invalid_request', 'invalid_request');
  });

  it("refuses a code presented with another flow's PKCE verifier, as TikTok does", async () => {
    const { client } = makeClient();
    fake.setAuthorizingUser(addUser().openId);
    const code = (await authorize(client)).get('code') ?? '';
    const refused = await expectTikTokError(client.exchangeCode({ code, codeVerifier: newCodeVerifier() }), 'invalid_request', 'invalid_request');
    expect(refused.httpStatus).toBe(400);
    expect(refused.detail).toContain('Code verifier or code challenge is invalid.');
    // The flow's own verifier still redeems it.
    expect((await client.exchangeCode(grant(code))).accessToken).toMatch(/^act\./);
  });

  it('reports a refusal on the consent page and scopes the user did not grant', async () => {
    const { client } = makeClient();
    const user = addUser();
    fake.refuseAuthorization();
    const refused = await authorize(client, 'refused-state');
    expect(refused.get('code')).toBeNull();
    const error = callbackError(refused);
    expect(error).toMatchObject({ kind: 'access_denied', code: 'access_denied' });
    expect(error?.message).toMatch(/permission was not granted/);
    fake.refuseAuthorization(false);

    fake.setAuthorizingUser(user.openId, { grantScopes: ['user.info.basic', 'video.upload'] });
    const partial = await authorize(client);
    expect(callbackError(partial)).toBeNull();
    const tokens = await client.exchangeCode(grant(partial.get('code')));
    expect(missingScopes(tokens.scope)).toEqual(['user.info.profile', 'video.publish', 'video.list']);
    // username needs user.info.profile, which was not granted.
    await expectTikTokError(client.getUserInfo(tokens.accessToken), 'reconnect_required', 'scope_permission_missed');
    await expectTikTokError(client.queryCreatorInfo(tokens.accessToken), 'reconnect_required', 'scope_not_authorized');
  });

  it('refreshes with rotation: the old refresh token is refused afterwards', async () => {
    const { client } = makeClient();
    const first = await connect(client, addUser());
    const second = await client.refreshToken(first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.openId).toBe(first.openId);
    const stale = await expectTikTokError(client.refreshToken(first.refreshToken), 'reconnect_required', 'invalid_grant');
    expect(stale.message).toBe(RECONNECT);
    const third = await client.refreshToken(second.refreshToken);
    expect((await client.getUserInfo(third.accessToken)).openId).toBe(first.openId);
  });

  it('honours a short access token lifetime: the expired token is refused, a refreshed one works', async () => {
    const { client } = makeClient();
    fake.setAccessTokenLifetime(2);
    const tokens = await connect(client, addUser());
    expect(tokens.expiresIn).toBe(2);
    fake.advanceTime(3_000);
    const expired = await expectTikTokError(client.getUserInfo(tokens.accessToken), 'token_invalid', 'access_token_invalid');
    expect(expired.httpStatus).toBe(401);
    expect(expired.message).toBe(RECONNECT);
    const fresh = await client.refreshToken(tokens.refreshToken);
    expect((await client.getUserInfo(fresh.accessToken)).openId).toBe(tokens.openId);
  });

  it('revokes: the access token and the refresh token stop working', async () => {
    const { client } = makeClient();
    const tokens = await connect(client, addUser());
    await client.revokeToken(tokens.accessToken);
    expect(fake.requestsTo('revoke').at(-1)?.form).toMatchObject({ token: tokens.accessToken, client_key: fake.clientKey });
    await expectTikTokError(client.getUserInfo(tokens.accessToken), 'token_invalid');
    await expectTikTokError(client.refreshToken(tokens.refreshToken), 'reconnect_required', 'invalid_grant');
  });

  it('names a wrong client secret as a configuration problem', async () => {
    const { client } = makeClient({ clientSecret: 'wrong' });
    const error = await expectTikTokError(client.refreshToken('rft.whatever'), 'config', 'invalid_client');
    expect(error.message).toMatch(/TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET/);
  });

  it('builds the client from the environment, or nothing when TikTok is not configured', async () => {
    const logger = createLogger('silent');
    expect(tiktokFromEnv(loadEnv({ NODE_ENV: 'test' }), logger)).toBeNull();
    const client = tiktokFromEnv(loadEnv({ NODE_ENV: 'test', PUBLIC_URL: 'http://127.0.0.1:9', ...fake.env }), logger);
    expect(client).not.toBeNull();
    const authorizeUrl = new URL(client?.buildAuthorizeUrl({ state: 's', codeVerifier: VERIFIER }) ?? '');
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    fake.setAuthorizingUser(addUser().openId);
    const callback = await authorize(client as TikTokClient, 's2');
    expect((await client?.exchangeCode(grant(callback.get('code'))))?.accessToken).toMatch(/^act\./);
  });
});

// ---------------------------------------------------------------------------------------------

describe('creator info', () => {
  it('returns the options of public and private accounts', async () => {
    const { client } = makeClient();
    const publicUser = addUser({ maxVideoPostDurationSec: 180, displayName: 'Public One', username: 'public_one' });
    const privateUser = addUser({ isPrivate: true, commentDisabled: true });
    const publicInfo = await client.queryCreatorInfo(fake.issueTokens(publicUser.openId).accessToken);
    expect(publicInfo).toEqual({
      privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      commentDisabled: false,
      duetDisabled: false,
      stitchDisabled: true,
      maxVideoPostDurationSec: 180,
      username: 'public_one',
      nickname: 'Public One',
      avatarUrl: publicUser.avatarUrl,
    });
    const privateInfo = await client.queryCreatorInfo(fake.issueTokens(privateUser.openId).accessToken);
    expect(privateInfo.privacyLevelOptions).toEqual(['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']);
    expect(privateInfo.commentDisabled).toBe(true);
  });

  it('treats spam_risk_* and reached_active_user_cap sent with HTTP 200 as errors', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const cases: Array<[string, RegExp]> = [
      ['spam_risk_too_many_posts', /daily posting limit\. Try again tomorrow\./],
      ['spam_risk_user_banned_from_posting', /blocked this account from posting/],
      ['reached_active_user_cap', /5 per 24 hours/],
    ];
    for (const [code, message] of cases) {
      fake.failNext('creator_info', code);
      const error = await expectTikTokError(client.queryCreatorInfo(token), 'posting_limit', code);
      expect(error.httpStatus).toBe(200);
      expect(error.message).toMatch(message);
    }
    const banned = addUser({ bannedFromPosting: true });
    await expectTikTokError(client.queryCreatorInfo(fake.issueTokens(banned.openId).accessToken), 'posting_limit', 'spam_risk_user_banned_from_posting');
  });

  it('checks the clip duration against the account’s maximum in plain words', () => {
    expect(() => assertDurationAllowed(60, { maxVideoPostDurationSec: 60 })).not.toThrow();
    try {
      assertDurationAllowed(301, { maxVideoPostDurationSec: 300 });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ kind: 'duration_too_long', message: 'This clip is 301 s long but this TikTok account can post at most 300 s.' });
    }
    expect(explainDurationTooLong(61.44, 60)).toBe('This clip is 61.4 s long but this TikTok account can post at most 60 s.');
  });
});

// ---------------------------------------------------------------------------------------------

describe('direct post', () => {
  it('posts a 6 MiB file in one chunk and waits for PUBLISH_COMPLETE', async () => {
    const { client, sleeps } = makeClient();
    const user = addUser({ isPrivate: true });
    const token = fake.issueTokens(user.openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    expect(plan.totalChunkCount).toBe(1);
    const target = await client.initDirectPost(token, { ...SELF_ONLY_POST, videoCoverTimestampMs: 1000 }, plan);
    expect(target.publishId).toMatch(/^v_pub_file~v2-1\./);
    expect(fake.posts.get(target.publishId)?.postInfo).toEqual({
      title: 'Clutch play #gaming',
      privacy_level: 'SELF_ONLY',
      disable_comment: false,
      disable_duet: false,
      disable_stitch: true,
      video_cover_timestamp_ms: 1000,
      brand_content_toggle: false,
      brand_organic_toggle: false,
      is_aigc: false,
    });
    expect(fake.requestsTo('video_init').at(-1)?.json).toMatchObject({
      source_info: { source: 'FILE_UPLOAD', video_size: 6 * MIB, chunk_size: 6 * MIB, total_chunk_count: 1 },
    });

    const progress: number[] = [];
    const since = fake.requests.length;
    const result = await client.uploadChunks(target.uploadUrl, sixMiB.path, plan, { onProgress: (bytes) => progress.push(bytes) });
    expect(result).toEqual({ uploadedBytes: 6 * MIB, chunksSent: 1 });
    expect(progress).toEqual([6 * MIB]);
    const put = fake.requests[since];
    expect(put?.headers).toMatchObject({ contentType: 'video/mp4', contentLength: String(6 * MIB), contentRange: `bytes 0-${6 * MIB - 1}/${6 * MIB}` });
    expect(put?.status).toBe(201);
    expect(fake.uploads.get(target.publishId)?.bytes().equals(sixMiB.bytes)).toBe(true);

    const statuses: string[] = [];
    const final = await client.waitForPublish(token, target.publishId, { onStatus: (status) => statuses.push(status.status) });
    expect(statuses).toEqual(['PROCESSING_UPLOAD', 'PUBLISH_COMPLETE']);
    expect(final).toEqual({ status: 'PUBLISH_COMPLETE', failReason: null, publicPostIds: [], uploadedBytes: 6 * MIB });
    // One pause between the two polls, at the default 5 s: far under 30 status requests a minute.
    expect(sleeps).toEqual([5_000]);
  });

  it('uploads 12 MiB in two sequential chunks, byte for byte, and keeps int64 post ids exact', async () => {
    const { client } = makeClient();
    const user = addUser();
    const token = fake.issueTokens(user.openId).accessToken;
    const plan = planChunks(twelveMiB.bytes.length, { chunkSize: 5 * MIB });
    expect(plan.chunks.map((chunk) => chunk.size)).toEqual([5 * MIB, 7 * MIB]);
    const target = await client.initDirectPost(token, { ...SELF_ONLY_POST, privacyLevel: 'PUBLIC_TO_EVERYONE' }, plan);
    const since = fake.requests.length;
    const progress: Array<[number, number]> = [];
    await client.uploadChunks(target.uploadUrl, twelveMiB.path, plan, { onProgress: (bytes, total) => progress.push([bytes, total]) });
    const puts = fake.requests.slice(since).filter((request) => request.endpoint === 'upload');
    expect(puts.map((request) => [request.headers.contentRange, request.headers.contentLength, request.status])).toEqual([
      [`bytes 0-${5 * MIB - 1}/${12 * MIB}`, String(5 * MIB), 206],
      [`bytes ${5 * MIB}-${12 * MIB - 1}/${12 * MIB}`, String(7 * MIB), 201],
    ]);
    expect(progress).toEqual([
      [5 * MIB, 12 * MIB],
      [12 * MIB, 12 * MIB],
    ]);
    expect(fake.uploads.get(target.publishId)?.bytes().equals(twelveMiB.bytes)).toBe(true);

    const final = await client.waitForPublish(token, target.publishId, { pollMs: 3_000 });
    const expectedIds = fake.posts.get(target.publishId)?.publicPostIds;
    expect(expectedIds?.[0]).toMatch(/^\d{19}$/);
    expect(BigInt(expectedIds?.[0] ?? '0') > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(final.publicPostIds).toEqual(expectedIds);
  });

  it('retries a chunk after a 5xx with backoff and still delivers the exact bytes', async () => {
    const { client, sleeps } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(twelveMiB.bytes.length, { chunkSize: 5 * MIB });
    const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
    const since = fake.requests.length;
    fake.failNext('upload', 503);
    await client.uploadChunks(target.uploadUrl, twelveMiB.path, plan);
    expect(statusesSince('upload', since)).toEqual([503, 206, 201]);
    expect(sleeps).toEqual([1_000]);
    expect(fake.uploads.get(target.publishId)?.bytes().equals(twelveMiB.bytes)).toBe(true);
  });

  it('gives up on a chunk that keeps failing after three attempts', async () => {
    const { client, sleeps } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
    fake.failNext('upload', 500, 3);
    const error = await expectTikTokError(client.uploadChunks(target.uploadUrl, sixMiB.path, plan), 'upload_failed', 'upload_server_error');
    expect(error.retryable).toBe(true);
    expect(sleeps).toEqual([1_000, 2_000]);
  });

  it('gives a stalled chunk the time its size needs (not ten minutes), then gives up after three attempts', async () => {
    const { client, sleeps } = makeClient({ transferBudget: { startMs: 1_000, minBytesPerSecond: 64 * MIB } });
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
    fake.failNext('upload', 'stall', 3);
    const error = await expectTikTokError(client.uploadChunks(target.uploadUrl, sixMiB.path, plan), 'upload_failed', 'upload_server_error');
    expect(error.detail).toMatch(/timed out after 3 attempts$/);
    expect(sleeps).toEqual([1_000, 2_000]);
  });

  it('carries on when a chunk arrived but its answer was lost (retry answered 416 with the server’s range)', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(twelveMiB.bytes.length, { chunkSize: 5 * MIB });
    const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
    const since = fake.requests.length;
    fake.failNext('upload', 'lost_response');
    await client.uploadChunks(target.uploadUrl, twelveMiB.path, plan);
    expect(statusesSince('upload', since)).toEqual([500, 416, 201]);
    expect(fake.uploads.get(target.publishId)?.bytes().equals(twelveMiB.bytes)).toBe(true);
  });

  it('reports a 416 with the chunk to resume from, and resumes there', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(twelveMiB.bytes.length, { chunkSize: 5 * MIB });
    const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
    const error = await expectTikTokError(client.uploadChunks(target.uploadUrl, twelveMiB.path, plan, { startAt: 1 }), 'upload_range', 'upload_range_mismatch');
    expect(error.resumeAtChunk).toBe(0);
    expect(error.httpStatus).toBe(416);
    await client.uploadChunks(target.uploadUrl, twelveMiB.path, plan, { startAt: error.resumeAtChunk ?? 0 });
    expect(fake.uploads.get(target.publishId)?.bytes().equals(twelveMiB.bytes)).toBe(true);
  });

  it('reports an expired upload_url (403) and a file that no longer matches the plan', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
    fake.advanceTime(61 * 60_000);
    const expired = await expectTikTokError(client.uploadChunks(target.uploadUrl, sixMiB.path, plan), 'upload_expired', 'upload_url_expired');
    expect(expired.message).toMatch(/upload link expired/);
    await expectTikTokError(client.uploadChunks(target.uploadUrl, twelveMiB.path, plan), 'file', 'video_changed');
  });

  it('stops between chunks when the caller aborts', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(twelveMiB.bytes.length, { chunkSize: 5 * MIB });
    const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
    const controller = new AbortController();
    const upload = client.uploadChunks(target.uploadUrl, twelveMiB.path, plan, { signal: controller.signal, onProgress: () => controller.abort() });
    await expectTikTokError(upload, 'aborted', null);
    expect(fake.uploads.get(target.publishId)?.receivedBytes).toBe(5 * MIB);
    await expectTikTokError(client.waitForPublish(token, target.publishId, { signal: controller.signal }), 'aborted', null);
  });

  it('surfaces a FAILED status with the fail_reason in plain words', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    fake.failNextPublish('frame_rate_check_failed');
    const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
    await client.uploadChunks(target.uploadUrl, sixMiB.path, plan);
    const error = await expectTikTokError(client.waitForPublish(token, target.publishId), 'publish_failed', 'frame_rate_check_failed');
    expect(error.message).toBe('TikTok refused the video’s frame rate: it must be between 23 and 60 frames per second.');
    expect(error.retryable).toBe(false);
  });

  it('times out when TikTok keeps processing', async () => {
    const { client, sleeps } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    fake.setPollsUntilDone(1000);
    const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
    await client.uploadChunks(target.uploadUrl, sixMiB.path, plan);
    await expectTikTokError(client.waitForPublish(token, target.publishId, { pollMs: 5_000, timeoutMs: 20_000 }), 'timeout', 'publish_timeout');
    expect(sleeps).toEqual([5_000, 5_000, 5_000, 5_000]);
  });

  it('refuses a title over 2200 UTF-16 code units before asking TikTok', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    const since = fake.requests.length;
    // 🎬 is two UTF-16 code units: 1100 of them are exactly 2200.
    await client.initDirectPost(token, { ...SELF_ONLY_POST, title: '🎬'.repeat(1100) }, plan);
    await expectTikTokError(client.initDirectPost(token, { ...SELF_ONLY_POST, title: `${'🎬'.repeat(1100)}x` }, plan), 'invalid_request', 'title_too_long');
    expect(fake.requests.length - since).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------

describe('inbox upload', () => {
  it('uploads a draft and waits for SEND_TO_USER_INBOX, then sees the user post it', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    const target = await client.initInboxUpload(token, plan);
    expect(target.publishId).toMatch(/^v_inbox_file~v2\./);
    expect(fake.requestsTo('inbox_init').at(-1)?.json).toEqual({
      source_info: { source: 'FILE_UPLOAD', video_size: 6 * MIB, chunk_size: 6 * MIB, total_chunk_count: 1 },
    });
    await client.uploadChunks(target.uploadUrl, sixMiB.path, plan);
    expect(fake.uploads.get(target.publishId)?.bytes().equals(sixMiB.bytes)).toBe(true);
    expect((await client.waitForPublish(token, target.publishId)).status).toBe('SEND_TO_USER_INBOX');
    fake.publishFromInbox(target.publishId);
    expect((await client.fetchPostStatus(token, target.publishId)).status).toBe('PUBLISH_COMPLETE');
  });

  it('refuses a sixth pending draft within 24 hours', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    for (let i = 0; i < 5; i++) await client.initInboxUpload(token, plan);
    const error = await expectTikTokError(client.initInboxUpload(token, plan), 'posting_limit', 'spam_risk_too_many_pending_share');
    expect(error.httpStatus).toBe(403);
    expect(error.message).toMatch(/^This account already has 5 drafts waiting in the TikTok inbox \(the most TikTok allows in 24 hours\)/);
  });
});

// ---------------------------------------------------------------------------------------------

describe('TikTok errors in plain words', () => {
  it('unaudited apps: only SELF_ONLY to private accounts', async () => {
    const { client } = makeClient();
    fake.setUnaudited(true);
    // The shared fake has seen many posting users already; the active-user cap has its own test.
    fake.setActiveUserCap(1000);
    const plan = planChunks(sixMiB.bytes.length);
    const publicToken = fake.issueTokens(addUser().openId).accessToken;
    const error = await expectTikTokError(client.initDirectPost(publicToken, SELF_ONLY_POST, plan), 'privacy', 'unaudited_client_can_only_post_to_private_accounts');
    expect(error.message).toBe(
      "TikTok only lets unaudited apps post privately (SELF_ONLY) to private accounts: make the TikTok account private or choose 'Only me'.",
    );
    expect(error.httpStatus).toBe(403);
    const privateToken = fake.issueTokens(addUser({ isPrivate: true }).openId).accessToken;
    await expectTikTokError(client.initDirectPost(privateToken, { ...SELF_ONLY_POST, privacyLevel: 'FOLLOWER_OF_CREATOR' }, plan), 'privacy');
    expect((await client.initDirectPost(privateToken, SELF_ONLY_POST, plan)).publishId).toBeTruthy();
  });

  it('unaudited apps: at most 5 distinct users posting per 24 hours', async () => {
    const { client } = makeClient();
    const plan = planChunks(sixMiB.bytes.length);
    // Everyone who posted in this file so far counts; a fresh 24 h window keeps the count to this test.
    fake.advanceTime(25 * 3_600_000);
    fake.setUnaudited(true);
    const tokens = Array.from({ length: 6 }, () => fake.issueTokens(addUser({ isPrivate: true }).openId).accessToken);
    for (const token of tokens.slice(0, 5)) await client.initDirectPost(token, SELF_ONLY_POST, plan);
    const error = await expectTikTokError(client.initDirectPost(tokens[5] ?? '', SELF_ONLY_POST, plan), 'posting_limit', 'reached_active_user_cap');
    expect(error.message).toMatch(/5 per 24 hours/);
    // creator_info reports the same cap with HTTP 200.
    const info = await expectTikTokError(client.queryCreatorInfo(tokens[5] ?? ''), 'posting_limit', 'reached_active_user_cap');
    expect(info.httpStatus).toBe(200);
    // Someone already counted may keep posting.
    expect((await client.initDirectPost(tokens[0] ?? '', SELF_ONLY_POST, plan)).publishId).toBeTruthy();
  });

  it('a privacy level the account does not offer', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const error = await expectTikTokError(
      client.initDirectPost(token, { ...SELF_ONLY_POST, privacyLevel: 'FOLLOWER_OF_CREATOR' }, planChunks(sixMiB.bytes.length)),
      'privacy',
      'privacy_level_option_mismatch',
    );
    expect(error.message).toMatch(/not available for this TikTok account/);
  });

  it('the daily post cap', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    fake.setDailyPostCap(1);
    await client.initDirectPost(token, SELF_ONLY_POST, plan);
    const error = await expectTikTokError(client.initDirectPost(token, SELF_ONLY_POST, plan), 'posting_limit', 'spam_risk_too_many_posts');
    expect(error.message).toBe('This TikTok account has reached its daily posting limit. Try again tomorrow.');
  });

  it('an expired access token (the caller refreshes and retries)', async () => {
    const { client } = makeClient();
    const user = addUser();
    const token = fake.issueTokens(user.openId).accessToken;
    fake.expireAccessTokens(user.openId);
    const error = await expectTikTokError(client.initDirectPost(token, SELF_ONLY_POST, planChunks(sixMiB.bytes.length)), 'token_invalid', 'access_token_invalid');
    expect(error.message).toBe(RECONNECT);
  });

  it('waits out rate_limit_exceeded (10 s, 20 s) and then succeeds', async () => {
    const { client, sleeps } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const since = fake.requests.length;
    fake.failNext('creator_info', 'rate_limit_exceeded', 2);
    const info = await client.queryCreatorInfo(token);
    expect(info.privacyLevelOptions.length).toBeGreaterThan(0);
    expect(sleeps).toEqual([10_000, 20_000]);
    expect(statusesSince('creator_info', since)).toEqual([429, 429, 200]);
  });

  it('gives up after three rate-limit waits with plain words', async () => {
    const { client, sleeps } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const since = fake.requests.length;
    fake.failNext('status', 429, 4);
    const error = await expectTikTokError(client.fetchPostStatus(token, 'v_pub_file~v2-1.1'), 'rate_limited', 'rate_limit_exceeded');
    expect(error.message).toMatch(/^TikTok is rate limiting requests: waited and retried/);
    expect(sleeps).toEqual([10_000, 20_000, 40_000]);
    expect(statusesSince('status', since)).toEqual([429, 429, 429, 429]);
  });

  it('retries a 5xx from the API with backoff', async () => {
    const { client, sleeps } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    fake.failNext('video_init', 500);
    await client.initDirectPost(token, SELF_ONLY_POST, planChunks(sixMiB.bytes.length));
    expect(sleeps).toEqual([1_000]);
    fake.failNext('user_info', 502, 3);
    await expectTikTokError(client.getUserInfo(token), 'upstream', 'internal_error');
  });

  it('maps every documented init and status error to its kind', async () => {
    const { client } = makeClient();
    const token = fake.issueTokens(addUser().openId).accessToken;
    const plan = planChunks(sixMiB.bytes.length);
    const cases: Array<[string, TikTokErrorKind]> = [
      ['invalid_param', 'invalid_request'],
      ['spam_risk_too_many_posts', 'posting_limit'],
      ['spam_risk_user_banned_from_posting', 'posting_limit'],
      ['reached_active_user_cap', 'posting_limit'],
      ['unaudited_client_can_only_post_to_private_accounts', 'privacy'],
      ['url_ownership_unverified', 'invalid_request'],
      ['privacy_level_option_mismatch', 'privacy'],
      ['access_token_invalid', 'token_invalid'],
      ['scope_not_authorized', 'reconnect_required'],
    ];
    for (const [code, kind] of cases) {
      fake.failNext('video_init', code);
      const error = await expectTikTokError(client.initDirectPost(token, SELF_ONLY_POST, plan), kind, code);
      expect(error.message).toBe(explainTikTokError(code));
    }
    fake.failNext('status', 'invalid_publish_id');
    await expectTikTokError(client.fetchPostStatus(token, 'nope'), 'invalid_request', 'invalid_publish_id');
    const other = fake.issueTokens(addUser().openId).accessToken;
    const target = await client.initInboxUpload(token, plan);
    await expectTikTokError(client.fetchPostStatus(other, target.publishId), 'invalid_request', 'token_not_authorized_for_specified_publish_id');
  });

  it('has a plain sentence for every fail_reason, never the bare code', () => {
    const failReasons = [
      'file_format_check_failed',
      'duration_check_failed',
      'frame_rate_check_failed',
      'picture_size_check_failed',
      'internal',
      'video_pull_failed',
      'photo_pull_failed',
      'publish_cancelled',
      'auth_removed',
      'spam_risk_too_many_posts',
      'spam_risk_user_banned_from_posting',
      'spam_risk_text',
      'spam_risk',
    ];
    for (const reason of failReasons) {
      const message = explainTikTokError(reason);
      // "internal" is also an ordinary word; the snake_case codes must never reach users as such.
      if (reason.includes('_')) expect(message, reason).not.toContain(reason);
      expect(message, reason).toMatch(/^[A-Z].+\.$/);
    }
    expect(explainTikTokError('something_new')).toBe('TikTok refused the request (something_new).');
  });
});

// ---------------------------------------------------------------------------------------------

describe('rate limits and secrets', () => {
  it('polls the status within 30 requests a minute when TikTok enforces its limits', async () => {
    const clock = { now: Date.UTC(2026, 4, 1, 12) };
    const strict = await startFakeTikTok({ enforceRateLimits: true, pollsUntilDone: 40, now: () => clock.now });
    try {
      const sleeps: number[] = [];
      const client = createTikTokClient({
        clientKey: strict.clientKey,
        clientSecret: strict.clientSecret,
        authUrl: strict.authUrl,
        apiUrl: strict.apiUrl,
        redirectUri: REDIRECT_URI,
        logger: createLogger('silent'),
        sleep: async (ms) => {
          sleeps.push(ms);
          clock.now += ms;
        },
        now: () => clock.now,
      });
      const token = strict.issueTokens(strict.addUser({ displayName: 'Strict', username: 'strict' }).openId).accessToken;
      const plan = planChunks(sixMiB.bytes.length);
      const target = await client.initDirectPost(token, SELF_ONLY_POST, plan);
      await client.uploadChunks(target.uploadUrl, sixMiB.path, plan);
      await client.waitForPublish(token, target.publishId, { pollMs: 1_000 });
      // pollMs below 2 s is raised to 2 s, so 40 polls never exceed 30 a minute.
      expect(strict.requestsTo('status').map((request) => request.status).every((status) => status === 200)).toBe(true);
      expect(new Set(sleeps)).toEqual(new Set([2_000]));
    } finally {
      await strict.close();
    }
  });

  it('never logs tokens, the client secret, codes or the upload token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const { client } = makeClient({}, createLogger('trace', sink));
    const user = addUser();
    fake.setAuthorizingUser(user.openId);
    const code = (await authorize(client)).get('code') ?? '';
    const tokens = await client.exchangeCode(grant(code));
    const refreshed = await client.refreshToken(tokens.refreshToken);
    await client.refreshToken(tokens.refreshToken).catch(() => undefined);
    await client.getUserInfo(refreshed.accessToken);
    const plan = planChunks(twelveMiB.bytes.length, { chunkSize: 5 * MIB });
    fake.failNext('video_init', 'rate_limit_exceeded');
    const target = await client.initDirectPost(refreshed.accessToken, SELF_ONLY_POST, plan);
    fake.failNext('upload', 500);
    await client.uploadChunks(target.uploadUrl, twelveMiB.path, plan);
    await client.waitForPublish(refreshed.accessToken, target.publishId);
    fake.failNext('creator_info', 'spam_risk_too_many_posts');
    await client.queryCreatorInfo(refreshed.accessToken).catch(() => undefined);
    await client.revokeToken(refreshed.accessToken);

    const output = lines.join('');
    expect(output).toContain('TikTok rate limit reached');
    expect(output).toContain('TikTok chunk upload failed; retrying');
    const uploadToken = new URL(target.uploadUrl).searchParams.get('upload_token') ?? '';
    for (const secret of [tokens.accessToken, tokens.refreshToken, refreshed.accessToken, refreshed.refreshToken, fake.clientSecret, code, uploadToken]) {
      expect(secret.length).toBeGreaterThan(5);
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('upload_token=[redacted]');
  });
});
