import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/src/platform/logger.ts';
import { LOGS_TRIM_JOB } from '../../server/src/platform/queue/contracts.ts';
import { enqueue } from '../../server/src/platform/queue/queue.ts';
import { startWorker, type WorkerHandle } from '../../server/src/app/jobs.ts';
import { RESTARTING_MESSAGE } from '../../server/src/jobs/worker.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { waitUntil } from '../helpers/wait.ts';

/** graphile-worker's statement that records a finished job (one job, no queue). */
const isCompletion = (query: unknown) =>
  typeof query === 'object' && query !== null && /^delete from .*_private_jobs as jobs\s+where id = \$1::bigint/s.test(String((query as { text?: unknown }).text));

describe('the job worker when recording a job’s outcome fails', () => {
  let app: TestApp;
  let pool: pg.Pool;
  let admin: pg.Client;
  let worker: WorkerHandle | undefined;
  const lines: string[] = [];
  let armed = false;

  beforeAll(async () => {
    app = await createTestApp();
    admin = new pg.Client({ connectionString: app.database.url });
    await admin.connect();
    // The worker's own pool, on which the connection drops (its server process is terminated,
    // as in a database restart) exactly while graphile-worker records that a job completed.
    pool = new pg.Pool({ connectionString: app.database.url, max: 6 });
    pool.on('error', () => undefined);
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        if (!armed || !isCompletion(args[0])) return query(...args);
        armed = false;
        // pg keeps the server process id of each connection (BackendKeyData) on the client.
        const backendPid = (client as unknown as { processID: number }).processID;
        return admin.query('select pg_terminate_backend($1)', [backendPid]).then(() => query(...args));
      };
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await pool?.end();
    await admin?.end();
    await app?.close();
  });

  it('restarts the worker instead of crashing, and jobs keep running', async () => {
    const logger = createLogger(
      'warn',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    worker = await startWorker({ ...app.deps, logger }, pool, 2);
    const jobsLeft = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = ${LOGS_TRIM_JOB.name}`.execute(app.deps.db)).rows[0]!.n;

    armed = true;
    await enqueue(app.deps.db, LOGS_TRIM_JOB, {});
    await waitUntil(() => worker!.poolIds().length === 2, { message: 'a second runner' });
    expect(armed).toBe(false);
    expect(lines.join('')).toContain(RESTARTING_MESSAGE);

    // The job whose completion was lost was released and runs again; a new one runs too.
    await enqueue(app.deps.db, LOGS_TRIM_JOB, {});
    await waitUntil(jobsLeft, { until: (left) => left === 0, message: 'the jobs to run on the new runner' });
  });
});
