import { createDatabase } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { startEmbeddedPostgres } from '../platform/db/embedded.ts';
import { loadEnv } from '../platform/env.ts';
import { createLogger } from '../platform/logger.ts';
import { loadGeneratedSecrets } from '../platform/secrets.ts';
import { migrateWorkerSchema } from '../jobs/migrate.ts';

/** `npm run db:migrate`: applies the app's and graphile-worker's migrations, then exits. */
async function main() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const embedded = env.DATABASE_URL ? undefined : await startEmbeddedPostgres(env.dataDir, (await loadGeneratedSecrets(env.dataDir)).embedded_db_password, logger);
  const database = createDatabase(env.DATABASE_URL ?? embedded!.url, 2);
  try {
    const { applied } = await migrate(database.pool);
    await migrateWorkerSchema(database.pool, logger);
    logger.info({ applied }, applied.length ? 'migrations applied' : 'database is up to date');
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
