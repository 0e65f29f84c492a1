import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { ADMIN, adminAndMember, errorBody, field, type RawReply, rawRequest, resetThrottles, type RestClient, userIdOf } from './client.ts';

/** Rest-api.md "Hardening rules": what an undecodable, odd or oversized request gets. */
const BAD_URL = errorBody('BAD_REQUEST', 'The request URL is not validly %-encoded');
const NUL_BYTE = errorBody('BAD_REQUEST', 'The request contains a NUL byte');
const BAD_BODY = errorBody('BAD_REQUEST', 'The request body could not be decoded');
const VIDEO_SIZE = 10_000;
const THUMBNAIL_SIZE = 12;
const NOT_A_UUID = '------------------------------------';
const HEX_NOT_A_UUID = 'a'.repeat(36);

describe('REST: hostile input', () => {
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let aliceId: string;

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin: alice } = await adminAndMember(server.baseUrl));
    aliceId = await userIdOf(alice);
    await seedStreamer(app.deps, aliceId, 'shroud');
    await seedClip(app.deps, aliceId, { clip_id: 'Clip1', streamer_name: 'shroud', video: Buffer.alloc(VIDEO_SIZE, 7) });
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(() => resetThrottles(app.deps));

  const raw = (method: string, path: string, options: { headers?: Record<string, string>; body?: Buffer | string; session?: boolean } = {}) =>
    rawRequest(server.baseUrl, method, path, {
      body: options.body,
      headers: { ...(options.session === false ? {} : { cookie: alice.cookie! }), ...options.headers },
    });
  const json = (method: string, path: string, body: unknown) =>
    raw(method, path, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const errorRows = async () =>
    Number((await app.deps.db.selectFrom('logs').select((eb) => eb.fn.countAll<string>().as('n')).where('level', 'in', ['ERROR', 'CRITICAL']).executeTakeFirstOrThrow()).n);

  function expectJsonError(reply: RawReply, status: number, body: object, what: string): void {
    expect({ what, status: reply.status, body: reply.body }).toEqual({ what, status, body });
    expect(reply.headers['content-type'], what).toMatch(/^application\/json/);
  }

  describe('requests that cannot be decoded answer 400 and store no ERROR row', () => {
    it('a bad %-escape in the path, with or without a session', async () => {
      for (const session of [true, false]) {
        for (const [method, path] of [
          ['GET', '/api/clips/%ZZ'],
          ['GET', '/api/clips/%ZZ/video'],
          ['GET', '/api/clips/%E0%A4%A/thumbnail'],
          ['DELETE', '/api/streamers/%'],
          ['GET', '/api/upload-status/%C3%28'],
          ['GET', '/api/trpc/clips.details%ZZ'],
        ] as const) {
          expectJsonError(await raw(method, path, { session }), 400, BAD_URL, `${method} ${path} session=${session}`);
        }
      }
      expect(await errorRows()).toBe(0);
    });

    it('a bad %-escape in the query', async () => {
      for (const path of ['/api/clips?search=%ZZ', '/api/logs?search=%E0%A4', '/api/health?x=%', '/api/tiktok/callback?state=%GG']) {
        expectJsonError(await raw('GET', path), 400, BAD_URL, path);
      }
      expect(await errorRows()).toBe(0);
    });

    it('a corrupt gzip, deflate or br body', async () => {
      const garbage = Buffer.from('this is not compressed at all, honestly');
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const reply = await raw('POST', '/api/login', { session: false, headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body: garbage });
        expectJsonError(reply, 400, BAD_BODY, encoding);
      }
      // Cut short: a valid gzip header whose stream ends early.
      const truncated = gzipSync(JSON.stringify(ADMIN)).subarray(0, 20);
      expectJsonError(await raw('POST', '/api/login', { session: false, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: truncated }), 400, BAD_BODY, 'truncated gzip');
      expect(await errorRows()).toBe(0);
    });

    it('still reads well-formed gzip, deflate and br bodies', async () => {
      const body = JSON.stringify(ADMIN);
      for (const [encoding, compressed] of [
        ['gzip', gzipSync(body)],
        ['deflate', deflateSync(body)],
        ['br', brotliCompressSync(body)],
      ] as const) {
        const reply = await raw('POST', '/api/login', { session: false, headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body: compressed });
        expect(reply.status, encoding).toBe(200);
      }
    });

    it('an unknown Content-Encoding answers 415', async () => {
      const reply = await raw('POST', '/api/login', { session: false, headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' }, body: '{}' });
      expectJsonError(reply, 415, errorBody('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding'), 'zstd');
      expect(await errorRows()).toBe(0);
    });

    it('headers beyond what the HTTP server reads answer 431 with the JSON error body, as the document says', async () => {
      const document = (await raw('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
      for (const [method, path, documented] of [
        ['GET', '/api/clips', '/clips'],
        ['POST', '/api/login', '/login'],
        ['GET', '/api/clips/Clip1/video', '/clips/{id}/video'],
      ] as const) {
        const reply = await raw(method, path, { headers: { 'x-padding': 'p'.repeat(20_000) } });
        expectJsonError(reply, 431, errorBody('REQUEST_HEADER_FIELDS_TOO_LARGE', 'The request headers are too large'), `${method} ${path}`);
        expect(document.paths[documented]?.[method.toLowerCase()]?.responses['431'], `${method} ${documented} documents 431`).toBeDefined();
      }
      expect(await errorRows()).toBe(0);
    });

    it('a flood of undecodable requests without a session writes no log row at all', async () => {
      const before = await app.deps.db.selectFrom('logs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      for (let index = 0; index < 50; index += 1) {
        expect((await raw('GET', `/api/clips/%ZZ${index}`, { session: false })).status).toBe(400);
        expect((await raw('POST', '/api/login', { session: false, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: 'x' })).status).toBe(400);
      }
      const after = await app.deps.db.selectFrom('logs').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });
  });

  describe('NUL bytes answer 400 before any query', () => {
    it('in path parameters', async () => {
      for (const [method, path] of [
        ['GET', '/api/clips/a%00b'],
        ['GET', '/api/clips/a%00b/video'],
        ['GET', '/api/clips/a%00b/thumbnail'],
        ['DELETE', '/api/streamers/x%00'],
        ['PUT', '/api/streamers/x%00'],
        ['GET', '/api/upload-status/%00'],
      ] as const) {
        const reply = await raw(method, path, method === 'PUT' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {});
        expectJsonError(reply, 400, NUL_BYTE, `${method} ${path}`);
      }
    });

    it('in the search and streamer query parameters, and any other', async () => {
      for (const path of ['/api/clips?search=a%00b', '/api/clips?streamer=%00', '/api/logs?search=%00', '/api/admin/invite-codes?limit=1%00', '/api/tiktok/callback?state=%00']) {
        expectJsonError(await raw('GET', path), 400, NUL_BYTE, path);
      }
    });

    it('in JSON strings of bodies, REST and tRPC alike', async () => {
      expectJsonError(await json('POST', '/api/login', { username: 'ad\u0000min', password: 'whatever' }), 400, NUL_BYTE, 'login');
      expectJsonError(await json('POST', '/api/streamers', { name: 'x\u0000' }), 400, NUL_BYTE, 'streamer name');
      expectJsonError(await json('PUT', '/api/clips/Clip1/descriptions', { custom_description: 'hello\u0000' }), 400, NUL_BYTE, 'description');
      expectJsonError(await json('PUT', '/api/clips/Clip1/descriptions', { descriptions: [{ description: 'ok', rank: 0.5, ['k\u0000']: 1 }] }), 400, NUL_BYTE, 'key');
      const trpcPost = await json('POST', '/api/trpc/streamers.create', { name: 'y\u0000' });
      expect(trpcPost.status).toBe(400);
      expect(field(trpcPost, 'error', 'message')).toBe('The request contains a NUL byte');
      const input = encodeURIComponent(JSON.stringify({ search: 'a\u0000b' }));
      const trpcGet = await raw('GET', `/api/trpc/clips.list?input=${input}`);
      expect(trpcGet.status).toBe(400);
      expect(field(trpcGet, 'error', 'message')).toBe('The request contains a NUL byte');
      const described = await alice.get('/api/clips/Clip1');
      expect(field(described, 'custom_description')).toBeNull();
    });

    it('however deep in the body it sits', async () => {
      const depth = 20_000;
      const deep = (leaf: string) => `{"days_valid":${'['.repeat(depth)}${leaf}${']'.repeat(depth)}}`;
      const headers = { 'content-type': 'application/json' };
      expectJsonError(await raw('POST', '/api/admin/invite-codes/generate', { headers, body: deep('"\\u0000"') }), 400, NUL_BYTE, 'deep NUL');
      const clean = await raw('POST', '/api/admin/invite-codes/generate', { headers, body: deep('2') });
      expect({ status: clean.status, message: field(clean, 'message') }).toEqual({ status: 400, message: 'days_valid must be a number' });
    });

    it('in the session cookie: treated as no session', async () => {
      const reply = await rawRequest(server.baseUrl, 'GET', '/api/streamers', { headers: { cookie: 'clipshift_session=abc%00.def' } });
      expectJsonError(reply, 401, errorBody('UNAUTHORIZED', 'Authentication required'), 'cookie');
      expect((await rawRequest(server.baseUrl, 'GET', '/api/check-auth', { headers: { cookie: 'clipshift_session=abc%00.def' } })).body).toEqual({ authenticated: false });
    });

    it('stored no ERROR row', async () => {
      expect(await errorRows()).toBe(0);
    });
  });

  describe('ids that cannot be UUIDs answer 404, as missing ones do', () => {
    it('upload ids', async () => {
      for (const id of [NOT_A_UUID, HEX_NOT_A_UUID, 'abc', '0'.repeat(32)]) {
        expectJsonError(await raw('GET', `/api/upload-status/${id}`), 404, errorBody('NOT_FOUND', 'Upload not found'), id);
      }
      expectJsonError(await raw('GET', `/api/upload-status/${crypto.randomUUID()}`), 404, errorBody('NOT_FOUND', 'Upload not found'), 'random uuid');
    });

    it('account ids in the path', async () => {
      for (const id of [NOT_A_UUID, HEX_NOT_A_UUID, 'g'.repeat(36)]) {
        expectJsonError(await raw('DELETE', `/api/tiktok/accounts/${id}`), 404, errorBody('NOT_FOUND', 'Account not found'), `delete ${id}`);
        expectJsonError(await raw('GET', `/api/tiktok/accounts/${id}/linked-streamers`), 404, errorBody('NOT_FOUND', 'Account not found'), `linked ${id}`);
      }
    });

    it('tiktok_account_id in link, unlink and post, and tiktok_account_ids in post', async () => {
      for (const id of [NOT_A_UUID, HEX_NOT_A_UUID, 'x']) {
        const notFound = errorBody('NOT_FOUND', 'Account not found');
        expectJsonError(await json('POST', '/api/streamers/shroud/link-tiktok', { tiktok_account_id: id }), 404, notFound, `link ${id}`);
        expectJsonError(await json('POST', '/api/streamers/shroud/unlink-tiktok', { tiktok_account_id: id }), 404, notFound, `unlink ${id}`);
        expectJsonError(await json('POST', '/api/clips/Clip1/post', { description: 'hi', tiktok_account_id: id }), 404, notFound, `post ${id}`);
        expectJsonError(await json('POST', '/api/clips/Clip1/post', { description: 'hi', tiktok_account_ids: [crypto.randomUUID(), id] }), 404, notFound, `post ids ${id}`);
      }
      expect(await app.deps.db.selectFrom('uploads').select('id').execute()).toEqual([]);
    });

    it('an id of the wrong JSON type is a 400', async () => {
      const reply = await json('POST', '/api/streamers/shroud/link-tiktok', { tiktok_account_id: 42 });
      expect(reply.status).toBe(400);
      expect(field(reply, 'code')).toBe('BAD_REQUEST');
    });

    it('stored no ERROR row', async () => {
      expect(await errorRows()).toBe(0);
    });
  });

  describe('numbers keep their JSON type', () => {
    it('a body number accepts a JSON number only', async () => {
      for (const days_valid of [[[[2]]], [2], '2', ' 2', true, { value: 2 }]) {
        const reply = await json('POST', '/api/admin/invite-codes/generate', { days_valid });
        expectJsonError(reply, 400, { ...errorBody('BAD_REQUEST', 'days_valid must be a number'), issues: [{ path: ['days_valid'], message: 'days_valid must be a number' }] }, JSON.stringify(days_valid));
      }
      const ok = await json('POST', '/api/admin/invite-codes/generate', { days_valid: 2 });
      expect(ok.status).toBe(201);
      expect(field(ok, 'days_valid')).toBe(2);
    });

    it('streamer settings and download limits refuse strings and arrays', async () => {
      for (const body of [{ name: 'xqc', clip_limit: '5' }, { name: 'xqc', clip_limit: [5] }, { name: 'xqc', schedule: { interval: '2', unit: 'hours' } }]) {
        const reply = await json('POST', '/api/streamers', body);
        expect({ body, status: reply.status, code: field(reply, 'code') }).toEqual({ body, status: 400, code: 'BAD_REQUEST' });
      }
      for (const body of [{ clip_limit: '3' }, { clip_limit: [3] }, { schedule: { interval: [1], unit: 'days' } }]) {
        const reply = await json('PUT', '/api/streamers/shroud', body);
        expect({ body, status: reply.status, code: field(reply, 'code') }).toEqual({ body, status: 400, code: 'BAD_REQUEST' });
      }
      for (const body of [{ clip_limit: '3' }, { limit: [3] }, { concurrency: '2' }]) {
        const reply = await json('POST', '/api/downloads/start/shroud', body);
        expect({ body, status: reply.status, code: field(reply, 'code') }).toEqual({ body, status: 400, code: 'BAD_REQUEST' });
      }
      expect(await app.deps.db.selectFrom('download_runs').select('id').execute()).toEqual([]);
    });

    it('a query-string number accepts digits only', async () => {
      expect((await raw('GET', '/api/clips?page=1&limit=2')).status).toBe(200);
      expect(field(await raw('GET', '/api/clips?limit=02'), 'limit')).toBe(2);
      for (const value of ['2.5', '-1', '1e3', '%202', '2%20', '0x10', '', '%2B2', '1&limit=2']) {
        const clips = await raw('GET', `/api/clips?limit=${value}`);
        expect({ value, status: clips.status, message: field(clips, 'message') }).toEqual({ value, status: 400, message: 'limit must be a whole number from 1 to 100' });
        const logs = await raw('GET', `/api/logs?limit=${value}`);
        expect({ value, status: logs.status, code: field(logs, 'code') }).toEqual({ value, status: 400, code: 'BAD_REQUEST' });
        const invites = await raw('GET', `/api/admin/invite-codes?limit=${value}`);
        expect({ value, status: invites.status, code: field(invites, 'code') }).toEqual({ value, status: 400, code: 'BAD_REQUEST' });
      }
      expect((await raw('GET', '/api/clips?page=99999999999999999999')).status).toBe(400);
    });

    it('the browser keeps sending JSON numbers over tRPC', async () => {
      const input = encodeURIComponent(JSON.stringify({ page: 1, limit: 2 }));
      const reply = await raw('GET', `/api/trpc/clips.list?input=${input}`);
      expect(reply.status).toBe(200);
      expect(field(reply, 'result', 'data')).toMatchObject({ page: 1, limit: 2 });
    });
  });

  describe('Range', () => {
    const video = '/api/clips/Clip1/video';
    const thumbnail = '/api/clips/Clip1/thumbnail';

    it('answers 416 with Content-Range: bytes */SIZE and the JSON error body for unsatisfiable ranges', async () => {
      for (const [path, size] of [
        [video, VIDEO_SIZE],
        [`${video}?download=1`, VIDEO_SIZE],
        [thumbnail, THUMBNAIL_SIZE],
      ] as const) {
        for (const range of [`bytes=${size}-`, 'bytes=10-5', 'bytes=-0', `bytes=${size + 5}-${size + 10}`, `bytes=${size}-,${size + 1}-`, 'bytes=0-1,garbage', 'bytes=abc', 'bytes=', 'bytes=--1']) {
          const reply = await raw('GET', path, { headers: { range } });
          const what = `${path} ${range}`;
          expectJsonError(reply, 416, errorBody('RANGE_NOT_SATISFIABLE', 'The requested range is not satisfiable'), what);
          expect(reply.headers['content-range'], what).toBe(`bytes */${size}`);
          expect(reply.headers['content-disposition'], what).toBeUndefined();
        }
      }
      expect(await errorRows()).toBe(0);
    });

    it('keeps 206 with the right Content-Range for valid ranges, and the download name', async () => {
      for (const [range, expected] of [
        ['bytes=0-0', `bytes 0-0/${VIDEO_SIZE}`],
        ['bytes=-10', `bytes ${VIDEO_SIZE - 10}-${VIDEO_SIZE - 1}/${VIDEO_SIZE}`],
        [`bytes=${VIDEO_SIZE - 1}-`, `bytes ${VIDEO_SIZE - 1}-${VIDEO_SIZE - 1}/${VIDEO_SIZE}`],
        [`bytes=9000-${VIDEO_SIZE * 2}`, `bytes 9000-${VIDEO_SIZE - 1}/${VIDEO_SIZE}`],
        // Overlapping ranges combine into one.
        ['bytes=0-9,5-19', `bytes 0-19/${VIDEO_SIZE}`],
      ] as const) {
        const reply = await raw('GET', `${video}?download=1`, { headers: { range } });
        expect({ range, status: reply.status, contentRange: reply.headers['content-range'], type: reply.headers['content-type'] }).toEqual({
          range,
          status: 206,
          contentRange: expected,
          type: 'video/mp4',
        });
        expect(reply.headers['content-disposition']).toBe('attachment; filename="Clip1.mp4"');
      }
    });

    it('answers 416 for an unsatisfiable range under a fresh If-Range', async () => {
      const { headers } = await raw('GET', video);
      expect(headers.etag).toBeDefined();
      const reply = await raw('GET', video, { headers: { range: `bytes=${VIDEO_SIZE}-`, 'if-range': headers.etag! } });
      expectJsonError(reply, 416, errorBody('RANGE_NOT_SATISFIABLE', 'The requested range is not satisfiable'), 'fresh If-Range');
      expect(reply.headers['content-range']).toBe(`bytes */${VIDEO_SIZE}`);
    });

    it('serves the whole file for a unit it does not know, and for a stale If-Range', async () => {
      expect((await raw('GET', video, { headers: { range: 'items=0-1' } })).status).toBe(200);
      const stale = await raw('GET', video, { headers: { range: `bytes=${VIDEO_SIZE}-`, 'if-range': '"not-the-etag"' } });
      expect(stale.status).toBe(200);
      expect(stale.headers['content-type']).toBe('video/mp4');
      expect(stale.text.length).toBe(VIDEO_SIZE);
    });

    it("answers a missing clip's file with JSON 404, whatever the Range", async () => {
      const missing = await raw('GET', '/api/clips/NoSuchClip/thumbnail', { headers: { range: 'bytes=-0' } });
      expectJsonError(missing, 404, errorBody('NOT_FOUND', 'Clip NoSuchClip not found'), 'missing thumbnail');
    });
  });

  describe('tRPC batches', () => {
    const batchOf = (count: number, path: string) => Array.from({ length: count }, () => path).join(',');

    it('carry up to 20 calls', async () => {
      const reply = await raw('GET', `/api/trpc/${batchOf(20, 'health.check')}?batch=1&input=%7B%7D`, { session: false });
      expect(reply.status).toBe(200);
      expect(reply.body).toHaveLength(20);
    });

    it('answer 400 with the JSON error body beyond 20, running none of the calls', async () => {
      const tooMany = errorBody('BAD_REQUEST', 'A tRPC batch carries at most 20 calls');
      expectJsonError(await raw('GET', `/api/trpc/${batchOf(21, 'health.check')}?batch=1&input=%7B%7D`, { session: false }), 400, tooMany, 'GET 21');
      expectJsonError(await raw('GET', `/api/trpc/${batchOf(1100, 'health.check')}?batch=1`, { session: false }), 400, tooMany, 'GET 1100');
      const inputs = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [index, { name: `batch_${index}` }]));
      const post = await raw('POST', `/api/trpc/${batchOf(21, 'streamers.create')}?batch=1`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(inputs) });
      expectJsonError(post, 400, tooMany, 'POST 21');
      expect(await app.deps.db.selectFrom('streamers').select('name').where('name', 'like', 'batch_%').execute()).toEqual([]);
      // Commas sent %-encoded count the same.
      expectJsonError(await raw('GET', `/api/trpc/${batchOf(21, 'health.check').replaceAll(',', '%2C')}?batch=1`, { session: false }), 400, tooMany, 'encoded commas');
    });
  });
});
