// `npm run bench:render`: the app's vertical render against a bare ffmpeg command with the same
// filtergraph, the naive two-encode path, the unoptimised full-size blur, the horizontal remux, the
// split (facecam + gameplay) layout against bare ffmpeg, the cost of loudness normalisation, and the
// split render with the heaviest look (punch captions, hook title, logo) against bare ffmpeg.
// Prints a table and writes docs/benchmarks.md ("Render"). BENCH_RUNS sets repetitions (default 3).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CAPTION_PRESET_STYLES } from '@clipshift/shared';
import { outputFrame, probe, renderClip, resolveMediaBinaries, type ProbeResult, type SubtitleOverlay, type VerticalLayoutSpec } from '../server/src/engines/media/index.ts';
import { buildNaiveBlurFilter, buildVerticalFilter } from '../server/src/engines/media/filters.ts';
import { clipArgs, remuxHorizontal, renderVertical } from '../server/src/engines/media/render.ts';
import { ENCODE_ARGS } from '../server/src/engines/media/encoders.ts';
import { writeCaptionOverlay } from '../server/src/domains/studio/captions.ts';
import { commentaryWords } from '../tests/fakes/openai/index.ts';
import { bareFfmpeg, cpuSecondsSoFar } from './lib/ffmpeg.ts';
import { machineDescription, median, writeSection } from './lib/report.ts';

const execFileAsync = promisify(execFile);
const OUT = path.resolve(import.meta.dirname, 'out');
const SOURCE = path.join(OUT, 'source-30s-1920x1080-60fps.mp4');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);

/** The streamer's logo: a 512x512 PNG with transparent corners, made once beside the source. */
const LOGO = path.join(OUT, 'logo-512.png');
const HOOK = { text: 'He did NOT see that coming', seconds: 3 };

/** A camera in the bottom-right corner over the whole frame as gameplay: the usual stream overlay. */
const SPLIT_LAYOUT: VerticalLayoutSpec = { kind: 'split', facecam: { x: 0.72, y: 0.66, w: 0.26, h: 0.32 }, gameplay: { x: 0, y: 0, w: 1, h: 1 }, splitRatio: 0.35 };

/** The source is made once and kept in bench/out/ (git-ignored): generating it costs a minute. */
async function makeSource(): Promise<void> {
  if (existsSync(SOURCE)) return;
  console.log('Making the 30 s 1920x1080 60 fps source clip with ffmpeg generators…');
  await mkdir(OUT, { recursive: true });
  // testsrc2 moves every frame (scrolling pattern, moving box, counter), so the decoder and the
  // encoder do real work; CRF 20 veryfast gives ~11 Mbit/s, in the range of Twitch 1080p60 clips.
  await execFileAsync(ffmpeg, [
    '-y', '-hide_banner', '-loglevel', 'error',
    '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=60:duration=30',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=30',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-g', '120',
    '-c:a', 'aac', '-b:a', '160k', '-shortest', SOURCE,
  ]);
}

async function makeLogo(): Promise<void> {
  if (existsSync(LOGO)) return;
  await execFileAsync(ffmpeg, [
    '-y', '-hide_banner', '-loglevel', 'error',
    '-f', 'lavfi', '-i', 'color=c=0xE0206000:size=512x512,format=rgba,drawbox=x=64:y=64:w=384:h=384:color=0xE02060FF:t=fill,drawbox=x=160:y=160:w=192:h=192:color=0xFFFFFFFF:t=fill',
    '-frames:v', '1', LOGO,
  ]);
}

/**
 * What the heaviest look draws over the split render, written once with the app's captions writer:
 * the `punch` preset (bounce animation, keyword emphasis, auto emoji as colour pictures) over a
 * streamer talking the whole clip (the fake transcription server's commentary), a hook title over
 * the first seconds and the logo in its corner.
 */
async function lookOverlay(info: ProbeResult): Promise<{ overlay: SubtitleOverlay; words: number; writeMs: number }> {
  const words = commentaryWords(info.durationSec).map((word) => ({ text: word.word, start: word.start, end: word.end }));
  const started = process.hrtime.bigint();
  const overlay = await writeCaptionOverlay({
    words,
    style: CAPTION_PRESET_STYLES.punch,
    frame: outputFrame(SPLIT_LAYOUT, info),
    trimStart: 0,
    assPath: path.join(OUT, 'look-captions.ass'),
    language: 'en',
    hook: HOOK,
    logo: { image: LOGO, position: 'top-right', opacity: 0.85 },
  });
  const writeMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (!overlay) throw new Error('the look wrote no overlay');
  return { overlay, words: words.length, writeMs };
}

interface BenchPath {
  key: string;
  name: string;
  output: string;
  work: () => Promise<void>;
}

interface Result {
  key: string;
  name: string;
  wall: number[];
  cpu: number[];
  sizeBytes: number;
}

/**
 * Runs every path once per round, round after round, so that load from elsewhere on the machine
 * falls on all paths alike instead of on whichever happened to run during it.
 */
async function measureInterleaved(paths: BenchPath[]): Promise<Result[]> {
  const results = paths.map((benchPath): Result => ({ key: benchPath.key, name: benchPath.name, wall: [], cpu: [], sizeBytes: 0 }));
  for (let run = 0; run < RUNS; run += 1) {
    for (const [index, benchPath] of paths.entries()) {
      const result = results[index]!;
      await rm(benchPath.output, { force: true });
      const cpuBefore = cpuSecondsSoFar();
      const started = process.hrtime.bigint();
      await benchPath.work();
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = cpuSecondsSoFar() - cpuBefore;
      result.wall.push(wall);
      result.cpu.push(cpu);
      result.sizeBytes = (await stat(benchPath.output)).size;
      process.stdout.write(`  round ${run + 1}/${RUNS} ${benchPath.name}: ${wall.toFixed(2)} s wall, ${cpu.toFixed(1)} s CPU\n`);
    }
  }
  return results;
}

function benchPaths(info: ProbeResult, look: SubtitleOverlay): BenchPath[] {
  const out = (name: string) => path.join(OUT, `${name}.mp4`);
  const intermediate = path.join(OUT, 'c-intermediate.mp4');
  const encode = [...ENCODE_ARGS];
  const graph = buildVerticalFilter('blur', info);
  return [
    {
      key: 'a',
      name: '(a) app renderVertical (blur)',
      output: out('a-app'),
      work: async () => void (await renderVertical({ ffmpeg, source: SOURCE, output: out('a-app'), layout: 'blur', sourceInfo: info, onProgress: () => {} })),
    },
    {
      key: 'b',
      name: '(b) bare ffmpeg, same graph and settings',
      output: out('b-bare'),
      work: () => bareFfmpeg(ffmpeg, ['-i', SOURCE, '-filter_complex', graph, '-map', '[v]', '-map', '0:a:0?', ...encode, out('b-bare')]),
    },
    {
      key: 'c',
      name: '(c) naive: layout encode, then a second encode',
      output: out('c-naive'),
      work: async () => {
        await bareFfmpeg(ffmpeg, ['-i', SOURCE, '-filter_complex', graph, '-map', '[v]', '-map', '0:a:0?', ...encode, intermediate]);
        // The second pass is where tools burn captions; even with no filter at all it is a full encode.
        await bareFfmpeg(ffmpeg, ['-i', intermediate, '-map', '0:v:0', '-map', '0:a:0?', ...encode, out('c-naive')]);
      },
    },
    {
      key: 'e',
      name: '(e) full-size blur graph (untuned)',
      output: out('e-fullblur'),
      work: () => bareFfmpeg(ffmpeg, ['-i', SOURCE, '-filter_complex', buildNaiveBlurFilter(info), '-map', '[v]', '-map', '0:a:0?', ...encode, out('e-fullblur')]),
    },
    {
      key: 'd',
      name: '(d) horizontal remux (app remuxHorizontal)',
      output: out('d-remux'),
      work: async () => void (await remuxHorizontal({ ffmpeg, source: SOURCE, output: out('d-remux'), durationSec: info.durationSec })),
    },
    ...splitPaths(info),
    ...lookPaths(info, look),
  ];
}

/** The split render with the heaviest look through the app, and the same command bare. */
function lookPaths(info: ProbeResult, look: SubtitleOverlay): BenchPath[] {
  const out = (name: string) => path.join(OUT, `${name}.mp4`);
  return [
    {
      key: 'i',
      name: '(i) app renderClip (split) + punch captions, hook, logo',
      output: out('i-look-app'),
      work: async () => void (await renderClip({ ffmpeg, source: SOURCE, output: out('i-look-app'), sourceInfo: info, layout: SPLIT_LAYOUT, captions: look, audio: { normalize: false }, onProgress: () => {} })),
    },
    {
      key: 'j',
      name: '(j) bare ffmpeg, same look graph and settings',
      output: out('j-look-bare'),
      work: () => bareFfmpeg(ffmpeg, clipArgs({ source: SOURCE, output: out('j-look-bare'), layout: SPLIT_LAYOUT, info, subtitles: look })),
    },
  ];
}

/** The split layout through the app, the same command bare, and the app with normalisation. */
function splitPaths(info: ProbeResult): BenchPath[] {
  const out = (name: string) => path.join(OUT, `${name}.mp4`);
  const render = (output: string, normalize: boolean) => async () =>
    void (await renderClip({ ffmpeg, source: SOURCE, output, sourceInfo: info, layout: SPLIT_LAYOUT, audio: { normalize }, onProgress: () => {} }));
  return [
    { key: 'f', name: '(f) app renderClip (split)', output: out('f-split-app'), work: render(out('f-split-app'), false) },
    {
      key: 'g',
      name: '(g) bare ffmpeg, same split graph and settings',
      output: out('g-split-bare'),
      work: () => bareFfmpeg(ffmpeg, clipArgs({ source: SOURCE, output: out('g-split-bare'), layout: SPLIT_LAYOUT, info })),
    },
    { key: 'h', name: '(h) app renderClip (split) + loudness normalisation', output: out('h-split-loudnorm'), work: render(out('h-split-loudnorm'), true) },
  ];
}

interface Look {
  overlay: SubtitleOverlay;
  words: number;
  writeMs: number;
}

function report(info: ProbeResult, results: Result[], look: Look, ffmpegVersion: string, machine: string): string {
  const wallOf = (key: string) => median(results.find((result) => result.key === key)?.wall ?? [Number.NaN]);
  const cpuOf = (key: string) => median(results.find((result) => result.key === key)?.cpu ?? [Number.NaN]);
  const rows = results.map((result) => {
    const wall = median(result.wall);
    return `| ${result.name} | ${wall.toFixed(2)} s | ${(info.durationSec / wall).toFixed(2)}x | ${median(result.cpu).toFixed(1)} s | ${(result.sizeBytes / 1e6).toFixed(1)} MB | ${result.wall.map((s) => s.toFixed(2)).join(', ')} |`;
  });
  const [a, b, c, e, f, g, h, i, j] = ['a', 'b', 'c', 'e', 'f', 'g', 'h', 'i', 'j'].map(wallOf) as [number, number, number, number, number, number, number, number, number];
  const [cpuA, cpuB, cpuC, cpuE, cpuF, cpuG, cpuH, cpuI, cpuJ] = ['a', 'b', 'c', 'e', 'f', 'g', 'h', 'i', 'j'].map(cpuOf) as [number, number, number, number, number, number, number, number, number];
  const wallSpread = (key: string) => spread(results.find((result) => result.key === key)?.wall ?? []);
  const wallsOf = (key: string) => results.find((result) => result.key === key)?.wall ?? [];
  // i and j run back to back in each round, so each round's ratio shares that round's load.
  const pairedLook = wallsOf('i').map((wall, round) => (wall / (wallsOf('j')[round] ?? Number.NaN)).toFixed(3)).join(', ');
  return [
    `Source: ${info.width}x${info.height} ${info.fps.toFixed(0)} fps H.264 + AAC, ${info.durationSec.toFixed(1)} s, ${((info.bitRate ?? 0) / 1e6).toFixed(1)} Mbit/s (ffmpeg testsrc2 + sine, made once in bench/out/). ` +
      `Output 1080x1920, encoder settings of every encode: \`${ENCODE_ARGS.join(' ')}\`. Median of ${RUNS} interleaved runs; realtime = clip seconds / wall seconds; CPU = user + system seconds of ffmpeg and the bench process.`,
    '',
    'Blur graph (a, b and the first pass of c):',
    '```',
    buildVerticalFilter('blur', info),
    '```',
    '',
    'Split graph (f, g and h; facecam in the bottom-right corner, split ratio 0.35):',
    '```',
    buildVerticalFilter(SPLIT_LAYOUT, info),
    '```',
    '',
    `Look (i and j): the split graph with the \`punch\` caption preset (bounce animation, keyword emphasis, auto emoji drawn as colour pictures, up to 2 words at a time) ` +
      `over ${look.words} words of commentary spread over the whole clip (the fake transcription server's \`commentary\` scenario), ${look.overlay.images?.length ?? 0} emoji pictures, ` +
      `the hook "${HOOK.text}" over the first ${HOOK.seconds} s and a 512x512 PNG logo top-right at 0.85 opacity; the overlay is written once by the app's captions writer ` +
      `(writeCaptionOverlay, ${look.writeMs.toFixed(0)} ms, not in the timings) and both paths burn the same ASS file, pictures and logo. Graph:`,
    '```',
    clipArgs({ source: SOURCE, output: 'out.mp4', layout: SPLIT_LAYOUT, info, subtitles: look.overlay }).find((arg, index, args) => args[index - 1] === '-filter_complex') ?? '',
    '```',
    '',
    '| path | wall (median) | realtime | CPU (median) | output | wall per run |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `- a/b (app vs bare ffmpeg, same graph): **${(a / b).toFixed(3)}** wall, ${(cpuA / cpuB).toFixed(3)} CPU (goal ≤ 1.05)`,
    `- a/c (one encode vs two): **${(a / c).toFixed(3)}** wall, ${(cpuA / cpuC).toFixed(3)} CPU — the app takes ${(100 * (1 - a / c)).toFixed(0)}% less time, and its output is one generation from the source instead of two`,
    `- e/a (full-size blur vs blur on a 1/8 copy): **${(e / a).toFixed(2)}x** wall, ${(cpuE / cpuA).toFixed(2)}x CPU without the tuning`,
    `- f/g (app split render vs bare ffmpeg, same graph): **${(f / g).toFixed(3)}** wall, ${(cpuF / cpuG).toFixed(3)} CPU (goal ≤ 1.05)`,
    `- h/f (loudness normalisation, measure pass, audio-only trial encodes, gain (and limiter) in the encode): **${(h / f).toFixed(3)}** wall, ${(cpuH / cpuF).toFixed(3)} CPU (goal ≤ 1.15)`,
    `- i/j (app split render with the heaviest look vs bare ffmpeg, same graph): **${(i / j).toFixed(3)}** wall, ${(cpuI / cpuJ).toFixed(3)} CPU (goal ≤ 1.10); round by round ${pairedLook} (the slowest run of i took ${wallSpread('i')} longer than the fastest, of j ${wallSpread('j')}: the machine's load, which CPU seconds mostly escape)`,
    `- i/f (what the look costs on top of the plain split render): **${(i / f).toFixed(2)}x** wall, ${(cpuI / cpuF).toFixed(2)}x CPU`,
    '',
    'Machine:',
    machine,
    `- ffmpeg: ${ffmpegVersion}`,
    '',
    'Re-run: `npm run bench:render` (BENCH_RUNS=5 for more repetitions). Outputs stay in bench/out/ (git-ignored).',
  ].join('\n');
}

/** How far the slowest run lies above the fastest, as a share of the fastest ("—" for one run). */
function spread(values: readonly number[]): string {
  if (values.length < 2) return '—';
  const low = Math.min(...values);
  return `${(100 * (Math.max(...values) / low - 1)).toFixed(1)}%`;
}

async function main(): Promise<void> {
  await makeSource();
  await makeLogo();
  const info = await probe(ffprobe, SOURCE);
  const look = await lookOverlay(info);
  console.log(`Source ${info.width}x${info.height} ${info.fps} fps, ${info.durationSec} s; ${RUNS} rounds.`);
  const results = await measureInterleaved(benchPaths(info, look.overlay));
  const { stdout: version } = await execFileAsync(ffmpeg, ['-version']);
  const load = os.loadavg().map((value) => value.toFixed(1)).join(', ');
  const table = report(info, results, look, version.split('\n')[0] ?? 'unknown', await machineDescription([`Load average when written (1, 5, 15 min): ${load}; the machine is shared`]));
  console.log(`\n${table}\n`);
  await writeSection('Render', table);
}

await main();
