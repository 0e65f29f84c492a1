import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipDetails, ClipList } from '@clipshift/shared';
import { createSession, SESSION_COOKIE } from '../../server/src/domains/auth/service.ts';
import type { AppDeps } from '../../server/src/domains/deps.ts';
import type { Database } from '../../server/src/platform/db/schema.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';

/** Clips in the library: more than the largest page asked for, so every page is full. */
const CLIPS = 60;
/**
 * Statements of one GET /api/clips: the session, the page (each clip's posts and render ride in it as
 * columns) and the total beside it. Whatever the page size: a lookup per clip would multiply it.
 */
const STATEMENTS_PER_PAGE = 3;

/**
 * A library whose every clip has what the list shows beyond its own row: a studio edit, two posts
 * (one published with statistics) and a render under way.
 */
async function seedLibrary(db: AppDeps['db'], userId: string): Promise<void> {
  await sql`
    insert into clips (user_id, streamer_name, clip_id, title, broadcaster_name, view_count, duration, output_duration, twitch_created_at, format_type, files_dir, edit)
    select ${userId}::uuid, 'streamer', 'Clip' || n, 'clip ' || n, 'streamer', n, 30, 30, now() - (n || ' minutes')::interval, 'vertical', 'test/' || n,
           '{"layout":"split","trim_start":2}'::jsonb
    from generate_series(1, ${CLIPS}) as n`.execute(db);
  await sql`
    insert into accounts (user_id, platform, open_id, display_name, username, access_token_enc, refresh_token_enc, access_expires_at)
    values (${userId}::uuid, 'tiktok', 'open-1', 'One', 'one', 'x', 'x', now() + interval '1 day'),
           (${userId}::uuid, 'youtube', 'open-2', 'Two', 'two', 'x', 'x', now() + interval '1 day')`.execute(db);
  await sql`
    insert into uploads (user_id, clip_row_id, account_id, account_name, account_open_id, platform, status, mode, description, stats, stats_fetched_at)
    select c.user_id, c.id, a.id, '@' || a.username, a.open_id, a.platform,
           case when a.platform = 'tiktok' then 'published' else 'failed' end, 'direct', 'caption',
           case when a.platform = 'tiktok' then '{"views":10,"likes":2,"comments":1,"shares":0}'::jsonb end,
           -- Times with microseconds of all sorts: the list must read them as the details do.
           case when a.platform = 'tiktok' then now() - c.view_count * interval '1.000777 second' end
    from clips c cross join accounts a where c.user_id = ${userId}::uuid`.execute(db);
  await sql`
    insert into subtitle_requests (user_id, clip_row_id, status, stage, percent)
    select user_id, id, 'running', 'rendering', 40 from clips where user_id = ${userId}::uuid`.execute(db);
}

describe('GET /api/clips statements', () => {
  let app: TestApp;
  let server: TestServer;
  let cookie: string;
  const statements: string[] = [];

  beforeAll(async () => {
    app = await createTestApp();
    // The same pool, through a Kysely that records every statement the app runs.
    const recording = new Kysely<Database>({ dialect: new PostgresDialect({ pool: app.database.pool }), log: (event) => void statements.push(event.query.sql) });
    const user = await app.deps.db.insertInto('users').values({ username: 'lister', password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
    await seedLibrary(app.deps.db, user.id);
    cookie = `${SESSION_COOKIE}=${(await createSession(app.deps.db, user.id)).token}`;
    server = await startTestServer({ ...app.deps, db: recording });
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });

  async function statementsOfPage(limit: number): Promise<{ count: number; page: ClipList }> {
    statements.length = 0;
    const response = await fetch(`${server.baseUrl}/api/clips?page=1&limit=${limit}`, { headers: { cookie } });
    expect(response.status).toBe(200);
    return { count: statements.length, page: (await response.json()) as ClipList };
  }

  it('runs the same few statements for a page of 5 as for a page of 50', async () => {
    const small = await statementsOfPage(5);
    const large = await statementsOfPage(50);
    expect(large.page.clips).toHaveLength(50);
    // The lookups ran: every clip carries its posts, render and edit.
    for (const clip of large.page.clips) {
      expect(clip.posted_to.map((post) => post.status).sort()).toEqual(['failed', 'published']);
      expect(clip.render).toMatchObject({ status: 'rendering', percent: 40 });
      expect(clip.edit).toMatchObject({ layout: 'split', trim_start: 2 });
    }
    expect(large.count).toBe(small.count);
    expect(large.count).toBeLessThanOrEqual(STATEMENTS_PER_PAGE);
  });

  it("shows each clip's posts and render as the clip's own page does", async () => {
    const { page } = await statementsOfPage(50);
    for (const clip of page.clips.slice(0, 20)) {
      const response = await fetch(`${server.baseUrl}/api/clips/${clip.clip_id}`, { headers: { cookie } });
      const details = (await response.json()) as ClipDetails;
      // The details look posts and renders up with statements of their own: the same values, to the millisecond.
      expect(clip.posted_to).toEqual(details.posted_to);
      expect(clip.render).toEqual(details.render);
      expect(clip.posted_to.find((post) => post.status === 'published')?.stats?.fetched_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });
});
