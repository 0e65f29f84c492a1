import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { assertNoUnexpectedErrorLogs, expectErrorLogs } from '../helpers/error-logs.ts';
import { adminAndMember, errorBody, type RestClient } from './client.ts';

/** The helper that fails a test on an error log it did not expect, tested on a real unexpected 500. */
describe('unexpected error logs fail the test', () => {
  let app: TestApp;
  let server: TestServer;
  let member: RestClient;

  beforeAll(async () => {
    app = await createTestApp();
    server = await startTestServer(app.deps);
    ({ member } = await adminAndMember(server.baseUrl));
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  /** A fault no code path expects: the streamers table is gone, so listing streamers fails with a 500. */
  async function unexpected500(): Promise<void> {
    await sql`alter table streamers rename to streamers_away`.execute(app.deps.db);
    try {
      const reply = await member.get('/api/streamers');
      expect(reply.status).toBe(500);
      expect(reply.body).toEqual(errorBody('INTERNAL_SERVER_ERROR', 'Something went wrong on our side. Please try again.'));
    } finally {
      await sql`alter table streamers_away rename to streamers`.execute(app.deps.db);
    }
  }

  it('records the 500 the answer hides, and names it', async () => {
    await unexpected500();
    expect(() => assertNoUnexpectedErrorLogs()).toThrow(/unexpected error line.*\n.*GET \/streamers failed: relation "streamers" does not exist/);
    // Taken: nothing is left for the check after this test.
    expect(() => assertNoUnexpectedErrorLogs()).not.toThrow();
  });

  it('lets an error log through that the test declared', async () => {
    expectErrorLogs(/GET \/streamers failed/);
    await unexpected500();
  });

  // Inverted: this passes only because the helper's check, run after it, fails it.
  it.fails('fails a test that lets an unexpected 500 through (the check after each test)', async () => {
    await unexpected500();
  });

  it('does not hold a declaration past its test', async () => {
    await unexpected500();
    expect(() => assertNoUnexpectedErrorLogs()).toThrow(/GET \/streamers failed/);
  });
});
