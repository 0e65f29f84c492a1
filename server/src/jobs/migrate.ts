import { runMigrations } from 'graphile-worker';
import type pg from 'pg';
import type { Logger } from '../platform/logger.ts';
import { workerLogger } from './logger.ts';

/** Installs graphile-worker's own schema (idempotent). */
export async function migrateWorkerSchema(pool: pg.Pool, logger: Logger): Promise<void> {
  await runMigrations({ pgPool: pool, logger: workerLogger(logger) });
}
