import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { scheduleJob } from '../../server/src/domains/downloads/jobs/schedule.ts';
import { runTypedJob } from '../../server/src/jobs/adapter.ts';
import { scheduleJobKey } from '../../server/src/domains/streamers/service.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';

async function makeUser(app: TestApp, username: string): Promise<PublicUser> {
  const row = await app.deps.db
    .insertInto('users')
    .values({ username, password_hash: 'x' })
    .returning(['id', 'username', 'is_admin'])
    .executeTakeFirstOrThrow();
  return row;
}

/** The queued job with this key, from graphile-worker's public jobs view. */
async function jobFor(app: TestApp, key: string) {
  const result = await sql<{ task_identifier: string; run_at: Date }>`
    select task_identifier, run_at from graphile_worker.jobs where key = ${key}`.execute(app.deps.db);
  return result.rows[0];
}

describe('streamers', () => {
  let app: TestApp;
  let alice: PublicUser;
  let bob: PublicUser;

  beforeAll(async () => {
    app = await createTestApp();
    alice = await makeUser(app, 'alice');
    bob = await makeUser(app, 'bob');
  });
  afterAll(() => app.close());

  const as = (user: PublicUser) => callerFor(app.deps, { user }).api;

  it('creates a streamer with the spec defaults and a trimmed name', async () => {
    const created = await as(alice).streamers.create({ name: '  xqc  ' });
    expect(created).toMatchObject({
      name: 'xqc',
      clip_limit: 10,
      vertical: true,
      language: '',
      layout: 'auto',
      schedule: null,
      auto_subtitle: false,
      auto_publish: false,
      tiktok_accounts: [],
      next_run_at: null,
    });
  });

  it('refuses a missing name, bad limits, languages and schedules with the spec messages', async () => {
    const api = as(alice);
    await expect(api.streamers.create({ name: '   ' })).rejects.toThrow('Streamer name is required');
    await expect(api.streamers.create({ name: 'a', clip_limit: 0 })).rejects.toThrow('Clip limit must be a whole number from 1 to 100');
    await expect(api.streamers.create({ name: 'a', clip_limit: 101 })).rejects.toThrow('Clip limit must be a whole number from 1 to 100');
    await expect(api.streamers.create({ name: 'a', clip_limit: 2.5 })).rejects.toThrow('Clip limit must be a whole number from 1 to 100');
    await expect(api.streamers.create({ name: 'a', language: 'xx' })).rejects.toThrow(/Language must be empty/);
    await expect(api.streamers.create({ name: 'a', schedule: { interval: 0, unit: 'hours' } })).rejects.toThrow('Schedule interval must be a whole number of at least 1');
    // @ts-expect-error: an unknown unit is what a script might send
    await expect(api.streamers.create({ name: 'a', schedule: { interval: 1, unit: 'weeks' } })).rejects.toThrow('Schedule unit must be minutes, hours or days');
  });

  it('keeps names unique per user ignoring case, but not across users', async () => {
    await as(alice).streamers.create({ name: 'Shroud' });
    await expect(as(alice).streamers.create({ name: 'shroud' })).rejects.toMatchObject({ code: 'CONFLICT', message: 'Streamer shroud already exists' });
    await expect(as(bob).streamers.create({ name: 'shroud' })).resolves.toMatchObject({ name: 'shroud' });
  });

  it('lists only the caller’s streamers, sorted by name', async () => {
    const names = (await as(alice).streamers.list()).map((streamer) => streamer.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(names).toContain('Shroud');
    expect((await as(bob).streamers.list()).map((streamer) => streamer.name)).toEqual(['shroud']);
  });

  it('updates settings but never the name; missing fields keep their values', async () => {
    const api = as(alice);
    await api.streamers.create({ name: 'pokimane', clip_limit: 7, language: 'en' });
    const updated = await api.streamers.update({ name: 'POKIMANE', vertical: false, layout: 'crop' });
    expect(updated).toMatchObject({ name: 'pokimane', clip_limit: 7, language: 'en', vertical: false, layout: 'crop' });
  });

  it('answers 404 for another user’s streamer exactly as for a missing one', async () => {
    await expect(as(bob).streamers.update({ name: 'pokimane', clip_limit: 3 })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Streamer pokimane not found' });
    await expect(as(bob).streamers.delete({ name: 'nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Streamer nobody not found' });
  });

  it('keeps a schedule job in step with the streamer', async () => {
    const api = as(alice);
    const before = Date.now();
    const created = await api.streamers.create({ name: 'scheduled', schedule: { interval: 4, unit: 'hours' } });
    const streamer = await app.deps.db.selectFrom('streamers').select('id').where('name', '=', 'scheduled').executeTakeFirstOrThrow();
    expect(new Date(created.next_run_at!).getTime()).toBeGreaterThanOrEqual(before + 4 * 3_600_000 - 1_000);
    const job = await jobFor(app, scheduleJobKey(streamer.id));
    expect(job?.task_identifier).toBe('downloads/schedule');
    expect(job?.run_at.toISOString()).toBe(created.next_run_at);

    const edited = await api.streamers.update({ name: 'scheduled', schedule: { interval: 30, unit: 'minutes' } });
    expect(new Date(edited.next_run_at!).getTime()).toBeLessThan(before + 31 * 60_000 + 5_000);
    expect((await jobFor(app, scheduleJobKey(streamer.id)))?.run_at.toISOString()).toBe(edited.next_run_at);

    const unscheduled = await api.streamers.update({ name: 'scheduled', schedule: null });
    expect(unscheduled.next_run_at).toBeNull();
    expect(await jobFor(app, scheduleJobKey(streamer.id))).toBeUndefined();

    await api.streamers.update({ name: 'scheduled', schedule: { interval: 1, unit: 'days' } });
    expect(await jobFor(app, scheduleJobKey(streamer.id))).toBeDefined();
    await api.streamers.delete({ name: 'scheduled' });
    expect(await jobFor(app, scheduleJobKey(streamer.id))).toBeUndefined();
  });

  it('fires a due schedule once and never starts a second run while one is going', async () => {
    const api = as(alice);
    await api.streamers.create({ name: 'cron', schedule: { interval: 1, unit: 'minutes' } });
    const streamer = await app.deps.db.selectFrom('streamers').selectAll().where('name', '=', 'cron').executeTakeFirstOrThrow();
    await app.deps.db.updateTable('streamers').set({ next_run_at: new Date(Date.now() - 1_000) }).where('id', '=', streamer.id).execute();
    const fire = (payload: { streamerId: string }) => runTypedJob(scheduleJob(app.deps), payload, app.deps.logger);
    await fire({ streamerId: streamer.id });

    const runs = await app.deps.db.selectFrom('download_runs').selectAll().where('streamer_id', '=', streamer.id).execute();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'downloading', trigger: 'schedule', clip_limit: 10, vertical: true });
    const after = await app.deps.db.selectFrom('streamers').select('next_run_at').where('id', '=', streamer.id).executeTakeFirstOrThrow();
    expect(after.next_run_at!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect((await jobFor(app, scheduleJobKey(streamer.id)))?.run_at.getTime()).toBe(after.next_run_at!.getTime());

    // Due again while the first run is still going: skipped, rescheduled, still one run.
    await app.deps.db.updateTable('streamers').set({ next_run_at: new Date(Date.now() - 1_000) }).where('id', '=', streamer.id).execute();
    await fire({ streamerId: streamer.id });
    expect(await app.deps.db.selectFrom('download_runs').select('id').where('streamer_id', '=', streamer.id).execute()).toHaveLength(1);

    // A job made stale by an edit (due later than now) does nothing.
    await app.deps.db.updateTable('download_runs').set({ status: 'completed' }).where('streamer_id', '=', streamer.id).execute();
    await app.deps.db.updateTable('streamers').set({ next_run_at: new Date(Date.now() + 3_600_000) }).where('id', '=', streamer.id).execute();
    await fire({ streamerId: streamer.id });
    expect(await app.deps.db.selectFrom('download_runs').select('id').where('streamer_id', '=', streamer.id).execute()).toHaveLength(1);
  });
});

describe('busy rules', () => {
  let app: TestApp;
  let user: PublicUser;
  beforeAll(async () => {
    app = await createTestApp();
    user = await makeUser(app, 'carol');
  });
  afterAll(() => app.close());

  it('blocks edit, delete and a second start while a run is busy; stop ends an unclaimed run at once', async () => {
    const { api } = callerFor(app.deps, { user });
    await api.streamers.create({ name: 'busy' });
    const started = await api.downloads.start({ name: 'busy', clip_limit: 3 });
    expect(started).toMatchObject({ message: 'Started downloading clips for busy', status: 'downloading', clips_downloaded: 0 });
    const run = await app.deps.db.selectFrom('download_runs').selectAll().executeTakeFirstOrThrow();
    expect(run).toMatchObject({ clip_limit: 3, vertical: true, status: 'downloading' });

    await expect(api.downloads.start({ name: 'BUSY' })).rejects.toMatchObject({ code: 'CONFLICT', message: 'Already downloading clips for busy' });
    await expect(api.streamers.update({ name: 'busy', clip_limit: 5 })).rejects.toMatchObject({ code: 'CONFLICT', message: 'Cannot edit busy while clips are being downloaded' });
    await expect(api.streamers.delete({ name: 'busy' })).rejects.toMatchObject({ code: 'CONFLICT', message: 'Cannot delete busy while clips are being downloaded' });

    const status = await api.downloads.status();
    expect(status.busy).toMatchObject({ status: 'downloading', clips_downloaded: 0, clips_total: 0, completed_at: null, error: null });

    // No worker has claimed the run (no heartbeat): stop ends it immediately and drops its job.
    await expect(api.downloads.stop({ name: 'busy' })).resolves.toEqual({ message: 'Stopping download for busy' });
    expect((await api.downloads.status()).busy?.status).toBe('stopped');
    await expect(api.downloads.stop({ name: 'busy' })).rejects.toMatchObject({ code: 'CONFLICT', message: 'No download is running for busy' });
    await expect(api.streamers.update({ name: 'busy', clip_limit: 5 })).resolves.toMatchObject({ clip_limit: 5 });
  });

  it('a claimed, live run goes to stopping', async () => {
    const { api } = callerFor(app.deps, { user });
    await api.streamers.create({ name: 'live' });
    await api.downloads.start({ name: 'live' });
    await app.deps.db.updateTable('download_runs').set({ heartbeat_at: new Date(), owner_instance: 'someone' }).where('status', '=', 'downloading').execute();
    await api.downloads.stop({ name: 'live' });
    expect((await api.downloads.status()).live?.status).toBe('stopping');
    await expect(api.downloads.start({ name: 'live' })).rejects.toThrow('Already downloading clips for live');
  });

  it('refuses two simultaneous starts of one streamer', async () => {
    const { api } = callerFor(app.deps, { user });
    await api.streamers.create({ name: 'race' });
    const results = await Promise.allSettled([api.downloads.start({ name: 'race' }), api.downloads.start({ name: 'race' })]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'CONFLICT', message: 'Already downloading clips for race' });
  });
});
