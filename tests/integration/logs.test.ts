import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOG_RETENTION_DAYS, LOG_RETENTION_ROWS_PER_USER, type PublicUser } from '@clipshift/shared';
import { ANONYMOUS_LOG_LIMIT, anonymousLogBudget, recordLog, trimLogs, type LogBudget } from '../../server/src/domains/logs/service.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { expectErrorLogs, recordedErrorLogs } from '../helpers/error-logs.ts';
import { countRows, expectError, register } from './support.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Seed {
  minutesAgo: number;
  level: string;
  logger: string;
  message: string;
  user: PublicUser | null;
  exception?: string;
}

describe('logs', () => {
  let app: TestApp;
  let admin: PublicUser;
  let alice: PublicUser;
  let bob: PublicUser;

  beforeAll(async () => {
    app = await createTestApp({ REGISTRATION_MODE: 'open' });
    admin = await register(app.deps, 'admin');
    alice = await register(app.deps, 'alice');
    bob = await register(app.deps, 'bob');
  });
  afterAll(() => app.close());

  async function seed(rows: Seed[]): Promise<void> {
    await app.deps.db.deleteFrom('logs').execute();
    for (const row of rows) {
      await sql`insert into logs (timestamp, level, logger, message, exception, user_id)
        values (now() - make_interval(mins => ${row.minutesAgo}), ${row.level}, ${row.logger}, ${row.message}, ${row.exception ?? null}, ${row.user?.id ?? null})`.execute(app.deps.db);
    }
  }

  const list = (user: PublicUser, input?: { limit?: number; level?: string; search?: string }) =>
    callerFor(app.deps, { user, sessionId: `s-${user.username}` }).api.logs.list(input);
  const messages = async (user: PublicUser, input?: { limit?: number; level?: string; search?: string }) =>
    (await list(user, input)).map((entry) => entry.message);

  describe('list', () => {
    beforeEach(async () => {
      await seed([
        { minutesAgo: 50, level: 'INFO', logger: 'auth', message: 'alice signed in', user: alice },
        { minutesAgo: 40, level: 'ERROR', logger: 'downloads', message: 'Download of Shroud failed', user: alice, exception: 'Error: boom' },
        { minutesAgo: 30, level: 'WARNING', logger: 'tiktok', message: 'bob token expires soon', user: bob },
        { minutesAgo: 20, level: 'CRITICAL', logger: 'worker', message: 'worker crashed', user: null },
        { minutesAgo: 10, level: 'DEBUG', logger: 'Downloads.Scheduler', message: 'next run for 100%_real', user: alice },
        { minutesAgo: 5, level: 'INFO', logger: 'auth', message: 'admin signed in', user: admin },
      ]);
    });

    it('shows a user only their own entries, newest first', async () => {
      expect(await messages(alice)).toEqual(['next run for 100%_real', 'Download of Shroud failed', 'alice signed in']);
      expect(await messages(bob)).toEqual(['bob token expires soon']);
    });

    it('shows an administrator every entry, system ones included', async () => {
      expect(await messages(admin)).toEqual([
        'admin signed in',
        'next run for 100%_real',
        'worker crashed',
        'bob token expires soon',
        'Download of Shroud failed',
        'alice signed in',
      ]);
    });

    it('answers the entry shape of the contract', async () => {
      const entries = await list(alice, { level: 'ERROR' });
      expect(entries).toEqual([
        { id: expect.stringMatching(/^\d+$/), timestamp: expect.stringMatching(ISO), level: 'ERROR', logger: 'downloads', message: 'Download of Shroud failed', exception: 'Error: boom' },
      ]);
      const [info] = await list(bob);
      expect(info!.exception).toBeNull();
    });

    it('filters by level, in any case', async () => {
      expect(await messages(admin, { level: 'INFO' })).toEqual(['admin signed in', 'alice signed in']);
      expect(await messages(admin, { level: 'critical' })).toEqual(['worker crashed']);
      expect(await messages(alice, { level: 'warning' })).toEqual([]);
      expect(await messages(admin, { level: '' })).toHaveLength(6);
    });

    it('refuses an unknown level with 400', async () => {
      await expectError(list(admin, { level: 'VERBOSE' }), 'BAD_REQUEST', 'level must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL');
    });

    it('searches message or logger, case-insensitively', async () => {
      expect(await messages(admin, { search: 'SHROUD' })).toEqual(['Download of Shroud failed']);
      expect(await messages(admin, { search: 'downloads' })).toEqual(['next run for 100%_real', 'Download of Shroud failed']);
      expect(await messages(admin, { search: 'scheduler' })).toEqual(['next run for 100%_real']);
      expect(await messages(admin, { search: 'signed in' })).toEqual(['admin signed in', 'alice signed in']);
      expect(await messages(admin, { search: 'nothing like this' })).toEqual([]);
      // A user's search stays within their own entries.
      expect(await messages(bob, { search: 'signed in' })).toEqual([]);
    });

    it('treats % and _ in a search as plain characters', async () => {
      expect(await messages(admin, { search: '100%_real' })).toEqual(['next run for 100%_real']);
      expect(await messages(admin, { search: '%' })).toEqual(['next run for 100%_real']);
      expect(await messages(admin, { search: 'a_m' })).toEqual([]);
    });

    it('combines level and search', async () => {
      expect(await messages(admin, { level: 'INFO', search: 'alice' })).toEqual(['alice signed in']);
    });

    it('honours the limit, keeping the newest', async () => {
      expect(await messages(admin, { limit: 2 })).toEqual(['admin signed in', 'next run for 100%_real']);
      expect(await messages(alice, { limit: 1 })).toEqual(['next run for 100%_real']);
    });

    it.each([0, 1001])('refuses limit %j with 400', async (limit) => {
      await expectError(list(admin, { limit }), 'BAD_REQUEST', 'limit must be between 1 and 1000');
    });

    it('defaults to 500 entries', async () => {
      await sql`insert into logs (timestamp, level, logger, message)
        select now() - interval '1 hour' - make_interval(secs => i), 'INFO', 'bulk', 'entry ' || i from generate_series(1, 600) as i`.execute(app.deps.db);
      const entries = await list(admin);
      expect(entries).toHaveLength(500);
      expect(entries[0]!.message).toBe('admin signed in');
    });

    it('orders entries of the same instant by insertion', async () => {
      await app.deps.db.deleteFrom('logs').execute();
      await sql`insert into logs (level, logger, message, user_id) values
        ('INFO', 'x', 'first', ${alice.id}), ('INFO', 'x', 'second', ${alice.id}), ('INFO', 'x', 'third', ${alice.id})`.execute(app.deps.db);
      expect(await messages(alice)).toEqual(['third', 'second', 'first']);
    });

    it('needs a signed-in user', async () => {
      await expectError(callerFor(app.deps).api.logs.list(), 'UNAUTHORIZED', 'Authentication required');
    });
  });

  describe('recordLog', () => {
    it('stores the entry and redacts secret query parameters, in the table and on stdout', async () => {
      expectErrorLogs(/GET https:\/\/example\.test\/cb/);
      await app.deps.db.deleteFrom('logs').execute();
      await recordLog(app.deps.db, app.deps.logger, {
        level: 'ERROR',
        logger: 'tiktok',
        message: 'GET https://example.test/cb?code=abc123&state=s3cr3t&x=1 failed',
        userId: alice.id,
        error: new Error('upload to https://cdn.test/v?sig=deadbeef failed'),
      });
      const [row] = await app.deps.db.selectFrom('logs').select(['level', 'logger', 'message', 'exception', 'user_id']).execute();
      expect(row).toMatchObject({
        level: 'ERROR',
        logger: 'tiktok',
        message: 'GET https://example.test/cb?code=[redacted]&state=[redacted]&x=1 failed',
        user_id: alice.id,
      });
      // A row about a user's work keeps to its message: the error, with its stack, is on stdout only.
      expect(row!.exception).toBeNull();
      const [line] = recordedErrorLogs();
      expect(line?.error).toBe('upload to https://cdn.test/v?sig=[redacted] failed');
      expect(line?.raw).toContain('at ');
      for (const secret of ['abc123', 's3cr3t', 'deadbeef']) expect(line?.raw).not.toContain(secret);
    });

    it('keeps the redacted stack in system rows, which only administrators read', async () => {
      expectErrorLogs(/^worker failed/);
      await app.deps.db.deleteFrom('logs').execute();
      await recordLog(app.deps.db, app.deps.logger, { level: 'ERROR', logger: 'worker', message: 'worker failed', error: new Error('upload to https://cdn.test/v?sig=deadbeef failed') });
      const [row] = await app.deps.db.selectFrom('logs').select(['exception', 'user_id']).execute();
      expect(row?.user_id).toBeNull();
      expect(row?.exception).toContain('Error: upload to https://cdn.test/v?sig=[redacted] failed\n    at ');
      expect(row?.exception).not.toContain('deadbeef');
    });
  });

  describe('recordLog with a budget', () => {
    const budget: LogBudget = { key: 'test-budget', max: 3, windowSeconds: 3600, label: 'test entries' };
    const record = (index: number, userId: string | null = alice.id, withBudget: LogBudget = budget) =>
      recordLog(app.deps.db, app.deps.logger, { level: 'WARNING', logger: 'budget', message: `entry ${index}`, userId, budget: withBudget });
    const stored = async () =>
      (await app.deps.db.selectFrom('logs').select(['message', 'level', 'user_id']).where('logger', '=', 'budget').orderBy('id').execute()).map(
        (row) => row.message,
      );

    beforeEach(async () => {
      await app.deps.db.deleteFrom('logs').execute();
      await app.deps.db.deleteFrom('rate_limits').execute();
    });

    it('stores max entries per window, then one note saying the rest are not stored, then nothing', async () => {
      for (let index = 1; index <= 8; index += 1) await record(index);
      expect(await stored()).toEqual([
        'entry 1',
        'entry 2',
        'entry 3',
        'More than 3 test entries within 60 minutes: further ones are not stored in this log until that window ends (the server output has them all)',
      ]);
      const rows = await app.deps.db.selectFrom('logs').select(['level', 'user_id']).where('logger', '=', 'budget').execute();
      expect(new Set(rows.map((row) => `${row.level} ${row.user_id}`))).toEqual(new Set([`WARNING ${alice.id}`]));
    });

    it('stores again once the window has passed', async () => {
      for (let index = 1; index <= 5; index += 1) await record(index);
      await sql`update rate_limits set window_started_at = now() - interval '2 hours' where key = 'log:test-budget'`.execute(app.deps.db);
      await record(6);
      expect((await stored()).at(-1)).toBe('entry 6');
    });

    it('counts each budget on its own', async () => {
      for (let index = 1; index <= 5; index += 1) await record(index, alice.id, anonymousLogBudget(alice.id));
      await record(100, bob.id, anonymousLogBudget(bob.id));
      await record(200, null, anonymousLogBudget(null));
      const messagesAbout = async (userId: string | null) =>
        (await app.deps.db.selectFrom('logs').select('message').where('user_id', userId ? '=' : 'is', userId).execute()).map((row) => row.message);
      expect(await messagesAbout(bob.id)).toEqual(['entry 100']);
      expect(await messagesAbout(null)).toEqual(['entry 200']);
      expect(await messagesAbout(alice.id)).toHaveLength(5);
    });

    it('lets callers without a session add fewer rows in 30 days than a user keeps', () => {
      const windows = (LOG_RETENTION_DAYS * 24 * 60 * 60) / ANONYMOUS_LOG_LIMIT.windowSeconds;
      expect((ANONYMOUS_LOG_LIMIT.max + 1) * windows).toBeLessThan(LOG_RETENTION_ROWS_PER_USER / 2);
    });
  });

  describe('trimLogs', () => {
    async function seedAges(ages: { minutes: number; message: string }[]): Promise<void> {
      await app.deps.db.deleteFrom('logs').execute();
      for (const { minutes, message } of ages) {
        await sql`insert into logs (timestamp, level, logger, message) values (now() - make_interval(mins => ${minutes}), 'INFO', 'trim', ${message})`.execute(app.deps.db);
      }
    }
    const remaining = async () =>
      (await app.deps.db.selectFrom('logs').select('message').orderBy('timestamp', 'desc').orderBy('id', 'desc').execute()).map((row) => row.message);

    it('keeps only the newest N system rows', async () => {
      await seedAges([50, 40, 30, 20, 10].map((minutes) => ({ minutes, message: `${minutes}m` })));
      expect(await trimLogs(app.deps.db, { days: 30, rowsPerUser: 100, systemRows: 3 })).toBe(2);
      expect(await remaining()).toEqual(['10m', '20m', '30m']);
    });

    it('keeps exactly N rows when they were written a moment apart', async () => {
      await app.deps.db.deleteFrom('logs').execute();
      for (let index = 1; index <= 8; index += 1) {
        await app.deps.db.insertInto('logs').values({ level: 'INFO', logger: 'trim', message: `row ${index}` }).execute();
      }
      expect(await trimLogs(app.deps.db, { days: 30, rowsPerUser: 100, systemRows: 5 })).toBe(3);
      expect(await remaining()).toEqual(['row 8', 'row 7', 'row 6', 'row 5', 'row 4']);
    });

    it('keeps exactly N rows when they share one timestamp', async () => {
      await app.deps.db.deleteFrom('logs').execute();
      await sql`insert into logs (level, logger, message) select 'INFO', 'trim', 'row ' || i from generate_series(1, 6) as i`.execute(app.deps.db);
      expect(await trimLogs(app.deps.db, { days: 30, rowsPerUser: 100, systemRows: 2 })).toBe(4);
      expect(await remaining()).toEqual(['row 6', 'row 5']);
    });

    it('removes nothing when there are no more rows than the limit', async () => {
      await seedAges([3, 2, 1].map((minutes) => ({ minutes, message: `${minutes}m` })));
      expect(await trimLogs(app.deps.db, { days: 30, rowsPerUser: 100, systemRows: 3 })).toBe(0);
      expect(await trimLogs(app.deps.db, { days: 30, rowsPerUser: 100, systemRows: 10 })).toBe(0);
      expect(await countRows(app.deps, 'logs')).toBe(3);
    });

    it('removes rows older than the given days', async () => {
      await seedAges([
        { minutes: 3 * 24 * 60, message: '3 days' },
        { minutes: 2 * 24 * 60 + 1, message: 'just over 2 days' },
        { minutes: 2 * 24 * 60 - 1, message: 'just under 2 days' },
        { minutes: 1, message: 'now' },
      ]);
      expect(await trimLogs(app.deps.db, { days: 2, rowsPerUser: 100, systemRows: 100 })).toBe(2);
      expect(await remaining()).toEqual(['now', 'just under 2 days']);
    });

    it('applies both limits: whichever keeps fewer rows wins', async () => {
      await seedAges([
        { minutes: 5 * 24 * 60, message: 'old' },
        { minutes: 30, message: 'a' },
        { minutes: 20, message: 'b' },
        { minutes: 10, message: 'c' },
      ]);
      expect(await trimLogs(app.deps.db, { days: 1, rowsPerUser: 100, systemRows: 2 })).toBe(2);
      expect(await remaining()).toEqual(['c', 'b']);
    });

    describe('per user', () => {
      async function seedFor(user: PublicUser | null, count: number, minutesAgo: number, label: string): Promise<void> {
        await sql`insert into logs (timestamp, level, logger, message, user_id)
          select now() - make_interval(mins => ${minutesAgo}) - make_interval(secs => i), 'INFO', 'trim', ${label} || ' ' || i, ${user?.id ?? null}
          from generate_series(1, ${count}) as i`.execute(app.deps.db);
      }
      const messagesOf = async (user: PublicUser | null) =>
        (
          await app.deps.db
            .selectFrom('logs')
            .select('message')
            .where('user_id', user ? '=' : 'is', user ? user.id : null)
            .orderBy('timestamp', 'desc')
            .orderBy('id', 'desc')
            .execute()
        ).map((row) => row.message);

      it("keeps each user's newest N rows, and the system rows' own cap", async () => {
        await app.deps.db.deleteFrom('logs').execute();
        await seedFor(alice, 5, 60, 'alice');
        await seedFor(bob, 2, 60, 'bob');
        await seedFor(null, 4, 60, 'system');
        expect(await trimLogs(app.deps.db, { days: 30, rowsPerUser: 3, systemRows: 1 })).toBe(2 + 3);
        expect(await messagesOf(alice)).toEqual(['alice 1', 'alice 2', 'alice 3']);
        expect(await messagesOf(bob)).toEqual(['bob 1', 'bob 2']);
        expect(await messagesOf(null)).toEqual(['system 1']);
      });

      it("a flood of newer rows elsewhere never pushes out a user's own history", async () => {
        await app.deps.db.deleteFrom('logs').execute();
        await seedFor(alice, 3, 24 * 60, 'alice');
        // Far more recent rows than either cap, for the system and for bob.
        await seedFor(null, 500, 1, 'flood');
        await seedFor(bob, 500, 1, 'bob flood');
        await trimLogs(app.deps.db, { days: 30, rowsPerUser: 10, systemRows: 10 });
        expect(await messagesOf(alice)).toEqual(['alice 1', 'alice 2', 'alice 3']);
        expect(await messagesOf(bob)).toHaveLength(10);
        expect(await messagesOf(null)).toHaveLength(10);
      });

      it('applies the 30 days to every user', async () => {
        await app.deps.db.deleteFrom('logs').execute();
        await seedFor(alice, 2, 31 * 24 * 60, 'old alice');
        await seedFor(alice, 1, 1, 'alice');
        await seedFor(bob, 1, 31 * 24 * 60, 'old bob');
        expect(await trimLogs(app.deps.db)).toBe(3);
        expect(await messagesOf(alice)).toEqual(['alice 1']);
        expect(await messagesOf(bob)).toEqual([]);
      });
    });

    it('by default keeps 30 days and removes older rows', async () => {
      const day = 24 * 60;
      await seedAges([
        { minutes: 45 * day, message: '45 days' },
        { minutes: 31 * day, message: '31 days' },
        { minutes: 30 * day + 5, message: 'just over 30 days' },
        { minutes: 30 * day - 5, message: 'just under 30 days' },
        { minutes: 29 * day, message: '29 days' },
        { minutes: 1, message: 'recent' },
      ]);
      expect(await trimLogs(app.deps.db)).toBe(3);
      expect(await remaining()).toEqual(['recent', '29 days', 'just under 30 days']);
    });
  });
});
