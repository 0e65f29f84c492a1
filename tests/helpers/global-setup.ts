import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../server/src/platform/db/migrate.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { migrateWorkerSchema } from '../../server/src/jobs/migrate.ts';
import { resolveChromium, type ChromiumResolution } from './chromium.ts';
import { resolveDatabaseServer } from './database-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server URL with rights to create databases (points at the maintenance database). */
    adminDatabaseUrl: string;
    /** A migrated database every test file clones with CREATE DATABASE … TEMPLATE. */
    templateDatabase: string;
    /** Prefix of every database this run creates, so teardown can drop them. */
    databasePrefix: string;
    /** The browser tests' Chromium, or the one line that says how to get one. */
    chromium: ChromiumResolution;
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function describeChromium(chromium: ChromiumResolution): string {
  return 'problem' in chromium ? 'no Chromium (browser tests will fail)' : `Chromium from ${chromium.source}`;
}

export default async function setup(project: TestProject) {
  const server = await resolveDatabaseServer();
  const chromium = await resolveChromium();
  process.stdout.write(`Tests use ${server.source} and ${describeChromium(chromium)}\n`);
  const adminUrl = withDatabase(server.url, 'postgres');
  const prefix = `cs_t_${process.pid}_${Date.now().toString(36)}`;
  const template = `${prefix}_tpl`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const pool = new pg.Pool({ connectionString: withDatabase(server.url, template), max: 2 });
  try {
    await migrate(pool);
    await migrateWorkerSchema(pool, createLogger('silent'));
  } finally {
    await pool.end();
  }
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);
  project.provide('databasePrefix', prefix);
  project.provide('chromium', chromium);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${prefix}%`]);
    for (const { datname } of rows) {
      await admin.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
    }
    await admin.end();
    await server.stop();
  };
}
