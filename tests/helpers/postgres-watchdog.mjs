// Started by tests/helpers/test-postgres.ts with a pipe as stdin that only the test run writes to.
// When the pipe closes, the run has ended (its teardown ran, or it was interrupted or killed): stop
// the run's PostgreSQL if it is still up and remove its folder, so nothing is left behind.
// Usage: node postgres-watchdog.mjs <postmaster pid> <run folder>
import { rmSync } from 'node:fs';

const pid = Number(process.argv[2]);
const runDir = process.argv[3];
const SHUTDOWN_WAIT_MS = 30_000;
const POLL_MS = 100;

function alive() {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function cleanUp() {
  if (alive()) {
    // SIGINT is PostgreSQL's fast shutdown; SIGQUIT (immediate) only if that does not end it.
    process.kill(pid, 'SIGINT');
    for (let waited = 0; alive() && waited < SHUTDOWN_WAIT_MS; waited += POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    if (alive()) process.kill(pid, 'SIGQUIT');
  }
  rmSync(runDir, { recursive: true, force: true });
  process.exit(0);
}

process.stdin.on('data', () => {});
process.stdin.once('end', cleanUp);
process.stdin.once('error', cleanUp);
