import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createdToken, tokenLacksScope, type TokenScope } from '@clipshift/shared';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { adminAndMember, bodyOf, resetThrottles, userIdOf, type RestClient } from './client.ts';

const TOOL_NAMES = [
  'list_streamers',
  'start_download',
  'download_status',
  'list_clips',
  'get_clip',
  'list_moments',
  'list_review',
  'approve_clip',
  'reject_clip',
  'render_clip',
  'post_clip',
  'list_queue',
  'account_stats',
];

/* The MCP server at /api/mcp, driven by the SDK's own client as an AI assistant would (no worker runs: long work stays queued). */
describe('MCP server: POST /api/mcp', () => {
  let app: TestApp;
  let server: TestServer;
  let member: RestClient;
  let memberId: string;
  let accountId: string;
  const clients: Client[] = [];

  async function tokenWith(scopes: TokenScope[]): Promise<string> {
    const reply = await member.post('/api/tokens', { name: `mcp ${scopes.join('+')}`, scopes });
    expect(reply.status, reply.text).toBe(201);
    return bodyOf(reply, createdToken).token;
  }

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'clipshift-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

  beforeAll(async () => {
    app = await createTestApp();
    server = await startTestServer(app.deps);
    ({ member } = await adminAndMember(server.baseUrl));
    memberId = await userIdOf(member);
    const account = await app.deps.db
      .insertInto('accounts')
      .values({ user_id: memberId, open_id: 'open-mcp', display_name: 'Member', username: 'memberclips', access_token_enc: 'x', refresh_token_enc: 'x', access_expires_at: new Date(Date.now() + 3_600_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    accountId = account.id;
    const streamerId = await seedStreamer(app.deps, memberId, 'mcpstreamer');
    await app.deps.db.insertInto('streamer_accounts').values({ streamer_id: streamerId, account_id: accountId }).execute();
    await app.deps.db
      .insertInto('moments')
      .values({
        user_id: memberId, streamer_id: streamerId, streamer_name: 'mcpstreamer', broadcaster_id: '1', stream_id: 's1', stream_started_at: new Date(),
        stream_offset: 125, score: 0.82, reasons: JSON.stringify(['Emote burst: KEKW ×87']), status: 'clipped', clip_id: 'MomentClip',
      })
      .execute();
    await app.deps.db.insertInto('account_post_settings').values({ account_id: accountId, privacy_level: 'SELF_ONLY' }).execute();
    for (const clipId of ['Waiting', 'Doubtful', 'Library']) {
      const { id } = await seedClip(app.deps, memberId, { clip_id: clipId, title: `title ${clipId}`, streamer_name: 'mcpstreamer', descriptions: [{ description: `best of ${clipId} #a`, rank: 0.9 }] });
      await app.deps.db.updateTable('clips').set({ streamer_id: streamerId, review_status: clipId === 'Library' ? null : 'pending' }).where('id', '=', id).execute();
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
    await app.close();
  });
  beforeEach(async () => {
    await resetThrottles(app.deps);
  });

  it('refuses a request without a valid token with 401 and WWW-Authenticate; the SDK client cannot connect', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer cs_not_a_token' }, { cookie: member.cookie ?? '' }];
    for (const extra of attempts) {
      const reply = await fetch(`${server.baseUrl}/api/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(initialize) });
      expect(reply.status, JSON.stringify(extra)).toBe(401);
      expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer realm="clipshift"/);
    }
    const client = new Client({ name: 'anonymous', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`)))).rejects.toThrow();
  });

  it('accepts protocol 2025-06-18 (stateless, JSON answers), and GET is not allowed', async () => {
    const token = await tokenWith(['read']);
    const reply = await fetch(`${server.baseUrl}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, origin: 'https://assistant.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { result: { protocolVersion: string; serverInfo: { name: string }; capabilities: Record<string, unknown> } };
    expect(body.result.protocolVersion).toBe('2025-06-18');
    expect(body.result.serverInfo.name).toBe('clipshift');
    expect(body.result.capabilities).toHaveProperty('tools');
    const get = await fetch(`${server.baseUrl}/api/mcp`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });

  it('lists the 13 tools with descriptions and input schemas from the shared schemas', async () => {
    const client = await connect(await tokenWith(['read']));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('start_download')?.inputSchema).toMatchObject({ required: ['name'], properties: { name: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 100 } } });
    expect(byName.get('post_clip')?.inputSchema).toMatchObject({ required: expect.arrayContaining(['id', 'description']), properties: { account_ids: { type: 'array' }, privacy_level: { enum: expect.arrayContaining(['SELF_ONLY']) } } });
    expect(byName.get('approve_clip')?.inputSchema.required).toEqual(['clip_id']);
    expect(Object.keys(byName.get('list_clips')?.inputSchema.properties ?? {})).toEqual(['streamer', 'search', 'page', 'limit']);
    expect(byName.get('list_review')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('calls each tool as the token’s user: lists, download, review approve and reject, render, post, queue, statistics', async () => {
    const client = await connect(await tokenWith(['read', 'write', 'post']));

    const streamers = await call(client, 'list_streamers');
    expect(streamers.isError).toBeFalsy();
    expect(textOf(streamers)).toBe('1 streamers: mcpstreamer');
    expect(streamers.structuredContent).toMatchObject({ streamers: [expect.objectContaining({ name: 'mcpstreamer' })] });

    const started = await call(client, 'start_download', { name: 'mcpstreamer', limit: 3 });
    expect(started.isError, textOf(started)).toBeFalsy();
    expect(textOf(started)).toContain('download_status');
    expect(started.structuredContent).toMatchObject({ status: 'downloading', streamer: 'mcpstreamer' });
    const again = await call(client, 'start_download', { name: 'mcpstreamer' });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/already/i);
    const status = await call(client, 'download_status');
    expect(textOf(status)).toMatch(/^mcpstreamer: downloading, 0 of/);
    expect(status.structuredContent).toMatchObject({ runs: { mcpstreamer: expect.objectContaining({ status: 'downloading' }) } });

    const clips = await call(client, 'list_clips', { streamer: 'mcpstreamer', limit: 2 });
    expect(textOf(clips)).toMatch(/^Page 1 of 2: 2 of 3 clips/);
    expect(clips.structuredContent).toMatchObject({ total: 3, limit: 2, page: 1 });
    // The route's own rule and words for a bad limit.
    const badLimit = await call(client, 'list_clips', { limit: 0 });
    expect(badLimit.isError).toBe(true);
    expect(textOf(badLimit)).toMatch(/^limit must be a whole number from 1 to/);

    const clip = await call(client, 'get_clip', { id: 'Library' });
    expect(textOf(clip)).toContain('Library: title Library (mcpstreamer)');
    expect(clip.structuredContent).toMatchObject({ clip_id: 'Library', transcript: null });
    const missing = await call(client, 'get_clip', { id: 'Nope' });
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Clip Nope not found' }] });

    const moments = await call(client, 'list_moments', { streamer: 'mcpstreamer' });
    expect(textOf(moments)).toMatch(/^1 moments, newest first:\n- mcpstreamer, .*: 82%, clipped \(clip MomentClip\): Emote burst: KEKW ×87$/);
    expect(moments.structuredContent).toMatchObject({ moments: [{ streamer: 'mcpstreamer', score: 0.82, reasons: ['Emote burst: KEKW ×87'], clip_id: 'MomentClip', status: 'clipped' }] });
    const badMoments = await call(client, 'list_moments', { limit: 0 });
    expect(badMoments.isError).toBe(true);

    const review = await call(client, 'list_review');
    expect(textOf(review)).toContain('2 clips wait for review');
    const approved = await call(client, 'approve_clip', { clip_id: 'Waiting' });
    expect(approved.isError, textOf(approved)).toBeFalsy();
    expect(textOf(approved)).toBe('Approved: queued for 1 account. Follow the posts with list_queue.');
    const rejected = await call(client, 'reject_clip', { clip_id: 'Doubtful' });
    expect(textOf(rejected)).toBe('Rejected: the clip stays in your library and will not be posted');
    expect((await call(client, 'reject_clip', { clip_id: 'Doubtful' })).isError).toBe(true);
    expect(textOf(await call(client, 'list_review'))).toBe('No clips wait for review.');

    const rendering = await call(client, 'render_clip', { id: 'Library' });
    expect(rendering.isError, textOf(rendering)).toBeFalsy();
    expect(textOf(rendering)).toContain('get_clip (id "Library")');
    expect((await call(client, 'get_clip', { id: 'Library' })).structuredContent).toMatchObject({ render: { status: 'queued' } });

    const posted = await call(client, 'post_clip', { id: 'Library', description: 'posted by an assistant #mcp', account_ids: [accountId], privacy_level: 'SELF_ONLY' });
    expect(posted.isError, textOf(posted)).toBeFalsy();
    expect(textOf(posted)).toContain('list_queue');
    const uploadId = (posted.structuredContent as { uploads: { id: string }[] }).uploads[0]?.id;
    expect(uploadId).toBeDefined();
    const noDescription = await call(client, 'post_clip', { id: 'Library', description: '   ', account_ids: [accountId] });
    expect(noDescription.isError).toBe(true);

    const queue = await call(client, 'list_queue');
    const queued = (queue.structuredContent as { posts: { id: string; clip_id: string }[] }).posts;
    expect(queued.map((post) => post.clip_id).sort()).toEqual(['Library', 'Waiting']);
    expect(queued.map((post) => post.id)).toContain(uploadId);
    expect(textOf(queue)).toContain('2 posts in the queue');

    const accounts = await call(client, 'account_stats');
    expect(textOf(accounts)).toContain(`${accountId}: Member (tiktok)`);
    const stats = await call(client, 'account_stats', { id: accountId, days: 7 });
    expect(stats.isError, textOf(stats)).toBeFalsy();
    expect(stats.structuredContent).toMatchObject({ stats: { account_id: accountId, platform: 'tiktok', series: expect.any(Array) } });
    expect(textOf(stats)).toContain('0 posts, 0 views');
  });

  it('a call beyond the token’s scopes is a tool error naming the scope, and changes nothing', async () => {
    const reader = await connect(await tokenWith(['read']));
    const refused = await call(reader, 'reject_clip', { clip_id: 'Library' });
    expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: tokenLacksScope('write') }] });
    const post = await call(reader, 'post_clip', { id: 'Library', description: 'no #scope', account_ids: [accountId] });
    expect(post).toMatchObject({ isError: true, content: [{ type: 'text', text: tokenLacksScope('post') }] });
    const writer = await connect(await tokenWith(['write']));
    expect(textOf(await call(writer, 'list_streamers'))).toBe(tokenLacksScope('read'));
    const row = await app.deps.db.selectFrom('clips').select('review_status').where('clip_id', '=', 'Library').executeTakeFirstOrThrow();
    expect(row.review_status).toBeNull();
  });

  it('a revoked token stops working on the next request', async () => {
    const token = await tokenWith(['read']);
    const client = await connect(token);
    expect((await call(client, 'list_streamers')).isError).toBeFalsy();
    const [listed] = bodyOf(await member.get('/api/tokens'), createdToken.omit({ token: true }).array()).filter((item) => item.name === 'mcp read');
    await member.request('DELETE', `/api/tokens/${listed!.id}`);
    await expect(client.callTool({ name: 'list_streamers', arguments: {} })).rejects.toThrow(/401|Unauthorized|not valid/i);
  });
});
