// `npm run bench:parallel`: six 30 s 1080p60 clips rendered by a real download run (real worker,
// fake Twitch, real ffmpeg) against the best schedule of the same six bare ffmpeg renders: every
// parallelism k in 1..cores with cores/k threads each, the fastest taken. Also the old behaviour
// (five renders at once, ffmpeg's own threading). Interleaved rounds; writes docs/benchmarks.md
// ("Parallel renders"). BENCH_RUNS sets the rounds (default 2).
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PublicUser, StatusEntry } from '@clipshift/shared';
import { createDeps } from '../server/src/app/deps.ts';
import { startWorker } from '../server/src/app/jobs.ts';
import type { AppDeps } from '../server/src/domains/deps.ts';
import { probe, type ProbeResult } from '../server/src/engines/media/index.ts';
import { clipArgs, type Encoding } from '../server/src/engines/media/render.ts';
import { currentRenderPlan, renderSlotUsage, threadsFor } from '../server/src/engines/media/planner.ts';
import { ENCODERS } from '../server/src/engines/media/encoders.ts';
import { createCaller } from '../server/src/http/router.ts';
import type { Context } from '../server/src/http/trpc.ts';
import { migrateWorkerSchema } from '../server/src/jobs/migrate.ts';
import { createDatabase } from '../server/src/platform/db/database.ts';
import { migrate } from '../server/src/platform/db/migrate.ts';
import { loadEnv } from '../server/src/platform/env.ts';
import { createLogger } from '../server/src/platform/logger.ts';
import { startFakeTwitch, type FakeTwitch } from '../tests/fakes/twitch/index.ts';
import { databaseDescription, freshDatabase, serverUrl, withDatabase } from './lib/database.ts';
import { bareFfmpeg, cpuSecondsSoFar } from './lib/ffmpeg.ts';
import { machineDescription, median, writeSection } from './lib/report.ts';

const execFileAsync = promisify(execFile);
const OUT = path.resolve(import.meta.dirname, 'out/parallel');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 2));
const CLIPS = 6;
/** What the fake Twitch serves for every clip: testsrc2 + a sine, libx264 ultrafast (made once, cached). */
const SOURCE_SPEC = { width: 1920, height: 1080, fps: 60, seconds: 30 };
const CORES = os.availableParallelism();
const logger = createLogger('silent');

/** Runs the tasks `k` at a time, in order. */
async function pool(tasks: (() => Promise<void>)[], k: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(k, tasks.length) }, async () => {
      while (next < tasks.length) {
        const task = tasks[next]!;
        next += 1;
        await task();
      }
    }),
  );
}

interface Variant {
  key: string;
  name: string;
  /** Part of the search for the best bare schedule. */
  bare: boolean;
  work: (round: number) => Promise<void>;
}

/** The six renders the app makes, as bare commands taken from the engine (clipArgs), k at a time. */
function bareVariant(ffmpeg: string, source: string, info: ProbeResult, k: number, encoding: Encoding | undefined, key: string, name: string, bare: boolean): Variant {
  return {
    key,
    name,
    bare,
    work: async () => {
      await rm(path.join(OUT, key), { recursive: true, force: true });
      await mkdir(path.join(OUT, key), { recursive: true });
      const tasks = Array.from({ length: CLIPS }, (_, index) => () =>
        bareFfmpeg(ffmpeg, clipArgs({ source, output: path.join(OUT, key, `clip-${index}.mp4`), layout: 'blur', info, encoding })),
      );
      await pool(tasks, k);
    },
  };
}

interface AppRun {
  deps: AppDeps;
  user: PublicUser;
  stop: () => Promise<void>;
}

async function startAppRun(fake: FakeTwitch): Promise<AppRun> {
  const server = await serverUrl(logger);
  const url = await freshDatabase(withDatabase(server.url, 'postgres'), 'clipshift_bench_parallel');
  const database = createDatabase(url, 5);
  await migrate(database.pool);
  await migrateWorkerSchema(database.pool, logger);
  const dataDir = path.join(OUT, 'app-data');
  await rm(dataDir, { recursive: true, force: true });
  const env = loadEnv({ ...process.env, ...fake.env, NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: url, PUBLIC_URL: 'http://127.0.0.1', WORKER_CONCURRENCY: '5' });
  const deps = createDeps(env, database.db, logger, { appSecret: 'bench-secret-bench-secret-bench-secret' });
  const worker = await startWorker(deps, database.pool, 5);
  const user = await deps.db.insertInto('users').values({ username: 'bench', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  return {
    deps,
    user,
    stop: async () => {
      await worker.stop();
      await database.close();
      await server.stop();
    },
  };
}

function apiOf(app: AppRun) {
  const ctx: Context = {
    deps: app.deps,
    user: app.user,
    sessionId: null,
    auth: { kind: 'session' },
    meta: { ip: '127.0.0.1', userAgent: 'bench', deviceCookie: undefined },
    response: { setSessionCookie: () => {}, clearSessionCookie: () => {}, setDeviceCookie: () => {}, setRetryAfter: () => {} },
  };
  return createCaller(ctx);
}

let peakRunning = 0;

/** A real download run of six new clips (a streamer of its own each round), start to final status. */
function appVariant(fake: FakeTwitch, app: AppRun): Variant {
  return {
    key: 'app',
    name: `app: a real 6-clip download run (worker, fake Twitch), planned`,
    bare: false,
    work: async (round) => {
      const login = `bench_round_${round}`;
      fake.addBroadcaster({ login });
      for (let index = 0; index < CLIPS; index += 1) fake.addClip({ broadcaster: login, title: `clip ${index}`, view_count: 1000 - index, duration: SOURCE_SPEC.seconds });
      const api = apiOf(app);
      await api.streamers.create({ name: login, clip_limit: CLIPS, normalize_audio: false });
      await api.downloads.start({ name: login });
      let entry: StatusEntry | undefined;
      for (;;) {
        peakRunning = Math.max(peakRunning, renderSlotUsage().running);
        entry = (await api.downloads.status())[login];
        if (entry && !['downloading', 'stopping'].includes(entry.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (entry.status !== 'completed' || entry.clips_downloaded !== CLIPS) throw new Error(`the run ended ${entry.status} with ${entry.clips_downloaded} clips: ${entry.error}`);
    },
  };
}

interface Result {
  variant: Variant;
  wall: number[];
  cpu: number[];
}

async function measure(variants: Variant[], afterRound: (results: Result[], rounds: number) => Promise<void>): Promise<Result[]> {
  const results = variants.map((variant): Result => ({ variant, wall: [], cpu: [] }));
  for (let round = 0; round < RUNS; round += 1) {
    for (const result of results) {
      const cpuBefore = cpuSecondsSoFar();
      const started = process.hrtime.bigint();
      await result.variant.work(round);
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = cpuSecondsSoFar() - cpuBefore;
      result.wall.push(wall);
      result.cpu.push(cpu);
      process.stdout.write(`  round ${round + 1}/${RUNS} ${result.variant.name}: ${wall.toFixed(1)} s wall, ${cpu.toFixed(0)} s CPU\n`);
    }
    // Written after every round, so a long measurement on a busy machine leaves figures behind.
    await afterRound(results, round + 1);
  }
  return results;
}

function report(info: ProbeResult, results: Result[], rounds: number, ffmpegVersion: string, machine: string): string {
  const plan = currentRenderPlan();
  const wallOf = (key: string) => median(results.find((result) => result.variant.key === key)!.wall);
  const bare = results.filter((result) => result.variant.bare);
  const best = bare.reduce((winner, result) => (median(result.wall) < median(winner.wall) ? result : winner));
  const app = wallOf('app');
  const old = wallOf('old');
  const cpuOf = (key: string) => median(results.find((result) => result.variant.key === key)!.cpu);
  const rows = results.map((result) => {
    const wall = median(result.wall);
    const mark = result === best ? ' **(best)**' : '';
    return `| ${result.variant.name}${mark} | ${wall.toFixed(1)} s | ${(wall / median(best.wall)).toFixed(3)} | ${median(result.cpu).toFixed(0)} s | ${(median(result.cpu) / median(best.cpu)).toFixed(3)} | ${result.wall.map((s) => s.toFixed(1)).join(', ')} |`;
  });
  return [
    `Six clips, each the same ${info.width}x${info.height} ${info.fps.toFixed(0)} fps ${info.durationSec.toFixed(0)} s H.264 + AAC source (ffmpeg testsrc2 + sine, libx264 ultrafast, ` +
      `made once by the fake Twitch's generator and cached), rendered to 1080x1920 with the blur layout, libx264 veryfast CRF 21, no loudness normalisation. ` +
      `The bare renders use the engine's own command (clipArgs) with \`-threads\`/\`-filter_complex_threads\` t, k renders at a time; the app is a real download run ` +
      `(tRPC downloads.start, the graphile worker, download from the fake Twitch, probe, render, thumbnail, save) timed from the start call to its final status. ` +
      `Median of ${rounds} interleaved round(s); CPU = user + system seconds of ffmpeg and the bench process.`,
    '',
    `App plan on this machine: **${plan.renders} render(s) at once, ${plan.threads} thread(s) each when all are busy** (a render that starts while fewer run gets up to ${threadsFor(plan, 1)}; ${plan.cores} cores, WORKER_CONCURRENCY 5, FFMPEG_MAX_PARALLEL and FFMPEG_THREADS unset); the run processes 5 clips at once, and those beyond the render slots show "Waiting to render" until one is free. Peak renders running at once seen during the app's runs: ${peakRunning}.`,
    '',
    '| schedule | wall (median) | wall / best bare | CPU (median) | CPU / best bare | wall per round |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `- app / best bare schedule (${best.variant.name}): **${(app / median(best.wall)).toFixed(3)}** wall (goal ≤ 1.1), ${(cpuOf('app') / median(best.cpu)).toFixed(3)} CPU`,
    `- old behaviour (5 at once, ffmpeg's own threads) / best bare: **${(old / median(best.wall)).toFixed(3)}**; the planned app takes ${Math.abs(100 * (1 - app / old)).toFixed(0)}% ${app < old ? 'less' : 'more'} wall time and ${Math.abs(100 * (1 - cpuOf('app') / cpuOf('old'))).toFixed(0)}% ${cpuOf('app') < cpuOf('old') ? 'less' : 'more'} CPU than the old schedule`,
    '',
    'On a machine shared with other work (see the load average below), wall times carry the neighbours\' load, and a',
    'schedule with more runnable threads (the old one: five ffmpegs with all their threads) also takes a larger share',
    'of a contended CPU from them; CPU seconds show the work each schedule needs whatever the neighbours do.',
    '',
    'Machine:',
    machine,
    `- ffmpeg: ${ffmpegVersion}`,
    '- GPU: none on this machine, so no NVENC/QSV/VA-API figures (FFMPEG_ENCODER=auto falls back to libx264 here; see README "Rendering on many cores / GPUs").',
    '',
    'Re-run: `npm run bench:parallel` (BENCH_RUNS=3 for more rounds; TEST_DATABASE_URL or BENCH_DATABASE_URL for a PostgreSQL server, else the embedded one). Outputs stay in bench/out/parallel/ (git-ignored).',
  ].join('\n');
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  console.log('Starting the fake Twitch (it makes the 30 s 1920x1080 60 fps source once)…');
  const fake = await startFakeTwitch({ media: SOURCE_SPEC });
  const app = await startAppRun(fake);
  try {
    const { ffmpeg, ffprobe } = app.deps.media;
    const info = await probe(ffprobe, fake.mediaPath);
    console.log(`Source ${info.width}x${info.height} ${info.fps} fps, ${info.durationSec} s; ${CORES} cores; ${RUNS} rounds.`);
    const variants: Variant[] = [appVariant(fake, app)];
    for (let k = 1; k <= CORES; k += 1) {
      const threads = Math.max(1, Math.floor(CORES / k));
      variants.push(bareVariant(ffmpeg, fake.mediaPath, info, k, { encoder: ENCODERS.libx264, threads }, `bare-k${k}`, `bare ffmpeg, ${k} at once, ${threads} thread(s) each`, true));
    }
    variants.push(bareVariant(ffmpeg, fake.mediaPath, info, 5, undefined, 'old', 'old behaviour: bare ffmpeg, 5 at once, ffmpeg\'s own threads', false));
    const { stdout: version } = await execFileAsync(ffmpeg, ['-version']);
    await measure(variants, async (results, rounds) => {
      const load = os.loadavg().map((value) => value.toFixed(1)).join(', ');
      const table = report(info, results, rounds, version.split('\n')[0] ?? 'unknown', await machineDescription([databaseDescription(), `Load average when written (1, 5, 15 min): ${load}; the machine is shared`]));
      console.log(`\n${table}\n`);
      await writeSection('Parallel renders', table);
    });
  } finally {
    await app.stop();
    await fake.close();
  }
}

await main();
