import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { streamer } from '@clipshift/shared';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { adminAndMember, bodyOf, errorBody, field, type RestClient, userIdOf } from './client.ts';

describe('REST streamers, downloads and clips', () => {
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let bob: RestClient;

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin: alice, member: bob } = await adminAndMember(server.baseUrl));
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  it('answers 401 on every protected route without a session', async () => {
    const anonymous = alice.fresh();
    const routes: [string, string][] = [
      ['GET', '/api/streamers'],
      ['POST', '/api/streamers'],
      ['PUT', '/api/streamers/x'],
      ['DELETE', '/api/streamers/x'],
      ['GET', '/api/downloads/status'],
      ['POST', '/api/downloads/start/x'],
      ['POST', '/api/downloads/stop/x'],
      ['GET', '/api/clips'],
      ['GET', '/api/clips/x'],
      ['PUT', '/api/clips/x/descriptions'],
      ['DELETE', '/api/clips/x'],
      ['GET', '/api/clips/x/video'],
      ['GET', '/api/clips/x/thumbnail'],
    ];
    for (const [method, path] of routes) {
      const reply = await anonymous.request(method, path, method === 'GET' || method === 'DELETE' ? {} : { json: {} });
      expect({ route: `${method} ${path}`, status: reply.status, body: reply.body }).toEqual({
        route: `${method} ${path}`,
        status: 401,
        body: errorBody('UNAUTHORIZED', 'Authentication required'),
      });
    }
  });

  it('creates (201), lists, updates and deletes streamers with the contract bodies', async () => {
    const created = await alice.post('/api/streamers', { name: ' Shroud ', clip_limit: 5, vertical: true, auto_subtitle: false, auto_publish: false, language: 'en' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Shroud', clip_limit: 5, vertical: true, language: 'en', schedule: null, tiktok_accounts: [], next_run_at: null });
    expect(Object.keys(bodyOf(created, z.record(z.string(), z.unknown()))).sort()).toEqual(
      [
        ...['auto_publish', 'auto_subtitle', 'clip_limit', 'created_at', 'display_name', 'language', 'layout', 'name', 'next_run_at', 'schedule', 'tiktok_accounts', 'updated_at', 'vertical'],
        // The studio's fields (rest-api.md "Studio"), with their defaults.
        ...['crop_focus', 'facecam', 'gameplay', 'split_ratio', 'caption_style', 'glossary', 'normalize_audio'],
        // The automatic look (rest-api.md "The automatic look").
        ...['hook', 'brand'],
        // Clip selection (rest-api.md "Automation").
        ...['clip_period', 'min_views', 'rank_by', 'clip_creators', 'publish_mode'],
        // Moments (rest-api.md "Moments").
        ...['featured_only', 'watch_live', 'moment_threshold'],
      ].sort(),
    );
    expect(created.body).toMatchObject({
      watch_live: false,
      moment_threshold: 0.6,
      layout: 'auto',
      crop_focus: 0.5,
      facecam: null,
      gameplay: { x: 0, y: 0, w: 1, h: 1 },
      split_ratio: 0.35,
      caption_style: { preset: 'classic', font: 'Noto Sans', size: 80, primary_color: '#FFFFFF', uppercase: false },
      glossary: [],
      normalize_audio: true,
      clip_period: 'all',
      min_views: 0,
      rank_by: 'views',
      clip_creators: [],
      publish_mode: 'auto',
      featured_only: false,
    });

    expect((await alice.post('/api/streamers', { name: 'shroud' })).body).toEqual(errorBody('CONFLICT', 'Streamer shroud already exists'));
    const missing = await alice.post('/api/streamers', { name: '' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject(errorBody('BAD_REQUEST', 'Streamer name is required'));
    expect(field(missing, 'issues', 0)).toEqual({ path: ['name'], message: 'Streamer name is required' });

    const list = await alice.get('/api/streamers');
    expect(list.status).toBe(200);
    expect(bodyOf(list, z.array(streamer)).map((entry) => entry.name)).toEqual(['Shroud']);

    const renamed = await alice.request('PUT', '/api/streamers/shroud', { json: { name: 'other', clip_limit: 9 } });
    expect(renamed.status).toBe(400);
    expect(renamed.body).toEqual(errorBody('BAD_REQUEST', 'Streamer name cannot be changed'));
    const updated = await alice.request('PUT', '/api/streamers/shroud', { json: { name: 'Shroud', clip_limit: 9, schedule: { interval: 2, unit: 'hours' } } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Shroud', clip_limit: 9, schedule: { interval: 2, unit: 'hours' } });
    expect(new Date(bodyOf(updated, streamer).next_run_at ?? 0).getTime()).toBeGreaterThan(Date.now() + 7_000_000);

    expect((await bob.request('PUT', '/api/streamers/shroud', { json: { clip_limit: 3 } })).body).toEqual(errorBody('NOT_FOUND', 'Streamer shroud not found'));
    const deleted = await alice.request('DELETE', '/api/streamers/SHROUD');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Streamer Shroud deleted successfully' });
    expect((await alice.request('DELETE', '/api/streamers/shroud')).status).toBe(404);
  });

  it('saves the clip selection fields, keeps the ones a PUT leaves out, and refuses bad ones with 400', async () => {
    const created = await alice.post('/api/streamers', { name: 'picky', clip_period: 'week', min_views: 500, rank_by: 'velocity', clip_creators: [' ModMan ', 'modman', 'VIP_1'], publish_mode: 'review' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ clip_period: 'week', min_views: 500, rank_by: 'velocity', clip_creators: ['modman', 'vip_1'], publish_mode: 'review' });
    const updated = await alice.request('PUT', '/api/streamers/picky', { json: { min_views: 0, clip_creators: [] } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ clip_period: 'week', min_views: 0, rank_by: 'velocity', clip_creators: [], publish_mode: 'review' });

    const refusals: [Record<string, unknown>, string, string][] = [
      [{ clip_period: 'year' }, 'clip_period', 'clip_period must be day, week, month or all'],
      [{ min_views: -5 }, 'min_views', 'min_views must be a whole number from 0 to 1000000000'],
      [{ min_views: 2.5 }, 'min_views', 'min_views must be a whole number from 0 to 1000000000'],
      [{ min_views: 'lots' }, 'min_views', 'min_views must be a whole number from 0 to 1000000000'],
      [{ rank_by: 'likes' }, 'rank_by', 'rank_by must be views or velocity'],
      [{ publish_mode: null }, 'publish_mode', 'publish_mode must be auto or review'],
      [{ featured_only: 'yes' }, 'featured_only', 'featured_only must be true or false'],
      [{ clip_creators: 'modman' }, 'clip_creators', 'clip_creators must be a list of at most 100 Twitch logins (letters, digits and _, at most 25 characters each)'],
      [{ clip_creators: ['mod man'] }, 'clip_creators', 'clip_creators must be a list of at most 100 Twitch logins (letters, digits and _, at most 25 characters each): "mod man" is not one'],
      [{ clip_creators: Array.from({ length: 101 }, (_, index) => `user${index}`) }, 'clip_creators', 'clip_creators must be a list of at most 100 Twitch logins (letters, digits and _, at most 25 characters each)'],
    ];
    for (const [fields, path, message] of refusals) {
      for (const response of [await alice.post('/api/streamers', { name: 'other', ...fields }), await alice.request('PUT', '/api/streamers/picky', { json: fields })]) {
        expect(response.status, JSON.stringify(fields)).toBe(400);
        expect(response.body).toMatchObject(errorBody('BAD_REQUEST', message));
        expect(field(response, 'issues', 0)).toMatchObject({ path: [path] });
      }
    }
    const saved = bodyOf(await alice.get('/api/streamers'), z.array(streamer)).find((entry) => entry.name === 'picky');
    expect(saved).toMatchObject({ clip_period: 'week', min_views: 0, clip_creators: [] });
    expect(bodyOf(await alice.get('/api/streamers'), z.array(streamer)).map((entry) => entry.name)).not.toContain('other');
    expect((await alice.request('DELETE', '/api/streamers/picky')).status).toBe(200);
  });

  it('starts (202), refuses a second start and busy edits (409), and stops', async () => {
    await alice.post('/api/streamers', { name: 'xqc' });
    const started = await alice.post('/api/downloads/start/xqc', { limit: 2, vertical: false });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ message: 'Started downloading clips for xqc', status: 'downloading', clips_downloaded: 0, started_at: expect.any(String) });

    expect((await alice.post('/api/downloads/start/xqc', {})).body).toEqual(errorBody('CONFLICT', 'Already downloading clips for xqc'));
    expect((await alice.request('PUT', '/api/streamers/xqc', { json: { clip_limit: 4 } })).body).toEqual(errorBody('CONFLICT', 'Cannot edit xqc while clips are being downloaded'));
    expect((await alice.request('DELETE', '/api/streamers/xqc')).body).toEqual(errorBody('CONFLICT', 'Cannot delete xqc while clips are being downloaded'));

    const status = await alice.get('/api/downloads/status');
    expect(status.status).toBe(200);
    expect(field(status, 'xqc')).toEqual({
      status: 'downloading',
      clips_downloaded: 0,
      clips_total: 0,
      clips_failed: 0,
      started_at: field(started, 'started_at'),
      completed_at: null,
      error: null,
      progress: [],
    });
    expect((await bob.get('/api/downloads/status')).body).toEqual({});

    const stop = await alice.post('/api/downloads/stop/xqc');
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual({ message: 'Stopping download for xqc' });
    expect((await alice.post('/api/downloads/stop/xqc')).body).toEqual(errorBody('CONFLICT', 'No download is running for xqc'));
    expect((await alice.post('/api/downloads/start/nobody', {})).body).toEqual(errorBody('NOT_FOUND', 'Streamer nobody not found'));
    const badLimit = await alice.post('/api/downloads/start/xqc', { clip_limit: 500 });
    expect(badLimit.status).toBe(400);
    expect(field(badLimit, 'message')).toBe('Clip limit must be a whole number from 1 to 100');
  });

  it('shows the rendered video\'s loudness on the Clip, null for a clip rendered before it was measured', async () => {
    const { id } = await seedClip(app.deps, await userIdOf(alice), { clip_id: 'LoudnessShown', title: 'Loud' });
    expect(field(await alice.get('/api/clips/LoudnessShown'), 'loudness')).toBeNull();
    await app.deps.db.updateTable('clips').set({ loudness_integrated_lufs: -14.1, loudness_true_peak_dbtp: -1.2 }).where('id', '=', id).execute();
    const loudness = { integrated_lufs: -14.1, true_peak_dbtp: -1.2 };
    expect(field(await alice.get('/api/clips/LoudnessShown'), 'loudness')).toEqual(loudness);
    const listed = await alice.get('/api/clips?search=Loud');
    expect(field(listed, 'clips', 0)).toMatchObject({ clip_id: 'LoudnessShown', loudness });

    // The OpenAPI document describes the field as the contract names it.
    const doc = await alice.get('/api/openapi.json');
    const details = JSON.stringify(field(doc, 'paths', '/clips/{id}', 'get', 'responses', '200'));
    expect(details).toContain('"loudness":{"anyOf":[{"type":"object","properties":{"integrated_lufs":{"type":"number"');
    expect(details).toContain('"true_peak_dbtp":{"type":"number"');
    expect(details).toMatch(/"required":\["integrated_lufs","true_peak_dbtp"\].*"description":"Measured on the rendered video.*\{"type":"null"\}\]/);
  });

  it('pages clips and serves video with Range and the download name', async () => {
    const video = Buffer.from(Array.from({ length: 10_000 }, (_, index) => index % 256));
    await seedClip(app.deps, await userIdOf(alice), { clip_id: 'AwkwardFoxKappa', title: 'A great clip', video });

    const page = await alice.get('/api/clips?page=1&limit=10&search=great');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 1, page: 1, limit: 10 });
    expect(field(page, 'clips', 0)).toMatchObject({ clip_id: 'AwkwardFoxKappa', video_url: '/api/clips/AwkwardFoxKappa/video' });
    expect((await alice.get('/api/clips?limit=0')).status).toBe(400);
    expect(field(await alice.get('/api/clips?page=abc'), 'code')).toBe('BAD_REQUEST');

    const whole = await fetch(`${server.baseUrl}/api/clips/AwkwardFoxKappa/video`, { headers: { cookie: alice.cookie! } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(video)).toBe(true);

    const part = await fetch(`${server.baseUrl}/api/clips/AwkwardFoxKappa/video`, { headers: { cookie: alice.cookie!, range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/10000');
    expect(Buffer.from(await part.arrayBuffer()).equals(video.subarray(100, 200))).toBe(true);

    const download = await fetch(`${server.baseUrl}/api/clips/AwkwardFoxKappa/video?download=1`, { headers: { cookie: alice.cookie! } });
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="AwkwardFoxKappa.mp4"');
    await download.arrayBuffer();

    const thumb = await fetch(`${server.baseUrl}/api/clips/AwkwardFoxKappa/thumbnail`, { headers: { cookie: alice.cookie! } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    await thumb.arrayBuffer();

    const foreign = await fetch(`${server.baseUrl}/api/clips/AwkwardFoxKappa/video`, { headers: { cookie: bob.cookie! } });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(errorBody('NOT_FOUND', 'Clip AwkwardFoxKappa not found'));

    const described = await alice.request('PUT', '/api/clips/AwkwardFoxKappa/descriptions', { json: { custom_description: 'mine #clip' } });
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({ custom_description: 'mine #clip', transcript: null });

    const removed = await alice.request('DELETE', '/api/clips/AwkwardFoxKappa');
    expect(removed.body).toEqual({ message: 'Clip deleted successfully' });
    expect((await alice.get('/api/clips/AwkwardFoxKappa')).status).toBe(404);
  });
});
