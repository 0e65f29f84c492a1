import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../server/src/platform/db/embedded.ts';
import type { Logger } from '../../server/src/platform/logger.ts';

/** BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the embedded PostgreSQL (bench/out/pg-data). */
export async function serverUrl(logger: Logger): Promise<{ url: string; stop: () => Promise<void> }> {
  const given = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: async () => {} };
  const embedded = await startEmbeddedPostgres(path.resolve(import.meta.dirname, '../out/pg-data'), 'bench-password-not-secret', logger);
  return { url: embedded.url.replace(/\/clipshift$/, '/postgres'), stop: embedded.stop };
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Drops and recreates `name` on the server of `adminUrl`; returns its URL. */
export async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  return withDatabase(adminUrl, name);
}

/** Where the benchmark's database lives, for the Machine list of a report. */
export function databaseDescription(): string {
  return `PostgreSQL: ${process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL ? 'the server at BENCH_DATABASE_URL/TEST_DATABASE_URL' : 'embedded (npm)'}`;
}
