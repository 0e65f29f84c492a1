// `npm run bench:detect`: camera detection (detectCamera) of a 60 s 1920x1080 30 fps clip with a
// camera overlay, against a bare ffmpeg run that decodes the same sampled frames (so the ratio is
// what the analysis adds), and against decoding the whole clip (what sampling by keyframe seeks
// saves). Then the detection figures over the tests' detection set. Writes docs/benchmarks.md
// ("Camera detection"). BENCH_RUNS sets repetitions (default 3).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { detectCamera, probe, resolveMediaBinaries, type ProbeResult } from '../server/src/engines/media/index.ts';
import { CAMERA_CONFIDENCE, DEFAULT_CAMERA_SAMPLES } from '../server/src/engines/media/camera/detect.ts';
import { evenRateArgs, seekArgs, type SampleRequest } from '../server/src/engines/media/camera/frames.ts';
import { iou, makeDetectionSet, makeSource, type SourceSpec } from '../tests/helpers/camera-sources.ts';
import { bareFfmpeg, cpuSecondsSoFar } from './lib/ffmpeg.ts';
import { machineDescription, median, writeSection } from './lib/report.ts';

const execFileAsync = promisify(execFile);
const OUT = path.resolve(import.meta.dirname, 'out');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const { ffmpeg, ffprobe } = resolveMediaBinaries(process.env);

/** Twitch-like: 1080p, a keyframe every 2 s, a camera in the bottom-right corner. */
const SOURCE: SourceSpec = {
  name: 'camera-bench-60s-1920x1080-30fps',
  width: 1920,
  height: 1080,
  seconds: 60,
  rate: 30,
  gop: 60,
  gameplay: 'rotate',
  hud: ['scorebox'],
  camera: { width: 0.22, aspect: 16 / 9, anchor: 'bottom-right', margin: 0, border: 4, look: 2 },
};

interface Timing {
  name: string;
  wall: number[];
  cpu: number[];
}

async function timed(timing: Timing, work: () => Promise<void>): Promise<void> {
  const cpuBefore = cpuSecondsSoFar();
  const started = process.hrtime.bigint();
  await work();
  timing.wall.push(Number(process.hrtime.bigint() - started) / 1e9);
  timing.cpu.push(cpuSecondsSoFar() - cpuBefore);
  process.stdout.write(`  ${timing.name}: ${timing.wall.at(-1)!.toFixed(2)} s wall, ${timing.cpu.at(-1)!.toFixed(2)} s CPU\n`);
}

/** The three paths, interleaved round by round so that load from elsewhere falls on all alike. */
async function measureSpeed(file: string, info: ProbeResult): Promise<{ app: Timing; bare: Timing; whole: Timing; found: string }> {
  const request: SampleRequest = { ffmpeg, source: file, durationSec: info.durationSec, width: 480, height: 270, samples: DEFAULT_CAMERA_SAMPLES };
  const app: Timing = { name: '(a) detectCamera', wall: [], cpu: [] };
  const bare: Timing = { name: '(b) bare ffmpeg, same sampled frames', wall: [], cpu: [] };
  const whole: Timing = { name: '(c) bare ffmpeg, every frame decoded', wall: [], cpu: [] };
  let found = 'nothing';
  for (let run = 0; run < RUNS; run += 1) {
    await timed(app, async () => {
      const result = await detectCamera({ ffmpeg, source: file, sourceInfo: info });
      found = result.facecam ? `${JSON.stringify(result.facecam)} (confidence ${result.confidence})` : `no camera (confidence ${result.confidence})`;
    });
    await timed(bare, () => bareFfmpeg(ffmpeg, seekArgs(request)));
    await timed(whole, () => bareFfmpeg(ffmpeg, evenRateArgs(request)));
  }
  return { app, bare, whole, found };
}

interface SetFigures {
  withCamera: number;
  found: number;
  meanIou: number;
  without: number;
  none: number;
  medianSeconds: number;
  misses: string[];
}

async function measureSet(): Promise<SetFigures> {
  console.log('Making (or reusing) the detection set in bench/out/camera-set…');
  const cases = await makeDetectionSet(ffmpeg, path.join(OUT, 'camera-set'));
  const figures: SetFigures = { withCamera: 0, found: 0, meanIou: 0, without: 0, none: 0, medianSeconds: 0, misses: [] };
  const seconds: number[] = [];
  for (const testCase of cases) {
    const sourceInfo = await probe(ffprobe, testCase.file);
    const started = performance.now();
    const result = await detectCamera({ ffmpeg, source: testCase.file, sourceInfo });
    seconds.push((performance.now() - started) / 1000);
    if (testCase.truth) {
      const overlap = result.facecam ? iou(result.facecam, testCase.truth) : 0;
      figures.withCamera += 1;
      figures.meanIou += overlap;
      if (overlap >= 0.8) figures.found += 1;
      else figures.misses.push(`${testCase.spec.name} (IoU ${overlap.toFixed(2)}, confidence ${result.confidence})`);
    } else {
      figures.without += 1;
      if (!result.facecam) figures.none += 1;
      else figures.misses.push(`${testCase.spec.name} (camera reported, confidence ${result.confidence})`);
    }
  }
  figures.meanIou /= Math.max(1, figures.withCamera);
  figures.medianSeconds = median(seconds);
  return figures;
}

function report(info: ProbeResult, speed: Awaited<ReturnType<typeof measureSpeed>>, set: SetFigures, ffmpegVersion: string, machine: string): string {
  const row = (timing: Timing) => `| ${timing.name} | ${median(timing.wall).toFixed(2)} s | ${median(timing.cpu).toFixed(2)} s | ${timing.wall.map((s) => s.toFixed(2)).join(', ')} |`;
  const [a, b, c] = [speed.app, speed.bare, speed.whole].map((timing) => median(timing.wall)) as [number, number, number];
  const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;
  return [
    `Source: ${info.width}x${info.height} ${info.fps.toFixed(0)} fps H.264, ${info.durationSec.toFixed(1)} s, a keyframe every 2 s, ${((info.bitRate ?? 0) / 1e6).toFixed(1)} Mbit/s ` +
      '(tests/helpers/camera-sources.ts: a rotating test pattern with a score box as gameplay, a webcam overlay in the bottom-right corner; made once in bench/out/). ' +
      `${DEFAULT_CAMERA_SAMPLES} samples at 480x270 grey. Median of ${RUNS} interleaved runs; CPU = user + system seconds of ffmpeg and the bench process.`,
    '',
    '| path | wall (median) | CPU (median) | wall per run |',
    '| --- | --- | --- | --- |',
    row(speed.app),
    row(speed.bare),
    row(speed.whole),
    '',
    `- a/b (detection vs decoding the same frames bare): **${(a / b).toFixed(2)}x** wall — the analysis adds ${(a - b).toFixed(2)} s`,
    `- a/c (detection vs decoding every frame): **${(a / c).toFixed(3)}** — sampling by keyframe seeks saves ${percent(c - a, c)} of the time`,
    `- found: ${speed.found}`,
    '',
    `Detection set (tests/integration/camera-detection.test.ts, ${set.withCamera} sources with a camera, ${set.without} without; 640x360 and 1280x720, 6 s):`,
    '',
    `- camera found with IoU ≥ 0.8: **${set.found}/${set.withCamera}** (${percent(set.found, set.withCamera)}), mean IoU ${set.meanIou.toFixed(2)}`,
    `- no camera reported: **${set.none}/${set.without}** (${percent(set.none, set.without)}); reported from confidence ${CAMERA_CONFIDENCE}`,
    `- median detection time per source: ${set.medianSeconds.toFixed(2)} s`,
    ...(set.misses.length > 0 ? [`- misses: ${set.misses.join('; ')}`] : []),
    '',
    'Machine:',
    machine,
    `- ffmpeg: ${ffmpegVersion}`,
    '',
    'Re-run: `npm run bench:detect` (BENCH_RUNS=5 for more repetitions). Sources stay in bench/out/ (git-ignored).',
  ].join('\n');
}

async function main(): Promise<void> {
  console.log('Making (or reusing) the 60 s 1920x1080 source with a camera…');
  const source = await makeSource(ffmpeg, SOURCE, OUT);
  const info = await probe(ffprobe, source.file);
  console.log(`Source ${info.width}x${info.height} ${info.fps} fps, ${info.durationSec} s; ${RUNS} rounds.`);
  const speed = await measureSpeed(source.file, info);
  const set = await measureSet();
  const { stdout: version } = await execFileAsync(ffmpeg, ['-version']);
  const text = report(info, speed, set, version.split('\n')[0] ?? 'unknown', await machineDescription());
  console.log(`\n${text}\n`);
  await writeSection('Camera detection', text);
}

await main();
