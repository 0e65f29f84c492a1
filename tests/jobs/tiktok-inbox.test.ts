import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { upsertTikTokAccount as upsertAccount } from '../../server/src/domains/publishing/platforms/tiktok.ts';
import { startWorker } from '../../server/src/app/jobs.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { waitUntil } from '../helpers/wait.ts';

describe('TIKTOK_POST_MODE=inbox', () => {
  let tiktok: FakeTikTok;
  let app: TestApp;
  let worker: WorkerHandle;
  let user: PublicUser;
  let accountId: string;

  beforeAll(async () => {
    tiktok = await startFakeTikTok({ pollsUntilDone: 0 });
    tiktok.addUser({ openId: 'open-inbox', displayName: 'Inbox User', username: 'inboxer' });
    app = await createTestApp({ ...tiktok.env, TIKTOK_POST_MODE: 'inbox' });
    worker = await startWorker(app.deps, app.database.pool, 2);
    user = await app.deps.db.insertInto('users').values({ username: 'inbox', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    const issued = tiktok.issueTokens('open-inbox');
    const account = await upsertAccount(app.deps.db, app.deps.appSecret, {
      userId: user.id,
      via: 'owner',
      tokens: { accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresIn: 86_400, refreshExpiresIn: 31_536_000, openId: 'open-inbox', scope: 'video.upload' },
      info: { openId: 'open-inbox', unionId: null, avatarUrl: null, displayName: 'Inbox User', username: 'inboxer' },
    });
    accountId = account.id;
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await tiktok?.close();
  });

  it('uploads the clip as a draft to the TikTok inbox (no post_info sent)', async () => {
    await seedClip(app.deps, user.id, { clip_id: 'Drafty' });
    const api = callerFor(app.deps, { user }).api;
    const result = await api.posting.post({ id: 'Drafty', description: 'draft #a #b #c', tiktok_account_id: accountId });
    expect(result.message).toBe('Posted to TikTok successfully!');
    expect(tiktok.requestsTo('inbox_init')).toHaveLength(1);
    expect(tiktok.requestsTo('video_init')).toHaveLength(0);
    const uploadId = result.uploads[0]!.id;
    const { status } = await waitUntil(() => api.posting.uploadStatus({ id: uploadId }), {
      until: (upload) => upload.status === 'sent_to_inbox',
      message: 'the draft to reach the inbox',
      intervalMs: 200,
    });
    expect(status).toBe('sent_to_inbox');
    expect(tiktok.uploads.get(result.uploads[0]!.publish_id!)?.complete).toBe(true);
  });
});
