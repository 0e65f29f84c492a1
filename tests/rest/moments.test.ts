import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MOMENT_PAGE_MAX, moment, streamer } from '@clipshift/shared';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { ADMIN, adminAndMember, bodyOf, errorBody, expectNoSecrets, MEMBER, resetThrottles, RestClient, userIdOf } from './client.ts';

const LIMIT_RULE = `limit must be a whole number from 1 to ${MOMENT_PAGE_MAX}`;

describe('REST moments', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;
  const seen: string[] = [];

  /** A moment row as a chat reader saves it, `minutesAgo` before now. */
  async function seedMoment(userId: string, streamerId: string, name: string, minutesAgo: number, extra: { status?: 'found' | 'clipped' | 'skipped' | 'failed'; clip_id?: string; error?: string } = {}) {
    await app.deps.db
      .insertInto('moments')
      .values({
        user_id: userId,
        streamer_id: streamerId,
        streamer_name: name,
        broadcaster_id: '1001',
        stream_id: `stream-${name}`,
        stream_started_at: new Date(Date.now() - 3 * 3_600_000),
        stream_offset: 3_600 + minutesAgo,
        detected_at: new Date(Date.now() - minutesAgo * 60_000),
        score: 0.82,
        reasons: JSON.stringify([`Chat 6.2× its usual pace (${minutesAgo} min ago)`, 'Emote burst: KEKW ×87']),
        status: extra.status ?? 'found',
        error: extra.error ?? null,
        clip_id: extra.clip_id ?? null,
      })
      .execute();
  }

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl, seen));
    const memberId = await userIdOf(member);
    const adminId = await userIdOf(admin);
    const pixel = await seedStreamer(app.deps, memberId, 'pixelqueen', 'PixelQueen');
    const shroud = await seedStreamer(app.deps, memberId, 'shroud');
    const adminsPixel = await seedStreamer(app.deps, adminId, 'pixelqueen');
    await seedMoment(memberId, pixel, 'pixelqueen', 30, { status: 'clipped', clip_id: 'ClipOne' });
    await seedMoment(memberId, shroud, 'shroud', 20, { status: 'skipped', error: "Below this streamer's threshold (41% < 60%)" });
    await seedMoment(memberId, pixel, 'pixelqueen', 10);
    await seedMoment(adminId, adminsPixel, 'pixelqueen', 5, { status: 'failed', error: 'Twitch refused the clip' });
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(() => resetThrottles(app.deps));

  const offsets = async (client: RestClient, query = '') => bodyOf(await client.get(`/api/moments${query}`), z.array(moment)).map((entry) => `${entry.streamer}@${entry.stream_offset}`);

  it('200: the user’s own moments, newest first, in the contract shape', async () => {
    const reply = await member.get('/api/moments');
    expect(reply.status).toBe(200);
    const list = bodyOf(reply, z.array(moment));
    expect(list.map((entry) => `${entry.streamer}@${entry.stream_offset}`)).toEqual(['pixelqueen@3610', 'shroud@3620', 'pixelqueen@3630']);
    expect(list[2]).toEqual({
      id: expect.any(String),
      streamer: 'pixelqueen',
      detected_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      stream_offset: 3630,
      score: 0.82,
      reasons: ['Chat 6.2× its usual pace (30 min ago)', 'Emote burst: KEKW ×87'],
      clip_id: 'ClipOne',
      status: 'clipped',
      error: null,
    });
    expect(list[1]).toMatchObject({ status: 'skipped', error: "Below this streamer's threshold (41% < 60%)", clip_id: null });
  });

  it('filters by streamer, whatever the case, and never shows another user’s moments', async () => {
    expect(await offsets(member, '?streamer=PixelQueen')).toEqual(['pixelqueen@3610', 'pixelqueen@3630']);
    expect(await offsets(member, '?streamer=shroud')).toEqual(['shroud@3620']);
    expect(await offsets(member, '?streamer=nobody')).toEqual([]);
    expect(await offsets(admin)).toEqual(['pixelqueen@3605']);
    expect(await offsets(admin, '?streamer=shroud')).toEqual([]);
  });

  it('honours ?limit and refuses one out of range with the rule', async () => {
    expect(await offsets(member, '?limit=1')).toEqual(['pixelqueen@3610']);
    for (const bad of ['0', String(MOMENT_PAGE_MAX + 1), '2.5', 'ten']) {
      const reply = await member.get(`/api/moments?limit=${bad}`);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject(errorBody('BAD_REQUEST', LIMIT_RULE));
    }
  });

  it('saves a streamer’s moment settings, and refuses a threshold outside 0..1', async () => {
    const saved = await member.request('PUT', '/api/streamers/pixelqueen', { json: { watch_live: true, moment_threshold: 0.75 } });
    expect(saved.status).toBe(200);
    const listed = bodyOf(await member.get('/api/streamers'), z.array(streamer)).find((entry) => entry.name === 'pixelqueen');
    expect(listed?.watch_live).toBe(true);
    expect(listed?.moment_threshold).toBeCloseTo(0.75, 5);
    const refused = await member.request('PUT', '/api/streamers/pixelqueen', { json: { moment_threshold: 1.5 } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject(errorBody('BAD_REQUEST', 'moment_threshold must be a number from 0 to 1'));
  });

  it('401 without a session', async () => {
    const reply = await member.fresh().get('/api/moments');
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(errorBody('UNAUTHORIZED', 'Authentication required'));
  });

  it('never shows a secret in a body', () => {
    expectNoSecrets(seen, [ADMIN.password, MEMBER.password]);
  });
});
