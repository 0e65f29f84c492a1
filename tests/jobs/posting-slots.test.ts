import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { planPost } from '../../server/src/domains/publishing/schedule.ts';
import { queueUploads } from '../../server/src/domains/publishing/uploads.ts';
import { encryptSecret } from '../../server/src/platform/crypto.ts';
import { POST_JOB } from '../../server/src/platform/queue/contracts.ts';
import { findJob, jobKey, rescheduleJob } from '../../server/src/platform/queue/queue.ts';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { expectErrorLogs } from '../helpers/error-logs.ts';
import { waitUntil } from '../helpers/wait.ts';

describe('posting slots with a real worker and a fake TikTok', () => {
  let tiktok: FakeTikTok;
  let app: TestApp;
  let worker: WorkerHandle;
  let alice: PublicUser;
  let clips = 0;

  /** An account connected as OAuth would leave it, with tokens the fake knows. */
  async function addAccount(openId: string): Promise<string> {
    tiktok.addUser({ openId, displayName: openId, username: openId });
    const tokens = tiktok.issueTokens(openId);
    const row = await app.deps.db
      .insertInto('accounts')
      .values({
        user_id: alice.id,
        open_id: openId,
        display_name: openId,
        username: openId,
        access_token_enc: encryptSecret(tokens.accessToken, app.deps.appSecret),
        refresh_token_enc: encryptSecret(tokens.refreshToken, app.deps.appSecret),
        access_expires_at: new Date(Date.now() + 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const api = () => callerFor(app.deps, { user: alice }).api;

  async function queueClip(accountId: string, timing: 'now' | 'next-slot', mode: 'direct' | 'inbox' = 'direct') {
    const clip = await seedClip(app.deps, alice.id, { clip_id: `slot-clip-${++clips}` });
    const [row] = await app.deps.db.transaction().execute((trx) =>
      queueUploads(trx, { userId: alice.id, clipRowId: clip.id, accountIds: [accountId], description: 'slot #a', mode, privacyLevel: mode === 'direct' ? 'SELF_ONLY' : undefined }, { timing }),
    );
    return row!;
  }

  function uploadOf(id: string) {
    return app.deps.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  function waitForStatus(id: string, status: string, timeoutMs = 60_000) {
    return waitUntil(() => uploadOf(id), { until: (row) => row.status === status, message: `upload ${id} to be ${status}`, timeoutMs, intervalMs: 100 });
  }

  const postsOf = (openId: string) => [...tiktok.posts.values()].filter((post) => post.openId === openId);

  beforeAll(async () => {
    tiktok = await startFakeTikTok({ pollsUntilDone: 0 });
    app = await createTestApp(tiktok.env);
    alice = await app.deps.db.insertInto('users').values({ username: 'alice', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    worker = await startWorker(app.deps, app.database.pool, 3);
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await tiktok?.close();
  });
  beforeEach(() => tiktok.reset());

  it('keeps a slot through a restart between scheduling and posting, fires it at its time and not before, and posts exactly once', async () => {
    const accountId = await addAccount('open-ontime');
    // A weekly slot a day from now (slots are HH:MM), in a zone east of UTC.
    const slot = new Date(Math.ceil((Date.now() + 86_400_000) / 60_000) * 60_000);
    const zone = 'Asia/Kolkata'; // UTC+05:30: the local minute differs from UTC's hour, not its minutes
    const local = new Date(slot.getTime() + 330 * 60_000);
    const time = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    await api().queue.saveSchedule({ id: accountId, timezone: zone, slots: [{ day: local.getUTCDay(), time }], daily_cap: null, min_gap_minutes: 0 });

    const upload = await queueClip(accountId, 'next-slot');
    expect(upload.status).toBe('scheduled');
    expect(upload.scheduled_for).toEqual(slot);
    expect((await api().queue.list()).map((item) => [item.id, item.status])).toEqual([[upload.id, 'scheduled']]);

    // The process restarts while the post waits: the job is in the database, not in memory.
    await worker.stop();
    worker = await startWorker(app.deps, app.database.pool, 3);

    // The slot's time comes (brought forward to a moment from now instead of waiting a day).
    const due = new Date(Date.now() + 1500);
    await app.deps.db.updateTable('uploads').set({ scheduled_for: due }).where('id', '=', upload.id).execute();
    expect(await rescheduleJob(app.deps.db, jobKey(POST_JOB, { uploadId: upload.id }), due)).toBe(true);

    await waitForStatus(upload.id, 'published');
    const posts = postsOf('open-ontime');
    expect(posts).toHaveLength(1);
    // Never early; how late is the machine's speed, not a rule (a hung job fails waitForStatus).
    expect(posts[0]!.createdAt).toBeGreaterThanOrEqual(due.getTime());
    // The job row goes a moment after its task returns.
    await expect.poll(() => findJob(app.deps.db, jobKey(POST_JOB, { uploadId: upload.id }))).toBeUndefined();
    expect(await api().queue.list()).toEqual([]);
  });

  it('a worker down at the slot posts once when it is back', async () => {
    const accountId = await addAccount('open-down');
    await api().queue.saveSchedule({ id: accountId, timezone: 'UTC', slots: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, time: '03:00' })), daily_cap: null, min_gap_minutes: 0 });
    const upload = await queueClip(accountId, 'next-slot');
    expect(upload.status).toBe('scheduled');
    await worker.stop();
    try {
      // The slot passes while no worker runs.
      const passed = new Date(Date.now() - 2000);
      await app.deps.db.updateTable('uploads').set({ scheduled_for: passed }).where('id', '=', upload.id).execute();
      expect(await rescheduleJob(app.deps.db, jobKey(POST_JOB, { uploadId: upload.id }), passed)).toBe(true);
    } finally {
      worker = await startWorker(app.deps, app.database.pool, 3);
    }
    await waitForStatus(upload.id, 'published');
    // One more worker start must not post it again.
    await worker.stop();
    worker = await startWorker(app.deps, app.database.pool, 3);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(postsOf('open-down')).toHaveLength(1);
    expect(tiktok.requestsTo('video_init').length).toBe(1);
  });

  it('cancels a scheduled post for good and posts another now', async () => {
    const accountId = await addAccount('open-cancel');
    await api().queue.saveSchedule({ id: accountId, timezone: 'UTC', slots: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, time: '03:00' })), daily_cap: null, min_gap_minutes: 0 });
    const first = await queueClip(accountId, 'next-slot');
    const second = await queueClip(accountId, 'next-slot');
    // One slot a day: the second post takes the next day's.
    expect(second.scheduled_for!.getTime() - first.scheduled_for!.getTime()).toBe(86_400_000);

    await api().queue.cancel({ id: first.id });
    await api().queue.postNow({ id: second.id });
    await waitForStatus(second.id, 'published');
    expect((await uploadOf(first.id)).status).toBe('canceled');
    expect(await findJob(app.deps.db, jobKey(POST_JOB, { uploadId: first.id }))).toBeUndefined();
    expect(postsOf('open-cancel')).toHaveLength(1);
    await expect(api().queue.postNow({ id: second.id })).rejects.toMatchObject({ code: 'CONFLICT' });

    // A canceled post can be queued again (the at-most-once rule counts only live posts).
    const again = await app.deps.db.transaction().execute((trx) =>
      queueUploads(trx, { userId: alice.id, clipRowId: first.clip_row_id, accountIds: [accountId], description: 'again', mode: 'direct' }, { timing: 'next-slot' }),
    );
    expect(again.map((row) => [row.id, row.status])).toEqual([[first.id, 'scheduled']]);
  });

  it('moves a post TikTok refuses for its daily limit to the account’s next free slot, saying so, and posts it later once', async () => {
    const accountId = await addAccount('open-capped');
    const slots = [0, 1, 2, 3, 4, 5, 6].flatMap((day) => [{ day, time: '06:00' }, { day, time: '18:00' }]);
    await api().queue.saveSchedule({ id: accountId, timezone: 'America/New_York', slots, daily_cap: null, min_gap_minutes: 0 });
    tiktok.setDailyPostCap(0);
    // An automatic post, hurried by the user, refused by TikTok at creator_info.
    const upload = await queueClip(accountId, 'next-slot');
    expect(upload.status).toBe('scheduled');
    await api().queue.postNow({ id: upload.id });
    const moved = await waitUntil(() => uploadOf(upload.id), { until: (row) => row.status === 'scheduled' && row.error !== null, message: 'the refused post to wait', intervalMs: 100 });
    const expected = await app.deps.db.transaction().execute(async (trx) => {
      const plan = await planPost(trx, { id: accountId, open_id: 'open-capped' }, 'next-slot', new Date(Date.now() + 60_000), upload.id);
      return plan.scheduled_for;
    });
    expect(moved.scheduled_for).toEqual(expected);
    const label = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(expected).replace(',', '');
    expect(moved.error).toBe(`TikTok limits how many posts this account can make per day; moved to ${label} (America/New_York)`);
    expect(moved.publish_id).toBeNull();
    const job = await findJob(app.deps.db, jobKey(POST_JOB, { uploadId: upload.id }));
    expect(job).toBeDefined();
    expect(postsOf('open-capped')).toHaveLength(0);
    const queued = await api().queue.list();
    expect(queued.find((item) => item.id === upload.id)).toMatchObject({ status: 'scheduled', error: moved.error, scheduled_for: expected.toISOString() });
    const logs = await app.deps.db.selectFrom('logs').select('message').where('user_id', '=', alice.id).where('level', '=', 'WARNING').execute();
    expect(logs.map((log) => log.message)).toContain(`Posting to @open-capped waits: ${moved.error}`);

    // TikTok lets it through later: the post goes once, and the note is gone.
    tiktok.setDailyPostCap(15);
    await api().queue.postNow({ id: upload.id });
    const done = await waitForStatus(upload.id, 'published');
    expect(done.error).toBeNull();
    expect(postsOf('open-capped')).toHaveLength(1);
  });

  it('an account without slots waits an hour after an inbox refusal (pending shares)', async () => {
    const accountId = await addAccount('open-inbox');
    tiktok.setPendingShareCap(0);
    const before = Date.now();
    const upload = await queueClip(accountId, 'next-slot', 'inbox');
    expect(upload.status).toBe('queued');
    const moved = await waitForStatus(upload.id, 'scheduled');
    const delay = moved.scheduled_for!.getTime() - before;
    expect(delay).toBeGreaterThanOrEqual(3_600_000);
    expect(delay).toBeLessThan(3_600_000 + 20_000);
    expect(moved.error).toMatch(/^TikTok allows at most 5 drafts waiting in the inbox per 24 hours; moved to \w{3} \d\d:\d\d UTC$/);
  });

  it('fails a post someone made themselves when TikTok refuses it for rate reasons: they are waiting for the answer', async () => {
    const accountId = await addAccount('open-manual');
    await api().queue.saveSchedule({ id: accountId, timezone: 'UTC', slots: [{ day: 1, time: '06:00' }], daily_cap: null, min_gap_minutes: 0 });
    tiktok.setDailyPostCap(0);
    expectErrorLogs(/^Posting a clip to TikTok failed: This TikTok account has reached its daily posting limit/);
    const upload = await queueClip(accountId, 'now');
    expect(upload.status).toBe('queued');
    const failed = await waitForStatus(upload.id, 'failed');
    expect(failed.error).toBe('This TikTok account has reached its daily posting limit. Try again tomorrow.');
  });

  it('plans slots across a DST change and a daily cap that counts posts already made (database)', async () => {
    const accountId = await addAccount('open-dst');
    // Europe/Berlin springs forward on Sunday 2025-03-30 at 02:00 local.
    const slots = [{ day: 6, time: '18:00' }, { day: 0, time: '02:30' }, { day: 0, time: '18:00' }, { day: 1, time: '09:00' }];
    await api().queue.saveSchedule({ id: accountId, timezone: 'Europe/Berlin', slots, daily_cap: 1, min_gap_minutes: 0 });
    const account = { id: accountId, open_id: 'open-dst' };
    const now = new Date('2025-03-29T12:00:00Z');
    const plan = () => app.deps.db.transaction().execute((trx) => planPost(trx, account, 'next-slot', now));
    const take = async (at: Date, status: 'scheduled' | 'published') => {
      const clip = await seedClip(app.deps, alice.id, { clip_id: `dst-${at.getTime()}` });
      await app.deps.db
        .insertInto('uploads')
        .values({ user_id: alice.id, clip_row_id: clip.id, account_id: accountId, account_name: '@open-dst', account_open_id: 'open-dst', mode: 'direct', description: 'd', status, scheduled_for: at })
        .execute();
    };

    expect(await plan()).toEqual({ status: 'scheduled', scheduled_for: new Date('2025-03-29T17:00:00Z') }); // Sat 18:00 CET
    await take(new Date('2025-03-29T17:00:00Z'), 'scheduled');
    // Sunday's 02:30 does not exist: it fires when the clocks jump, 03:00 CEST.
    expect(await plan()).toEqual({ status: 'scheduled', scheduled_for: new Date('2025-03-30T01:00:00Z') });
    // A post already made that Sunday (an immediate one, 10:00 local) fills the day's cap of 1: Monday 09:00 CEST.
    await take(new Date('2025-03-30T08:00:00Z'), 'published');
    expect(await plan()).toEqual({ status: 'scheduled', scheduled_for: new Date('2025-03-31T07:00:00Z') });
    // A failed post takes no slot.
    await take(new Date('2025-03-31T07:00:00Z'), 'published');
    await app.deps.db.updateTable('uploads').set({ status: 'failed' }).where('account_open_id', '=', 'open-dst').where('scheduled_for', '=', new Date('2025-03-31T07:00:00Z')).execute();
    expect(await plan()).toEqual({ status: 'scheduled', scheduled_for: new Date('2025-03-31T07:00:00Z') });
  });
});
