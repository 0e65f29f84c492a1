import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captionFontList } from '@clipshift/shared';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { adminAndMember, bodyOf, errorBody, type RestClient } from './client.ts';

describe('GET /api/fonts', () => {
  let app: TestApp;
  let server: TestServer;
  let member: RestClient;

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ member } = await adminAndMember(server.baseUrl));
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  it('lists the caption fonts with their scripts, Korean included', async () => {
    const reply = await member.get('/api/fonts');
    expect(reply.status).toBe(200);
    const fonts = bodyOf(reply, captionFontList);
    expect(fonts).toEqual([
      { family: 'Noto Sans', scripts: ['Latn', 'Grek', 'Cyrl'] },
      { family: 'Noto Sans SC', scripts: ['Hans', 'Hant', 'Jpan'] },
      { family: 'Noto Sans KR', scripts: ['Kore'] },
      { family: 'Noto Sans Arabic', scripts: ['Arab'] },
      { family: 'Noto Sans Devanagari', scripts: ['Deva'] },
    ]);
  });

  it('answers 401 without a session', async () => {
    const reply = await member.fresh().get('/api/fonts');
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(errorBody('UNAUTHORIZED', 'Authentication required'));
  });
});
