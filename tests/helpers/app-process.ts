import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { DbOrTrx } from '../../server/src/platform/db/database.ts';
import { waitUntil } from './wait.ts';

/** A secret the tests use to encrypt what they seed for an app process (tokens). */
export const PROCESS_APP_SECRET = 'fault-tests-app-secret-0123456789abcdef';

export interface AppProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Resolves once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** Everything it wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGKILL if still running (test clean-up). */
  kill(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** GET /api/health's status, or 0 when nothing answers. */
export async function healthStatus(baseUrl: string, cookie?: string): Promise<number> {
  try {
    const response = await fetch(`${baseUrl}/api/health`, { headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/** When a started process counts as ready; by default once /api/health answers 200. */
export type Readiness = (app: AppProcess) => Promise<boolean>;

const webAnswers: Readiness = async (app) => (await healthStatus(app.baseUrl)) === 200;

/**
 * Readiness of a worker-only process (RUN_WEB=false), which answers no HTTP: it has registered in
 * app_instances with the graphile-worker pool its jobs are locked with, so it takes jobs.
 */
export function workerRegistered(db: DbOrTrx): Readiness {
  return async (app) => {
    const row = await db.selectFrom('app_instances').select('worker_pool_ids').where('pid', '=', app.child.pid!).executeTakeFirst();
    return (row?.worker_pool_ids.length ?? 0) > 0;
  };
}

/** app/main.ts run with tsx, as `npm start` runs it. */
const SOURCE_LAUNCH = { args: ['--import', 'tsx', path.resolve('server/src/app/main.ts')] };

/**
 * The real app (server/src/app/main.ts: web + worker, as `npm start` runs it) in a process of its own,
 * configured by `env` on top of loopback defaults; resolves once `ready` (default: /api/health answers 200).
 * `launch` runs something else the same way (the production bundle with plain node, from its folder).
 */
export async function startAppProcess(env: Record<string, string>, launch: { args: string[]; cwd?: string } = SOURCE_LAUNCH, ready: Readiness = webAnswers): Promise<AppProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, launch.args, {
    cwd: launch.cwd,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      APP_SECRET: PROCESS_APP_SECRET,
      WORKER_CONCURRENCY: '2',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const baseUrl = `http://127.0.0.1:${port}`;
  const app: AppProcess = {
    child,
    baseUrl,
    exited,
    alive,
    output: () => output,
    kill: async () => {
      if (!alive()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    await waitUntil(async () => (alive() ? ready(app) : true), {
      message: 'the app process to start',
      timeoutMs: 90_000,
    });
  } catch (error) {
    await app.kill();
    throw new Error(`${(error as Error).message}\n${output.slice(-5_000)}`);
  }
  if (!alive()) throw new Error(`the app process exited during start-up:\n${output.slice(-5_000)}`);
  return app;
}

/** The pids of the processes whose parent is `parentPid`, with their command name. */
export async function childProcesses(parentPid: number): Promise<{ pid: number; comm: string }[]> {
  const found: { pid: number; comm: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) === parentPid && state !== 'Z') found.push({ pid: Number(entry), comm });
  }
  return found;
}

/** Whether the process runs (a zombie awaiting its reaper counts as gone). */
export async function processRuns(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}
