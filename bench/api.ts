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
    insert into clips (user_id, streamer_name, clip_id, title, broadcaster_name, view_count, duration, twitch_created_at, format_type, files_dir, descriptions, output_duration)
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
           '[{"description":"a suggested caption #clip #twitch #gaming","rank":0.8}]'::jsonb,
           30
    from generate_series(1, ${CLIPS}) as n`.execute(db);
  await seedClipState(db, user.id);
  await sql`vacuum analyze clips, uploads, subtitle_requests, accounts`.execute(db);
  return user.id;
}

/**
 * Today's Clip on top of the bare rows: the download's picture, size and loudness, three ranked
 * suggestions, a studio edit on 1 clip in 5, posts on 1 in 3 (two accounts on 1 in 6, a failed
 * third on 1 in 30, published ones with statistics) and a render request on 1 in 4 (running on 1 in
 * 40, failed on 1 in 60), so that a page carries what the library screen shows.
 */
async function seedClipState(db: AppDeps['db'], userId: string): Promise<void> {
  await sql`
    update clips set
      game_name = 'Counter-Strike 2', language = 'en', thumbnail_url = 'https://clips-media-assets2.twitch.tv/' || clip_id || '-preview-480x272.jpg',
      width = 1080, height = 1920, size_bytes = 4200000 + (view_count * 13),
      loudness_integrated_lufs = -14.1, loudness_true_peak_dbtp = -1.2,
      descriptions = '[{"description":"a suggested caption #clip #twitch #gaming","rank":0.8},{"description":"another take on the moment, with the streamer named #fyp","rank":0.6},{"description":"short one #gaming","rank":0.4}]'::jsonb,
      edit = case when substring(clip_id from 5)::int % 5 = 0
        then '{"format":"vertical","layout":"split","facecam":{"x":0.7,"y":0.05,"w":0.28,"h":0.25},"split_ratio":0.35,"caption_style":{"preset":"bold","font":"Noto Sans","size":100,"primary_color":"#FFFFFF","highlight_color":"#39FF14","outline_color":"#000000","position":0.62,"uppercase":true},"trim_start":2,"trim_end":26}'::jsonb
        else '{}'::jsonb end
    where user_id = ${userId}::uuid`.execute(db);
  await sql`
    insert into accounts (user_id, platform, open_id, display_name, username, access_token_enc, refresh_token_enc, access_expires_at)
    select ${userId}::uuid, platform, 'bench-' || platform || '-' || k, 'Bench ' || platform || ' ' || k, 'bench_' || platform || '_' || k, 'x', 'x', now() + interval '1 day'
    from (values ('tiktok', 1), ('youtube', 2), ('tiktok', 3)) as a (platform, k)`.execute(db);
  await sql`
    insert into uploads (user_id, clip_row_id, account_id, account_name, account_open_id, platform, status, mode, description, external_id, stats, stats_fetched_at, published_at, error)
    select c.user_id, c.id, a.id, '@' || a.username, a.open_id, a.platform,
           case when k = 3 then 'failed' else 'published' end, 'direct', 'a suggested caption #clip',
           case when k = 3 then null else 'ext' || c.clip_id || '-' || k end,
           case when k = 3 then null else ('{"views":' || (c.view_count * 3) || ',"likes":' || c.view_count || ',"comments":12,"shares":' || case when a.platform = 'youtube' then 'null' else '4' end || '}')::jsonb end,
           case when k = 3 then null else now() end,
           case when k = 3 then null else now() end,
           case when k = 3 then 'TikTok refused the video' else null end
    from clips c
    join (select id, open_id, username, platform, substring(open_id from '[0-9]+$')::int as k from accounts where user_id = ${userId}::uuid) a
      on (a.k = 1 and substring(c.clip_id from 5)::int % 3 = 0)
      or (a.k = 2 and substring(c.clip_id from 5)::int % 6 = 0)
      or (a.k = 3 and substring(c.clip_id from 5)::int % 30 = 0)
    where c.user_id = ${userId}::uuid`.execute(db);
  await sql`
    insert into subtitle_requests (user_id, clip_row_id, model, status, stage, percent, message, created_at, finished_at)
    select c.user_id, c.id, 'large-v3-turbo',
           case when n % 40 = 0 then 'running' when n % 60 = 0 then 'failed' else 'done' end,
           case when n % 40 = 0 then 'rendering' when n % 60 = 0 then 'transcribing' else null end,
           case when n % 40 = 0 then 61 else 100 end,
           case when n % 60 = 0 then 'whisper ran out of memory' else null end,
           now() - interval '1 hour', case when n % 40 = 0 then null else now() end
    from (select id, user_id, substring(clip_id from 5)::int as n from clips where user_id = ${userId}::uuid) c
    where n % 4 = 0`.execute(db);
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

const SEQUENTIAL = 200;

interface Sequential {
  medianMs: number;
  p90Ms: number;
  bytes: number;
}

async function timedGet(url: string, cookie?: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: cookie ? { cookie } : {} });
  const body = await response.arrayBuffer();
  return { ms: performance.now() - started, bytes: body.byteLength };
}

function summary(times: number[], bytes: number): Sequential {
  const sorted = [...times].sort((a, b) => a - b);
  return { medianMs: median(sorted), p90Ms: sorted[Math.floor(sorted.length * 0.9)]!, bytes };
}

/**
 * One request at a time (no queueing behind other requests): each route's own latency and body
 * size. The two alternate, so that a machine busy with other work slows both alike.
 */
async function sequential(app: { url: string; cookie: string }, bareUrl: string): Promise<{ app: Sequential; bare: Sequential }> {
  const appTimes: number[] = [];
  const bareTimes: number[] = [];
  let appBytes = 0;
  let bareBytes = 0;
  for (let run = 0; run < SEQUENTIAL; run += 1) {
    const ours = await timedGet(app.url, app.cookie);
    const floor = await timedGet(bareUrl);
    appTimes.push(ours.ms);
    bareTimes.push(floor.ms);
    appBytes = ours.bytes;
    bareBytes = floor.bytes;
  }
  return { app: summary(appTimes, appBytes), bare: summary(bareTimes, bareBytes) };
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
  const cookie = `clipshift_session=${session.token}`;
  console.log('Sequential requests…');
  const { app: appSequential, bare: bareSequential } = await sequential({ url: `${ours.url}${route}`, cookie }, `${bare.url}/clips`);
  console.log('Loading the app route…');
  const appResult = await load(`${ours.url}${route}`, cookie);
  console.log('Loading the bare handler…');
  const bareResult = await load(`${bare.url}/clips`);
  await ours.close();
  await bare.close();
  await database.close();
  await server.stop();

  const row = (name: string, result: autocannon.Result) =>
    `| ${name} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} ms | ${result.latency.p99} ms | ${result.non2xx} |`;
  const seqRow = (name: string, result: Sequential) => `| ${name} | ${result.medianMs.toFixed(1)} ms | ${result.p90Ms.toFixed(1)} ms | ${(result.bytes / 1024).toFixed(1)} KB |`;
  const body = [
    `Library: ${CLIPS.toLocaleString('en')} clips across ${STREAMERS} streamers for one user; query: page 1 of 50 with search "${SEARCH}" (${sample.total} matches), newest first, plus the total count. Each clip as today's Clip: 3 suggestions, a studio edit on 1 in 5, posts on 1 in 3 (2 accounts on 1 in 6, a failed third on 1 in 30), a render request on 1 in 4 (running on 1 in 40).`,
    '',
    `Database time (EXPLAIN ANALYZE, median of 15): **list ${times.listMs.toFixed(2)} ms**, **count ${times.countMs.toFixed(2)} ms**.`,
    '',
    `Load: autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each.`,
    '',
    '| handler | req/s | p50 | p99 | non-2xx |',
    '| --- | --- | --- | --- | --- |',
    row('GET /api/clips (the app: session check, zod validation, posts and renders of the page)', appResult),
    row('bare Express + pg, same list + count SQL', bareResult),
    '',
    `App / bare: throughput ${(appResult.requests.average / bareResult.requests.average).toFixed(2)}×, p99 ${(appResult.latency.p99 / bareResult.latency.p99).toFixed(2)}×.`,
    '',
    `Sequential (one request at a time, ${SEQUENTIAL} each, app and bare alternating: the least load-dependent figure): app / bare median ${(appSequential.medianMs / bareSequential.medianMs).toFixed(2)}×.`,
    '',
    '| handler | median | p90 | body |',
    '| --- | --- | --- | --- |',
    seqRow('GET /api/clips', appSequential),
    seqRow('bare Express + pg', bareSequential),
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
