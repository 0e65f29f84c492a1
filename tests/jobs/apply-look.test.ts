import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { startWorker } from '../../server/src/app/jobs.ts';
import { probe } from '../../server/src/engines/media/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { waitUntil } from '../helpers/wait.ts';
import { renderLimitMs } from '../helpers/limits.ts';

const execFileAsync = promisify(execFile);

/*
 * A streamer's changed look applied to its clips not yet posted: one re-render each through the
 * real worker and ffmpeg, each clip showing its progress; posted clips untouched; stoppable.
 */
describe("applying a streamer's look to its clips not yet posted", () => {
  let app: TestApp;
  let worker: WorkerHandle;
  let user: PublicUser;
  let source: Buffer;

  const api = () => callerFor(app.deps, { user }).api;

  /** A clip of `streamer` whose source and video are the 640x360 test source. */
  async function clipOf(streamerId: string, clipId: string): Promise<string> {
    const { id } = await seedClip(app.deps, user.id, { clip_id: clipId, streamer_name: 'looker', video: source });
    await app.deps.db.updateTable('clips').set({ streamer_id: streamerId, duration: 2, output_duration: 2, width: 640, height: 360 }).where('id', '=', id).execute();
    return id;
  }

  async function markPosted(clipRowId: string, status: 'published' | 'failed'): Promise<void> {
    const account = await app.deps.db
      .insertInto('accounts')
      .values({ user_id: user.id, platform: 'tiktok', open_id: `open-${clipRowId}-${status}`, display_name: 'Poster', username: 'poster', connected_via: 'owner', access_token_enc: 'x', refresh_token_enc: 'x', access_expires_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.deps.db
      .insertInto('uploads')
      .values({ user_id: user.id, clip_row_id: clipRowId, account_id: account.id, account_name: '@poster', account_open_id: `open-${clipRowId}-${status}`, platform: 'tiktok', status, mode: 'direct', description: 'x' })
      .execute();
  }

  beforeAll(async () => {
    app = await createTestApp();
    worker = await startWorker(app.deps, app.database.pool, 2);
    user = await app.deps.db.insertInto('users').values({ username: 'looker', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-apply-look-'));
    const file = path.join(dir, 'source.mp4');
    await execFileAsync(app.deps.media.ffmpeg, ['-y', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=0x808080:size=640x360:rate=25:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
    source = await readFile(file);
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
  });

  it('renders every clip not yet posted again (a failed post does not count), leaves the posted one, and says how many', async () => {
    const streamerId = await seedStreamer(app.deps, user.id, 'looker');
    const fresh = await clipOf(streamerId, 'LookFresh');
    const failed = await clipOf(streamerId, 'LookFailed');
    const posted = await clipOf(streamerId, 'LookPosted');
    await markPosted(failed, 'failed');
    await markPosted(posted, 'published');
    // The seeded video is the 640x360 source itself: a render makes it 1080x1920.
    await api().streamers.update({ name: 'looker', layout: 'crop', crop_focus: 0.2 });

    expect(await api().subtitles.renderStreamer({ name: 'looker' })).toEqual({ message: 'Rendering 2 clips of looker again with the new look', queued: 2, busy: 0 });
    const sizeOf = async (clipId: string) => {
      const clip = await api().clips.details({ id: clipId });
      return { render: clip.render.status, width: clip.width };
    };
    for (const clipId of ['LookFresh', 'LookFailed']) {
      await waitUntil(() => sizeOf(clipId), { until: (state) => state.render === 'idle' && state.width === 1080, message: `${clipId} rendered with the new look`, timeoutMs: renderLimitMs(2) });
    }
    expect(await sizeOf('LookPosted')).toEqual({ render: 'idle', width: 640 });
    const rows = await app.deps.db.selectFrom('subtitle_requests').select(['clip_row_id', 'status']).where('kind', '=', 'render').execute();
    expect(rows.map((row) => row.clip_row_id).sort()).toEqual([fresh, failed].sort());
    expect(rows.every((row) => row.status === 'done')).toBe(true);
    const video = await app.deps.db.selectFrom('clips').select(['files_dir']).where('id', '=', fresh).executeTakeFirstOrThrow();
    expect((await probe(app.deps.media.ffprobe, path.join(app.deps.env.dataDir, 'media', video.files_dir, 'video.mp4'))).width).toBe(1080);

    // Nothing waiting any more once all are posted; an unknown streamer is a 404.
    await markPosted(fresh, 'published');
    await markPosted(failed, 'published');
    expect(await api().subtitles.renderStreamer({ name: 'looker' })).toEqual({ message: 'No clips of looker are waiting to be posted', queued: 0, busy: 0 });
    await expect(api().subtitles.renderStreamer({ name: 'nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('stops them all: queued ones never run, each clip keeps its previous video', async () => {
    const streamerId = await seedStreamer(app.deps, user.id, 'stopper');
    await clipOf(streamerId, 'StopOne');
    await clipOf(streamerId, 'StopTwo');
    await expect(api().subtitles.stopStreamerRenders({ name: 'stopper' })).rejects.toMatchObject({ code: 'CONFLICT', message: 'No renders of stopper are running' });
    // Held: the worker is stopped so both stay queued.
    await worker.stop();
    try {
      expect((await api().subtitles.renderStreamer({ name: 'stopper' })).queued).toBe(2);
      expect(await api().subtitles.renderStreamer({ name: 'stopper' })).toMatchObject({ queued: 0, busy: 2 });
      expect(await api().subtitles.stopStreamerRenders({ name: 'stopper' })).toEqual({ message: 'Stopped 2 renders of stopper: those clips keep their previous video', stopped: 2 });
    } finally {
      worker = await startWorker(app.deps, app.database.pool, 2);
    }
    for (const clipId of ['StopOne', 'StopTwo']) expect((await api().clips.details({ id: clipId })).width).toBe(640);
  });
});
