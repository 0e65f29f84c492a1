// `npm run bench:api`: GET /api/clips on a library of 20,000 clips across 50 streamers for one user.
// Reports database time of the page-of-50-with-search query (EXPLAIN ANALYZE), then requests per
// second and p50/p99 latency under autocannon for the app's route and for a bare Express + pg
// handler running the same SQL. Writes docs/benchmarks.md ("Clips API").
// Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the embedded PostgreSQL (bench/out/pg).
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import express from 'express';
import { sql } from 'kysely';
import pg from 'pg';
import { createApp } from '../server/src/app/http-app.ts';
import { createSession } from '../server/src/domains/auth/service.ts';
import { listClips } from '../server/src/domains/clips/service.ts';
import { createDatabase } from '../server/src/platform/db/database.ts';
import { migrate } from '../server/src/platform/db/migrate.ts';
import type { AppDeps } from '../server/src/domains/deps.ts';
import { loadEnv } from '../server/src/platform/env.ts';
import { createLogger } from '../server/src/platform/logger.ts';
import { createDeps } from '../server/src/app/deps.ts';
import { migrateWorkerSchema } from '../server/src/jobs/migrate.ts';
import { databaseDescription, freshDatabase, serverUrl, withDatabase } from './lib/database.ts';
import { machineDescription, median, writeSection } from './lib/report.ts';

const CLIPS = 20_000;
const STREAMERS = 50;
const SEARCH = 'clutch';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const logger = createLogger('silent');

/** 20,000 clips in 50 streamers with titles from a word list (about 1 in 16 contains "clutch"). */
async function seed(db: AppDeps['db']): Promise<string> {
  const user = await db.insertInto('users').values({ username: 'bench', password_hash: 'x' }).returning('id').executeTakeFirstOrThrow();
  await sql`
    insert into clips (user_id, streamer_name, clip_id, title, broadcaster_name, view_count, duration, twitch_created_at, format_type, files_dir, descriptions)
    select ${user.id}::uuid,
           'streamer_' || (n % ${STREAMERS}),
           'Clip' || n,
           (array['insane','huge','crazy','funny','epic','wild','quick','late'])[1 + n % 8] || ' ' ||
           (array['clutch','flick','moment','reaction','play','fail','win','spray','ace','save','jump','trade','peek','rotate','push','hold'])[1 + (n / 8) % 16] || ' #' || n,
           'streamer_' || (n % ${STREAMERS}),
           (n * 7919) % 100000,
           30,
           now() - (n || ' minutes')::interval,
           'vertical',
           'bench/' || n,
           '[{"description":"a suggested caption #clip #twitch #gaming","rank":0.8}]'::jsonb
    from generate_series(1, ${CLIPS}) as n`.execute(db);
  await sql`vacuum analyze clips`.execute(db);
  return user.id;
}

/** Execution time of the app's own list query (page of 50, search), from EXPLAIN ANALYZE. */
async function databaseTimes(deps: AppDeps, userId: string): Promise<{ listMs: number; countMs: number; plan: string }> {
  const query = deps.db
    .selectFrom('clips')
    .select(['id', 'clip_id', 'title'])
    .where('user_id', '=', userId)
    .where('title', 'ilike', `%${SEARCH}%`)
    .orderBy('twitch_created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .compile();
  const count = deps.db.selectFrom('clips').select(sql`count(*)`.as('total')).where('user_id', '=', userId).where('title', 'ilike', `%${SEARCH}%`).compile();
  const explain = async (compiled: { sql: string; parameters: readonly unknown[] }) => {
    const client = new pg.Client({ connectionString: benchUrl });
    await client.connect();
    try {
      const rows = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${compiled.sql}`, compiled.parameters as unknown[]);
      const lines = rows.rows.map((row) => row['QUERY PLAN']);
      const execution = Number(/Execution Time: ([\d.]+) ms/.exec(lines.join('\n'))?.[1] ?? NaN);
      return { execution, lines };
    } finally {
      await client.end();
    }
  };
  const list: number[] = [];
  const counts: number[] = [];
  let plan = '';
  for (let run = 0; run < 15; run += 1) {
    const a = await explain(query);
    const b = await explain(count);
    list.push(a.execution);
    counts.push(b.execution);
    plan = a.lines.join('\n');
  }
  return { listMs: median(list), countMs: median(counts), plan };
}

let benchUrl = '';

function listen(app: express.Express): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** The same list + count SQL, straight through pg, as a floor for what the route could cost. */
function bareApp(pool: pg.Pool, userId: string, deps: AppDeps): express.Express {
  const list = deps.db
    .selectFrom('clips')
    .selectAll()
    .where('user_id', '=', userId)
    .where('title', 'ilike', `%${SEARCH}%`)
    .orderBy('twitch_created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .offset(0)
    .compile();
  const count = deps.db.selectFrom('clips').select(sql`count(*)::int`.as('total')).where('user_id', '=', userId).where('title', 'ilike', `%${SEARCH}%`).compile();
  const app = express();
  app.get('/clips', async (_req, res) => {
    const [rows, total] = await Promise.all([pool.query(list.sql, list.parameters as unknown[]), pool.query(count.sql, count.parameters as unknown[])]);
    res.json({ clips: rows.rows, total: total.rows[0].total, page: 1, limit: 50 });
  });
  return app;
}

async function load(url: string, cookie?: string): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers: cookie ? { cookie } : {} });
}

async function main() {
  const server = await serverUrl(logger);
  benchUrl = await freshDatabase(withDatabase(server.url, 'postgres'), 'clipshift_bench');
  const database = createDatabase(benchUrl, 20);
  await migrate(database.pool);
  await migrateWorkerSchema(database.pool, logger);
  const env = loadEnv({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: path.resolve(import.meta.dirname, 'out/api-data'), DATABASE_URL: benchUrl });
  const deps = createDeps(env, database.db, logger, {
    appSecret: 'bench-secret-bench-secret-bench-secret',
    overrides: { twitch: null, tiktok: null, transcriber: null },
  });
  console.log(`Seeding ${CLIPS} clips across ${STREAMERS} streamers…`);
  const userId = await seed(deps.db);
  const sample = await listClips(deps.db, userId, { search: SEARCH, page: 1, limit: 50 });
  const times = await databaseTimes(deps, userId);
  console.log(`Database: list ${times.listMs.toFixed(2)} ms, count ${times.countMs.toFixed(2)} ms (${sample.total} matches)`);

  const session = await createSession(deps.db, userId);
  const ours = await listen(createApp(deps, { clientDist: '/nonexistent' }));
  const bare = await listen(bareApp(database.pool, userId, deps));
  const route = `/api/clips?search=${SEARCH}&page=1&limit=50`;
  console.log('Loading the app route…');
  const appResult = await load(`${ours.url}${route}`, `clipshift_session=${session.token}`);
  console.log('Loading the bare handler…');
  const bareResult = await load(`${bare.url}/clips`);
  await ours.close();
  await bare.close();
  await database.close();
  await server.stop();

  const row = (name: string, result: autocannon.Result) =>
    `| ${name} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${result.non2xx} |`;
  const body = [
    `Library: ${CLIPS.toLocaleString('en')} clips across ${STREAMERS} streamers for one user; query: page 1 of 50 with search "${SEARCH}" (${sample.total} matches), newest first, plus the total count.`,
    '',
    `Database time (EXPLAIN ANALYZE, median of 15): **list ${times.listMs.toFixed(2)} ms**, **count ${times.countMs.toFixed(2)} ms**.`,
    '',
    `Load: autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each.`,
    '',
    '| handler | req/s | p50 | p99 | non-2xx |',
    '| --- | --- | --- | --- | --- |',
    row('GET /api/clips (the app: session check, zod validation, uploads lookup)', appResult),
    row('bare Express + pg, same list + count SQL', bareResult),
    '',
    `App / bare throughput: ${(appResult.requests.average / bareResult.requests.average).toFixed(2)}.`,
    '',
    'Plan of the list query:',
    '```',
    times.plan,
    '```',
    '',
    'Machine:',
    await machineDescription([databaseDescription()]),
    '',
    'Re-run: `npm run bench:api` (BENCH_SECONDS=30 for longer runs).',
  ].join('\n');
  console.log(`\n${body}\n`);
  await writeSection('Clips API', body);
}

await main();
