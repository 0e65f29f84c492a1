import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthStatus, processRuns, startAppProcess, type AppProcess } from '../helpers/app-process.ts';
import { waitUntil } from '../helpers/wait.ts';

async function postmasterPid(dataDir: string): Promise<number | null> {
  const text = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => null);
  const pid = Number(text?.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

describe('the embedded PostgreSQL dies under the app', () => {
  let dataDir: string;
  let app: AppProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-embedded-'));
    // As root, PostgreSQL runs as `postgres`, which must reach its data directory.
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    await app?.kill();
    const pid = await postmasterPid(dataDir);
    if (pid && (await processRuns(pid))) process.kill(pid, 'SIGQUIT');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is started again on the same data, the app carries on, and shutdown stops it last', { timeout: 180_000 }, async () => {
    // No DATABASE_URL: the app runs the embedded PostgreSQL itself.
    app = await startAppProcess({ DATABASE_URL: '', DATA_DIR: dataDir });
    const first = (await postmasterPid(dataDir))!;
    expect(await processRuns(first)).toBe(true);

    process.kill(first, 'SIGKILL');
    const second = await waitUntil(
      async () => {
        const pid = await postmasterPid(dataDir);
        return pid !== null && pid !== first && (await processRuns(pid)) ? pid : null;
      },
      { until: (pid) => pid !== null, message: 'a new embedded PostgreSQL' },
    );
    await waitUntil(() => healthStatus(app!.baseUrl), { until: (status) => status === 200, message: 'health after the restart' });
    expect(app.alive()).toBe(true);
    expect(app.output()).toContain('embedded PostgreSQL exited unexpectedly');
    expect(app.output()).toContain('embedded PostgreSQL restarted');

    app.child.kill('SIGTERM');
    expect(await app.exited).toEqual({ code: 0, signal: null });
    expect(await processRuns(second!)).toBe(false);
  });
});
