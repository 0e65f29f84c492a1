import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createApp, listenApp } from './http-app.ts';
import { createDatabase } from '../platform/db/database.ts';
import { startEmbeddedPostgres } from '../platform/db/embedded.ts';
import { isDatabaseUnavailable } from '../platform/db/errors.ts';
import { migrate } from '../platform/db/migrate.ts';
import { ConfigError, loadEnv, type Env } from '../platform/env.ts';
import { createLogger, type Logger } from '../platform/logger.ts';
import { loadGeneratedSecrets } from '../platform/secrets.ts';
import { startWorker, type WorkerHandle } from './jobs.ts';
import { migrateWorkerSchema } from '../jobs/migrate.ts';
import { createDeps } from './deps.ts';
import { renderEncoder } from '../engines/media/index.ts';
import { HEARTBEAT_STALE_MS, PROCESS_IDENTITY } from '../platform/identity.ts';
import { startInstanceHeartbeat, unregisterInstance } from '../jobs/instances.ts';
import { recoverDeadWork } from '../jobs/recovery.ts';

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

/**
 * Docker (and most supervisors) send SIGKILL 10 s after SIGTERM. Shutdown normally takes a couple
 * of seconds (GRACEFUL_ABORT_MS for jobs to wind up, then closing); past this the process exits
 * anyway, leaving whatever did not finish to start-up recovery.
 */
const SHUTDOWN_LIMIT_MS = 9_000;
/** Requests still open this long after shutdown began (all held calls have answered by then) are cut. */
const CONNECTION_GRACE_MS = 2_000;

function listen(app: ReturnType<typeof createApp>, env: Env): Promise<Server> {
  return listenApp(app, env.PORT, env.HOST);
}

/**
 * Stops accepting connections and closes keep-alive ones as soon as they are idle (a held call
 * that has just answered its 503 included); whatever is still busy after CONNECTION_GRACE_MS is cut.
 */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => server.closeAllConnections(), CONNECTION_GRACE_MS);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
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
  // Aborted when shutdown begins: held calls answer 503, waits for the database give up.
  const stopping = new AbortController();
  const stop = async (reason: string, exitCode = 0) => {
    if (stopping.signal.aborted) return;
    const started = Date.now();
    stopping.abort();
    logger.info({ reason }, 'shutting down');
    setTimeout(() => {
      logger.error({ limitMs: SHUTDOWN_LIMIT_MS }, 'shutdown is taking too long; exiting now');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    await shutdown.run(logger);
    logger.info({ elapsedMs: Date.now() - started }, 'stopped');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // A database call that failed while the database was away must never end the process; any other
  // unhandled rejection is a bug, and the process stops (cleanly) as Node would have.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      logger.warn({ err: reason }, 'a database call failed during an outage; carrying on');
      return;
    }
    logger.fatal({ err: reason }, 'unhandled promise rejection');
    void stop('unhandled rejection', 1);
  });

  try {
    await mkdir(env.dataDir, { recursive: true });
    const secrets = await loadGeneratedSecrets(env.dataDir);
    let databaseUrl = env.DATABASE_URL;
    if (!databaseUrl) {
      const embedded = await startEmbeddedPostgres(env.dataDir, secrets.embedded_db_password, logger);
      shutdown.add('embedded PostgreSQL', embedded.stop);
      databaseUrl = embedded.url;
    }
    // Web requests fail fast while the database is away (503); the worker's connections wait for it.
    const database = createDatabase(databaseUrl, 10);
    shutdown.add('database pool', database.close);
    const { applied } = await migrate(database.pool);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    await migrateWorkerSchema(database.pool, logger);

    let worker: WorkerHandle | null = null;
    const heartbeat = await startInstanceHeartbeat(database.db, PROCESS_IDENTITY, logger, () => worker?.poolIds() ?? []);
    shutdown.add('instance registration', async () => {
      await heartbeat.stop();
      await unregisterInstance(database.db, PROCESS_IDENTITY);
    });

    const deps = createDeps(env, database.db, logger, {
      appSecret: env.APP_SECRET ?? secrets.app_secret,
      workerRunning: () => worker !== null,
      stopping: stopping.signal,
    });
    const { transcriber } = deps;
    if (transcriber) shutdown.add('transcriber', () => transcriber.close());
    else logger.warn({ reason: deps.transcriberProblem }, 'subtitles are unavailable');
    if (!deps.twitch) logger.warn('TWITCH_CLIENT_ID/TWITCH_CLIENT_SECRET are not set: downloads will fail until they are');

    if (env.RUN_WORKER) {
      const report = await recoverDeadWork(deps, PROCESS_IDENTITY, { staleVerdicts: false });
      if (report.instances + report.runs + report.subtitles + report.requeued) logger.warn({ ...report }, 'recovered work interrupted by an earlier stop');
      const workerDatabase = createDatabase(databaseUrl, env.WORKER_CONCURRENCY * 2 + 4, {
        waitWhileUnreachable: stopping.signal,
        onWaiting: (error) => logger.warn({ err: error }, 'the database is unreachable; jobs wait for it'),
      });
      shutdown.add('worker database pool', workerDatabase.close);
      worker = await startWorker({ ...deps, db: workerDatabase.db }, workerDatabase.pool, env.WORKER_CONCURRENCY, {
        staleVerdicts: () => heartbeat.healthyForMs() >= HEARTBEAT_STALE_MS,
      });
      // Probe FFMPEG_ENCODER now, so its log line comes at start rather than with the first render.
      void renderEncoder(deps.media.ffmpeg);
    }
    const server = env.RUN_WEB ? await listen(createApp(deps), env) : null;
    // The web server and the worker stop together: held calls answer 503 at once (stopping), while
    // running jobs get GRACEFUL_ABORT_MS to finish before they are aborted and put back.
    shutdown.add('web server and job worker', async () => {
      const running = worker;
      worker = null;
      await Promise.all([server ? closeServer(server) : undefined, running?.stop()]);
    });
    if (server) logger.info({ url: env.publicUrl, port: env.PORT }, 'Clipshift is ready');
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    await shutdown.run(logger);
    process.exit(1);
  }
}

void main();
