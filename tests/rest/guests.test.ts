import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { ADMIN, adminAndMember, bodyOf, errorBody, expectNoSecrets, MEMBER, resetThrottles, RestClient } from './client.ts';


const passkeyBody = z.object({ passkey: z.string() });
describe('REST guest passkey', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;
  let passkey: string;
  let adminPasskey: string;
  const seen: string[] = [];

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl, seen));
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(() => resetThrottles(app.deps));

  const wrongPasskey = () => ['ZZZZZZ', 'YYYYYY', '000000'].find((candidate) => candidate !== passkey && candidate !== adminPasskey)!;

  describe('GET /api/guest/current-passkey', () => {
    it('200 {passkey}: 6 uppercase characters, the same on every call', async () => {
      const first = await member.get('/api/guest/current-passkey');
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ passkey: expect.stringMatching(/^[A-Z0-9]{6}$/) });
      passkey = bodyOf(first, passkeyBody).passkey;
      expect((await member.get('/api/guest/current-passkey')).body).toEqual({ passkey });
      adminPasskey = bodyOf(await admin.get('/api/guest/current-passkey'), passkeyBody).passkey;
      expect(adminPasskey).not.toBe(passkey);
    });

    it('401 without a session', async () => {
      const reply = await member.fresh().get('/api/guest/current-passkey');
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(errorBody('UNAUTHORIZED', 'Authentication required'));
    });
  });

  describe('POST /api/guest/verify-passkey', () => {
    it('200 {valid:true, message} for the code, in lowercase and with spaces; no session needed', async () => {
      const guest = member.fresh();
      for (const typed of [passkey, passkey.toLowerCase(), `${passkey.slice(0, 3)} ${passkey.slice(3)}`]) {
        const reply = await guest.post('/api/guest/verify-passkey', { passkey: typed });
        expect(reply.status, typed).toBe(200);
        expect(reply.body).toEqual({ valid: true, message: 'Passkey verified' });
      }
    });

    it("404 'Invalid passkey' for a code nobody has", async () => {
      const reply = await member.fresh().post('/api/guest/verify-passkey', { passkey: wrongPasskey() });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual(errorBody('NOT_FOUND', 'Invalid passkey'));
    });

    it("400 'Please enter a 6-character passkey' for a short, long or missing code", async () => {
      const guest = member.fresh();
      for (const body of [{ passkey: 'ABC12' }, { passkey: 'ABC1234' }, { passkey: '' }, {}]) {
        const reply = await guest.post('/api/guest/verify-passkey', body);
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.body).toMatchObject(errorBody('BAD_REQUEST', 'Please enter a 6-character passkey'));
      }
      const noBody = await guest.post('/api/guest/verify-passkey');
      expect(noBody.status).toBe(400);
      expect(noBody.body).toMatchObject(errorBody('BAD_REQUEST', 'Please enter a 6-character passkey'));
    });

    it('429 after 10 attempts from one address, even with the right code', async () => {
      const guest = member.fresh();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 10; attempt += 1) {
        statuses.push((await guest.post('/api/guest/verify-passkey', { passkey: wrongPasskey() })).status);
      }
      expect(statuses).toEqual(Array(10).fill(404));
      const reply = await guest.post('/api/guest/verify-passkey', { passkey });
      expect(reply.status).toBe(429);
      expect(reply.body).toEqual(errorBody('TOO_MANY_REQUESTS', 'Too many attempts. Please wait a moment and try again.'));
    });
  });

  it('200 for the right code however often one address sends it (a shared link loaded again and again); wrong codes still count', async () => {
    const guest = member.fresh();
    const statuses: number[] = [];
    for (let load = 0; load < 15; load += 1) statuses.push((await guest.post('/api/guest/verify-passkey', { passkey })).status);
    expect(statuses).toEqual(Array(15).fill(200));
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await guest.post('/api/guest/verify-passkey', { passkey: wrongPasskey() })).status).toBe(404);
    }
    const refused = await guest.post('/api/guest/verify-passkey', { passkey });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(9 * 60);
  });

  it('never shows a secret in a body, nor stores a passkey in the logs', async () => {
    expectNoSecrets(seen, [ADMIN.password, MEMBER.password]);
    const logs = await app.deps.db.selectFrom('logs').select(['message', 'exception']).execute();
    expect(logs.some((row) => row.message.includes('passkey'))).toBe(true);
    expect(JSON.stringify(logs)).not.toContain(passkey);
  });
});
