import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../server/src/platform/errors.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { errorBody, field, RestClient, SESSION_COOKIE } from '../rest/client.ts';

/** pino lines written by the app, kept to check what it tried to do during the outage. */
function memoryLog(): { stream: Writable; lines: () => string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, lines: () => chunks.join('').split('\n').filter(Boolean) };
}

describe('HTTP while the database is unreachable', () => {
  let app: TestApp;
  let server: TestServer;
  let unreachable: DatabaseHandle;
  const log = memoryLog();

  beforeAll(async () => {
    app = await createTestApp();
    // Nothing listens on port 1: every query fails to connect.
    unreachable = createDatabase('postgres://postgres:db-password-77@127.0.0.1:1/clipshift', 2);
    server = await startTestServer({ ...app.deps, db: unreachable.db, logger: createLogger('info', log.stream) });
  });
  afterAll(async () => {
    await server?.close();
    await unreachable?.close();
    await app?.close();
  });

  const withSession = () => {
    const client = new RestClient(server.baseUrl);
    client.cookie = `${SESSION_COOKIE}=0123456789abcdef.0123456789abcdef0123456789abcdef`;
    return client;
  };

  it('GET /api/health answers 503 naming the database, with a session cookie as without one', async () => {
    for (const client of [new RestClient(server.baseUrl), withSession()]) {
      const reply = await client.get('/api/health');
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual(errorBody('SERVICE_UNAVAILABLE', 'Database is unreachable', { status: 'error', database: 'error', worker: 'disabled' }));
    }
  });

  it('the tRPC health check answers 503 with a session cookie too', async () => {
    const reply = await withSession().get('/api/trpc/health.check');
    expect(reply.status).toBe(503);
    expect(field(reply, 'error', 'data')).toMatchObject({ httpStatus: 503, restCode: 'SERVICE_UNAVAILABLE' });
  });

  it('any other call answers 503 to try again, and no ERROR row is attempted on the dead database', async () => {
    const before = log.lines().length;
    for (let index = 0; index < 5; index += 1) {
      const clips = await withSession().get('/api/clips');
      expect(clips.status).toBe(503);
      expect(field(clips, 'code')).toBe('SERVICE_UNAVAILABLE');
      expect(field(clips, 'error')).toBe(field(clips, 'message'));
      const trpc = await withSession().get('/api/trpc/clips.list');
      expect(trpc.status).toBe(503);
    }
    const lines = log.lines().slice(before).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => line.msg === 'could not store a log entry')).toEqual([]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('the clip files answer 503 to a session cookie, not 401: the user is not signed out', async () => {
    for (const file of ['video', 'thumbnail']) {
      const reply = await withSession().get(`/api/clips/SomeClip/${file}`);
      expect(reply.status, file).toBe(503);
      expect(reply.body).toEqual(errorBody('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE));
    }
  });

  it("TikTok's callback answers 503 with a page that says to try again, not the driver's error", async () => {
    const before = log.lines().length;
    const reply = await withSession().get('/api/tiktok/callback?state=some-state&code=some-code');
    expect(reply.status).toBe(503);
    expect(reply.contentType).toMatch(/^text\/html/);
    expect(reply.text).toContain(JSON.stringify({ type: 'tiktok-auth', success: false, error: DATABASE_UNAVAILABLE_MESSAGE }));
    expect(reply.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:1/);
    // Nothing is attempted on the dead database's log table.
    const lines = log.lines().slice(before).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
