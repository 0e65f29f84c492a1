/**
 * `npm run bench:tests -- [--runs N] [--load] [--keep]`: the README's test command in a fresh clone of
 * HEAD, as CI and a new contributor run it (no TEST_DATABASE_URL, no CHROMIUM_PATH: the embedded
 * PostgreSQL and the Chromium the tests find themselves), N times in a row. With --load two busy
 * loops (one per core) run beside it the whole time, as a loaded machine would. Each run's wall
 * time, CPU seconds of the test tree, tests passed/failed and the slowest files go to
 * docs/benchmarks.md ("Test suite"), appended to the runs already there for the same commit.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childCpuSeconds } from './lib/ffmpeg.ts';
import { BENCHMARKS_DOC, machineDescription, writeSection } from './lib/report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECTION = 'Test suite';
const RESULTS_MARK = '<!-- test-suite-runs -->';

interface RunFigures {
  commit: string;
  loaded: boolean;
  wallSeconds: number;
  cpuSeconds: number;
  passed: number;
  failed: number;
  files: number;
  slowest: { file: string; seconds: number }[];
  at: string;
}

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; startTime: number; endTime: number }[];
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function git(args: string[], cwd = ROOT): string {
  return spawnSync('git', args, { cwd, encoding: 'utf8' }).stdout.trim();
}

/** A busy loop per core, niced like any other program: the tests share the machine with them. */
function startLoad(): ChildProcess[] {
  return os.cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

function runSuite(clone: string, report: string): Promise<{ wallSeconds: number; cpuSeconds: number; code: number | null }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  delete env.TEST_DATABASE_URL;
  delete env.CHROMIUM_PATH;
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['test', '--', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: clone, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => resolve({ wallSeconds: (performance.now() - started) / 1000, cpuSeconds: childCpuSeconds() - cpuBefore, code }));
  });
}

function figuresOf(clone: string, report: string, commit: string, loaded: boolean, timing: { wallSeconds: number; cpuSeconds: number }): RunFigures {
  const json = JSON.parse(readFileSync(report, 'utf8')) as VitestJson;
  const files = json.testResults.map((result) => ({ file: path.relative(clone, result.name), seconds: (result.endTime - result.startTime) / 1000 }));
  files.sort((a, b) => b.seconds - a.seconds);
  return {
    commit,
    loaded,
    ...timing,
    passed: json.numPassedTests,
    failed: json.numFailedTests,
    files: files.length,
    slowest: files.slice(0, 5),
    at: new Date().toISOString(),
  };
}

function row(run: RunFigures): string {
  const slowest = run.slowest.map((entry) => `${entry.file} ${entry.seconds.toFixed(0)} s`).join(', ');
  return `| ${run.at.slice(0, 16).replace('T', ' ')} | ${run.commit} | ${run.loaded ? 'loaded (busy loop per core)' : 'quiet'} | **${run.wallSeconds.toFixed(0)} s** | ${run.cpuSeconds.toFixed(0)} s | ${run.passed} | ${run.failed} | ${slowest} |`;
}

/** The rows already written, so runs made one command at a time add up in one table. */
function earlierRows(): string[] {
  if (!existsSync(BENCHMARKS_DOC)) return [];
  const doc = readFileSync(BENCHMARKS_DOC, 'utf8');
  const section = doc.split(/^(?=## )/m).find((part) => part.startsWith(`## ${SECTION}\n`)) ?? '';
  const after = section.split(RESULTS_MARK)[1] ?? '';
  return after.split('\n').filter((line) => line.startsWith('| 20'));
}

async function writeReport(runs: RunFigures[]): Promise<void> {
  const rows = [...earlierRows(), ...runs.map(row)];
  const body = [
    '`npm run bench:tests -- --runs 3` (and `-- --load` for the loaded run): the README\'s `npm test` in a fresh clone of HEAD',
    'with nothing configured (embedded PostgreSQL from npm, the system Chromium the tests find), as `.ci/run` runs it;',
    '`--load` starts a busy loop per core beside it for the whole run. Wall time of `npm test`; CPU = user + system',
    'seconds of the test tree (vitest, the app in its workers, ffmpeg, PostgreSQL; Chromium\'s renderers are not its',
    'children and are not counted). Goal: under 600 s on 2 cores, 0 failures, every time.',
    'Before issue 25 (docs/decisions/0032-test-suite-time.md): 1,189 s and 5 failures in a quiet fresh clone; CI took',
    '1,198 s for the landing before (install, typecheck and lint included).',
    '',
    await machineDescription(),
    '',
    RESULTS_MARK,
    '| when (UTC) | commit | machine | wall | CPU | passed | failed | slowest files |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
  await writeSection(SECTION, body);
}

async function main(): Promise<void> {
  const runs = Number(option('--runs') ?? 1);
  const loaded = process.argv.includes('--load');
  const commit = git(['rev-parse', '--short', 'HEAD']);
  const clone = mkdtempSync(path.join(os.tmpdir(), 'clipshift-bench-clone-'));
  // Run as root, the embedded PostgreSQL runs as the postgres user, who must reach its binaries
  // inside the clone: a checkout's folders are open to others, mkdtemp's is not.
  chmodSync(clone, 0o755);
  console.log(`Cloning ${commit} into ${clone}`);
  spawnSync('git', ['clone', '--quiet', ROOT, clone], { stdio: 'inherit' });
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: clone, stdio: 'inherit' });
  if (install.status !== 0) throw new Error('npm install failed in the clone');
  const load = loaded ? startLoad() : [];
  const results: RunFigures[] = [];
  try {
    for (let index = 0; index < runs; index += 1) {
      const report = path.join(clone, `vitest-run-${index + 1}.json`);
      const timing = await runSuite(clone, report);
      if (!existsSync(report)) throw new Error(`npm test wrote no report (exit ${timing.code}): see its output above`);
      const figures = figuresOf(clone, report, commit, loaded, timing);
      results.push(figures);
      console.log(`Run ${index + 1}/${runs}: ${figures.wallSeconds.toFixed(0)} s wall, ${figures.cpuSeconds.toFixed(0)} CPU-s, ${figures.passed} passed, ${figures.failed} failed (exit ${timing.code})`);
    }
  } finally {
    for (const child of load) child.kill('SIGKILL');
  }
  await writeReport(results);
  if (!process.argv.includes('--keep')) rmSync(clone, { recursive: true, force: true });
}

await main();
