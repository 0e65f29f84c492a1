import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusEntry } from '@clipshift/shared';
import { createSession } from '../../server/src/domains/auth/service.ts';
import { createDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../server/src/platform/db/embedded.ts';
import { createLogger } from '../../server/src/platform/logger.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { healthStatus, startAppProcess, type AppProcess } from '../helpers/app-process.ts';
import { waitUntil } from '../helpers/wait.ts';

/** Long enough for jobs, heartbeats and requests to hit the dead database many times over. */
const OUTAGE_MS = 8_000;
const CLIPS = 3;

/**
 * A PostgreSQL server of this test's own (the embedded binaries), so stopping it disturbs nothing
 * else in the suite; started again on the same data directory and port after the outage.
 */
async function ownPostgres(dataDir: string, port?: number): Promise<EmbeddedDatabase> {
  return startEmbeddedPostgres(dataDir, 'outage-test-password', createLogger('silent'), { port, restart: false });
}

describe('a PostgreSQL outage while a download runs', () => {
  let dataDir: string;
  let postgres: EmbeddedDatabase;
  let twitch: FakeTwitch;
  let app: AppProcess | undefined;
  let database: DatabaseHandle | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-outage-'));
    // As root, PostgreSQL runs as `postgres`, which must reach its data directory.
    await chmod(dataDir, 0o755);
    postgres = await ownPostgres(dataDir);
    twitch = await startFakeTwitch();
    twitch.addBroadcaster({ login: 'steady' });
    for (let index = 0; index < CLIPS; index += 1) twitch.addClip({ broadcaster: 'steady', title: `clip ${index}`, view_count: 100 - index });
  });
  afterAll(async () => {
    await app?.kill();
    await database?.close();
    await postgres?.stop();
    await twitch?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps the process alive, answers 503 meanwhile, and the run ends true', { timeout: 180_000 }, async () => {
    app = await startAppProcess({ ...twitch.env, DATABASE_URL: postgres.url, DATA_DIR: path.join(dataDir, 'app') });
    database = createDatabase(postgres.url, 2);
    const user = await database.db.insertInto('users').values({ username: 'steady', password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
    const cookie = `clipshift_session=${(await createSession(database.db, user.id)).token}`;
    const call = async (method: string, route: string, json?: unknown) => {
      const response = await fetch(`${app!.baseUrl}/api${route}`, {
        method,
        headers: { cookie, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    // Horizontal clips (a remux, no encode) keep the run short; the first transfer is held so that
    // the run is certainly mid-way when the database goes.
    expect((await call('POST', '/streamers', { name: 'steady', clip_limit: CLIPS, vertical: false })).status).toBe(201);
    twitch.holdTransfers();
    expect((await call('POST', '/downloads/start/steady', { concurrency: 1 })).status).toBe(202);
    const status = async () => ((await call('GET', '/downloads/status')).body as Record<string, StatusEntry>).steady;
    await waitUntil(() => twitch.heldTransfers() === 1, { message: 'the first transfer' });

    // The outage: PostgreSQL dies at once (immediate shutdown, as in a crash) and stays away.
    await database.close();
    database = undefined;
    const port = postgres.port;
    process.kill(postgres.pid()!, 'SIGQUIT');
    await waitUntil(() => postgres.pid() === undefined, { message: 'PostgreSQL to be down' });
    // The clip now finishes while the database is away: saving it has to wait for the database.
    twitch.releaseTransfers();
    const seen = new Set<number>();
    const outageEnds = Date.now() + OUTAGE_MS;
    while (Date.now() < outageEnds) {
      seen.add(await healthStatus(app.baseUrl, cookie));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(app.alive()).toBe(true);
    expect([...seen]).toEqual([503]);
    expect(app.output()).toContain('the database is unreachable; jobs wait for it');

    postgres = await ownPostgres(dataDir, port);
    await waitUntil(() => healthStatus(app!.baseUrl, cookie), { until: (code) => code === 200, message: 'health after the outage' });
    const final = await waitUntil(status, { until: (entry) => entry !== undefined && !['downloading', 'stopping'].includes(entry.status), message: 'the run to end', timeoutMs: 120_000 });
    expect(app.alive()).toBe(true);
    expect(['completed', 'error']).toContain(final!.status);
    if (final!.status === 'error') expect(final!.error).toBeTruthy();
    else expect(final!.clips_downloaded + final!.clips_failed).toBe(CLIPS);

    database = createDatabase(postgres.url, 2);
    const clips = await database.db.selectFrom('clips').select('clip_id').where('user_id', '=', user.id).execute();
    expect(new Set(clips.map((clip) => clip.clip_id)).size).toBe(clips.length);
    expect(clips.length).toBe(final!.clips_downloaded);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where locked_by is not null and task_identifier = 'downloads/run'`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
  });
});
