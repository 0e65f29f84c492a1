import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { adminAndMember, errorBody, type RestClient, userIdOf } from './client.ts';

describe('REST connected accounts of every platform', () => {
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let bob: RestClient;
  const ids: Record<string, string> = {};

  async function addAccount(userId: string, platform: 'tiktok' | 'youtube', openId: string, name: string, needsReconnect = false): Promise<string> {
    const row = await app.deps.db
      .insertInto('accounts')
      .values({ user_id: userId, platform, open_id: openId, union_id: null, display_name: name, username: name.toLowerCase(), avatar_url: null, access_token_enc: 'x', refresh_token_enc: 'x', access_expires_at: new Date(), refresh_expires_at: null, needs_reconnect: needsReconnect })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin: alice, member: bob } = await adminAndMember(server.baseUrl));
    const aliceId = await userIdOf(alice);
    ids.tiktok = await addAccount(aliceId, 'tiktok', 'open-1', 'Clips');
    ids.youtube = await addAccount(aliceId, 'youtube', 'UC123', 'Channel', true);
    // The same external id on two platforms is two accounts.
    ids.other = await addAccount(aliceId, 'youtube', 'open-1', 'Twin');
    const streamer = await seedStreamer(app.deps, aliceId, 'shroud');
    await app.deps.db.insertInto('streamer_accounts').values({ streamer_id: streamer, account_id: ids.youtube }).execute();
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  it('lists TikTok and YouTube accounts in one table with platform, linked streamers and status', async () => {
    const reply = await alice.get('/api/accounts');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      { id: ids.tiktok, platform: 'tiktok', display_name: 'Clips', username: 'clips', avatar_url: null, created_at: expect.any(String), linked_streamers: [], status: 'ok', uploads_left_today: null },
      { id: ids.youtube, platform: 'youtube', display_name: 'Channel', username: 'channel', avatar_url: null, created_at: expect.any(String), linked_streamers: ['shroud'], status: 'reconnect', uploads_left_today: null },
      { id: ids.other, platform: 'youtube', display_name: 'Twin', username: 'twin', avatar_url: null, created_at: expect.any(String), linked_streamers: [], status: 'ok', uploads_left_today: null },
    ]);
    // The TikTok list stays TikTok's.
    expect(((await alice.get('/api/tiktok/accounts')).body as { id: string }[]).map((account) => account.id)).toEqual([ids.tiktok]);
    expect((await bob.get('/api/accounts')).body).toEqual([]);
  });

  it("deletes an account of any platform, only the caller's", async () => {
    expect((await bob.request('DELETE', `/api/accounts/${ids.youtube}`)).status).toBe(404);
    const reply = await alice.request('DELETE', `/api/accounts/${ids.youtube}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ message: 'YouTube account deleted successfully' });
    expect((await alice.request('DELETE', `/api/accounts/${ids.youtube}`)).body).toEqual(errorBody('NOT_FOUND', 'Account not found'));
    expect((await alice.get('/api/accounts')).body).toHaveLength(2);
  });
});
