// `npm run bench:render`: the app's vertical render against a bare ffmpeg command with the same
// filtergraph, the naive two-encode path, the unoptimised full-size blur, and the horizontal remux.
// Prints a table and writes docs/benchmarks.md ("Render"). BENCH_RUNS sets repetitions (default 3).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  buildNaiveBlurFilter,
  buildVerticalFilter,
  ENCODE_ARGS,
  probe,
  renderHorizontal,
  renderVertical,
  resolveMediaBinaries,
  type ProbeResult,
} from '../server/src/media/index.ts';
import { machineDescription, median, writeSection } from './lib/report.ts';

const execFileAsync = promisify(execFile);
const OUT = path.resolve(import.meta.dirname, 'out');
const SOURCE = path.join(OUT, 'source-30s-1920x1080-60fps.mp4');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);

interface Result {
  name: string;
  seconds: number[];
  sizeBytes: number;
}

async function makeSource(): Promise<void> {
  if (existsSync(SOURCE)) return;
  console.log('Making the 30 s 1920x1080 60 fps source clip with ffmpeg generators…');
  await mkdir(OUT, { recursive: true });
  await execFileAsync(ffmpeg, [
    '-y', '-hide_banner', '-loglevel', 'error',
    '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=60:duration=30',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=30',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-g', '120',
    '-c:a', 'aac', '-b:a', '160k', '-shortest', SOURCE,
  ]);
}

function bareFfmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}`))));
  });
}

interface Path {
  name: string;
  output: string;
  work: () => Promise<void>;
}

/**
 * Runs every path once per round, round after round, so that load from elsewhere on the machine
 * falls on all paths alike instead of on whichever happened to run during it.
 */
async function measureInterleaved(paths: Path[]): Promise<Result[]> {
  const seconds = new Map<string, number[]>(paths.map((path) => [path.name, []]));
  for (let run = 0; run < RUNS; run += 1) {
    for (const path of paths) {
      await rm(path.output, { force: true });
      const started = process.hrtime.bigint();
      await path.work();
      const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      seconds.get(path.name)!.push(elapsed);
      process.stdout.write(`  round ${run + 1}/${RUNS} ${path.name}: ${elapsed.toFixed(2)} s\n`);
    }
  }
  return Promise.all(paths.map(async (path) => ({ name: path.name, seconds: seconds.get(path.name)!, sizeBytes: (await stat(path.output)).size })));
}

async function main() {
  await makeSource();
  const info: ProbeResult = await probe(ffprobe, SOURCE);
  const out = (name: string) => path.join(OUT, `${name}.mp4`);
  const intermediate = path.join(OUT, 'c-intermediate.mp4');
  const encode = [...ENCODE_ARGS];

  const results = await measureInterleaved([
    { name: '(a) app renderVertical (blur)', output: out('a-app'), work: () => renderVertical({ ffmpeg, source: SOURCE, output: out('a-app'), layout: 'blur', sourceInfo: info }) },
    {
      name: '(b) bare ffmpeg, same graph',
      output: out('b-bare'),
      work: () => bareFfmpeg(['-i', SOURCE, '-filter_complex', buildVerticalFilter('blur', info), '-map', '[v]', '-map', '0:a:0?', ...encode, out('b-bare')]),
    },
    {
      name: '(c) naive two encodes',
      output: out('c-naive'),
      work: async () => {
        await bareFfmpeg(['-i', SOURCE, '-filter_complex', buildVerticalFilter('blur', info), '-map', '[v]', '-map', '0:a:0?', ...encode, intermediate]);
        await bareFfmpeg(['-i', intermediate, '-map', '0:v:0', '-map', '0:a:0?', ...encode, out('c-naive')]);
      },
    },
    {
      name: '(e) full-size blur graph',
      output: out('e-fullblur'),
      work: () => bareFfmpeg(['-i', SOURCE, '-filter_complex', buildNaiveBlurFilter(info), '-map', '[v]', '-map', '0:a:0?', ...encode, out('e-fullblur')]),
    },
    { name: '(d) horizontal remux', output: out('d-remux'), work: () => renderHorizontal({ ffmpeg, source: SOURCE, output: out('d-remux'), sourceInfo: info }) },
  ]);

  const byName = (prefix: string) => median(results.find((result) => result.name.startsWith(prefix))!.seconds);
  const a = byName('(a)');
  const rows = results.map((result) => {
    const wall = median(result.seconds);
    return `| ${result.name} | ${wall.toFixed(2)} s | ${(info.durationSec / wall).toFixed(2)}x | ${(result.sizeBytes / 1e6).toFixed(1)} MB | ${result.seconds.map((s) => s.toFixed(2)).join(', ')} |`;
  });
  const ratios = [
    `- a/b (app vs bare ffmpeg, same graph): **${(a / byName('(b)')).toFixed(3)}** (goal ≤ 1.05)`,
    `- a/c (one encode vs two): **${(a / byName('(c)')).toFixed(3)}** (the app takes ${(100 * (1 - a / byName('(c)'))).toFixed(0)}% less time)`,
    `- e/a (full-size blur vs downscaled blur): **${(byName('(e)') / a).toFixed(2)}x** slower without the tuning`,
  ];
  const { stdout: version } = await execFileAsync(ffmpeg, ['-version']);
  const table = [
    `Source: ${info.width}x${info.height} ${info.fps.toFixed(0)} fps, ${info.durationSec.toFixed(1)} s (testsrc2 + sine), output 1080x1920 H.264 (${ENCODE_ARGS.join(' ')}). Median of ${RUNS} runs; realtime factor = clip seconds / wall seconds.`,
    '',
    '| path | wall (median) | realtime | output | runs |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...ratios,
    '',
    'Machine:',
    await machineDescription([`ffmpeg: ${version.split('\n')[0]}`]),
    '',
    'Re-run: `npm run bench:render` (BENCH_RUNS=5 for more repetitions). Outputs stay in bench/out/ (git-ignored).',
  ].join('\n');
  console.log(`\n${table}\n`);
  await writeSection('Render', table);
}

await main();
