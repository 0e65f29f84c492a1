import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';

describe('harness', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('the first account becomes the administrator', async () => {
    const { api } = callerFor(app.deps);
    const result = await api.auth.register({ username: 'first', password: 'correct horse' });
    expect(result.user.is_admin).toBe(true);
  });
});
