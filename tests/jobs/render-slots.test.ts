import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser, StatusEntry } from '@clipshift/shared';
import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { startWorker } from '../../server/src/app/jobs.ts';
import { currentRenderPlan, renderSlotUsage } from '../../server/src/engines/media/planner.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { waitUntil } from '../helpers/wait.ts';
import { renderLimitMs } from '../helpers/limits.ts';

/** Runs of two clips. */
const RUN_WAIT_MS = renderLimitMs(2);
/** Long enough that the first clip is still rendering when the run's next status is written (every second). */
const LONG_CLIP = { width: 640, height: 360, fps: 30, seconds: 10 };

describe('render slots in a download run (FFMPEG_MAX_PARALLEL=1, real worker and ffmpeg)', { timeout: 2 * RUN_WAIT_MS }, () => {
  let fake: FakeTwitch;
  let app: TestApp;
  let worker: WorkerHandle;
  let user: PublicUser;

  beforeAll(async () => {
    fake = await startFakeTwitch();
    for (const login of ['queued_up', 'halted']) {
      fake.addBroadcaster({ login });
      for (const title of ['first', 'second']) {
        const clip = fake.addClip({ broadcaster: login, title, view_count: title === 'first' ? 20 : 10, duration: LONG_CLIP.seconds });
        await fake.setClipMedia(clip.id, LONG_CLIP);
      }
    }
    app = await createTestApp({ ...fake.env, WORKER_CONCURRENCY: '2', FFMPEG_MAX_PARALLEL: '1', FFMPEG_ENCODER: 'libx264' });
    worker = await startWorker(app.deps, app.database.pool, 2);
    user = await app.deps.db.insertInto('users').values({ username: 'slots', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await fake?.close();
  });

  const api = () => callerFor(app.deps, { user }).api;
  const statusOf = async (name: string): Promise<StatusEntry | undefined> => (await api().downloads.status())[name];
  const finished = (entry: StatusEntry | undefined): entry is StatusEntry => entry !== undefined && !['downloading', 'stopping'].includes(entry.status);
  const waitingClip = (entry: StatusEntry | undefined) => entry?.progress.find((clip) => clip.stage === 'waiting_to_render');
  /** Every slot given back: a leak (a slot kept after its render ended) fails here, naming what was left. */
  const slotsFree = () =>
    waitUntil(() => renderSlotUsage(), { until: (usage) => usage.running === 0 && usage.waiting === 0, message: 'every render slot to be free' });

  it('plans one render at a time from FFMPEG_MAX_PARALLEL', () => {
    expect(currentRenderPlan().renders).toBe(1);
  });

  it("shows the clip that waits for the render slot as 'waiting_to_render', then renders it", async () => {
    await api().streamers.create({ name: 'queued_up', clip_limit: 2, normalize_audio: false });
    await api().downloads.start({ name: 'queued_up', concurrency: 2 });
    const seen = await waitUntil(() => statusOf('queued_up'), { until: (entry): entry is StatusEntry => waitingClip(entry) !== undefined, message: 'a clip waiting to render', timeoutMs: RUN_WAIT_MS });
    expect(waitingClip(seen)).toMatchObject({ stage: 'waiting_to_render', percent: 0 });
    expect(seen.progress.filter((clip) => clip.stage === 'rendering').length).toBeLessThanOrEqual(1);
    expect(renderSlotUsage().running).toBeLessThanOrEqual(1);

    const entry = await waitUntil(() => statusOf('queued_up'), { until: finished, message: 'the queued_up run', timeoutMs: RUN_WAIT_MS });
    expect(entry).toMatchObject({ status: 'completed', clips_downloaded: 2, clips_failed: 0, progress: [] });
    await slotsFree();
  });

  it('a stop while a clip waits for the slot ends the run: the wait is left, nothing saved, the slot free again', async () => {
    await slotsFree();
    await api().streamers.create({ name: 'halted', clip_limit: 2, normalize_audio: false });
    await api().downloads.start({ name: 'halted', concurrency: 2 });
    await waitUntil(() => statusOf('halted'), { until: (entry) => waitingClip(entry) !== undefined, message: 'a clip waiting to render', timeoutMs: RUN_WAIT_MS });
    await api().downloads.stop({ name: 'halted' });
    const entry = await waitUntil(() => statusOf('halted'), { until: finished, message: 'the stop' });
    expect(entry).toMatchObject({ status: 'stopped', clips_downloaded: 0 });
    expect(await app.deps.db.selectFrom('clips').select('id').where('streamer_name', '=', 'halted').execute()).toEqual([]);
    await slotsFree();
  });
});
