import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { appPath } from '../paths.ts';

export const MIGRATIONS_DIR = appPath('migrations');

/** Arbitrary but fixed: every process that migrates takes this advisory lock first. */
const MIGRATION_LOCK_ID = 0x636c6970; // "clip"

interface MigrationResult {
  applied: string[];
}

/**
 * Applies the numbered SQL files of migrations/ that this database has not seen, each in its own
 * transaction, in name order. Forward-only: a migration once applied is never edited.
 */
export async function migrate(pool: pg.Pool, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = (await readdir(dir)).filter((name) => /^\d+_.+\.sql$/.test(name)).sort();
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(
      `create table if not exists schema_migrations (
         name text primary key,
         applied_at timestamptz not null default now()
       )`,
    );
    const { rows } = await client.query<{ name: string }>('select name from schema_migrations');
    const done = new Set(rows.map((row) => row.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(path.join(dir, file), 'utf8');
      await client.query('begin');
      try {
        await client.query(sql);
        await client.query('insert into schema_migrations (name) values ($1)', [file]);
        await client.query('commit');
        applied.push(file);
      } catch (error) {
        await client.query('rollback');
        throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    client.release();
  }
  return { applied };
}
