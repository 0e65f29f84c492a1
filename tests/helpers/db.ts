import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.ts';

export interface TestDatabase extends DatabaseHandle {
  url: string;
  name: string;
}

let counter = 0;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A fresh, migrated database of its own (a copy of the run's template): tests in different files
 * never see each other's rows. Dropped at the end of the run by the global teardown.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `${inject('databasePrefix')}_${process.pid}_${(counter += 1)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // Two clones of one template at the same instant can collide ("being accessed by other users").
    for (let attempt = 0; ; attempt += 1) {
      try {
        await admin.query(`create database ${name} template ${inject('templateDatabase')}`);
        break;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  return { ...createDatabase(url, 10), url, name };
}
