// Started by tests/helpers/test-postgres.ts, before the run's PostgreSQL, with a pipe as stdin that
// only the test run writes to. When the pipe closes, the run has ended (its teardown ran, or it was
// interrupted or killed): stop the run's PostgreSQL if it is up and remove its folder, so nothing
// is left behind.
// Usage: node postgres-watchdog.mjs <run folder>   (the cluster is <run folder>/postgres)
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const runDir = process.argv[2];
const SHUTDOWN_WAIT_MS = 30_000;
const POLL_MS = 100;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The postmaster's pid from its lock file; none when the server never started or has stopped. */
function postmasterPid() {
  try {
    const pid = Number(readFileSync(path.join(runDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function cleanUp() {
  const pid = postmasterPid();
  if (pid) {
    // SIGINT is PostgreSQL's fast shutdown; SIGQUIT (immediate) only if that does not end it.
    process.kill(pid, 'SIGINT');
    for (let waited = 0; alive(pid) && waited < SHUTDOWN_WAIT_MS; waited += POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    if (alive(pid)) process.kill(pid, 'SIGQUIT');
  }
  rmSync(runDir, { recursive: true, force: true });
  process.exit(0);
}

process.stdin.on('data', () => {});
process.stdin.once('end', cleanUp);
process.stdin.once('error', cleanUp);
