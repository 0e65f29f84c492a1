import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleJob } from '../../server/src/domains/downloads/jobs/schedule.ts';
import { diskShortage } from '../../server/src/domains/downloads/service.ts';
import { runTypedJob } from '../../server/src/jobs/adapter.ts';
import { freeDiskBytes } from '../../server/src/platform/disk.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { RestClient, userIdOf } from '../rest/client.ts';

const execFileAsync = promisify(execFile);

/** No disk has this much free: every start is refused. */
const ABSURD_MB = '100000000';

describe('free disk space guard', () => {
  let app: TestApp;
  let server: TestServer;
  let client: RestClient;
  let userId: string;

  beforeAll(async () => {
    app = await createTestApp({ MIN_FREE_DISK_MB: ABSURD_MB });
    server = await startTestServer(app.deps);
    client = new RestClient(server.baseUrl);
    expect((await client.post('/api/register', { username: 'diskuser', password: 'correct horse battery' })).status).toBe(201);
    await client.login('diskuser', 'correct horse battery');
    userId = await userIdOf(client);
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });

  it('measures what df reports, at the nearest existing parent of a folder not made yet', async () => {
    const missing = path.join(app.deps.env.dataDir, 'not', 'made', 'yet');
    const { stdout } = await execFileAsync('df', ['--output=avail', '-B1', '/tmp']);
    const dfBytes = Number(stdout.trim().split('\n')[1]);
    const free = await freeDiskBytes(missing);
    // Other tests write meanwhile: the same file system, within 1 GB.
    expect(Math.abs(free - dfBytes)).toBeLessThan(1024 ** 3);
    expect(await diskShortage({ dataDir: app.deps.env.dataDir, MIN_FREE_DISK_MB: 0, STORAGE: 'local' })).toBeNull();
  });

  it('refuses a manual start with 409 and a message that says what to do, starting nothing', async () => {
    await seedStreamer(app.deps, userId, 'diskstreamer');
    const reply = await client.post('/api/downloads/start/diskstreamer', {});
    expect(reply.status, reply.text).toBe(409);
    expect(reply.body).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/^Not enough free disk space to start a download: \d+ MB free on the server, at least 100000000 MB needed\./) });
    expect(reply.text).not.toContain(app.deps.env.dataDir);
    expect(await app.deps.db.selectFrom('download_runs').select('id').execute()).toEqual([]);
  });

  it('skips a scheduled run with a WARNING and keeps the schedule going', async () => {
    const streamerId = await seedStreamer(app.deps, userId, 'diskscheduled');
    await app.deps.db
      .updateTable('streamers')
      .set({ schedule_interval: 1, schedule_unit: 'hours', next_run_at: new Date(Date.now() - 1_000) })
      .where('id', '=', streamerId)
      .execute();
    await runTypedJob(scheduleJob(app.deps), { streamerId }, app.deps.logger);

    expect(await app.deps.db.selectFrom('download_runs').select('id').where('streamer_id', '=', streamerId).execute()).toEqual([]);
    const streamer = await app.deps.db.selectFrom('streamers').select('next_run_at').where('id', '=', streamerId).executeTakeFirstOrThrow();
    expect(streamer.next_run_at!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    const logs = await app.deps.db.selectFrom('logs').select(['level', 'message']).where('user_id', '=', userId).where('logger', '=', 'downloads').execute();
    expect(logs).toEqual([{ level: 'WARNING', message: expect.stringMatching(/^Skipped the scheduled download for diskscheduled: Not enough free disk space/) }]);
  });
});
