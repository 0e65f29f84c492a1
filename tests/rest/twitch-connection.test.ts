import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../server/src/platform/crypto.ts';
import { AppError } from '../../server/src/platform/errors.ts';
import { createTwitchClip } from '../../server/src/domains/twitch/service.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { authorizeAnswer, connectTwitch } from '../helpers/twitch-connection.ts';
import { adminAndMember, errorBody, expectNoSecrets, RestClient, userIdOf } from './client.ts';

const ALL_SCOPES = ['clips:edit', 'editor:manage:clips', 'channel:manage:clips'];
/** Polls between Create Clip and Get Clips do not really wait. */
const noWait = { sleep: async () => {} };

/** The AppError a promise rejects with (fails the test when it resolves or rejects with anything else). */
async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('REST Twitch connection and clips made with it (issue 23)', () => {
  let fake: FakeTwitch;
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let bob: RestClient;
  let aliceId: string;
  let bobId: string;

  beforeAll(async () => {
    fake = await startFakeTwitch();
    app = await createTestApp({ ...fake.env, REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin: alice, member: bob } = await adminAndMember(server.baseUrl));
    aliceId = await userIdOf(alice);
    bobId = await userIdOf(bob);
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const connectionRow = (userId: string) => app.deps.db.selectFrom('twitch_connections').selectAll().where('user_id', '=', userId).executeTakeFirst();

  it('answers 503 when Twitch is not configured, and stores no state', async () => {
    const bare = await createTestApp();
    const bareServer = await startTestServer(bare.deps);
    try {
      const { admin } = await adminAndMember(bareServer.baseUrl);
      const reply = await admin.get('/api/twitch/auth-url');
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual(errorBody('SERVICE_UNAVAILABLE', 'Twitch is not configured on this server (TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET)'));
      expect(await bare.deps.db.selectFrom('twitch_oauth_states').select('state_hash').execute()).toEqual([]);
      expect((await admin.get('/api/twitch/connection')).body).toEqual({ connected: false, login: null, scopes: [], status: null });
    } finally {
      await bareServer.close();
      await bare.close();
    }
  });

  it('connects through auth-url and the callback; the state is single-use; tokens are encrypted at rest', async () => {
    expect((await new RestClient(server.baseUrl).get('/api/twitch/auth-url')).status).toBe(401);
    const reply = await alice.get('/api/twitch/auth-url');
    expect(reply.status).toBe(200);
    const authUrl = new URL((reply.body as { auth_url: string }).auth_url);
    expect(authUrl.pathname).toBe('/id/oauth2/authorize');
    expect(authUrl.searchParams.get('scope')).toBe('clips:edit editor:manage:clips channel:manage:clips');
    expect(authUrl.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/twitch/callback');

    fake.setAuthorizingUser({ login: 'alicestreams' });
    const query = await authorizeAnswer(authUrl.toString());
    const page = await fetch(`${server.baseUrl}/api/twitch/callback?${query}`, { headers: { cookie: alice.cookie! } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    const html = await page.text();
    expect(html).toContain('"type":"twitch-auth","success":true');
    expect(html).toContain('Twitch account connected');
    expect((await alice.get('/api/twitch/connection')).body).toEqual({ connected: true, login: 'alicestreams', scopes: ALL_SCOPES, status: 'ok' });
    // Bob has none: a connection is the user's own.
    expect((await bob.get('/api/twitch/connection')).body).toMatchObject({ connected: false });

    const again = await fetch(`${server.baseUrl}/api/twitch/callback?${query}`);
    expect(again.status).toBe(400);
    const refusedPage = await again.text();
    expect(refusedPage).toContain('"type":"twitch-auth","success":false');
    expect(refusedPage).toContain('already used or expired');

    const row = (await connectionRow(aliceId))!;
    const [refreshToken] = fake.refreshTokensOf('alicestreams');
    expect(refreshToken).toBeDefined();
    expect(row.refresh_token_enc).not.toContain(refreshToken);
    expect(decryptSecret(row.refresh_token_enc, app.deps.appSecret)).toBe(refreshToken);
    expect(decryptSecret(row.access_token_enc, app.deps.appSecret)).toMatch(/^[0-9a-f]{30}$/);
    expect(JSON.stringify(row)).not.toContain(decryptSecret(row.access_token_enc, app.deps.appSecret));
    expectNoSecrets([...alice.seen, html], [fake.clientSecret, refreshToken!]);
  });

  it('refuses an unknown state, a state of another signed-in user, and a denied consent', async () => {
    const unknown = await fetch(`${server.baseUrl}/api/twitch/callback?state=nope&code=abc`);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('"type":"twitch-auth","success":false');

    fake.setAuthorizingUser({ login: 'bobstreams' });
    const started = (await bob.get('/api/twitch/auth-url')).body as { auth_url: string };
    const query = await authorizeAnswer(started.auth_url);
    const stolen = await fetch(`${server.baseUrl}/api/twitch/callback?${query}`, { headers: { cookie: alice.cookie! } });
    expect(stolen.status).toBe(400);
    expect(await stolen.text()).toContain('started by another Clipshift account');
    expect(fake.requestsTo('token').filter((request) => request.form?.grant_type === 'authorization_code')).toEqual([]);

    fake.setAuthorizingUser({ login: 'bobstreams', deny: true });
    const denied = await authorizeAnswer(((await bob.get('/api/twitch/auth-url')).body as { auth_url: string }).auth_url);
    const deniedPage = await fetch(`${server.baseUrl}/api/twitch/callback?${denied}`, { headers: { cookie: bob.cookie! } });
    expect(deniedPage.status).toBe(400);
    expect(await deniedPage.text()).toContain('You did not allow Clipshift to use your Twitch account.');
    expect(await connectionRow(bobId)).toBeUndefined();
  });

  it('makes a clip of a live stream and waits until Twitch lists it; offline is 404', async () => {
    await connectTwitch(app.deps, fake, aliceId, 'alicestreams');
    const channel = fake.addBroadcaster({ login: 'alicestreams' });
    fake.setLive('alicestreams', true);
    fake.setClipDelay(3);
    const { clipId } = await createTwitchClip(app.deps, aliceId, { broadcasterId: channel.id, live: true }, noWait);
    expect(fake.clip(clipId)).toMatchObject({ broadcaster_id: channel.id, creator_name: 'alicestreams' });
    const created = fake.requestsTo('create_clip');
    expect(created.map((request) => [request.status, request.query.broadcaster_id])).toEqual([[202, [channel.id]]]);
    // Missing from the first three lookups, listed on the fourth.
    expect(fake.requestsTo('clips').filter((request) => request.query.id?.[0] === clipId).length).toBe(4);

    fake.setLive('alicestreams', false);
    const offline = await appErrorOf(createTwitchClip(app.deps, aliceId, { broadcasterId: channel.id, live: true }, noWait));
    expect([offline.code, offline.message]).toEqual(['NOT_FOUND', 'Twitch could not clip the stream: the channel is offline']);
  });

  it('makes a clip from the VOD: vod_offset is where it ends; another channel is 403; an unknown VOD 404', async () => {
    const channel = fake.addBroadcaster({ login: 'alicestreams' });
    const video = fake.addVideo('alicestreams');
    const { clipId } = await createTwitchClip(app.deps, aliceId, { broadcasterId: channel.id, live: false, videoId: video, offsetSeconds: 100, durationSeconds: 20, title: 'The big play' }, noWait);
    const [request] = fake.requestsTo('vod_clip');
    expect(request!.query).toMatchObject({ editor_id: [channel.id], broadcaster_id: [channel.id], vod_id: [video], vod_offset: ['120'], duration: ['20.0'], title: ['The big play'] });
    expect(fake.clip(clipId)).toMatchObject({ title: 'The big play', video_id: video, vod_offset: 100, duration: 20 });

    const other = fake.addBroadcaster({ login: 'someoneelse' });
    const otherVideo = fake.addVideo('someoneelse');
    const refused = await appErrorOf(createTwitchClip(app.deps, aliceId, { broadcasterId: other.id, live: false, videoId: otherVideo, offsetSeconds: 10, durationSeconds: 30, title: 'x' }, noWait));
    expect(refused.code).toBe('FORBIDDEN');
    fake.addEditor('someoneelse', 'alicestreams');
    await expect(createTwitchClip(app.deps, aliceId, { broadcasterId: other.id, live: false, videoId: otherVideo, offsetSeconds: 10, durationSeconds: 30, title: 'x' }, noWait)).resolves.toMatchObject({ clipId: expect.any(String) });

    const gone = await appErrorOf(createTwitchClip(app.deps, aliceId, { broadcasterId: channel.id, live: false, videoId: '999', offsetSeconds: 10, durationSeconds: 30, title: 'x' }, noWait));
    expect([gone.code, gone.message]).toEqual(['NOT_FOUND', 'Twitch could not clip the stream: its VOD is not available']);
  });

  it('answers 429 when Twitch keeps rate-limiting clip requests after waiting for the bucket', async () => {
    const channel = fake.addBroadcaster({ login: 'alicestreams' });
    fake.setLive('alicestreams', true);
    // Ratelimit-Reset in the past: each wait is over at once.
    fake.failures.next('create_clip', 'rate_limit', { times: 6, resetAt: 1 });
    const limited = await appErrorOf(createTwitchClip(app.deps, aliceId, { broadcasterId: channel.id, live: true }, noWait));
    expect([limited.code, limited.message]).toEqual(['TOO_MANY_REQUESTS', 'Twitch is rate-limiting clip requests; try again in a minute']);
    expect(fake.requestsTo('create_clip').map((request) => request.status)).toEqual([429, 429, 429, 429, 429, 429]);
  });

  it('says a scope the user did not grant before asking Twitch', async () => {
    await connectTwitch(app.deps, fake, bobId, 'bobstreams', ['clips:edit']);
    const channel = fake.addBroadcaster({ login: 'bobstreams' });
    const refused = await appErrorOf(createTwitchClip(app.deps, bobId, { broadcasterId: channel.id, live: false, videoId: fake.addVideo('bobstreams'), offsetSeconds: 0, durationSeconds: 30, title: 'x' }, noWait));
    expect([refused.code, refused.message]).toEqual(['FORBIDDEN', 'The connected Twitch account did not grant editor:manage:clips or channel:manage:clips: reconnect Twitch in Settings']);
    expect(fake.requestsTo('vod_clip')).toEqual([]);
    expect((await connectionRow(bobId))!.needs_reconnect).toBe(false);
  });

  it('refreshes an expired access token (storing the rotated refresh token) and goes on', async () => {
    const before = (await connectionRow(aliceId))!;
    fake.expireUserTokens('alicestreams');
    fake.setLive('alicestreams', true);
    const channel = fake.addBroadcaster({ login: 'alicestreams' });
    await createTwitchClip(app.deps, aliceId, { broadcasterId: channel.id, live: true }, noWait);
    expect(fake.requestsTo('create_clip').map((request) => request.status)).toEqual([401, 202]);
    expect(fake.requestsTo('token').filter((request) => request.form?.grant_type === 'refresh_token')).toHaveLength(1);
    const after = (await connectionRow(aliceId))!;
    expect(decryptSecret(after.refresh_token_enc, app.deps.appSecret)).not.toBe(decryptSecret(before.refresh_token_enc, app.deps.appSecret));
    // Twitch handed out a new refresh token and retired the old one: the row keeps the new one.
    expect(fake.refreshTokensOf('alicestreams')).toContain(decryptSecret(after.refresh_token_enc, app.deps.appSecret));
    expect(fake.refreshTokensOf('alicestreams')).not.toContain(decryptSecret(before.refresh_token_enc, app.deps.appSecret));
    expect(after.needs_reconnect).toBe(false);
  });

  it('shows Reconnect needed once Twitch refuses the refresh token, and logs it once', async () => {
    fake.revokeUserGrants('alicestreams');
    const channel = fake.addBroadcaster({ login: 'alicestreams' });
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await appErrorOf(createTwitchClip(app.deps, aliceId, { broadcasterId: channel.id, live: true }, noWait));
      expect([error.code, error.message]).toEqual(['CONFLICT', 'Reconnect needed']);
    }
    expect((await alice.get('/api/twitch/connection')).body).toEqual({ connected: true, login: 'alicestreams', scopes: ALL_SCOPES, status: 'reconnect' });
    // The second attempt asked Twitch nothing: the connection stays marked until the user connects again.
    expect(fake.requestsTo('token').filter((request) => request.form?.grant_type === 'refresh_token')).toHaveLength(1);
    const warnings = await app.deps.db.selectFrom('logs').select('message').where('logger', '=', 'twitch').where('level', '=', 'WARNING').where('user_id', '=', aliceId).where('message', 'like', 'Twitch refused%').execute();
    expect(warnings.map((row) => row.message)).toEqual(['Twitch refused the connection of alicestreams: reconnect the account in Settings']);

    await connectTwitch(app.deps, fake, aliceId, 'alicestreams');
    expect((await alice.get('/api/twitch/connection')).body).toMatchObject({ status: 'ok' });
  });

  it('asks to connect Twitch when the user has no connection', async () => {
    expect((await bob.request('DELETE', '/api/twitch/connection')).status).toBe(200);
    const none = await appErrorOf(createTwitchClip(app.deps, bobId, { broadcasterId: '1', live: true }, noWait));
    expect([none.code, none.message]).toEqual(['CONFLICT', 'Connect Twitch to turn moments into clips']);
  });

  it('disconnects: the row is gone and the tokens are revoked at Twitch', async () => {
    const row = (await connectionRow(aliceId))!;
    const reply = await alice.request('DELETE', '/api/twitch/connection');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ message: 'Twitch account disconnected' });
    expect(await connectionRow(aliceId)).toBeUndefined();
    expect(fake.revoked).toEqual([decryptSecret(row.refresh_token_enc, app.deps.appSecret), decryptSecret(row.access_token_enc, app.deps.appSecret)]);
    expect((await alice.get('/api/twitch/connection')).body).toEqual({ connected: false, login: null, scopes: [], status: null });
    expect((await alice.request('DELETE', '/api/twitch/connection')).status).toBe(200);
  });
});
