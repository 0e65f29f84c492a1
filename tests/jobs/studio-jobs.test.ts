import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClipRender, PublicUser, Rect, TranscriptWordDto } from '@clipshift/shared';
import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { startWorker } from '../../server/src/app/jobs.ts';
import { CLIP_FILES, workRoot } from '../../server/src/domains/clips/files.ts';
import { recoverDeadWork } from '../../server/src/jobs/recovery.ts';
import { probe, renderClip } from '../../server/src/engines/media/index.ts';
import { LOUDNESS_TARGET } from '../../server/src/engines/media/loudness.ts';
import { splitBandHeight, VERTICAL_HEIGHT, VERTICAL_WIDTH } from '../../server/src/engines/media/filters.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai/index.ts';
import { callerFor, createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { clipLoudnessOf } from '../helpers/loudness.ts';
import { seedStreamer } from '../helpers/streamers.ts';
import { waitUntil } from '../helpers/wait.ts';
import { errorBody, RestClient } from '../rest/client.ts';
import { renderLimitMs, renderTestLimitMs } from '../helpers/limits.ts';

const execFileAsync = promisify(execFile);

/*
 * The studio's jobs through the real worker, real ffmpeg and real PostgreSQL: re-renders of a
 * clip's settings (progress, stop, conflicts), captions in the chosen style and position, edited
 * words surviving re-renders and subtitle requests, the glossary reaching speech recognition, and
 * loudness normalisation of the job's output.
 *
 * Sources are a grey moving pattern (no saturated colour), optionally with a pure red block where
 * the streamer's camera sits (top left), so red in an output can only be the camera and green only
 * a caption.
 */
const WIDTH = 640;
const HEIGHT = 360;
const CAMERA: Rect = { x: 0, y: 0, w: 0.25, h: 1 / 3 };

/** A -30 LUFS 1 kHz tone (sine's default amplitude is about -21 LUFS). */
const QUIET_TONE = (seconds: number) => `sine=frequency=1000:sample_rate=48000:duration=${seconds},volume=-9dB`;

async function makeSource(file: string, seconds: number, camera: boolean): Promise<void> {
  const picture = [`testsrc2=size=${WIDTH}x${HEIGHT}:rate=25:duration=${seconds}`, 'hue=s=0'];
  if (camera) picture.push(`drawbox=x=0:y=0:w=${WIDTH * CAMERA.w}:h=${HEIGHT * CAMERA.h}:color=red:t=fill`);
  await execFileAsync(app.deps.media.ffmpeg, [
    '-y', '-v', 'error',
    '-f', 'lavfi', '-i', picture.join(','),
    '-f', 'lavfi', '-i', QUIET_TONE(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', '-c:a', 'aac', '-b:a', '192k', '-shortest', file,
  ]);
}

interface RgbFrame {
  width: number;
  height: number;
  pixels: Buffer;
}

async function rgbFrame(file: string, atSec: number): Promise<RgbFrame> {
  const { stdout } = await execFileAsync(app.deps.media.ffmpeg, ['-v', 'error', '-ss', atSec.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    encoding: 'buffer',
    maxBuffer: VERTICAL_WIDTH * VERTICAL_HEIGHT * 4,
  });
  expect(stdout.length).toBe(VERTICAL_WIDTH * VERTICAL_HEIGHT * 3);
  return { width: VERTICAL_WIDTH, height: VERTICAL_HEIGHT, pixels: stdout };
}

type Colour = 'red' | 'green';

/** Share (0..1) of the pixels of rows [from, to) that are clearly `colour`. */
function colourShare(frame: RgbFrame, colour: Colour, from = 0, to = frame.height): number {
  let hits = 0;
  for (let row = from; row < to; row += 1) {
    for (let column = 0; column < frame.width; column += 1) {
      const index = (row * frame.width + column) * 3;
      const [r, g, b] = [frame.pixels[index]!, frame.pixels[index + 1]!, frame.pixels[index + 2]!];
      if (colour === 'red' ? r > 180 && g < 70 && b < 70 : g > 180 && r < 70 && b < 70) hits += 1;
    }
  }
  return hits / ((to - from) * frame.width);
}

/** Mean absolute difference of two frames over rows [from, to), all channels. */
function meanDifference(a: RgbFrame, b: RgbFrame, from: number, to: number): number {
  let sum = 0;
  for (let index = from * a.width * 3; index < to * a.width * 3; index += 1) sum += Math.abs(a.pixels[index]! - b.pixels[index]!);
  return sum / ((to - from) * a.width * 3);
}

async function durationOf(file: string): Promise<number> {
  const { stdout } = await execFileAsync(app.deps.media.ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

/** Integrated loudness as ffmpeg's EBU R128 scanner reports it. */
async function integratedLoudness(file: string): Promise<number> {
  const { stderr } = await execFileAsync(app.deps.media.ffmpeg, ['-hide_banner', '-nostats', '-i', file, '-map', '0:a:0', '-af', 'ebur128', '-f', 'null', '-']);
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  expect(integrated, summary).not.toBeNull();
  return Number(integrated![1]);
}

let app: TestApp;
let server: TestServer;
let worker: WorkerHandle;
let openai: FakeOpenAi;
let rest: RestClient;
let user: PublicUser;
let streamerId: string;
let work: string;
let shortSource: string;
let longSource: string;
let plainSource: string;

const api = () => callerFor(app.deps, { user }).api;
const IDLE: ClipRender = { status: 'idle', stage: null, percent: null, error: null };

/**
 * A library clip of the test streamer whose source is `source` and whose video is a plain blur
 * render of it (what an earlier download left), or a copy of the source with `rendered` false.
 */
async function seedRealClip(clipId: string, source: string, rendered = true): Promise<string> {
  const bytes = await readFile(source);
  const { id, dir } = await seedClip(app.deps, user.id, { clip_id: clipId, video: bytes });
  const info = await probe(app.deps.media.ffprobe, path.join(dir, CLIP_FILES.source));
  if (rendered) await renderClip({ ffmpeg: app.deps.media.ffmpeg, source: path.join(dir, CLIP_FILES.source), output: path.join(dir, CLIP_FILES.video), sourceInfo: info, layout: 'blur' });
  await app.deps.db.updateTable('clips').set({ streamer_id: streamerId, duration: info.durationSec, output_duration: info.durationSec }).where('id', '=', id).execute();
  return dir;
}

/** Marks the clip subtitled with these words, as a finished subtitle job leaves it. */
async function giveTranscript(clipId: string, words: TranscriptWordDto[]): Promise<void> {
  await app.deps.db
    .updateTable('clips')
    .set({ subtitled: true, transcript: words.map((word) => word.text).join(' '), transcript_words: JSON.stringify(words), transcript_language: 'en', transcript_edited: false })
    .where('clip_id', '=', clipId)
    .execute();
}

const renderState = async (clipId: string) => (await api().clips.details({ id: clipId })).render;

/** Asks for a re-render over REST and waits until the clip is idle again; returns the states seen. */
async function renderAndWait(clipId: string): Promise<ClipRender[]> {
  const reply = await rest.post(`/api/clips/${clipId}/render`);
  expect(reply.status, reply.text).toBe(202);
  expect(reply.body).toEqual({ message: 'Rendering the clip again with its settings' });
  const seen: ClipRender[] = [];
  await waitUntil(
    async () => {
      const state = await renderState(clipId);
      seen.push(state);
      return state;
    },
    { until: (state) => state.status === 'idle' || state.status === 'failed', message: `the render of ${clipId} to end`, intervalMs: 100, timeoutMs: renderLimitMs(1) },
  );
  expect(seen.at(-1)).toEqual(IDLE);
  return seen;
}

/** Folders of render jobs still in the work area (a job removes its own when it ends). */
function renderWorkFolders(): string[] {
  const root = workRoot(app.deps.env.dataDir);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => path.basename(name).startsWith('render-'));
}

beforeAll(async () => {
  openai = await startFakeOpenAi({ apiKey: 'sk-test-key' });
  app = await createTestApp({ TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: openai.url, TRANSCRIBE_API_KEY: 'sk-test-key', WHISPER_MODEL: 'whisper-1' });
  worker = await startWorker(app.deps, app.database.pool, 2);
  server = await startTestServer(app.deps);
  rest = new RestClient(server.baseUrl);
  // The first account may always register.
  const registered = await rest.post('/api/register', { username: 'studio', password: 'studio-password' });
  expect(registered.status, registered.text).toBe(201);
  await rest.login('studio', 'studio-password');
  user = await app.deps.db.selectFrom('users').select(['id', 'username', 'is_admin']).where('username', '=', 'studio').executeTakeFirstOrThrow();
  streamerId = await seedStreamer(app.deps, user.id, 'studiostreamer');
  await app.deps.db
    .updateTable('streamers')
    .set({ facecam: JSON.stringify(CAMERA), glossary: JSON.stringify(['Shroud', 'KEKW']) })
    .where('id', '=', streamerId)
    .execute();
  work = await mkdtemp(path.join(os.tmpdir(), 'clipshift-studio-jobs-'));
  [shortSource, longSource, plainSource] = ['short', 'long', 'plain'].map((name) => path.join(work, `${name}.mp4`)) as [string, string, string];
  await makeSource(shortSource, 4, true);
  await makeSource(longSource, 40, true);
  await makeSource(plainSource, 4, false);
}, renderTestLimitMs(1));

afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await app?.close();
  await openai?.close();
});

beforeEach(() => {
  openai.reset();
});

describe('re-rendering a clip with its settings', { timeout: renderTestLimitMs(2) }, () => {
  it('renders the split layout and the trim in one encode, loudness-normalised, with progress on the clip', async () => {
    const dir = await seedRealClip('Split', shortSource);
    await api().studio.edit({ id: 'Split', layout: 'split', trim_start: 1, trim_end: 3 });
    const thumbnailBefore = await readFile(path.join(dir, CLIP_FILES.thumbnail));

    const seen = await renderAndWait('Split');
    // queued or rendering with a percent before idle, and the percent only goes forward.
    const busy = seen.filter((state) => state.status !== 'idle');
    expect(busy.length).toBeGreaterThan(0);
    for (const state of busy) expect(['queued', 'rendering']).toContain(state.status);
    const percents = busy.filter((state) => state.status === 'rendering').map((state) => state.percent!);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    for (const state of busy.filter((each) => each.status === 'rendering')) expect(state.stage).toBe('rendering');

    const video = path.join(dir, CLIP_FILES.video);
    expect(Math.abs((await durationOf(video)) - 2)).toBeLessThanOrEqual(0.1);
    const frame = await rgbFrame(video, 0.5);
    const band = splitBandHeight(0.35);
    expect(colourShare(frame, 'red', 0, band - 8)).toBeGreaterThan(0.97);
    expect(colourShare(frame, 'red', band + 8, VERTICAL_HEIGHT)).toBe(0);

    const details = await api().clips.details({ id: 'Split' });
    expect(details.output_duration).toBeCloseTo(2, 0);
    expect(Math.abs(details.output_duration - 2)).toBeLessThanOrEqual(0.1);
    expect(details.duration).toBeCloseTo(4, 0);
    const row = await app.deps.db.selectFrom('clips').select(['size_bytes', 'width', 'height']).where('clip_id', '=', 'Split').executeTakeFirstOrThrow();
    expect({ ...row, size_bytes: Number(row.size_bytes) }).toEqual({ size_bytes: (await stat(video)).size, width: VERTICAL_WIDTH, height: VERTICAL_HEIGHT });
    // A fresh thumbnail of the new video.
    const thumbnail = await readFile(path.join(dir, CLIP_FILES.thumbnail));
    expect(thumbnail.equals(thumbnailBefore)).toBe(false);
    expect((await probe(app.deps.media.ffprobe, path.join(dir, CLIP_FILES.thumbnail))).width).toBe(480);

    // normalize_audio is on by default: the -30 LUFS source comes out at -14 ± 1 LUFS.
    expect(Math.abs((await integratedLoudness(path.join(dir, CLIP_FILES.source))) - -30)).toBeLessThan(1.5);
    expect(Math.abs((await integratedLoudness(video)) - LOUDNESS_TARGET.integrated)).toBeLessThanOrEqual(1);
    // The clip shows what the new video measures (issue 20), in the API's shape.
    const loudness = await clipLoudnessOf(app.deps.media.ffmpeg, video);
    expect(loudness.true_peak_dbtp).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeak);
    expect((await api().clips.details({ id: 'Split' })).loudness).toEqual(loudness);
    expect((await rest.get('/api/clips/Split')).body).toMatchObject({ loudness });
    expect(renderWorkFolders()).toEqual([]);
  });

  it('refuses a second job while one runs, stops within a second, and leaves the previous video as it was', async () => {
    // The previous video only has to stay byte for byte: a copy of the source saves an encode.
    const dir = await seedRealClip('Long', longSource, false);
    const video = path.join(dir, CLIP_FILES.video);
    const before = await readFile(video);

    expect(await rest.post('/api/clips/Long/render')).toMatchObject({ status: 202 });
    // The encode is under way (ffmpeg reports progress): the stop must kill it, not wait for it.
    await waitUntil(() => renderState('Long'), { until: (state) => state.status === 'rendering' && state.percent! > 0, message: 'the encode to report progress', intervalMs: 100, timeoutMs: renderLimitMs(1) });

    const again = await rest.post('/api/clips/Long/render');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject(errorBody('CONFLICT', 'This clip is already being rendered'));
    const subtitles = await rest.post('/api/subtitle/Long');
    expect(subtitles.status).toBe(409);
    expect(subtitles.body).toMatchObject({ message: 'This clip is already being rendered', ok: false });

    const stopped = await rest.post('/api/clips/Long/render/stop');
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.body).toEqual({ message: 'Render stopped' });
    expect(await renderState('Long')).toEqual(IDLE);
    await waitUntil(() => renderWorkFolders(), { until: (folders) => folders.length === 0, message: 'the stopped job to end', intervalMs: 50 });

    expect((await readFile(video)).equals(before)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([CLIP_FILES.source, CLIP_FILES.thumbnail, CLIP_FILES.video].sort());
    const request = await app.deps.db.selectFrom('subtitle_requests').innerJoin('clips', 'clips.id', 'subtitle_requests.clip_row_id').select(['status', 'kind']).where('clips.clip_id', '=', 'Long').executeTakeFirstOrThrow();
    expect(request).toEqual({ status: 'stopped', kind: 'render' });

    const none = await rest.post('/api/clips/Long/render/stop');
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject(errorBody('CONFLICT', 'No render is running for this clip'));
  });

  it('ends the re-renders of a dead process as failed, and queued ones whose job is gone, so the clip can render again', async () => {
    await seedRealClip('Orphaned', shortSource, false);
    await seedRealClip('Jobless', shortSource, false);
    const rowId = async (clipId: string) => (await app.deps.db.selectFrom('clips').select('id').where('clip_id', '=', clipId).executeTakeFirstOrThrow()).id;
    // A process of this host that has exited: its pid is free.
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    await app.deps.db
      .insertInto('subtitle_requests')
      .values([
        { user_id: user.id, clip_row_id: await rowId('Orphaned'), model: null, kind: 'render', status: 'running', stage: 'rendering', percent: 40, owner_host: os.hostname(), owner_pid: deadPid, owner_instance: 'a-dead-instance', heartbeat_at: new Date() },
        { user_id: user.id, clip_row_id: await rowId('Jobless'), model: null, kind: 'render' },
      ])
      .execute();
    expect(await renderState('Orphaned')).toMatchObject({ status: 'rendering', percent: 40 });

    // The dead owner's pid is gone on this host: no need to trust silence, which would also take
    // this test's worker (registered without main.ts's heartbeat) for dead once a minute has passed.
    const report = await recoverDeadWork(app.deps, { host: os.hostname(), pid: process.pid, instance: 'a-recovering-instance' }, { staleVerdicts: false });
    expect(report.subtitles).toBe(2);
    expect(await renderState('Orphaned')).toEqual({ status: 'failed', stage: 'rendering', percent: null, error: 'The render was interrupted by a restart. Please try again.' });
    expect(await renderState('Jobless')).toEqual({ status: 'failed', stage: null, percent: null, error: 'The render never started: its job was lost. Please try again.' });
    await renderAndWait('Orphaned');
  });

  it('makes a clip kept horizontal vertical with a layout, and back; format_type follows the rendered video', async () => {
    const dir = await seedRealClip('Wide', shortSource, false);
    await app.deps.db.updateTable('clips').set({ format_type: 'horizontal', width: WIDTH, height: HEIGHT }).where('clip_id', '=', 'Wide').execute();
    const formats = async () => {
      const details = await api().clips.details({ id: 'Wide' });
      return { format_type: details.format_type, downloaded_format: details.downloaded_format, edit: details.edit.format, size: [details.width, details.height] };
    };
    expect(await formats()).toEqual({ format_type: 'horizontal', downloaded_format: 'horizontal', edit: null, size: [WIDTH, HEIGHT] });

    const vertical = await rest.request('PUT', '/api/clips/Wide/edit', { json: { format: 'vertical', layout: 'split' } });
    expect(vertical.status, vertical.text).toBe(200);
    await renderAndWait('Wide');
    expect(await formats()).toEqual({ format_type: 'vertical', downloaded_format: 'horizontal', edit: 'vertical', size: [VERTICAL_WIDTH, VERTICAL_HEIGHT] });
    // The streamer's split layout: its camera (red) fills the top band.
    const frame = await rgbFrame(path.join(dir, CLIP_FILES.video), 1);
    expect(colourShare(frame, 'red', 0, splitBandHeight(0.35) - 8)).toBeGreaterThan(0.97);

    const back = await rest.request('PUT', '/api/clips/Wide/edit', { json: { format: 'horizontal' } });
    expect(back.status, back.text).toBe(200);
    await renderAndWait('Wide');
    expect(await formats()).toEqual({ format_type: 'horizontal', downloaded_format: 'horizontal', edit: 'horizontal', size: [WIDTH, HEIGHT] });
    expect(await probe(app.deps.media.ffprobe, path.join(dir, CLIP_FILES.video))).toMatchObject({ width: WIDTH, height: HEIGHT });
  });

  it('answers 404 for a clip that is not there', async () => {
    const render = await rest.post('/api/clips/NoSuchClip/render');
    expect(render.status).toBe(404);
    expect((await rest.post('/api/clips/NoSuchClip/render/stop')).status).toBe(404);
  });
});

describe('captions of a re-render', { timeout: renderTestLimitMs(3) }, () => {
  const WORDS: TranscriptWordDto[] = [
    { text: 'hello', start: 0.2, end: 1.2 },
    { text: 'there', start: 1.2, end: 2.2 },
    { text: 'chat', start: 2.2, end: 3.6 },
  ];
  const GREEN = { primary_color: '#00FF00', highlight_color: '#00FF00' } as const;

  it('draws the style\'s colour centred on its position', async () => {
    const dir = await seedRealClip('Placed', plainSource);
    await giveTranscript('Placed', WORDS);
    await api().studio.edit({ id: 'Placed', caption_style: { preset: 'classic', ...GREEN, position: 0.3 } });
    await renderAndWait('Placed');
    const frame = await rgbFrame(path.join(dir, CLIP_FILES.video), 1.5);
    const centre = Math.round(0.3 * VERTICAL_HEIGHT);
    expect(colourShare(frame, 'green', centre - 60, centre + 60)).toBeGreaterThan(0.01);
    const low = Math.round(0.7 * VERTICAL_HEIGHT);
    expect(colourShare(frame, 'green', low - 100, low + 100)).toBe(0);
    // Nothing green anywhere but around the chosen position.
    expect(colourShare(frame, 'green', 0, centre - 150)).toBe(0);
    expect(colourShare(frame, 'green', centre + 150, VERTICAL_HEIGHT)).toBe(0);
  });

  it('burns edited words, keeps them through re-renders and subtitle requests, and replaces them only on retranscribe', async () => {
    const dir = await seedRealClip('Edited', plainSource);
    const video = path.join(dir, CLIP_FILES.video);
    await giveTranscript('Edited', WORDS);
    await api().studio.edit({ id: 'Edited', caption_style: { preset: 'classic', position: 0.5 } });
    await renderAndWait('Edited');
    const original = await rgbFrame(video, 1.6);
    const band = [VERTICAL_HEIGHT / 2 - 120, VERTICAL_HEIGHT / 2 + 120] as const;

    // The word on screen at 1.6 s becomes a longer one, upper-cased by the style.
    await rest.request('PUT', `/api/clips/Edited/transcript`, { json: { words: [WORDS[0], { ...WORDS[1], text: 'everybody' }, WORDS[2]] } });
    await api().studio.edit({ id: 'Edited', caption_style: { preset: 'classic', position: 0.5, uppercase: true } });
    await renderAndWait('Edited');
    const edited = await rgbFrame(video, 1.6);
    expect(meanDifference(original, edited, band[0], band[1])).toBeGreaterThan(3);
    // The picture away from the captions is the same render.
    expect(meanDifference(original, edited, 0, 600)).toBeLessThan(2);

    // A second render burns the same words.
    await renderAndWait('Edited');
    expect(meanDifference(edited, await rgbFrame(video, 1.6), band[0], band[1])).toBeLessThan(1.5);

    // A subtitle request without retranscribe burns the saved words: no speech recognition at all.
    expect(await api().subtitles.generate({ id: 'Edited' })).toMatchObject({ ok: true });
    expect(openai.requestCount()).toBe(0);
    expect(meanDifference(edited, await rgbFrame(video, 1.6), band[0], band[1])).toBeLessThan(1.5);
    const kept = await api().studio.transcript({ id: 'Edited' });
    expect(kept.edited).toBe(true);
    expect(kept.words.map((word) => word.text)).toEqual(['hello', 'everybody', 'chat']);

    // retranscribe: speech recognition again, with the streamer's glossary as its prompt.
    const fresh = await rest.post('/api/subtitle/Edited', { retranscribe: true });
    expect(fresh.status, fresh.text).toBe(200);
    expect(openai.requestCount()).toBe(1);
    expect(openai.uploads.at(-1)?.prompt).toBe('Shroud, KEKW');
    const replaced = await api().studio.transcript({ id: 'Edited' });
    expect(replaced.edited).toBe(false);
    expect(replaced.words.map((word) => word.text).join(' ')).toBe('Oh my god, no way! Did you see that?');
    const request = await app.deps.db.selectFrom('subtitle_requests').innerJoin('clips', 'clips.id', 'subtitle_requests.clip_row_id').select(['retranscribe']).where('clips.clip_id', '=', 'Edited').where('kind', '=', 'subtitles').orderBy('subtitle_requests.created_at').execute();
    expect(request.map((row) => row.retranscribe)).toEqual([false, true]);
  });

  it('gives speech recognition the streamer\'s glossary on a first subtitle request', async () => {
    await seedRealClip('Glossary', plainSource);
    expect(await api().subtitles.generate({ id: 'Glossary' })).toMatchObject({ ok: true });
    expect(openai.uploads).toHaveLength(1);
    expect(openai.uploads[0]!.prompt).toBe('Shroud, KEKW');
    const transcript = await api().studio.transcript({ id: 'Glossary' });
    expect(transcript).toMatchObject({ edited: false, language: expect.any(String) });
    expect(transcript.words.length).toBeGreaterThan(3);
  });
});
