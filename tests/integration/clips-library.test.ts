import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';

async function makeUser(app: TestApp, username: string): Promise<PublicUser> {
  return app.deps.db.insertInto('users').values({ username, password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
}

describe('clip library', () => {
  let app: TestApp;
  let alice: PublicUser;
  let bob: PublicUser;

  beforeAll(async () => {
    app = await createTestApp();
    alice = await makeUser(app, 'alice');
    bob = await makeUser(app, 'bob');
    for (let index = 0; index < 7; index += 1) {
      await seedClip(app.deps, alice.id, {
        clip_id: `Clip${index}`,
        title: index % 2 ? `Huge Clutch ${index}` : `funny moment ${index}`,
        streamer_name: index < 4 ? 'xqc' : 'Shroud',
        view_count: index * 10,
        twitch_created_at: new Date(Date.UTC(2026, 0, 1 + index)),
      });
    }
    await seedClip(app.deps, bob.id, { clip_id: 'BobsClip', title: 'Huge Clutch by bob' });
  });
  afterAll(() => app.close());

  const as = (user: PublicUser) => callerFor(app.deps, { user }).api;

  it('lists the caller’s clips newest first with paging and totals', async () => {
    const first = await as(alice).clips.list({ page: 1, limit: 3 });
    expect(first.total).toBe(7);
    expect(first.clips.map((clip) => clip.clip_id)).toEqual(['Clip6', 'Clip5', 'Clip4']);
    const last = await as(alice).clips.list({ page: 3, limit: 3 });
    expect(last.clips.map((clip) => clip.clip_id)).toEqual(['Clip0']);
    expect(await as(alice).clips.list({ page: 9, limit: 3 })).toMatchObject({ clips: [], total: 7, page: 9, limit: 3 });
    // Full pages are counted; a shorter page ends the list; past the end the count tells.
    for (const [page, limit] of [[2, 3], [3, 3], [1, 7], [2, 7], [1, 8], [2, 6], [1, 100]] as const) {
      expect((await as(alice).clips.list({ page, limit })).total, `page ${page} of ${limit}`).toBe(7);
    }
    expect((await as(alice).clips.list({ streamer: 'shroud', page: 2, limit: 2 })).total).toBe(3);
    expect((await as(alice).clips.list({ streamer: 'nobody', page: 1, limit: 2 })).total).toBe(0);
    expect((await as(alice).clips.list({ streamer: 'nobody', page: 4, limit: 2 })).total).toBe(0);
  });

  it('filters by streamer (any case) and by title search, case-insensitive', async () => {
    expect((await as(alice).clips.list({ streamer: 'SHROUD' })).clips.map((clip) => clip.clip_id)).toEqual(['Clip6', 'Clip5', 'Clip4']);
    const search = await as(alice).clips.list({ search: 'huge CLUTCH' });
    expect(search.clips.map((clip) => clip.clip_id)).toEqual(['Clip5', 'Clip3', 'Clip1']);
    expect(search.total).toBe(3);
    expect((await as(alice).clips.list({ search: '100%_' })).total).toBe(0);
  });

  it('answers with the Clip object of the contract', async () => {
    const details = await as(alice).clips.details({ id: 'Clip1' });
    expect(details).toMatchObject({
      clip_id: 'Clip1',
      streamer: 'xqc',
      thumbnail: '/api/clips/Clip1/thumbnail',
      video_url: '/api/clips/Clip1/video',
      video: '/api/clips/Clip1/video?download=1',
      format_type: 'vertical',
      subtitled: false,
      selected_description: -1,
      custom_description: null,
      transcript: null,
      metadata: { descriptions: [] },
      hook_suggestion: null,
    });
  });

  it('never shows another user’s clip', async () => {
    await expect(as(bob).clips.details({ id: 'Clip1' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Clip Clip1 not found' });
    expect((await as(bob).clips.list({ search: 'clutch' })).clips.map((clip) => clip.clip_id)).toEqual(['BobsClip']);
  });

  it('edits descriptions: sorted by rank, selection in range, 2200 characters at most', async () => {
    const api = as(alice);
    const updated = await api.clips.updateDescriptions({
      id: 'Clip2',
      descriptions: [
        { description: 'low', rank: 0.2 },
        { description: 'high', rank: 0.9 },
      ],
      selected_description: 0,
      custom_description: 'my own #words',
    });
    expect(updated.metadata.descriptions.map((option) => option.description)).toEqual(['high', 'low']);
    expect(updated).toMatchObject({ selected_description: 0, custom_description: 'my own #words' });
    await expect(api.clips.updateDescriptions({ id: 'Clip2', selected_description: 2 })).rejects.toThrow('selected_description is out of range');
    await expect(api.clips.updateDescriptions({ id: 'Clip2', custom_description: 'x'.repeat(2201) })).rejects.toThrow('Description must be at most 2200 characters');
  });

  it('deletes the row and every file of the clip', async () => {
    const { dir } = await seedClip(app.deps, alice.id, { clip_id: 'Doomed' });
    expect(existsSync(dir)).toBe(true);
    await expect(as(bob).clips.delete({ id: 'Doomed' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(as(alice).clips.delete({ id: 'Doomed' })).resolves.toEqual({ message: 'Clip deleted successfully' });
    expect(existsSync(dir)).toBe(false);
    await expect(as(alice).clips.details({ id: 'Doomed' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses bad paging', async () => {
    await expect(as(alice).clips.list({ page: 0 })).rejects.toThrow('page must be a whole number of at least 1');
    await expect(as(alice).clips.list({ limit: 101 })).rejects.toThrow('limit must be a whole number from 1 to 100');
  });
});
