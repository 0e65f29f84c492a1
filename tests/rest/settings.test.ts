import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toProcessingSettings } from '../../server/src/domains/settings/service.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { adminAndMember, errorBody, resetThrottles, type RestClient } from './client.ts';

const CONCURRENCY_RULE = 'Concurrency must be a whole number from 1 to 20';

describe('REST processing preferences: GET/PUT /api/settings/processing', () => {
  let app: TestApp;
  let server: TestServer;
  let admin: RestClient;
  let member: RestClient;

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'invite' });
    server = await startTestServer(app.deps);
    ({ admin, member } = await adminAndMember(server.baseUrl));
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });
  beforeEach(() => resetThrottles(app.deps));

  it('401 without a session', async () => {
    expect((await member.fresh().get('/api/settings/processing')).status).toBe(401);
    expect((await member.fresh().request('PUT', '/api/settings/processing', { json: { whisper_model: 'small', concurrency: 2 } })).status).toBe(401);
  });

  it('200 with the defaults and updated_at null until saved; PUT saves them for this user only', async () => {
    const before = await member.get('/api/settings/processing');
    expect(before.status).toBe(200);
    const local = { engine: 'local', default_model: 'large-v3-turbo' };
    expect(before.body).toEqual({ whisper_model: 'large-v3-turbo', concurrency: 5, updated_at: null, transcription: local });

    const saved = await member.request('PUT', '/api/settings/processing', { json: { whisper_model: 'small', concurrency: 8 } });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ whisper_model: 'small', concurrency: 8, updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), transcription: local });
    expect((await member.get('/api/settings/processing')).body).toEqual(saved.body);
    expect((await admin.get('/api/settings/processing')).body).toMatchObject({ updated_at: null });
  });

  it('400 with the rule for a concurrency out of range or sent as a string, and for a missing model', async () => {
    for (const body of [{ whisper_model: 'small', concurrency: 21 }, { whisper_model: 'small', concurrency: '8' }, { whisper_model: 'small' }]) {
      const reply = await member.request('PUT', '/api/settings/processing', { json: body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toMatchObject(errorBody('BAD_REQUEST', CONCURRENCY_RULE));
    }
    const noModel = await member.request('PUT', '/api/settings/processing', { json: { concurrency: 3 } });
    expect(noModel.status).toBe(400);
    expect(noModel.body).toMatchObject(errorBody('BAD_REQUEST', 'whisper_model must be a model name such as large-v3-turbo'));
    expect((await member.get('/api/settings/processing')).body).toMatchObject({ whisper_model: 'small', concurrency: 8 });
  });

  it('shows the model that will run when nothing is saved: the transcription server\'s own with TRANSCRIBE_ENGINE=openai', () => {
    expect(toProcessingSettings(null, { TRANSCRIBE_ENGINE: 'openai', WHISPER_MODEL: undefined })).toMatchObject({
      whisper_model: 'whisper-1',
      transcription: { engine: 'openai', default_model: 'whisper-1' },
    });
    expect(toProcessingSettings(null, { TRANSCRIBE_ENGINE: 'openai', WHISPER_MODEL: 'whisper-large-v3' })).toMatchObject({ whisper_model: 'whisper-large-v3' });
    expect(toProcessingSettings(null, { TRANSCRIBE_ENGINE: 'local', WHISPER_MODEL: 'small' })).toMatchObject({ whisper_model: 'small', transcription: { engine: 'local', default_model: 'small' } });
  });
});
