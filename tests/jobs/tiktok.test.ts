import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { postJob } from '../../server/src/domains/publishing/jobs/post.ts';
import { runTypedJob } from '../../server/src/jobs/adapter.ts';
import { POST_JOB } from '../../server/src/platform/queue/contracts.ts';
import { jobKey, removeJob } from '../../server/src/platform/queue/queue.ts';
import { tiktokPlatform } from '../../server/src/domains/publishing/platforms/tiktok.ts';
import { refreshedToken } from '../../server/src/domains/publishing/tokens.ts';
import { UPLOADS_CARRY_ON } from '../../server/src/domains/publishing/uploads.ts';
import { decryptSecret } from '../../server/src/platform/crypto.ts';
import { startWorker } from '../../server/src/app/jobs.ts';
import { MIB, startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { seedClip } from '../helpers/clips.ts';
import { waitUntil } from '../helpers/wait.ts';
import { renderLimitMs } from '../helpers/limits.ts';

describe('TikTok accounts, OAuth and posting against a fake TikTok', () => {
  let tiktok: FakeTikTok;
  let twitch: FakeTwitch;
  let app: TestApp;
  let server: TestServer;
  let worker: WorkerHandle;
  let alice: PublicUser;
  let bob: PublicUser;

  /** Follows the authorize URL like the popup would: TikTok redirects back to our callback. */
  async function completeOAuth(authUrl: string, cookie?: string): Promise<{ status: number; html: string }> {
    const authorize = await fetch(authUrl, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const callback = new URL(authorize.headers.get('location')!);
    const ours = new URL(`${server.baseUrl}${callback.pathname}${callback.search}`);
    const response = await fetch(ours, { headers: cookie ? { cookie } : {} });
    return { status: response.status, html: await response.text() };
  }

  async function sessionCookie(user: PublicUser): Promise<string> {
    const { createSession } = await import('../../server/src/domains/auth/service.ts');
    const session = await createSession(app.deps.db, user.id);
    return `clipshift_session=${session.token}`;
  }

  function newUser(username: string): Promise<PublicUser> {
    return app.deps.db.insertInto('users').values({ username, password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  }

  async function connect(user: PublicUser, openId: string): Promise<string> {
    tiktok.setAuthorizingUser(openId);
    const { auth_url } = await callerFor(app.deps, { user }).api.tiktok.authUrl();
    const result = await completeOAuth(auth_url);
    expect(result.html).toContain('"success":true');
    const account = await app.deps.db.selectFrom('accounts').select('id').where('user_id', '=', user.id).where('open_id', '=', openId).executeTakeFirstOrThrow();
    return account.id;
  }

  beforeAll(async () => {
    tiktok = await startFakeTikTok({ pollsUntilDone: 0 });
    twitch = await startFakeTwitch();
    tiktok.addUser({ openId: 'open-alice', displayName: 'Alice Clips', username: 'aliceclips' });
    tiktok.addUser({ openId: 'open-private', displayName: 'Private One', username: 'private1', isPrivate: true });
    tiktok.addUser({ openId: 'open-guest', displayName: 'Guest', username: 'guestacct' });
    tiktok.addUser({ openId: 'open-history', displayName: 'History Keeper', username: 'historykeeper' });
    app = await createTestApp({ ...tiktok.env, ...twitch.env });
    server = await startTestServer(app.deps);
    alice = await newUser('alice');
    bob = await newUser('bob');
    worker = await startWorker(app.deps, app.database.pool, 3);
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await app?.close();
    await tiktok?.close();
    await twitch?.close();
  });
  beforeEach(() => {
    tiktok.reset();
    twitch.reset();
  });

  it('builds the authorize URL with the scopes and a state, and connects the account', async () => {
    // A user of its own: the other tests connect accounts to alice in any order.
    const carol = await newUser('carol');
    const { auth_url } = await callerFor(app.deps, { user: carol }).api.tiktok.authUrl();
    const url = new URL(auth_url);
    expect(url.searchParams.get('client_key')).toBe(tiktok.clientKey);
    expect(url.searchParams.get('scope')).toBe('user.info.basic,user.info.profile,video.publish,video.upload,video.list');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/tiktok/callback');
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    tiktok.setAuthorizingUser('open-alice');
    const result = await completeOAuth(auth_url);
    expect(result.status).toBe(200);
    expect(result.html).toContain('"type":"tiktok-auth","success":true');
    expect(result.html).toContain('window.opener.postMessage(message, "http://localhost:3000")');

    const accounts = await callerFor(app.deps, { user: carol }).api.tiktok.accounts();
    expect(accounts).toEqual([expect.objectContaining({ display_name: 'Alice Clips', username: 'aliceclips', linked_streamers: [], needs_reconnect: false })]);

    // Connecting again updates the same row.
    await connect(carol, 'open-alice');
    expect(await callerFor(app.deps, { user: carol }).api.tiktok.accounts()).toHaveLength(1);
  });

  it('stores tokens only encrypted', async () => {
    await connect(alice, 'open-alice');
    const row = await app.deps.db.selectFrom('accounts').selectAll().where('open_id', '=', 'open-alice').executeTakeFirstOrThrow();
    const access = decryptSecret(row.access_token_enc, app.deps.appSecret);
    expect(access).toMatch(/^act\./);
    const { rows } = await sql<{ dump: string }>`select row_to_json(t)::text as dump from accounts t`.execute(app.deps.db);
    for (const { dump } of rows) {
      expect(dump).not.toContain(access);
      expect(dump).not.toMatch(/"(act|rft)\./);
    }
    const logs = await app.deps.db.selectFrom('logs').select(['message', 'exception']).execute();
    expect(JSON.stringify(logs)).not.toContain(access);
  });

  it('refuses unknown, reused, expired and other users’ states', async () => {
    const unknown = await fetch(`${server.baseUrl}/api/tiktok/callback?code=abc&state=forged`);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('"success":false');

    tiktok.setAuthorizingUser('open-alice');
    const { auth_url } = await callerFor(app.deps, { user: alice }).api.tiktok.authUrl();
    const authorize = await fetch(auth_url, { redirect: 'manual' });
    const callback = new URL(authorize.headers.get('location')!);
    const target = `${server.baseUrl}${callback.pathname}${callback.search}`;
    expect((await fetch(target)).status).toBe(200);
    const reused = await fetch(target);
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('already used or expired');

    const expired = await callerFor(app.deps, { user: alice }).api.tiktok.authUrl();
    await app.deps.db.updateTable('oauth_states').set({ expires_at: new Date(Date.now() - 1000) }).where('used_at', 'is', null).execute();
    expect((await completeOAuth(expired.auth_url)).status).toBe(400);

    // Another user of its own, whom no other test gives an account.
    const dave = await newUser('dave');
    const aliceFlow = await callerFor(app.deps, { user: alice }).api.tiktok.authUrl();
    const asDave = await completeOAuth(aliceFlow.auth_url, await sessionCookie(dave));
    expect(asDave.status).toBe(400);
    expect(asDave.html).toContain('started by another Clipshift account');
    expect(await callerFor(app.deps, { user: dave }).api.tiktok.accounts()).toEqual([]);
  });

  it('passes a refusal on TikTok’s page to the opener as an error', async () => {
    tiktok.refuseAuthorization({ error: 'access_denied', description: 'The user denied the request' });
    try {
      const { auth_url } = await callerFor(app.deps, { user: alice }).api.tiktok.authUrl();
      const result = await completeOAuth(auth_url);
      expect(result.status).toBe(400);
      expect(result.html).toContain('"success":false');
    } finally {
      tiktok.refuseAuthorization(false);
    }
  });

  it('connects a guest’s account to the passkey owner', async () => {
    const { passkey } = await callerFor(app.deps, { user: bob }).api.guests.currentPasskey();
    tiktok.setAuthorizingUser('open-guest');
    const { auth_url } = await callerFor(app.deps, { ip: '10.9.9.9' }).api.tiktok.guestAuthUrl({ passkey: passkey.toLowerCase() });
    expect((await completeOAuth(auth_url)).html).toContain('"success":true');
    expect((await callerFor(app.deps, { user: bob }).api.tiktok.accounts()).map((account) => account.username)).toEqual(['guestacct']);
    await expect(callerFor(app.deps, { ip: '10.9.9.10' }).api.tiktok.guestAuthUrl({ passkey: 'ZZZZZZ' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Invalid passkey' });
  });

  it('refreshes ahead of expiry, storing the rotated refresh token; a refused refresh asks for reconnection', async () => {
    const accountId = await connect(alice, 'open-alice');
    const before = await app.deps.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    const oldRefresh = decryptSecret(before.refresh_token_enc, app.deps.appSecret);
    await app.deps.db.updateTable('accounts').set({ access_expires_at: new Date(Date.now() + 60_000) }).where('id', '=', accountId).execute();
    const token = await refreshedToken(app.deps, tiktokPlatform, accountId);
    const after = await app.deps.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(decryptSecret(after.access_token_enc, app.deps.appSecret)).toBe(token);
    expect(decryptSecret(after.refresh_token_enc, app.deps.appSecret)).not.toBe(oldRefresh);
    await expect(app.deps.tiktok!.refreshToken(oldRefresh)).rejects.toMatchObject({ kind: 'reconnect_required' });

    // Put the dead refresh token back: the next refresh fails and the account needs reconnecting.
    const { encryptSecret } = await import('../../server/src/platform/crypto.ts');
    await app.deps.db.updateTable('accounts').set({ refresh_token_enc: encryptSecret(oldRefresh, app.deps.appSecret), access_expires_at: new Date() }).where('id', '=', accountId).execute();
    await expect(refreshedToken(app.deps, tiktokPlatform, accountId)).rejects.toThrow(/reconnect the account/);
    expect((await callerFor(app.deps, { user: alice }).api.tiktok.accounts()).find((account) => account.id === accountId)?.needs_reconnect).toBe(true);
    await connect(alice, 'open-alice');
    expect((await callerFor(app.deps, { user: alice }).api.tiktok.accounts()).find((account) => account.id === accountId)?.needs_reconnect).toBe(false);
  });

  it('reports what a creator may post with (privacy options of a private account)', async () => {
    const accountId = await connect(alice, 'open-private');
    const options = await callerFor(app.deps, { user: alice }).api.tiktok.creatorOptions({ id: accountId });
    expect(options).toMatchObject({ tiktok_account_id: accountId, privacy_level_options: ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'] });
    await expect(callerFor(app.deps, { user: bob }).api.tiktok.creatorOptions({ id: accountId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('links and unlinks accounts to streamers', async () => {
    // A user of its own: alice's account is linked to other tests' streamers in any order.
    const erin = await newUser('erin');
    const api = callerFor(app.deps, { user: erin }).api;
    const accountId = await connect(erin, 'open-alice');
    twitch.addBroadcaster({ login: 'linked' });
    await api.streamers.create({ name: 'linked' });
    const linked = await api.posting.link({ name: 'linked', tiktok_account_id: accountId });
    expect(linked.tiktok_accounts).toEqual([{ id: accountId, platform: 'tiktok', display_name: 'Alice Clips', username: 'aliceclips', avatar_url: expect.any(String) }]);
    expect(await api.posting.linkedStreamers({ id: accountId })).toEqual([{ name: 'linked' }]);
    expect((await api.streamers.list()).find((streamer) => streamer.name === 'linked')?.tiktok_accounts).toHaveLength(1);
    await expect(callerFor(app.deps, { user: bob }).api.posting.link({ name: 'linked', tiktok_account_id: accountId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await api.posting.unlink({ name: 'linked', tiktok_account_id: accountId })).tiktok_accounts).toEqual([]);
  });

  it('posts a clip by Direct Post and refuses a second post to the same account (409)', async () => {
    const api = callerFor(app.deps, { user: alice }).api;
    const accountId = await connect(alice, 'open-alice');
    await seedClip(app.deps, alice.id, { clip_id: 'PostMe', title: 'post me' });
    const result = await api.posting.post({ id: 'PostMe', description: 'what a play #valorant #clips #fyp', tiktok_account_ids: [accountId], privacy_level: 'PUBLIC_TO_EVERYONE' });
    expect(result.message).toBe('Posted to TikTok successfully!');
    expect(result.uploads).toHaveLength(1);
    expect(['processing', 'published']).toContain(result.uploads[0]!.status);
    const publishId = result.uploads[0]!.publish_id!;
    const post = tiktok.posts.get(publishId);
    expect(post?.postInfo).toMatchObject({ title: 'what a play #valorant #clips #fyp', privacy_level: 'PUBLIC_TO_EVERYONE' });
    expect(tiktok.uploads.get(publishId)?.complete).toBe(true);

    const final = await waitForStatus(result.uploads[0]!.id, ['published']);
    expect(final.status).toBe('published');
    // The public post id TikTok answered, kept to match the post's statistics later.
    expect(final).toMatchObject({ platform: 'tiktok', external_id: tiktok.posts.get(publishId)!.publicPostIds[0], stats: null });
    expect(final.external_id).toMatch(/^\d+$/);
    expect((await api.clips.details({ id: 'PostMe' })).posted_to).toEqual([{ account: '@aliceclips', status: 'published', percent: 100, platform: 'tiktok', external_id: expect.any(String), stats: null, warning: null }]);
    await expect(api.posting.post({ id: 'PostMe', description: 'again', tiktok_account_ids: [accountId] })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('saves how much of the video TikTok has received, chunk by chunk (upload status and the clip)', async () => {
    const api = callerFor(app.deps, { user: alice }).api;
    const accountId = await connect(alice, 'open-alice');
    // Three 10 MiB chunks (the last one a byte longer).
    const { id: clipRowId } = await seedClip(app.deps, alice.id, { clip_id: 'ThreeChunks', video: Buffer.alloc(30 * MIB + 1, 7) });
    tiktok.holdChunks();
    const posting = api.posting.post({ id: 'ThreeChunks', description: 'chunky #a #b #c', tiktok_account_id: accountId, privacy_level: 'SELF_ONLY' });
    const upload = await waitUntil(() => app.deps.db.selectFrom('uploads').select('id').where('clip_row_id', '=', clipRowId).executeTakeFirst(), {
      message: 'the upload row',
      until: (row): row is { id: string } => row !== undefined,
    });
    const postedTo = async () => (await api.clips.list({ search: 'ThreeChunks' })).clips[0]?.posted_to;

    await waitUntil(() => tiktok.heldChunks(), { message: 'the first chunk to arrive', until: (held) => held === 1 });
    expect(await api.posting.uploadStatus({ id: upload.id })).toMatchObject({ status: 'uploading', percent: 0 });
    const seen: number[] = [];
    for (const chunk of [1, 2]) {
      tiktok.releaseChunk();
      const status = await waitUntil(() => api.posting.uploadStatus({ id: upload.id }), {
        message: `the percent after chunk ${chunk}`,
        until: (current) => (current.percent ?? 0) > (seen.at(-1) ?? 0),
      });
      expect(status.status).toBe('uploading');
      seen.push(status.percent!);
      expect(await postedTo()).toEqual([{ account: '@aliceclips', status: 'uploading', percent: status.percent, platform: 'tiktok', external_id: null, stats: null, warning: null }]);
      await waitUntil(() => tiktok.heldChunks(), { message: `chunk ${chunk + 1} to arrive`, until: (held) => held === 1 });
    }
    expect(seen).toEqual([33, 66]);
    tiktok.releaseChunk();
    await expect(posting).resolves.toMatchObject({ message: 'Posted to TikTok successfully!' });
    expect(await waitForStatus(upload.id, ['published'])).toMatchObject({ percent: 100 });
    expect(await postedTo()).toEqual([{ account: '@aliceclips', status: 'published', percent: 100, platform: 'tiktok', external_id: null, stats: null, warning: null }]);
  });

  it('answers 503 that the upload carries on when TikTok stalls past the held-call limit, and finishes it in the background', async () => {
    const accountId = await connect(alice, 'open-alice');
    const { id: clipRowId } = await seedClip(app.deps, alice.id, { clip_id: 'StalledPost', video: Buffer.alloc(MIB, 7) });
    tiktok.holdChunks();
    const impatient = callerFor({ ...app.deps, heldCallLimitMs: 1_000 }, { user: alice }).api;
    let answer: unknown;
    void impatient.posting.post({ id: 'StalledPost', description: 'slow uplink #a', tiktok_account_id: accountId, privacy_level: 'SELF_ONLY' }).then(
      (value) => (answer = value),
      (error: unknown) => (answer = error),
    );
    await waitUntil(() => tiktok.heldChunks(), { message: 'the chunk to stall at TikTok', until: (held) => held === 1 });
    await waitUntil(() => answer, { message: 'the held call to answer once its limit passed', timeoutMs: 30_000 });
    expect(answer).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: UPLOADS_CARRY_ON });
    // The chunk is still on its way: the answer did not stop the upload.
    expect(tiktok.heldChunks()).toBe(1);
    tiktok.releaseChunk();
    const upload = await app.deps.db.selectFrom('uploads').select('id').where('clip_row_id', '=', clipRowId).executeTakeFirstOrThrow();
    expect(await waitForStatus(upload.id, ['published'])).toMatchObject({ percent: 100 });
  });

  it('lets only one of two simultaneous posts of a clip to one account through', async () => {
    const api = callerFor(app.deps, { user: alice }).api;
    const accountId = await connect(alice, 'open-alice');
    await seedClip(app.deps, alice.id, { clip_id: 'RaceMe' });
    const inits = tiktok.requestsTo('video_init').length;
    const results = await Promise.allSettled([
      api.posting.post({ id: 'RaceMe', description: 'one #a #b #c', tiktok_account_id: accountId, privacy_level: 'SELF_ONLY' }),
      api.posting.post({ id: 'RaceMe', description: 'two #a #b #c', tiktok_account_id: accountId, privacy_level: 'SELF_ONLY' }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((result) => result.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
    expect(tiktok.requestsTo('video_init').length).toBe(inits + 1);
  });

  it('a retried job with a saved publish_id polls instead of posting again', async () => {
    const accountId = await connect(alice, 'open-alice');
    const { id: clipRowId } = await seedClip(app.deps, alice.id, { clip_id: 'Retried' });
    await worker.stop();
    let row: { id: string } | undefined;
    try {
      const { queueUploads } = await import('../../server/src/domains/publishing/uploads.ts');
      [row] = await queueUploads(app.deps.db, { userId: alice.id, clipRowId, accountIds: [accountId], description: 'retry #a #b #c', mode: 'direct', privacyLevel: 'SELF_ONLY' }, { timing: 'now' });
      const post = (attempts: number) => runTypedJob(postJob(app.deps), { uploadId: row!.id }, app.deps.logger, { attempts, maxAttempts: 3 });
      await post(1);
      const inits = tiktok.requestsTo('video_init').length;
      // Pretend the first run died after TikTok accepted the upload but before the status was saved.
      await app.deps.db.updateTable('uploads').set({ status: 'processing' }).where('id', '=', row!.id).execute();
      await post(2);
      expect(tiktok.requestsTo('video_init').length).toBe(inits);
      expect((await app.deps.db.selectFrom('uploads').select('status').where('id', '=', row!.id).executeTakeFirstOrThrow()).status).toBe('published');
    } finally {
      await dropQueuedPost(row);
      worker = await startWorker(app.deps, app.database.pool, 3);
    }
  });

  it('runs a post job an earlier version stored under its old name, tiktok/post', async () => {
    const accountId = await connect(alice, 'open-alice');
    const { id: clipRowId } = await seedClip(app.deps, alice.id, { clip_id: 'OldName' });
    const { queueUploads } = await import('../../server/src/domains/publishing/uploads.ts');
    await worker.stop();
    let row: { id: string } | undefined;
    try {
      [row] = await queueUploads(app.deps.db, { userId: alice.id, clipRowId, accountIds: [accountId], description: 'old name', mode: 'direct', privacyLevel: 'SELF_ONLY' }, { timing: 'now' });
      // What a database upgraded from an earlier version holds: the job under the task name it had then.
      await removeJob(app.deps.db, jobKey(POST_JOB, { uploadId: row!.id }));
      await sql`select graphile_worker.add_job('tiktok/post', json_build_object('uploadId', ${row!.id}::text), job_key => ${jobKey(POST_JOB, { uploadId: row!.id })})`.execute(app.deps.db);
    } finally {
      worker = await startWorker(app.deps, app.database.pool, 3);
    }
    expect((await waitForStatus(row!.id, ['published', 'failed'])).status).toBe('published');
  });

  it('sends the commercial content disclosure to TikTok and never posts branded content privately (API, approvals, post job, fake)', async () => {
    expectErrorLogs(/^Posting a clip to TikTok failed: Branded content can't be private on TikTok/);
    // A user of its own: the account's saved post settings are changed here.
    const dana = await newUser('dana');
    const api = callerFor(app.deps, { user: dana }).api;
    const accountId = await connect(dana, 'open-alice');
    const uploadOf = (clipId: string) =>
      app.deps.db.selectFrom('uploads').innerJoin('clips', 'clips.id', 'uploads.clip_row_id').select(['uploads.id', 'uploads.status', 'uploads.error', 'uploads.publish_id', 'uploads.brand_organic', 'uploads.brand_content']).where('clips.clip_id', '=', clipId).execute();

    // The wizard's post: both toggles arrive in post_info and stay with the upload.
    await seedClip(app.deps, dana.id, { clip_id: 'Branded' });
    const both = { your_brand: true, branded_content: true };
    const posted = await api.posting.post({ id: 'Branded', description: 'sponsored #ad #a #b', account_ids: [accountId], privacy_level: 'PUBLIC_TO_EVERYONE', tiktok_commercial: both });
    expect(tiktok.posts.get(posted.uploads[0]!.publish_id!)?.postInfo).toMatchObject({ privacy_level: 'PUBLIC_TO_EVERYONE', brand_organic_toggle: true, brand_content_toggle: true });
    expect(await uploadOf('Branded')).toEqual([expect.objectContaining({ brand_organic: true, brand_content: true })]);
    // Without a disclosure both go as false; "Your brand" alone may be private.
    await seedClip(app.deps, dana.id, { clip_id: 'OwnBrand' });
    const own = await api.posting.post({ id: 'OwnBrand', description: 'mine #a #b #c', account_ids: [accountId], privacy_level: 'SELF_ONLY', tiktok_commercial: { your_brand: true } });
    expect(tiktok.posts.get(own.uploads[0]!.publish_id!)?.postInfo).toMatchObject({ privacy_level: 'SELF_ONLY', brand_organic_toggle: true, brand_content_toggle: false });

    // Branded content that only the creator may see: 400 before anything is queued or sent.
    await seedClip(app.deps, dana.id, { clip_id: 'BrandedPrivate' });
    const inits = tiktok.requestsTo('video_init').length;
    await expect(api.posting.post({ id: 'BrandedPrivate', description: 'x #a #b #c', account_ids: [accountId], privacy_level: 'SELF_ONLY', tiktok_commercial: { branded_content: true } })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: "Branded content can't be private on TikTok",
    });
    expect(await uploadOf('BrandedPrivate')).toEqual([]);

    // An approval takes the disclosure too, checked against the privacy chosen for the account.
    const { id: pendingRow } = await seedClip(app.deps, dana.id, { clip_id: 'PendingBranded' });
    await app.deps.db.updateTable('clips').set({ review_status: 'pending' }).where('id', '=', pendingRow).execute();
    await api.review.saveAccountSettings({ id: accountId, privacy_level: 'SELF_ONLY' });
    await expect(api.review.approve({ clip_id: 'PendingBranded', account_ids: [accountId], tiktok_commercial: { branded_content: true } })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: "Branded content can't be private on TikTok",
    });
    expect(await uploadOf('PendingBranded')).toEqual([]);
    expect((await app.deps.db.selectFrom('clips').select('review_status').where('id', '=', pendingRow).executeTakeFirstOrThrow()).review_status).toBe('pending');
    await api.review.saveAccountSettings({ id: accountId, privacy_level: 'PUBLIC_TO_EVERYONE' });
    await api.review.approve({ clip_id: 'PendingBranded', account_ids: [accountId], tiktok_commercial: { branded_content: true } });
    const [approved] = await uploadOf('PendingBranded');
    expect(approved).toMatchObject({ brand_organic: false, brand_content: true });
    const [published] = await waitUntil(() => uploadOf('PendingBranded'), { until: (rows) => rows[0]?.status === 'published', message: 'the approved post to be published', intervalMs: 200 });
    expect(tiktok.posts.get(published!.publish_id!)?.postInfo).toMatchObject({ brand_organic_toggle: false, brand_content_toggle: true });
    expect(tiktok.requestsTo('video_init').length).toBe(inits + 1);

    // The post job holds to the rule for a row that reached it anyway (written before the rule).
    const { id: clipRowId } = await seedClip(app.deps, dana.id, { clip_id: 'JobBranded' });
    const { queueUploads } = await import('../../server/src/domains/publishing/uploads.ts');
    const [row] = await queueUploads(app.deps.db, { userId: dana.id, clipRowId, accountIds: [accountId], description: 'x #a #b #c', mode: 'direct', privacyLevel: 'SELF_ONLY', commercial: { your_brand: false, branded_content: true } }, { timing: 'now' });
    const failed = await waitUntil(() => uploadOf('JobBranded'), { until: (rows) => rows[0]?.status === 'failed', message: 'the branded private post to fail', intervalMs: 200 });
    expect(failed[0]).toMatchObject({ id: row!.id, error: "Branded content can't be private on TikTok", publish_id: null });
    // The failure is logged after the upload is marked: waited for, so that it lands in this test.
    await waitUntil(() => app.deps.db.selectFrom('logs').select('message').where('user_id', '=', dana.id).where('level', '=', 'ERROR').execute(), {
      until: (rows) => rows.some((entry) => entry.message === "Posting a clip to TikTok failed: Branded content can't be private on TikTok"),
      message: 'the failed post in the log',
    });
    expect(tiktok.requestsTo('video_init').length).toBe(inits + 1);

    // The fake refuses it as TikTok does, should it ever be sent.
    const { accessToken } = tiktok.issueTokens('open-alice');
    const refused = await fetch(`${tiktok.apiUrl}/v2/post/publish/video/init/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({
        post_info: { title: 'x', privacy_level: 'SELF_ONLY', brand_content_toggle: true },
        source_info: { source: 'FILE_UPLOAD', video_size: 1000, chunk_size: 1000, total_chunk_count: 1 },
      }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'invalid_param' } });
  });

  const documentedErrors: { name: string; arrange: () => void; message: RegExp; privacy?: 'SELF_ONLY' | 'PUBLIC_TO_EVERYONE' }[] = [
    { name: 'unaudited app posting publicly', arrange: () => tiktok.setUnaudited(true), message: /unaudited|private/i, privacy: 'PUBLIC_TO_EVERYONE' },
    { name: 'too many posts today', arrange: () => tiktok.failNext('video_init', 'spam_risk_too_many_posts'), message: /daily posting limit/i },
    { name: 'five posting users a day for an unaudited app', arrange: () => tiktok.failNext('creator_info', 'reached_active_user_cap'), message: /.+/ },
    { name: 'too many drafts waiting', arrange: () => tiktok.failNext('video_init', 'spam_risk_too_many_pending_share'), message: /.+/ },
  ];
  for (const [index, scenario] of documentedErrors.entries()) {
    it(`explains "${scenario.name}" in plain words (502, upload status, system log)`, async () => {
      expectErrorLogs(/^Posting a clip to TikTok failed: /);
      const api = callerFor(app.deps, { user: alice }).api;
      const accountId = await connect(alice, 'open-alice');
      await seedClip(app.deps, alice.id, { clip_id: `Err${index}` });
      scenario.arrange();
      const error = await api.posting.post({ id: `Err${index}`, description: 'x #a #b #c', tiktok_account_id: accountId, privacy_level: scenario.privacy ?? 'SELF_ONLY' }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'BAD_GATEWAY', message: expect.stringMatching(scenario.message) });
      const upload = await app.deps.db.selectFrom('uploads').innerJoin('clips', 'clips.id', 'uploads.clip_row_id').select(['uploads.id', 'uploads.error', 'uploads.status']).where('clips.clip_id', '=', `Err${index}`).executeTakeFirstOrThrow();
      expect(upload.status).toBe('failed');
      const status = await api.posting.uploadStatus({ id: upload.id });
      expect(status).toMatchObject({ status: 'failed', clip_id: `Err${index}`, error: upload.error });
      const logged = await app.deps.db.selectFrom('logs').select('message').where('logger', '=', 'tiktok').where('level', '=', 'ERROR').execute();
      expect(logged.some((entry) => entry.message.includes(upload.error!))).toBe(true);
      // A failed post may be tried again.
      tiktok.setUnaudited(false);
      tiktok.clearFailures();
      await expect(api.posting.post({ id: `Err${index}`, description: 'x #a #b #c', tiktok_account_id: accountId, privacy_level: 'SELF_ONLY' })).resolves.toMatchObject({ message: 'Posted to TikTok successfully!' });
    });
  }

  it('explains an expired connection and marks the account for reconnection', async () => {
    expectErrorLogs(/^Posting a clip to TikTok failed: The TikTok connection of Alice Clips has expired/);
    const api = callerFor(app.deps, { user: alice }).api;
    const accountId = await connect(alice, 'open-alice');
    await seedClip(app.deps, alice.id, { clip_id: 'Expired' });
    await app.deps.db.updateTable('accounts').set({ access_expires_at: new Date() }).where('id', '=', accountId).execute();
    tiktok.failNext('token', 'invalid_grant');
    const error = await api.posting.post({ id: 'Expired', description: 'x #a #b #c', tiktok_account_id: accountId, privacy_level: 'SELF_ONLY' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BAD_GATEWAY', message: expect.stringMatching(/expired: reconnect the account/) });
    expect((await api.tiktok.accounts()).find((account) => account.id === accountId)?.needs_reconnect).toBe(true);
    await connect(alice, 'open-alice');
  });

  it('auto-publishes each new clip of an auto_publish streamer to its linked accounts', async () => {
    const api = callerFor(app.deps, { user: alice }).api;
    const accountId = await connect(alice, 'open-alice');
    twitch.addBroadcaster({ login: 'autopub' });
    twitch.addClip({ broadcaster: 'autopub', title: 'auto clip', view_count: 99 });
    await api.streamers.create({ name: 'autopub', auto_publish: true, clip_limit: 1 });
    await api.posting.link({ name: 'autopub', tiktok_account_id: accountId });
    await api.downloads.start({ name: 'autopub' });
    const posted = await waitUntil(
      () => app.deps.db.selectFrom('uploads').innerJoin('clips', 'clips.id', 'uploads.clip_row_id').select(['uploads.status', 'uploads.description']).where('clips.streamer_name', '=', 'autopub').execute(),
      { until: (rows) => rows.some((row) => row.status === 'published'), message: 'the auto-published upload', timeoutMs: renderLimitMs(1), intervalMs: 200 },
    );
    expect(posted).toEqual([expect.objectContaining({ status: 'published' })]);
    const clip = await app.deps.db.selectFrom('clips').select('descriptions').where('streamer_name', '=', 'autopub').executeTakeFirstOrThrow();
    expect(posted[0]!.description).toBe(clip.descriptions[0]!.description);
  });

  it('keeps the post history of a removed account, and refuses posting the clip again to it once reconnected', async () => {
    const api = callerFor(app.deps, { user: alice }).api;
    const accountId = await connect(alice, 'open-history');
    await seedClip(app.deps, alice.id, { clip_id: 'Keepsake', title: 'keepsake' });
    const posted = await api.posting.post({ id: 'Keepsake', description: 'kept #a #b #c', tiktok_account_id: accountId, privacy_level: 'SELF_ONLY' });
    const uploadId = posted.uploads[0]!.id;
    await waitForStatus(uploadId, ['published']);

    await api.tiktok.deleteAccount({ id: accountId });
    // The Posted badge and the upload status stay, under the name the account had.
    expect((await api.clips.details({ id: 'Keepsake' })).posted_to).toEqual([{ account: '@historykeeper', status: 'published', percent: 100, platform: 'tiktok', external_id: null, stats: null, warning: null }]);
    const listed = await api.clips.list({ page: 1, limit: 100 });
    expect(listed.clips.find((clip) => clip.clip_id === 'Keepsake')?.posted_to).toEqual([{ account: '@historykeeper', status: 'published', percent: 100, platform: 'tiktok', external_id: null, stats: null, warning: null }]);
    expect(await api.posting.uploadStatus({ id: uploadId })).toMatchObject({ id: uploadId, clip_id: 'Keepsake', tiktok_account_id: null, account: '@historykeeper', status: 'published' });
    const rest = await fetch(`${server.baseUrl}/api/upload-status/${uploadId}`, { headers: { cookie: await sessionCookie(alice) } });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ tiktok_account_id: null, account: '@historykeeper', status: 'published' });

    // The same TikTok account connected again: the clip is not posted to it a second time, by hand or automatically.
    const inits = tiktok.requestsTo('video_init').length;
    const again = await connect(alice, 'open-history');
    expect(again).not.toBe(accountId);
    await expect(api.posting.post({ id: 'Keepsake', description: 'twice #a #b #c', tiktok_account_id: again, privacy_level: 'SELF_ONLY' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This clip is already posted or being posted to @historykeeper',
    });
    const { queueUploads } = await import('../../server/src/domains/publishing/uploads.ts');
    const clip = await app.deps.db.selectFrom('clips').select('id').where('clip_id', '=', 'Keepsake').executeTakeFirstOrThrow();
    const queued = await queueUploads(app.deps.db, { userId: alice.id, clipRowId: clip.id, accountIds: [again], description: 'auto #a', mode: 'direct' }, { skipExisting: true, timing: 'next-slot' });
    expect(queued).toEqual([]);
    expect(tiktok.requestsTo('video_init').length).toBe(inits);
    // And the history is the reconnected account's again.
    expect(await api.posting.uploadStatus({ id: uploadId })).toMatchObject({ tiktok_account_id: again, account: '@historykeeper' });
  });

  it('fails a queued post plainly when its account is removed before the job runs', async () => {
    expectErrorLogs(/^Posting a clip to TikTok failed: The TikTok account was removed before the clip was posted/);
    const api = callerFor(app.deps, { user: alice }).api;
    const accountId = await connect(alice, 'open-guest');
    const { id: clipRowId } = await seedClip(app.deps, alice.id, { clip_id: 'Orphaned' });
    await worker.stop();
    let row: { id: string } | undefined;
    try {
      const { queueUploads } = await import('../../server/src/domains/publishing/uploads.ts');
      [row] = await queueUploads(app.deps.db, { userId: alice.id, clipRowId, accountIds: [accountId], description: 'orphan #a #b #c', mode: 'direct', privacyLevel: 'SELF_ONLY' }, { timing: 'now' });
      await api.tiktok.deleteAccount({ id: accountId });
      await runTypedJob(postJob(app.deps), { uploadId: row!.id }, app.deps.logger, { attempts: 1, maxAttempts: 3 });
      expect(await api.posting.uploadStatus({ id: row!.id })).toMatchObject({
        status: 'failed',
        error: 'The TikTok account was removed before the clip was posted',
        tiktok_account_id: null,
        account: '@guestacct',
      });
      expect((await api.clips.details({ id: 'Orphaned' })).posted_to).toEqual([{ account: '@guestacct', status: 'failed', percent: null, platform: 'tiktok', external_id: null, stats: null, warning: null }]);
    } finally {
      await dropQueuedPost(row);
      worker = await startWorker(app.deps, app.database.pool, 3);
    }
  });

  /** The post's job was run by hand while the worker was stopped: the restarted worker must not run it again. */
  async function dropQueuedPost(upload: { id: string } | undefined): Promise<void> {
    if (upload) await removeJob(app.deps.db, jobKey(POST_JOB, { uploadId: upload.id }));
  }

  async function waitForStatus(uploadId: string, statuses: string[]) {
    const api = callerFor(app.deps, { user: alice }).api;
    return waitUntil(() => api.posting.uploadStatus({ id: uploadId }), {
      until: (upload) => statuses.includes(upload.status),
      message: `upload ${uploadId} to reach ${statuses.join(' or ')}`,
      intervalMs: 200,
    });
  }
});
