// `npm run bench:pipeline`: one clip's whole way from "found" (the download run picks it) to "ready
// in the review inbox" (GET /api/review lists it), through the real app: tRPC downloads.start, the
// graphile worker, the fake Twitch serving a 1080p60 source with a camera overlay, camera detection
// (layout `auto`), transcription through the fake OpenAI-compatible server, the heaviest look
// (punch captions, suggested hook, logo), render, thumbnail, describe and save, timed per stage —
// against the sum of the same stages run bare (the same bytes over HTTP, the same ffmpeg and ffprobe
// commands, the same transcription request, the same row inserted). Interleaved rounds; writes
// docs/benchmarks.md ("Clip pipeline"). BENCH_RUNS sets the rounds (default 3), BENCH_SECONDS the
// source's length (default 30, 30 to 60 makes sense).
// Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the embedded PostgreSQL (bench/out/pg-data).
import childProcess, { execFile, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Clip, PublicUser, StatusEntry } from '@clipshift/shared';
import { startWorker } from '../server/src/app/jobs.ts';
import { createSession } from '../server/src/domains/auth/service.ts';
import type { AppDeps } from '../server/src/domains/deps.ts';
import { CLIP_FILES } from '../server/src/domains/clips/files.ts';
import { probe, resolveMediaBinaries } from '../server/src/engines/media/index.ts';
import { wavFile } from '../server/src/engines/providers/transcription/audio.ts';
import type { TwitchClient } from '../server/src/engines/providers/twitch/index.ts';
import type { Transcriber } from '../server/src/engines/providers/transcription/index.ts';
import type { MediaStorage } from '../server/src/platform/storage/index.ts';
import { migrateWorkerSchema } from '../server/src/jobs/migrate.ts';
import { createDatabase } from '../server/src/platform/db/database.ts';
import { migrate } from '../server/src/platform/db/migrate.ts';
import { createLogger } from '../server/src/platform/logger.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../tests/fakes/openai/index.ts';
import { startFakeTwitch, type FakeTwitch } from '../tests/fakes/twitch/index.ts';
import { callerFor, createTestApp, startTestServer, type TestApp, type TestServer } from '../tests/helpers/app.ts';
import { FULL_HD_SOURCE, sourceGraph, type SourceSpec } from '../tests/helpers/camera-sources.ts';
import { MATERIALS } from '../tests/helpers/loudness.ts';
import { databaseDescription, freshDatabase, serverUrl, withDatabase } from './lib/database.ts';
import { cpuSecondsSoFar } from './lib/ffmpeg.ts';
import { machineDescription, median, writeSection } from './lib/report.ts';

const execFileAsync = promisify(execFile);
const OUT = path.resolve(import.meta.dirname, 'out/pipeline');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const SECONDS = Math.max(5, Number(process.env.BENCH_SECONDS ?? 30));
/** Twitch's 1080p60 with a 2 s keyframe interval, a camera in the bottom-right corner with a border. */
const SOURCE_SPEC: SourceSpec = { ...FULL_HD_SOURCE, name: `pipeline-1080p60-${SECONDS}s`, seconds: SECONDS, rate: 60, gop: 120 };
const SOURCE = path.join(OUT, `${SOURCE_SPEC.name}.mp4`);
const LOGO = path.join(OUT, 'logo-512.png');
/**
 * How often GET /api/review is asked before the clip's thumbnail exists (it cannot be ready before,
 * and each request is CPU taken from the app) and after. The thumbnail's end wakes the wait at once.
 */
const SLOW_POLL_MS = 2000;
const FAST_POLL_MS = 10;
const READY_TIMEOUT_MS = 15 * 60_000;
const logger = createLogger('silent');
/** A process of the thumbnail stage names the thumbnail file (its temporary name starts with it). */
const isThumbnail = (run: { args: readonly string[] }) => run.args.some((arg) => arg.includes(CLIP_FILES.thumbnail));

const STAGES = ['download', 'probe', 'detection', 'transcription', 'describe', 'captions', 'render', 'thumbnail', 'save'] as const;
type Stage = (typeof STAGES)[number];

/** What the bare side does for each stage: the same external work, nothing of the app around it. */
const BARE_WORK: Record<Stage, string> = {
  download: 'one GET of the same CDN URL into a file (curl; node:http where curl is missing)',
  probe: "the app's ffprobe command",
  detection: "the app's frame-sampling ffmpeg command (one decode, frames read from its stdout)",
  transcription: "the app's PCM-decoding ffmpeg command, then the same multipart POST to the fake server",
  describe: 'nothing: the built-in generator is the app\'s own work (no LLM configured)',
  captions: 'writing the same ASS file',
  render: "the app's ffmpeg commands (loudness measure, audio trial(s), the encode, the output's loudness) and ffprobe of the output",
  thumbnail: "the app's thumbnail ffmpeg command",
  save: 'three renames into a storage folder and one INSERT of the same clips row',
};

// ---------------------------------------------------------------------------------------------
// Watching the app from outside: its child processes and the providers it is given.
// ---------------------------------------------------------------------------------------------

interface ProcessRun {
  binary: string;
  args: string[];
  start: Moment;
  /** Once it closed (its CPU counts from then on: a child's CPU is added when it is reaped). */
  end: Moment | null;
}

/** A moment of a round: wall milliseconds and CPU seconds (this process and its reaped children) so far. */
interface Moment {
  t: number;
  cpu: number;
}

const momentNow = (): Moment => ({ t: performance.now(), cpu: cpuSecondsSoFar() });

/** What one app round saw: the moments the pipeline passed, and every ffmpeg/ffprobe it ran. */
class Recording {
  readonly marks = new Map<string, Moment>();
  readonly processes: ProcessRun[] = [];
  workDir: string | null = null;
  sourceUrl: string | null = null;
  ass: { path: string; bytes: Buffer } | null = null;
  /** Settles when the thumbnail's ffmpeg has ended: the inbox is asked often from then on. */
  readonly thumbnailDone: Promise<void>;
  thumbnailEnded: () => void = () => {};

  constructor() {
    this.thumbnailDone = new Promise((resolve) => {
      this.thumbnailEnded = resolve;
    });
  }

  mark(name: string): void {
    if (!this.marks.has(name)) this.marks.set(name, momentNow());
  }

  moment(name: string): Moment {
    const value = this.marks.get(name);
    if (value === undefined) throw new Error(`the pipeline never reached "${name}"`);
    return value;
  }

  at(name: string): number {
    return this.moment(name).t;
  }

  /** The processes that worked on this clip's files (one-time set-up such as listing encoders is not the clip's). */
  clipProcesses(): ProcessRun[] {
    const dir = this.workDir;
    return dir ? this.processes.filter((run) => run.args.some((arg) => arg.includes(dir))) : [];
  }
}

let recording: Recording | null = null;

/**
 * Every child process the app spawns is recorded while a round runs: node:child_process's spawn is
 * wrapped and the wrapper published to ES module imports (syncBuiltinESMExports), so the app's own
 * code runs unchanged. setpriv (the app's parent-death guard) is looked through.
 */
function watchChildProcesses(): void {
  const original = childProcess.spawn;
  const watched = (...call: Parameters<typeof original>): ChildProcess => {
    const child = original(...call);
    const round = recording;
    if (!round) return child;
    const [command, rawArgs] = call as unknown as [string, readonly string[] | undefined];
    let args = [...(rawArgs ?? [])];
    let binary = command;
    if (path.basename(command) === 'setpriv') {
      const separator = args.indexOf('--');
      binary = args[separator + 1] ?? command;
      args = args.slice(separator + 2);
    }
    const run: ProcessRun = { binary, args, start: momentNow(), end: null };
    round.processes.push(run);
    child.once('close', () => {
      run.end = momentNow();
      if (isThumbnail(run)) round.thumbnailEnded();
    });
    keepCaptions(round, args);
    return child;
  };
  childProcess.spawn = watched as typeof original;
  syncBuiltinESMExports();
}

/** The ASS file a render burns, read as the render starts (the work folder is gone once the clip is saved). */
function keepCaptions(round: Recording, args: readonly string[]): void {
  if (round.ass) return;
  const graph = args[args.indexOf('-filter_complex') + 1];
  const file = graph && /ass=filename=([^:,;[\]]+\.ass)/.exec(graph)?.[1];
  if (file) round.ass = { path: file, bytes: readFileSync(file) };
}

/** The app's providers with the stage boundaries marked: what the worker is handed instead of the originals. */
function watchedDeps(deps: AppDeps): AppDeps {
  const twitch = deps.twitch!;
  const transcriber = deps.transcriber!;
  const watchedTwitch: TwitchClient = {
    ...twitch,
    resolveClipSource: async (slug, signal) => {
      recording?.mark('found');
      const source = await twitch.resolveClipSource(slug, signal);
      if (recording) recording.sourceUrl = source.url;
      return source;
    },
    downloadClip: async (url, destination, options) => {
      const result = await twitch.downloadClip(url, destination, options);
      if (recording) recording.workDir = path.dirname(destination);
      recording?.mark('downloaded');
      return result;
    },
  };
  const watchedTranscriber: Transcriber = {
    ...transcriber,
    transcribe: async (input) => {
      recording?.mark('transcribe-start');
      const transcript = await transcriber.transcribe(input);
      recording?.mark('transcribe-end');
      return transcript;
    },
  };
  const storage = deps.storage;
  const watchedStorage = new Proxy(storage, {
    get(target, property, receiver) {
      if (property !== 'localCopy') return Reflect.get(target, property, receiver) as unknown;
      // The logo's local copy is the first thing after describing: the captions are written next.
      const localCopy: MediaStorage['localCopy'] = (key, scratch, signal) => {
        recording?.mark('logo');
        return target.localCopy(key, scratch, signal);
      };
      return localCopy;
    },
  });
  return { ...deps, twitch: watchedTwitch, transcriber: watchedTranscriber, storage: watchedStorage };
}

// ---------------------------------------------------------------------------------------------
// The source, the logo and the app.
// ---------------------------------------------------------------------------------------------

/**
 * Made once in bench/out/pipeline/: the camera-detection set's 1080p source (testsrc2 gameplay with
 * grain, a webcam room with a moving person and a border in the bottom-right corner) at 60 fps, with
 * the loudness tests' speech-like audio, encoded as Twitch serves clips (H.264 at about 6 Mbit/s,
 * 2 s GOP, AAC 160k).
 */
async function makeSource(ffmpeg: string): Promise<void> {
  if (existsSync(SOURCE)) return;
  console.log(`Making the ${SECONDS} s 1920x1080 60 fps source with a camera overlay (a few minutes, once)…`);
  await mkdir(OUT, { recursive: true });
  const partial = `${SOURCE}.part.mp4`;
  await execFileAsync(ffmpeg, [
    '-y', '-hide_banner', '-loglevel', 'error',
    '-f', 'lavfi', '-i', `aevalsrc='${MATERIALS.speech}':s=48000:d=${SECONDS},pan=stereo|c0=c0|c1=c0,volume=-12dB`,
    '-filter_complex', sourceGraph(SOURCE_SPEC), '-map', '[v]', '-map', '0:a', '-t', String(SECONDS),
    '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '6M', '-maxrate', '6M', '-bufsize', '12M', '-g', '120', '-keyint_min', '120', '-sc_threshold', '0', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-movflags', '+faststart', partial,
  ]);
  await rename(partial, SOURCE);
}

async function makeLogo(ffmpeg: string): Promise<void> {
  if (existsSync(LOGO)) return;
  await execFileAsync(ffmpeg, [
    '-y', '-hide_banner', '-loglevel', 'error',
    '-f', 'lavfi', '-i', 'color=c=0xE0206000:size=512x512,format=rgba,drawbox=x=64:y=64:w=384:h=384:color=0xE02060FF:t=fill,drawbox=x=160:y=160:w=192:h=192:color=0xFFFFFFFF:t=fill',
    '-frames:v', '1', LOGO,
  ]);
}

interface Bench {
  twitch: FakeTwitch;
  openai: FakeOpenAi;
  app: TestApp;
  server: TestServer;
  user: PublicUser;
  cookie: string;
  /** A plain connection for the bare INSERT, the way a script would write the row. */
  bareDb: pg.Client;
  stop: () => Promise<void>;
}

/** The app as the tests wire it (createTestApp, a real worker) on a database of its own. */
async function startBench(): Promise<Bench> {
  const server = await serverUrl(logger);
  const url = await freshDatabase(withDatabase(server.url, 'postgres'), 'clipshift_bench_pipeline');
  const handle = createDatabase(url, 10);
  await migrate(handle.pool);
  await migrateWorkerSchema(handle.pool, logger);
  const twitch = await startFakeTwitch({ mediaFile: SOURCE });
  const openai = await startFakeOpenAi({ scenario: 'commentary', apiKey: 'sk-bench' });
  const dataDir = path.join(OUT, 'app-data');
  await rm(dataDir, { recursive: true, force: true });
  const app = await createTestApp(
    { ...twitch.env, TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: openai.url, TRANSCRIBE_API_KEY: 'sk-bench', WHISPER_MODEL: 'whisper-1', DATA_DIR: dataDir },
    { database: { ...handle, url, name: 'clipshift_bench_pipeline' } },
  );
  const httpServer = await startTestServer(app.deps);
  const worker = await startWorker(watchedDeps(app.deps), handle.pool, 3);
  const user = await app.deps.db.insertInto('users').values({ username: 'bench', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
  const session = await createSession(app.deps.db, user.id);
  const bareDb = new pg.Client({ connectionString: url });
  await bareDb.connect();
  return {
    twitch,
    openai,
    app,
    server: httpServer,
    user,
    cookie: `clipshift_session=${session.token}`,
    bareDb,
    stop: async () => {
      await bareDb.end();
      await worker.stop();
      await httpServer.close();
      await app.close();
      await handle.close();
      await openai.close();
      await twitch.close();
      await server.stop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One app round: a streamer with the automatic look, a run, the clip in the inbox.
// ---------------------------------------------------------------------------------------------

/** A stretch of a round: wall milliseconds and CPU seconds. */
interface Span {
  wall: number;
  cpu: number;
}

const spanBetween = (from: Moment, to: Moment): Span => ({ wall: to.t - from.t, cpu: to.cpu - from.cpu });

interface AppRound {
  stages: Record<Stage, Span>;
  /** downloads.start to "found": the job's pick-up, Twitch's listing and the games. */
  startToFound: Span;
  foundToReady: Span;
  recording: Recording;
  clipId: string;
  /** The saved clips row, as JSON, for the bare INSERT. */
  row: Record<string, unknown>;
  checks: { layout: string; subtitled: boolean; hook: string | null; confidence: number | null; facecam: unknown; words: number };
}

const api = (bench: Bench) => callerFor(bench.app.deps, { user: bench.user }).api;

async function createStreamer(bench: Bench, login: string): Promise<void> {
  await api(bench).streamers.create({
    name: login,
    clip_limit: 1,
    auto_subtitle: true,
    auto_publish: true,
    publish_mode: 'review',
    layout: 'auto',
    caption_style: { preset: 'punch' },
    hook: { text: 'Watch this', seconds: 3 },
    brand: { logo: true, position: 'top-right', opacity: 0.85, outro_seconds: 0 },
  });
  const put = await fetch(`${bench.server.baseUrl}/api/streamers/${login}/logo`, { method: 'PUT', headers: { cookie: bench.cookie, 'content-type': 'image/png' }, body: new Uint8Array(await readFile(LOGO)) });
  if (!put.ok) throw new Error(`the logo upload answered ${put.status}: ${await put.text()}`);
}

/** Asks GET /api/review until the clip is listed: seldom while it renders, every few ms once its thumbnail exists. */
async function readyAt(bench: Bench, clipId: string, round: Recording): Promise<Moment> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  for (;;) {
    const response = await fetch(`${bench.server.baseUrl}/api/review`, { headers: { cookie: bench.cookie } });
    if (!response.ok) throw new Error(`GET /api/review answered ${response.status}: ${await response.text()}`);
    const listed = (await response.json()) as Clip[];
    if (listed.some((clip) => clip.clip_id === clipId)) return momentNow();
    if (performance.now() > deadline) throw new Error('the clip never reached the review inbox');
    const thumbnailDone = round.processes.some((run) => run.end !== null && isThumbnail(run));
    if (thumbnailDone) await new Promise((resolve) => setTimeout(resolve, FAST_POLL_MS));
    else await Promise.race([new Promise((resolve) => setTimeout(resolve, SLOW_POLL_MS)), round.thumbnailDone]);
  }
}

async function runEnded(bench: Bench, login: string): Promise<StatusEntry> {
  for (;;) {
    const entry = (await api(bench).downloads.status())[login];
    if (entry && !['downloading', 'stopping'].includes(entry.status)) return entry;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function appRound(bench: Bench, round: number): Promise<AppRound> {
  const login = `bench_pipeline_${round}`;
  bench.twitch.addBroadcaster({ login });
  const clip = bench.twitch.addClip({ broadcaster: login, title: 'No way, that flick was insane', view_count: 5000, duration: SECONDS });
  await createStreamer(bench, login);

  const watching = new Recording();
  recording = watching;
  const started = momentNow();
  await api(bench).downloads.start({ name: login });
  const ready = await readyAt(bench, clip.id, watching);
  recording = null;

  const entry = await runEnded(bench, login);
  if (entry.status !== 'completed' || entry.clips_downloaded !== 1) throw new Error(`the run ended ${entry.status} with ${entry.clips_downloaded} clips: ${entry.error}`);
  const saved = await bench.bareDb.query<{ row: Record<string, unknown> }>('select to_jsonb(c) as row from clips c where c.clip_id = $1', [clip.id]);
  const row = saved.rows[0]!.row;
  const detected = row.detected as { confidence?: number; facecam?: unknown } | null;
  const words = Array.isArray(row.transcript_words) ? row.transcript_words.length : 0;
  const checks = { layout: String(row.layout), subtitled: row.subtitled === true, hook: (row.hook_suggestion as string | null) ?? null, confidence: detected?.confidence ?? null, facecam: detected?.facecam ?? null, words };
  if (checks.layout !== 'split' || !checks.subtitled) throw new Error(`the clip is not the automatic look (layout ${checks.layout}, subtitled ${checks.subtitled}): the figures would not be representative`);
  // Out of the inbox, so the next round's polls read a list of one.
  await api(bench).review.reject({ clip_id: clip.id });

  const found = watching.moment('found');
  return {
    stages: stagesOf(watching, ready),
    startToFound: spanBetween(started, found),
    foundToReady: spanBetween(found, ready),
    recording: watching,
    clipId: clip.id,
    row,
    checks,
  };
}

/** The pipeline cut at its boundaries: contiguous, so the stages add up to "found → ready" exactly. */
function stagesOf(round: Recording, ready: Moment): Record<Stage, Span> {
  const processes = round.clipProcesses();
  const downloaded = round.moment('downloaded');
  const probeEnd = processes.find((run) => run.start.t >= downloaded.t)?.end;
  const logo = round.moment('logo');
  // Any process: the render may first ask ffmpeg which encoders it has (once per app process).
  const renderStart = round.processes.find((run) => run.start.t >= logo.t)?.start;
  const thumbnail = processes.find(isThumbnail);
  if (!probeEnd || !renderStart || !thumbnail?.end) throw new Error('the pipeline ran other processes than expected');
  const bounds: [Stage, Moment, Moment][] = [
    ['download', round.moment('found'), downloaded],
    ['probe', downloaded, probeEnd],
    ['detection', probeEnd, round.moment('transcribe-start')],
    ['transcription', round.moment('transcribe-start'), round.moment('transcribe-end')],
    ['describe', round.moment('transcribe-end'), logo],
    ['captions', logo, renderStart],
    ['render', renderStart, thumbnail.start],
    ['thumbnail', thumbnail.start, thumbnail.end],
    ['save', thumbnail.end, ready],
  ];
  return Object.fromEntries(bounds.map(([stage, from, to]) => [stage, spanBetween(from, to)])) as Record<Stage, Span>;
}

/** Which stage each of the clip's processes ran in (by when it started). */
function stageOfProcess(round: Recording, run: ProcessRun): Stage {
  if (run.start.t < round.at('transcribe-start')) {
    const firstAfterDownload = round.clipProcesses().find((other) => other.start.t >= round.at('downloaded'));
    return run === firstAfterDownload ? 'probe' : 'detection';
  }
  if (run.start.t < round.at('transcribe-end')) return 'transcription';
  return isThumbnail(run) ? 'thumbnail' : 'render';
}

// ---------------------------------------------------------------------------------------------
// One bare round: the same work with nothing of the app around it.
// ---------------------------------------------------------------------------------------------

interface BareRound {
  stages: Record<Stage, Span>;
  total: Span;
}

/** Runs a command to its end, stdout read in full (and returned), stderr's tail kept for the error. */
function runCommand(binary: string, args: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = childProcess.spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-2000);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${path.basename(binary)} exited ${code}: ${err}`))));
  });
}

/** ffmpeg or ffprobe as the app ran it, with the app's work folder swapped for the bare one. */
async function replay(run: ProcessRun, from: string, to: string): Promise<Buffer> {
  const args = run.args.map((arg) => arg.split(from).join(to));
  const stdout = await runCommand(run.binary, args);
  await settleOutput(args.at(-1)!);
  return stdout;
}

/** An output written under the app's temporary name is renamed into place, as the app does. */
async function settleOutput(output: string): Promise<void> {
  const match = /^(.+)\.tmp-[0-9a-f]+(\.[^.]+)$/.exec(path.basename(output));
  if (match && match[1]!.endsWith(match[2]!)) await rename(output, path.join(path.dirname(output), match[1]!));
}

const CURL = ['/usr/bin/curl', '/bin/curl', '/usr/local/bin/curl'].find((file) => existsSync(file)) ?? null;

/** curl where the machine has it, else one node:http GET piped into the file. */
function bareDownload(url: string, file: string): Promise<void> {
  if (CURL) return runCommand(CURL, ['--silent', '--show-error', '--fail', '--output', file, url]).then(() => undefined);
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new Error(`the CDN answered ${response.statusCode}`));
          return;
        }
        pipeline(response, createWriteStream(file)).then(resolve, reject);
      })
      .on('error', reject);
  });
}

async function transcriptionRequest(bench: Bench, pcm: Buffer): Promise<void> {
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2));
  const form = new FormData();
  form.append('file', new Blob([wavFile(samples)], { type: 'audio/wav' }), 'audio.wav');
  form.append('model', 'whisper-1');
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'word');
  form.append('timestamp_granularities[]', 'segment');
  const response = await fetch(`${bench.openai.url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: 'Bearer sk-bench' }, body: form });
  if (!response.ok) throw new Error(`the transcription server answered ${response.status}`);
  await response.json();
}

async function bareRound(bench: Bench, app: AppRound, round: number): Promise<BareRound> {
  const rec = app.recording;
  const workDir = rec.workDir!;
  const bareDir = path.join(OUT, 'bare', 'work');
  const storageDir = path.join(OUT, 'bare', 'storage', String(round));
  await rm(path.join(OUT, 'bare'), { recursive: true, force: true });
  await mkdir(bareDir, { recursive: true });
  const row = { ...app.row, id: randomUUID(), clip_id: `${app.clipId}-bare`, files_dir: storageDir };
  const processes = rec.clipProcesses();
  const inStage = (stage: Stage) => processes.filter((run) => stageOfProcess(rec, run) === stage);
  const stages = Object.fromEntries(STAGES.map((stage) => [stage, { wall: 0, cpu: 0 }])) as Record<Stage, Span>;
  const timed = async (stage: Stage, work: () => Promise<void>) => {
    const before = momentNow();
    await work();
    const span = spanBetween(before, momentNow());
    stages[stage] = { wall: stages[stage].wall + span.wall, cpu: stages[stage].cpu + span.cpu };
  };

  const started = momentNow();
  await timed('download', () => bareDownload(rec.sourceUrl!, path.join(bareDir, CLIP_FILES.source)));
  for (const stage of ['probe', 'detection'] as const) {
    for (const run of inStage(stage)) await timed(stage, async () => void (await replay(run, workDir, bareDir)));
  }
  await timed('transcription', async () => {
    const [decode] = inStage('transcription');
    await transcriptionRequest(bench, await replay(decode!, workDir, bareDir));
  });
  await timed('captions', () => writeFile(rec.ass!.path.split(workDir).join(bareDir), rec.ass!.bytes));
  for (const stage of ['render', 'thumbnail'] as const) {
    for (const run of inStage(stage)) await timed(stage, async () => void (await replay(run, workDir, bareDir)));
  }
  await timed('save', async () => {
    await mkdir(storageDir, { recursive: true });
    for (const file of Object.values(CLIP_FILES)) await rename(path.join(bareDir, file), path.join(storageDir, file));
    await bench.bareDb.query('insert into clips select * from jsonb_populate_record(null::clips, $1::jsonb)', [JSON.stringify(row)]);
  });
  const total = spanBetween(started, momentNow());
  await bench.bareDb.query('delete from clips where id = $1', [row.id]);
  return { stages, total };
}

// ---------------------------------------------------------------------------------------------
// Report.
// ---------------------------------------------------------------------------------------------

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const stageMs = (ms: number) => (Math.abs(ms) >= 1000 ? seconds(ms) : `${ms.toFixed(0)} ms`);
const cpuText = (sec: number) => `${sec.toFixed(2)} s`;
const ratio = (app: number, bare: number) => (bare > 0 ? (app / bare).toFixed(3) : '—');
/** Under this a bare stage is a file write: its app / bare ratio would say nothing (app − bare does). */
const RATIO_FLOOR_MS = 10;

/** How far the slowest round lies above the fastest, as a share of the fastest ("—" for one round). */
function spread(values: readonly number[]): string {
  if (values.length < 2) return '—';
  const low = Math.min(...values);
  return `${(100 * (Math.max(...values) / low - 1)).toFixed(1)}%`;
}

function processLabel(run: ProcessRun): string {
  const text = run.args.join(' ');
  if (path.basename(run.binary).startsWith('ffprobe')) return 'ffprobe';
  if (text.includes('-noaccurate_seek')) return `ffmpeg frame samples (${run.args.filter((arg) => arg === '-noaccurate_seek').length} seeks)`;
  if (text.includes('pcm_s16le')) return 'ffmpeg PCM decode (16 kHz mono)';
  if (text.includes('ebur128')) return 'ffmpeg loudness measure (ebur128)';
  if (isThumbnail(run)) return 'ffmpeg thumbnail';
  if (/\.m4a$/.test(run.args.at(-1) ?? '')) return 'ffmpeg audio trial (gain/limiter)';
  if (text.includes('-filter_complex')) return 'ffmpeg encode (layout, captions, emoji, hook, logo, loudness)';
  return `ffmpeg ${run.args.slice(0, 4).join(' ')}`;
}

function stageRow(stage: Stage, apps: readonly AppRound[], bares: readonly BareRound[]): string {
  const appWall = median(apps.map((round) => round.stages[stage].wall));
  const bareWall = median(bares.map((round) => round.stages[stage].wall));
  const appCpu = median(apps.map((round) => round.stages[stage].cpu));
  const bareCpu = median(bares.map((round) => round.stages[stage].cpu));
  return `| ${stage} | ${stageMs(appWall)} | ${stageMs(bareWall)} | ${stageMs(appWall - bareWall)} | ${bareWall >= RATIO_FLOOR_MS ? ratio(appWall, bareWall) : '—'} | ${cpuText(appCpu)} | ${cpuText(bareCpu)} | ${BARE_WORK[stage]} |`;
}

function report(apps: AppRound[], bares: BareRound[], sourceLine: string, machine: string): string {
  const appTotals = apps.map((round) => round.foundToReady.wall);
  const bareTotals = bares.map((round) => round.total.wall);
  const appCpus = apps.map((round) => round.foundToReady.cpu);
  const bareCpus = bares.map((round) => round.total.cpu);
  const [appTotal, bareTotal, appCpu, bareCpu] = [appTotals, bareTotals, appCpus, bareCpus].map(median) as [number, number, number, number];
  const middleIndex = appTotals.indexOf([...appTotals].sort((a, b) => a - b)[Math.floor((appTotals.length - 1) / 2)]!);
  const middle = apps[middleIndex]!;
  const processRows = middle.recording.clipProcesses().map((run) => `| ${stageOfProcess(middle.recording, run)} | ${processLabel(run)} | ${stageMs((run.end?.t ?? run.start.t) - run.start.t)} |`);
  const checks = middle.checks;
  const perRound = (values: readonly number[]) => values.map((ms) => (ms / 1000).toFixed(2)).join(', ');
  const wallRatios = apps.map((round, index) => round.foundToReady.wall / bares[index]!.total.wall);
  const cpuRatios = apps.map((round, index) => round.foundToReady.cpu / bares[index]!.total.cpu);
  return [
    `${sourceLine} The app: createTestApp with a graphile worker (concurrency 3), the Express app on loopback, a fresh PostgreSQL database, ` +
      'the fake Twitch serving the source and the fake OpenAI-compatible server transcribing (`commentary`: a word every 0.4 s over the whole clip). ' +
      'The streamer: layout `auto` (camera detection), auto_subtitle, captions preset `punch` (bounce, keyword emphasis, auto emoji as colour pictures), ' +
      'hook on (the suggested hook titles the clip), a 512x512 PNG logo top-right at 0.85, loudness normalisation (the default), auto_publish with publish_mode `review`; ' +
      'no description model, so describing is the built-in generator.',
    '',
    `What each round made: layout **${checks.layout}** (camera found at confidence ${checks.confidence ?? '—'}, facecam ${JSON.stringify(checks.facecam)}), ` +
      `${checks.words} words burned in, hook "${checks.hook ?? '—'}".`,
    '',
    'Timing: "found" is the run picking the clip (its first request for the clip\'s source); "ready" is the first GET /api/review that lists it ' +
      `(asked every ${FAST_POLL_MS} ms from the moment its thumbnail's ffmpeg ends, the last step before saving; before that only every ${SLOW_POLL_MS / 1000} s, so that the asking takes no CPU from the app). Stages are cut at the pipeline's ` +
      'own boundaries, seen from outside the app: the providers the worker is handed (Twitch client, transcriber, storage) are wrapped, and every ' +
      'ffmpeg/ffprobe the app starts is recorded with its arguments (no timing code in the app). A stage runs from the end of the one before it, so the ' +
      'app\'s glue between steps (database reads and writes, progress, planning) falls in the stage it precedes and the stages add up to the total. ' +
      `The bare side replays, right after each app round, the same work with nothing around it (last column). Median of ${apps.length} round(s), app then bare in each. ` +
      'CPU = user + system seconds of this process (the app, its worker, the fakes and the bench live in it) and its children, a child counted when it ends; ' +
      'PostgreSQL\'s own CPU is not counted. On a shared machine wall times carry the neighbours\' load; CPU seconds much less.',
    '',
    '| stage | app wall (median) | bare wall (median) | app − bare | app / bare | app CPU | bare CPU | bare equivalent |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...STAGES.map((stage) => stageRow(stage, apps, bares)),
    `| **found → ready** | **${seconds(appTotal)}** | **${seconds(bareTotal)}** | ${seconds(appTotal - bareTotal)} | ${ratio(appTotal, bareTotal)} | ${cpuText(appCpu)} | ${cpuText(bareCpu)} | the sum of the above |`,
    '',
    `- found → ready, app / bare round by round (each round's app and bare runs share that round's load): wall ${wallRatios.map((value) => value.toFixed(3)).join(', ')}, ` +
      `median **${median(wallRatios).toFixed(3)}**; CPU ${cpuRatios.map((value) => value.toFixed(3)).join(', ')}, median **${median(cpuRatios).toFixed(3)}**. ` +
      `The table's ${ratio(appTotal, bareTotal)} divides medians taken from different rounds.`,
    `- found → ready per round: app ${perRound(appTotals)} s (spread ${spread(appTotals)}); bare ${perRound(bareTotals)} s (spread ${spread(bareTotals)})`,
    `- downloads.start → found (the job picked up, Twitch's clip listing and games, the selection rules): ${stageMs(median(apps.map((round) => round.startToFound.wall)))} median; ` +
      `downloads.start → ready ${seconds(median(apps.map((round) => round.startToFound.wall + round.foundToReady.wall)))}`,
    '',
    `<details><summary>The app's processes for the clip (round ${middleIndex + 1}, the median one): ${middle.recording.clipProcesses().length}</summary>`,
    '',
    '| stage | process | wall |',
    '| --- | --- | --- |',
    ...processRows,
    '',
    '</details>',
    '',
    'Machine:',
    machine,
    '',
    'Re-run: `npm run bench:pipeline` (BENCH_RUNS=5 for more rounds, BENCH_SECONDS=60 for a longer source; TEST_DATABASE_URL or BENCH_DATABASE_URL for a PostgreSQL server, else the embedded one). The source stays in bench/out/pipeline/ (git-ignored).',
  ].join('\n');
}

async function main(): Promise<void> {
  const { ffmpeg } = resolveMediaBinaries(process.env);
  await makeSource(ffmpeg);
  await makeLogo(ffmpeg);
  watchChildProcesses();
  const bench = await startBench();
  try {
    const info = await probe(bench.app.deps.media.ffprobe, SOURCE);
    const sourceLine =
      `Source: ${info.width}x${info.height} ${info.fps.toFixed(0)} fps H.264 + AAC, ${info.durationSec.toFixed(1)} s, ${((info.bitRate ?? 0) / 1e6).toFixed(1)} Mbit/s, 2 s GOP ` +
      '(the camera-detection set\'s 1080p source: testsrc2 gameplay with grain and a webcam with a bordered frame in the bottom-right corner; speech-like audio; made once in bench/out/pipeline/).';
    const { stdout: version } = await execFileAsync(bench.app.deps.media.ffmpeg, ['-version']);
    console.log(`Source ${info.width}x${info.height} ${info.fps} fps, ${info.durationSec} s; ${os.cpus().length} cores; ${RUNS} rounds.`);
    const apps: AppRound[] = [];
    const bares: BareRound[] = [];
    const line = (stages: Record<Stage, Span>) => STAGES.map((stage) => `${stage} ${stageMs(stages[stage].wall)}`).join(', ');
    for (let round = 0; round < RUNS; round += 1) {
      const app = await appRound(bench, round);
      apps.push(app);
      console.log(`  round ${round + 1}/${RUNS} app: found → ready ${seconds(app.foundToReady.wall)}, ${app.foundToReady.cpu.toFixed(1)} s CPU (${line(app.stages)})`);
      const bare = await bareRound(bench, app, round);
      bares.push(bare);
      console.log(`  round ${round + 1}/${RUNS} bare: ${seconds(bare.total.wall)}, ${bare.total.cpu.toFixed(1)} s CPU (${line(bare.stages)})`);
      const load = os.loadavg().map((value) => value.toFixed(1)).join(', ');
      const table = report(apps, bares, sourceLine, await machineDescription([databaseDescription(), `Load average when written (1, 5, 15 min): ${load}; the machine is shared`, `ffmpeg: ${version.split('\n')[0] ?? 'unknown'}`]));
      // Written after every round, so a long measurement on a busy machine leaves figures behind.
      if (round === RUNS - 1) console.log(`\n${table}\n`);
      await writeSection('Clip pipeline', table);
    }
  } finally {
    await bench.stop();
  }
}

await main();
