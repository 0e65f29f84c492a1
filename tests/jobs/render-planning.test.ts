import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureRendering, isMediaError, renderEncoder, resolveMediaBinaries } from '../../server/src/engines/media/index.ts';
import { chooseEncoder, ENCODE_ARGS, ENCODERS, VAAPI_DEVICE } from '../../server/src/engines/media/encoders.ts';
import { clipArgs } from '../../server/src/engines/media/render.ts';
import { inRenderSlot, planRenders, threadsFor } from '../../server/src/engines/media/planner.ts';
import { loadEnv } from '../../server/src/platform/env.ts';
import { createLogger, type Logger } from '../../server/src/platform/logger.ts';
import { metricsRegistry } from '../../server/src/platform/metrics.ts';
import { createSlots } from '../../server/src/platform/slots.ts';

const { ffmpeg } = resolveMediaBinaries(process.env);

/** A logger whose lines (their msg and level) the test can read. */
function capturingLogger(): { logger: Logger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
  return { logger, lines };
}

/** A task the test finishes by hand, counting how many run at once. */
function gate() {
  let running = 0;
  let peak = 0;
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const task = (name: string) => () => {
    running += 1;
    peak = Math.max(peak, running);
    started.push(name);
    return new Promise<string>((resolve) => {
      finishers.set(name, () => {
        running -= 1;
        resolve(name);
      });
    });
  };
  const finish = async (name: string) => {
    finishers.get(name)!();
    // Let the slot pass to the next waiter and its task start.
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
  };
  return { task, finish, started, get peak() { return peak; }, get running() { return running; } };
}

describe('the render plan', () => {
  it('runs as many renders as there are cores, no more than can be asked for at once, and shares the cores among them as threads', () => {
    expect(planRenders(1, { demand: 5 })).toEqual({ cores: 1, renders: 1, threads: 1, fixedThreads: false });
    expect(planRenders(2, { demand: 5 })).toEqual({ cores: 2, renders: 2, threads: 1, fixedThreads: false });
    expect(planRenders(4)).toEqual({ cores: 4, renders: 4, threads: 1, fixedThreads: false });
    expect(planRenders(8, { demand: 5 })).toEqual({ cores: 8, renders: 5, threads: 2, fixedThreads: false });
    expect(planRenders(16, { demand: 5 })).toEqual({ cores: 16, renders: 5, threads: 3, fixedThreads: false });
    expect(planRenders(16, { demand: 1 })).toEqual({ cores: 16, renders: 1, threads: 16, fixedThreads: false });
    expect(planRenders(0.5)).toEqual({ cores: 1, renders: 1, threads: 1, fixedThreads: false });
  });

  it('takes FFMPEG_MAX_PARALLEL as the number of renders (threads follow) and FFMPEG_THREADS as the threads', () => {
    expect(planRenders(16, { maxParallel: 2, demand: 5 })).toEqual({ cores: 16, renders: 2, threads: 8, fixedThreads: false });
    expect(planRenders(2, { maxParallel: 3 })).toEqual({ cores: 2, renders: 3, threads: 1, fixedThreads: false });
    expect(planRenders(8, { threads: 1, demand: 5 })).toEqual({ cores: 8, renders: 5, threads: 1, fixedThreads: true });
    expect(planRenders(8, { maxParallel: 1, threads: 6 })).toEqual({ cores: 8, renders: 1, threads: 6, fixedThreads: true });
  });

  it('gives a render starting while fewer slots are busy a larger share of the cores, unless FFMPEG_THREADS fixes it', () => {
    const twoCores = planRenders(2, { demand: 5 });
    expect([1, 2].map((running) => threadsFor(twoCores, running))).toEqual([2, 1]);
    const sixteen = planRenders(16, { demand: 5 });
    expect([1, 2, 4, 5, 9].map((running) => threadsFor(sixteen, running))).toEqual([16, 8, 4, 3, 3]);
    const fixed = planRenders(16, { demand: 5, threads: 2 });
    expect([1, 5].map((running) => threadsFor(fixed, running))).toEqual([2, 2]);
  });

  it('reads FFMPEG_ENCODER, FFMPEG_MAX_PARALLEL and FFMPEG_THREADS, and names a bad value', () => {
    const base = { NODE_ENV: 'test' };
    const defaults = loadEnv(base);
    expect([defaults.FFMPEG_ENCODER, defaults.FFMPEG_MAX_PARALLEL, defaults.FFMPEG_THREADS]).toEqual(['auto', undefined, undefined]);
    expect(loadEnv({ ...base, FFMPEG_ENCODER: 'h264_nvenc', FFMPEG_MAX_PARALLEL: '3', FFMPEG_THREADS: ' 4 ' })).toMatchObject({ FFMPEG_ENCODER: 'h264_nvenc', FFMPEG_MAX_PARALLEL: 3, FFMPEG_THREADS: 4 });
    const blank = loadEnv({ ...base, FFMPEG_MAX_PARALLEL: '', FFMPEG_THREADS: ' ' });
    expect([blank.FFMPEG_MAX_PARALLEL, blank.FFMPEG_THREADS]).toEqual([undefined, undefined]);
    expect(() => loadEnv({ ...base, FFMPEG_MAX_PARALLEL: '0' })).toThrow(/FFMPEG_MAX_PARALLEL/);
    expect(() => loadEnv({ ...base, FFMPEG_THREADS: 'many' })).toThrow(/FFMPEG_THREADS/);
    expect(() => loadEnv({ ...base, FFMPEG_ENCODER: 'x265' })).toThrow(/FFMPEG_ENCODER/);
  });

  it('puts the threads on the decoder, the graph and a CPU encoder, and the device and upload for VA-API', () => {
    const input = { source: 'in.mp4', output: 'out.mp4', layout: 'blur' as const, info: { width: 1920, height: 1080, fps: 60 } };
    // No encoding: exactly the command of before the plan (libx264 settings contiguous, no thread options).
    const plain = clipArgs(input);
    expect(plain.join(' ')).toContain(ENCODE_ARGS.join(' '));
    expect(plain).not.toContain('-threads');

    const planned = clipArgs({ ...input, encoding: { encoder: ENCODERS.libx264, threads: 2 } });
    expect(planned.slice(0, planned.indexOf('-i'))).toEqual(['-filter_complex_threads', '2', '-threads', '2']);
    expect(planned.slice(planned.lastIndexOf('-threads'), planned.lastIndexOf('-threads') + 2)).toEqual(['-threads', '2']);
    expect(planned.lastIndexOf('-threads')).toBeGreaterThan(planned.indexOf('-c:v'));

    const vaapi = clipArgs({ ...input, encoding: { encoder: ENCODERS.h264_vaapi, threads: 2 } });
    expect(vaapi.slice(0, 2)).toEqual(['-vaapi_device', VAAPI_DEVICE]);
    expect(vaapi[vaapi.indexOf('-filter_complex') + 1]).toMatch(/format=yuv420p,format=nv12,hwupload\[v\]$/);
    expect(vaapi).toEqual(expect.arrayContaining(['-c:v', 'h264_vaapi', '-qp', '23']));
    // A hardware encoder takes no encoder threads: only the decoder's -threads before the input.
    expect(vaapi.filter((arg) => arg === '-threads')).toHaveLength(1);
  });
});

describe('the render limiter', () => {
  const slots = (size: number) => createSlots({ size, waitMs: Number.POSITIVE_INFINITY, maxWaiting: Number.POSITIVE_INFINITY, refuse: () => new Error('refused') });

  it('runs no more than its size at once and starts the waiting in the order they came', async () => {
    const limiter = slots(2);
    const work = gate();
    const waits: string[] = [];
    const results = ['a', 'b', 'c', 'd', 'e'].map((name) => limiter.run(work.task(name), { onWait: () => waits.push(name) }));
    await Promise.resolve();
    expect(work.started).toEqual(['a', 'b']);
    expect(waits).toEqual(['c', 'd', 'e']);
    expect(limiter.waiting).toBe(3);
    await work.finish('b');
    expect(work.started).toEqual(['a', 'b', 'c']);
    await work.finish('a');
    await work.finish('c');
    expect(work.started).toEqual(['a', 'b', 'c', 'd', 'e']);
    await work.finish('d');
    await work.finish('e');
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(work.peak).toBe(2);
    expect(limiter.running).toBe(0);
  });

  it('takes an aborted waiter out of the line at once; the others still run; a failed task gives its slot back', async () => {
    const limiter = slots(1);
    const work = gate();
    const first = limiter.run(work.task('first'));
    const stop = new AbortController();
    const waiting = limiter.run(work.task('stopped'), { signal: stop.signal });
    const after = limiter.run(work.task('after'));
    expect(limiter.waiting).toBe(2);
    stop.abort(new Error('run stopped'));
    await expect(waiting).rejects.toThrow('run stopped');
    expect(limiter.waiting).toBe(1);
    await work.finish('first');
    expect(work.started).toEqual(['first', 'after']);
    await work.finish('after');
    await Promise.all([first, after]);

    await expect(limiter.run(() => Promise.reject(new Error('ffmpeg failed')))).rejects.toThrow('ffmpeg failed');
    const aborted = new AbortController();
    aborted.abort(new Error('already stopped'));
    await expect(limiter.run(work.task('never'), { signal: aborted.signal })).rejects.toThrow('already stopped');
    expect(work.started).not.toContain('never');
    expect(await limiter.run(() => Promise.resolve('free again'))).toBe('free again');
    expect(limiter.running).toBe(0);
  });

  it("is the media engine's render slot: a render stopped while it waits fails as a media abort", async () => {
    configureRendering({ encoder: 'libx264', maxParallel: 1 });
    const work = gate();
    const holding = inRenderSlot(work.task('holding'));
    const stop = new AbortController();
    let waited = false;
    const waiting = inRenderSlot(work.task('waiting'), { signal: stop.signal, onWait: () => (waited = true) });
    expect(waited).toBe(true);
    stop.abort();
    const error: unknown = await waiting.catch((caught: unknown) => caught);
    expect(isMediaError(error, 'aborted')).toBe(true);
    await work.finish('holding');
    await holding;
    expect(work.started).toEqual(['holding']);
  });
});

describe('choosing the encoder', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'clipshift-fake-ffmpeg-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  /**
   * A stand-in ffmpeg: `-encoders` prints the given list the way ffmpeg does; a test encode with
   * an encoder in `broken` fails with ffmpeg-like stderr, any other succeeds. Every call is logged.
   */
  async function fakeFfmpeg(name: string, listed: string[], broken: Record<string, string>): Promise<{ binary: string; calls: () => Promise<string[]> }> {
    const binary = path.join(folder, name);
    const log = `${binary}.calls`;
    const list = listed.map((encoder) => ` V....D ${encoder.padEnd(20)} ${encoder} encoder (codec h264)`).join('\n');
    const failures = Object.entries(broken).map(([encoder, message]) => `  *" ${encoder} "*) echo "${message}" >&2; echo "Conversion failed!" >&2; exit 1;;`).join('\n');
    await writeFile(binary, [
      '#!/bin/sh',
      `echo "$*" >> '${log}'`,
      'case " $* " in',
      `  *" -encoders "*) printf '%s\\n' 'Encoders:' ' V..... = Video' ' ------' '${list.replaceAll("'", '')}' ' A....D aac                  AAC (Advanced Audio Coding)'; exit 0;;`,
      failures,
      'esac',
      'exit 0',
      '',
    ].join('\n'));
    await chmod(binary, 0o755);
    return { binary, calls: async () => (existsSync(log) ? (await readFile(log, 'utf8')).trim().split('\n') : []) };
  }

  it('auto: with every listed hardware encoder failing its test encode, libx264 and one line naming what was tried', async () => {
    const fake = await fakeFfmpeg('ffmpeg-broken-gpus', ['libx264', 'h264_nvenc', 'h264_vaapi'], { h264_nvenc: 'Cannot load libcuda.so.1', h264_vaapi: 'Failed to initialise VAAPI connection: -1 (unknown libva error).' });
    const { logger, lines } = capturingLogger();
    const choice = await chooseEncoder(fake.binary, 'auto', logger);
    expect(choice.encoder.name).toBe('libx264');
    expect(lines.map((line) => line.msg)).toEqual(['FFMPEG_ENCODER=auto: no hardware H.264 encoder works here (tried h264_nvenc, h264_vaapi); using libx264']);
    const calls = await fake.calls();
    expect(calls[0]).toContain('-encoders');
    // The test encodes are real encodes of a generated picture, with the quality settings a render uses.
    expect(calls.find((call) => call.includes('h264_nvenc'))).toMatch(/-f lavfi -i testsrc2=.*-c:v h264_nvenc -preset p5 -rc vbr -cq 23 .*-f null -$/);
    expect(calls.find((call) => call.includes('h264_vaapi'))).toMatch(/^.*-vaapi_device \/dev\/dri\/renderD128 .*hwupload\[v\].*-c:v h264_vaapi -qp 23/);
  });

  it('auto: the first hardware encoder whose test encode works wins', async () => {
    const fake = await fakeFfmpeg('ffmpeg-qsv', ['libx264', 'h264_nvenc', 'h264_qsv', 'h264_vaapi'], { h264_nvenc: 'No NVENC capable devices found' });
    const choice = await chooseEncoder(fake.binary, 'auto');
    expect(choice.encoder.name).toBe('h264_qsv');
    expect((await fake.calls()).some((call) => call.includes('h264_vaapi'))).toBe(false);
  });

  it('an explicit encoder that fails its test encode falls back to libx264 with a WARNING naming why', async () => {
    const fake = await fakeFfmpeg('ffmpeg-no-cuda', ['libx264', 'h264_nvenc'], { h264_nvenc: 'Cannot load libcuda.so.1' });
    const { logger, lines } = capturingLogger();
    const choice = await chooseEncoder(fake.binary, 'h264_nvenc', logger);
    expect(choice.encoder.name).toBe('libx264');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe(40);
    expect(lines[0]!.msg).toMatch(/^WARNING: FFMPEG_ENCODER=h264_nvenc does not work here \(ffmpeg failed \(exit 1\): Cannot load libcuda\.so\.1\); using libx264$/);
  });

  it('probes once per process and ffmpeg: later renders reuse the answer; the metric names the encoder', async () => {
    const fake = await fakeFfmpeg('ffmpeg-counted', ['libx264', 'h264_nvenc'], { h264_nvenc: 'Cannot load libcuda.so.1' });
    configureRendering({ encoder: 'auto', maxParallel: 2 });
    const [first, second] = await Promise.all([renderEncoder(fake.binary), renderEncoder(fake.binary)]);
    const third = await renderEncoder(fake.binary);
    expect(first.encoder.name).toBe('libx264');
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(await fake.calls()).toHaveLength(2); // one -encoders, one test encode
    expect(await metricsRegistry.getSingleMetricAsString('clipshift_render_encoder_info')).toContain('clipshift_render_encoder_info{encoder="libx264"} 1');
  });

  it('on this machine: explicit h264_nvenc falls back with a WARNING (the npm ffmpeg has no NVENC)', async () => {
    const { logger, lines } = capturingLogger();
    const choice = await chooseEncoder(ffmpeg, 'h264_nvenc', logger);
    expect(choice.encoder.name).toBe('libx264');
    expect(lines.map((line) => line.msg)).toEqual([expect.stringMatching(/^WARNING: FFMPEG_ENCODER=h264_nvenc does not work here \(.+\); using libx264$/)]);
  });

  it.skipIf(existsSync('/dev/dri'))('on this machine (no GPU device): auto tries what the npm ffmpeg lists and settles on libx264', async () => {
    const { logger, lines } = capturingLogger();
    const choice = await chooseEncoder(ffmpeg, 'auto', logger);
    expect(choice.encoder.name).toBe('libx264');
    expect(lines.map((line) => line.msg)).toEqual([expect.stringMatching(/^FFMPEG_ENCODER=auto: no hardware H\.264 encoder works here \(tried .+\); using libx264$/)]);
  });
});
