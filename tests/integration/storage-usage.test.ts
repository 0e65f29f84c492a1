import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { PublicUser } from '@clipshift/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';

describe('settings.storageUsage', () => {
  let app: TestApp;
  const user = async (username: string): Promise<PublicUser> =>
    app.deps.db.insertInto('users').values({ username, password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await rm(app.deps.env.dataDir, { recursive: true, force: true });
    await app?.close();
  });

  it("sums every file of the user's own clips (source, video, thumbnail), nothing of other users", async () => {
    const alice = await user('storage-alice');
    const bob = await user('storage-bob');
    const usage = () => callerFor(app.deps, { user: alice }).api.settings.storageUsage();
    expect(await usage()).toEqual({ bytes: 0, clips: 0 });

    await seedClip(app.deps, alice.id, { clip_id: 'A1', video: Buffer.alloc(1000) });
    const second = await seedClip(app.deps, alice.id, { clip_id: 'A2', video: Buffer.alloc(5000) });
    await seedClip(app.deps, bob.id, { clip_id: 'B1', video: Buffer.alloc(70_000) });
    // seedClip writes the video twice (as video and source) and a 12-byte thumbnail.
    expect(await usage()).toEqual({ bytes: 2 * 1000 + 12 + 2 * 5000 + 12, clips: 2 });

    await rm(path.join(second.dir, 'source.mp4'));
    expect(await usage()).toEqual({ bytes: 2 * 1000 + 12 + 5000 + 12, clips: 2 });
  });
});
