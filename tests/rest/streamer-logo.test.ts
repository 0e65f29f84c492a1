import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '@clipshift/shared';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { adminAndMember, errorBody, type RestClient } from './client.ts';

const execFileAsync = promisify(execFile);

/** PUT/GET/DELETE /api/streamers/{name}/logo: the one route with an image body. */
describe('REST streamer logo', () => {
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let bob: RestClient;
  let png: Buffer;
  let jpeg: Buffer;

  async function send(client: RestClient | null, method: string, url: string, body?: Buffer, headers: Record<string, string> = {}) {
    const all: Record<string, string> = { ...headers };
    if (client?.cookie) all.cookie = client.cookie;
    const response = await fetch(`${server.baseUrl}${url}`, { method, headers: all, body: body ? new Uint8Array(body) : undefined });
    const bytes = Buffer.from(await response.arrayBuffer());
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      json = undefined;
    }
    return { status: response.status, type: response.headers.get('content-type') ?? '', bytes, json };
  }

  beforeAll(async () => {
    app = await createTestApp();
    server = await startTestServer(app.deps);
    ({ admin: alice, member: bob } = await adminAndMember(server.baseUrl));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-logo-'));
    for (const [file, codec] of [['logo.png', 'png'], ['logo.jpg', 'mjpeg']] as const) {
      await execFileAsync(app.deps.media.ffmpeg, ['-y', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=orange:s=200x120', '-frames:v', '1', '-c:v', codec, path.join(dir, file)]);
    }
    png = await readFile(path.join(dir, 'logo.png'));
    jpeg = await readFile(path.join(dir, 'logo.jpg'));
    expect((await alice.post('/api/streamers', { name: 'branded' })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });

  it('keeps a PNG, answers it back byte for byte, replaces it with a JPEG, and deletes it', async () => {
    expect(await send(alice, 'GET', '/api/streamers/branded/logo')).toMatchObject({ status: 404, json: errorBody('NOT_FOUND', 'branded has no logo yet') });
    expect(await send(alice, 'PUT', '/api/streamers/branded/logo', png, { 'content-type': 'image/png' })).toMatchObject({ status: 200, json: { message: 'Logo saved for branded' } });
    const stored = await send(alice, 'GET', '/api/streamers/branded/logo');
    expect([stored.status, stored.type]).toEqual([200, 'image/png']);
    expect(stored.bytes.equals(png)).toBe(true);

    expect((await send(alice, 'PUT', '/api/streamers/branded/logo', jpeg, { 'content-type': 'image/jpeg' })).status).toBe(200);
    const replaced = await send(alice, 'GET', '/api/streamers/branded/logo');
    expect(replaced.type).toBe('image/jpeg');
    expect(replaced.bytes.equals(jpeg)).toBe(true);

    expect(await send(alice, 'DELETE', '/api/streamers/branded/logo')).toMatchObject({ status: 200, json: { message: 'Logo deleted for branded' } });
    expect((await send(alice, 'GET', '/api/streamers/branded/logo')).status).toBe(404);
    expect(await send(alice, 'DELETE', '/api/streamers/branded/logo')).toMatchObject({ status: 404, json: errorBody('NOT_FOUND', 'branded has no logo yet') });
  });

  it('refuses other types (415), bytes that are not the image they claim (400), an empty body (400) and more than 2 MB (413), keeping the logo it had', async () => {
    expect((await send(alice, 'PUT', '/api/streamers/branded/logo', png, { 'content-type': 'image/png' })).status).toBe(200);
    const rule = 'A logo is a PNG or JPEG image: send it as the body with Content-Type image/png or image/jpeg';
    expect(await send(alice, 'PUT', '/api/streamers/branded/logo', Buffer.from('GIF89a'), { 'content-type': 'image/gif' })).toMatchObject({ status: 415, json: errorBody('UNSUPPORTED_MEDIA_TYPE', rule) });
    expect(await send(alice, 'PUT', '/api/streamers/branded/logo', Buffer.from('{"a":1}'), { 'content-type': 'application/json' })).toMatchObject({ status: 415 });
    expect(await send(alice, 'PUT', '/api/streamers/branded/logo', jpeg, { 'content-type': 'image/png' })).toMatchObject({ status: 400, json: errorBody('BAD_REQUEST', 'The body is not a PNG image') });
    expect(await send(alice, 'PUT', '/api/streamers/branded/logo', Buffer.alloc(0), { 'content-type': 'image/jpeg' })).toMatchObject({ status: 400, json: errorBody('BAD_REQUEST', 'The logo is empty: send the image as the body') });
    const huge = Buffer.concat([png, Buffer.alloc(LOGO_MAX_BYTES)]);
    expect(await send(alice, 'PUT', '/api/streamers/branded/logo', huge, { 'content-type': 'image/png' })).toMatchObject({ status: 413, json: errorBody('PAYLOAD_TOO_LARGE', 'A logo is at most 2 MB') });
    expect((await send(alice, 'GET', '/api/streamers/branded/logo')).bytes.equals(png)).toBe(true);
  });

  it("is the owner's alone: 401 without a session, 404 for another user's streamer, 403 cross-site", async () => {
    expect((await send(null, 'GET', '/api/streamers/branded/logo')).status).toBe(401);
    expect((await send(null, 'PUT', '/api/streamers/branded/logo', png, { 'content-type': 'image/png' })).status).toBe(401);
    expect(await send(bob, 'GET', '/api/streamers/branded/logo')).toMatchObject({ status: 404, json: errorBody('NOT_FOUND', 'Streamer branded not found') });
    expect((await send(bob, 'PUT', '/api/streamers/branded/logo', png, { 'content-type': 'image/png' })).status).toBe(404);
    expect((await send(alice, 'PUT', '/api/streamers/nobody/logo', png, { 'content-type': 'image/png' })).status).toBe(404);
    expect((await send(alice, 'PUT', '/api/streamers/branded/logo', png, { 'content-type': 'image/png', origin: 'https://evil.example' })).status).toBe(403);
  });

  it("deletes the logo's file with its streamer", async () => {
    expect((await alice.post('/api/streamers', { name: 'shortlived' })).status).toBe(201);
    expect((await send(alice, 'PUT', '/api/streamers/shortlived/logo', png, { 'content-type': 'image/png' })).status).toBe(200);
    const { logo_key: key } = await app.deps.db.selectFrom('streamers').select('logo_key').where('name', '=', 'shortlived').executeTakeFirstOrThrow();
    expect(key).not.toBeNull();
    expect(await app.deps.storage.head(key!)).not.toBeNull();
    expect((await alice.request('DELETE', '/api/streamers/shortlived')).status).toBe(200);
    expect(await app.deps.storage.head(key!)).toBeNull();
  });
});
