import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { recordLog, trimLogs } from '../../server/src/logs/service.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
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
    it('stores the entry and redacts secret query parameters', async () => {
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
      expect(row!.exception).toContain('Error: upload to https://cdn.test/v?sig=[redacted] failed');
      expect(row!.exception).not.toContain('deadbeef');
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

    it('keeps only the newest N rows', async () => {
      await seedAges([50, 40, 30, 20, 10].map((minutes) => ({ minutes, message: `${minutes}m` })));
      expect(await trimLogs(app.deps.db, { days: 30, rows: 3 })).toBe(2);
      expect(await remaining()).toEqual(['10m', '20m', '30m']);
    });

    it('keeps exactly N rows when they were written a moment apart', async () => {
      await app.deps.db.deleteFrom('logs').execute();
      for (let index = 1; index <= 8; index += 1) {
        await app.deps.db.insertInto('logs').values({ level: 'INFO', logger: 'trim', message: `row ${index}` }).execute();
      }
      expect(await trimLogs(app.deps.db, { days: 30, rows: 5 })).toBe(3);
      expect(await remaining()).toEqual(['row 8', 'row 7', 'row 6', 'row 5', 'row 4']);
    });

    it('keeps exactly N rows when they share one timestamp', async () => {
      await app.deps.db.deleteFrom('logs').execute();
      await sql`insert into logs (level, logger, message) select 'INFO', 'trim', 'row ' || i from generate_series(1, 6) as i`.execute(app.deps.db);
      expect(await trimLogs(app.deps.db, { days: 30, rows: 2 })).toBe(4);
      expect(await remaining()).toEqual(['row 6', 'row 5']);
    });

    it('removes nothing when there are no more rows than the limit', async () => {
      await seedAges([3, 2, 1].map((minutes) => ({ minutes, message: `${minutes}m` })));
      expect(await trimLogs(app.deps.db, { days: 30, rows: 3 })).toBe(0);
      expect(await trimLogs(app.deps.db, { days: 30, rows: 10 })).toBe(0);
      expect(await countRows(app.deps, 'logs')).toBe(3);
    });

    it('removes rows older than the given days', async () => {
      await seedAges([
        { minutes: 3 * 24 * 60, message: '3 days' },
        { minutes: 2 * 24 * 60 + 1, message: 'just over 2 days' },
        { minutes: 2 * 24 * 60 - 1, message: 'just under 2 days' },
        { minutes: 1, message: 'now' },
      ]);
      expect(await trimLogs(app.deps.db, { days: 2, rows: 100 })).toBe(2);
      expect(await remaining()).toEqual(['now', 'just under 2 days']);
    });

    it('applies both limits: whichever keeps fewer rows wins', async () => {
      await seedAges([
        { minutes: 5 * 24 * 60, message: 'old' },
        { minutes: 30, message: 'a' },
        { minutes: 20, message: 'b' },
        { minutes: 10, message: 'c' },
      ]);
      expect(await trimLogs(app.deps.db, { days: 1, rows: 2 })).toBe(2);
      expect(await remaining()).toEqual(['c', 'b']);
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
