import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createApp } from './app.ts';
import { createDatabase } from './db/database.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import type { AppDeps } from './deps.ts';
import { ConfigError, loadEnv, type Env } from './env.ts';
import { createLogger, type Logger } from './logs/logger.ts';
import { loadGeneratedSecrets } from './secrets.ts';
import { startWorker } from './worker/worker.ts';
import { migrateWorkerSchema } from './worker/migrate.ts';
import { recoverInterruptedRuns } from './downloads/recovery.ts';
import { recoverInterruptedSubtitles } from './subtitles/recovery.ts';
import { resolveMediaBinaries } from './media/index.ts';
import { twitchFromEnv } from './providers/twitch/from-env.ts';
import { tiktokFromEnv } from './providers/tiktok/index.ts';
import { transcriberFromEnv } from './providers/transcription/from-env.ts';
import { PROCESS_IDENTITY } from './worker/identity.ts';

type Stopper = { name: string; stop: () => Promise<void> };

/** Things to stop on shutdown, stopped in reverse order of starting. */
class ShutdownList {
  private readonly stoppers: Stopper[] = [];
  add(name: string, stop: () => Promise<void>) {
    this.stoppers.push({ name, stop });
  }
  async run(logger: Logger) {
    for (const { name, stop } of this.stoppers.reverse()) {
      try {
        await stop();
        logger.info(`${name} stopped`);
      } catch (error) {
        logger.error({ err: error }, `${name} did not stop cleanly`);
      }
    }
  }
}

function listen(app: ReturnType<typeof createApp>, env: Env): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(env.PORT, env.HOST, (error?: Error) => (error ? reject(error) : resolve(server)));
  });
}

async function main() {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(env.LOG_LEVEL);
  const shutdown = new ShutdownList();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await shutdown.run(logger);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await mkdir(env.dataDir, { recursive: true });
    const secrets = await loadGeneratedSecrets(env.dataDir);
    let databaseUrl = env.DATABASE_URL;
    if (!databaseUrl) {
      const embedded = await startEmbeddedPostgres(env.dataDir, secrets.embedded_db_password, logger);
      shutdown.add('embedded PostgreSQL', embedded.stop);
      databaseUrl = embedded.url;
    }
    const database = createDatabase(databaseUrl, env.WORKER_CONCURRENCY + 10);
    shutdown.add('database pool', database.close);
    const { applied } = await migrate(database.pool);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    await migrateWorkerSchema(database.pool, logger);

    let workerRunning = false;
    const media = resolveMediaBinaries(env);
    const transcription = transcriberFromEnv(env, media.ffmpeg, logger);
    const deps: AppDeps = {
      env,
      db: database.db,
      logger,
      appSecret: env.APP_SECRET ?? secrets.app_secret,
      twitch: twitchFromEnv(env, logger),
      tiktok: tiktokFromEnv(env, logger),
      media,
      transcriber: transcription.transcriber,
      transcriberProblem: transcription.problem,
      workerRunning: () => workerRunning,
    };
    if (transcription.transcriber) shutdown.add('transcriber', () => transcription.transcriber!.close());
    else logger.warn({ reason: transcription.problem }, 'subtitles are unavailable');
    if (!deps.twitch) logger.warn('TWITCH_CLIENT_ID/TWITCH_CLIENT_SECRET are not set: downloads will fail until they are');

    if (env.RUN_WORKER) {
      const recovered = (await recoverInterruptedRuns(deps, PROCESS_IDENTITY)) + (await recoverInterruptedSubtitles(deps, PROCESS_IDENTITY));
      if (recovered) logger.warn({ recovered }, 'recovered work interrupted by an earlier stop');
      const runner = await startWorker(deps, database.pool, env.WORKER_CONCURRENCY);
      workerRunning = true;
      shutdown.add('job worker', async () => {
        workerRunning = false;
        await runner.stop();
      });
    }
    if (env.RUN_WEB) {
      const server = await listen(createApp(deps), env);
      shutdown.add('web server', () => new Promise<void>((resolve) => server.close(() => resolve())));
      logger.info({ url: env.publicUrl, port: env.PORT }, 'Clipshift is ready');
    }
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    await shutdown.run(logger);
    process.exit(1);
  }
}

void main();
