import type { PublicUser } from '@clipshift/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expirePostedMedia } from '../../server/src/domains/publishing/jobs/retention.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';

describe.each(['local', 's3'] as const)('settings.storageUsage with STORAGE=%s', (storage) => {
  let app: TestApp;
  let bucket: S3Server | undefined;
  const user = async (username: string): Promise<PublicUser> =>
    app.deps.db.insertInto('users').values({ username, password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();

  beforeAll(async () => {
    if (storage === 's3') bucket = await startS3Server();
    app = await createTestApp({ ...bucket?.env, MEDIA_RETENTION_DAYS: '30' });
  });
  afterAll(async () => {
    await app?.close();
    await bucket?.close();
  });

  it("sums every file of the user's own clips (source, video, thumbnail), nothing of other users; an expired clip counts its thumbnail", async () => {
    const alice = await user(`storage-alice-${storage}`);
    const bob = await user(`storage-bob-${storage}`);
    const usage = () => callerFor(app.deps, { user: alice }).api.settings.storageUsage();
    expect(await usage()).toEqual({ bytes: 0, clips: 0, storage, retention_days: 30 });

    await seedClip(app.deps, alice.id, { clip_id: 'A1', video: Buffer.alloc(1000) });
    const second = await seedClip(app.deps, alice.id, { clip_id: 'A2', video: Buffer.alloc(5000) });
    await seedClip(app.deps, bob.id, { clip_id: 'B1', video: Buffer.alloc(70_000) });
    // seedClip stores the video twice (as video and source) and a 12-byte thumbnail.
    expect(await usage()).toEqual({ bytes: 2 * 1000 + 12 + 2 * 5000 + 12, clips: 2, storage, retention_days: 30 });

    // Posted 31 days ago: retention deletes its source and video.
    const account = await app.deps.db
      .insertInto('accounts')
      .values({ user_id: alice.id, open_id: `open-${storage}`, union_id: null, display_name: 'a', username: 'a', avatar_url: null, access_token_enc: 'x', refresh_token_enc: 'x', access_expires_at: new Date(), refresh_expires_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.deps.db
      .insertInto('uploads')
      .values({ user_id: alice.id, clip_row_id: second.id, account_id: account.id, account_open_id: `open-${storage}`, account_name: 'a', status: 'published', mode: 'direct', description: 'x', privacy_level: null, publish_id: null, upload_url_enc: null, percent: null, error: null, scheduled_for: null, updated_at: new Date(Date.now() - 31 * 86_400_000) })
      .execute();
    expect(await expirePostedMedia(app.deps)).toBe(1);
    expect(await usage()).toEqual({ bytes: 2 * 1000 + 12 + 12, clips: 2, storage, retention_days: 30 });
  });
});
