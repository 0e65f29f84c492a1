import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate, MIGRATIONS_DIR } from '../../server/src/platform/db/migrate.ts';

const UPLOAD_HISTORY = '009_upload_history.sql';

/** A database at the schema before 009, with uploads in it; then 009 runs over it. */
describe('migration 009: uploads keep their account', () => {
  let pool: pg.Pool;
  let earlierDir: string;
  const name = `${inject('databasePrefix')}_m009_${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(inject('adminDatabaseUrl'));
    url.pathname = `/${name}`;
    pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    earlierDir = await mkdtemp(path.join(tmpdir(), 'clipshift-migrations-'));
    for (const file of await readdir(MIGRATIONS_DIR)) {
      if (file < UPLOAD_HISTORY) await cp(path.join(MIGRATIONS_DIR, file), path.join(earlierDir, file));
    }
    await migrate(pool, earlierDir);
  });
  afterAll(async () => {
    await pool?.end();
    await rm(earlierDir, { recursive: true, force: true });
  });

  it('fills the name and open_id of existing uploads, then lets a removed account leave them behind', async () => {
    const { rows: users } = await pool.query<{ id: string }>(`insert into users (username, password_hash) values ('olduser', 'x') returning id`);
    const userId = users[0]!.id;
    const { rows: clips } = await pool.query<{ id: string }>(
      `insert into clips (user_id, streamer_name, clip_id, title, broadcaster_name, view_count, duration, twitch_created_at, format_type, files_dir)
       values ($1, 's', 'OldClip', 't', 's', 1, 10, now(), 'vertical', 'dir') returning id`,
      [userId],
    );
    const account = async (openId: string, displayName: string, username: string | null) =>
      (
        await pool.query<{ id: string }>(
          `insert into tiktok_accounts (user_id, open_id, display_name, username, access_token_enc, refresh_token_enc, access_expires_at)
           values ($1, $2, $3, $4, 'x', 'x', now()) returning id`,
          [userId, openId, displayName, username],
        )
      ).rows[0]!.id;
    const named = await account('open-named', 'Named One', 'namedone');
    const plain = await account('open-plain', 'Plain Display', null);
    for (const accountId of [named, plain]) {
      await pool.query(`insert into uploads (user_id, clip_row_id, tiktok_account_id, mode, description, status) values ($1, $2, $3, 'direct', 'd', 'published')`, [
        userId,
        clips[0]!.id,
        accountId,
      ]);
    }

    expect((await migrate(pool)).applied).toContain(UPLOAD_HISTORY);
    // Every later migration ran too: 025 named the account column for any platform.
    const select = `select account_id, account_name, account_open_id, status from uploads order by account_open_id`;
    expect((await pool.query(select)).rows).toEqual([
      { account_id: named, account_name: '@namedone', account_open_id: 'open-named', status: 'published' },
      { account_id: plain, account_name: 'Plain Display', account_open_id: 'open-plain', status: 'published' },
    ]);
    await pool.query(`delete from accounts where id = $1`, [named]);
    expect((await pool.query(select)).rows[0]).toEqual({ account_id: null, account_name: '@namedone', account_open_id: 'open-named', status: 'published' });
  });
});
