import { execFile } from 'node:child_process';
import { copyFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { WorkerHandle } from '../../server/src/app/jobs.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '@clipshift/shared';
import { probe } from '../../server/src/engines/media/index.ts';
import { renderVertical } from '../../server/src/engines/media/render.ts';
import { startWorker } from '../../server/src/app/jobs.ts';
import { SUBTITLES_CARRY_ON } from '../../server/src/domains/subtitles/service.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai/index.ts';
import { startFakeTwitch, type FakeTwitch } from '../fakes/twitch/index.ts';
import { callerFor, createTestApp, type TestApp } from '../helpers/app.ts';
import { expectErrorLogs, recordedErrorLogs } from '../helpers/error-logs.ts';
import { expectPlainWords } from '../helpers/plain-words.ts';
import { seedClip, storedClipPath } from '../helpers/clips.ts';
import { clipLoudnessOf } from '../helpers/loudness.ts';
import { waitUntil } from '../helpers/wait.ts';
import { renderLimitMs } from '../helpers/limits.ts';

const execFileAsync = promisify(execFile);

/** One frame as 8-bit gray rows, to compare pictures pixel by pixel. */
async function grayFrame(ffmpeg: string, file: string, atSec: number): Promise<Buffer> {
  const { stdout } = await execFileAsync(ffmpeg, ['-v', 'error', '-ss', String(atSec), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], {
    encoding: 'buffer',
    maxBuffer: 1080 * 1920 * 2,
  });
  return stdout;
}

/** Mean absolute difference of two gray frames over rows [from, to). */
function meanDifference(a: Buffer, b: Buffer, width: number, from: number, to: number): number {
  let sum = 0;
  for (let index = from * width; index < to * width; index += 1) sum += Math.abs(a[index]! - b[index]!);
  return sum / ((to - from) * width);
}

describe('subtitles through an OpenAI-compatible transcription server', () => {
  let openai: FakeOpenAi;
  let twitch: FakeTwitch;
  let app: TestApp;
  let worker: WorkerHandle;
  let user: PublicUser;
  let sourceBytes: Buffer;
  let work: string;

  /** A library clip whose source is a real 3 s clip with audio and whose video is its vertical render. */
  async function seedRealClip(clipId: string): Promise<string> {
    const { readFile } = await import('node:fs/promises');
    sourceBytes ??= await readFile(path.join(work, 'source.mp4'));
    const { dir } = await seedClip(app.deps, user.id, { clip_id: clipId, title: `Clip ${clipId}`, video: sourceBytes });
    const source = path.join(dir, 'source.mp4');
    await renderVertical({ ffmpeg: app.deps.media.ffmpeg, source, output: path.join(dir, 'video.mp4'), layout: 'blur', sourceInfo: await probe(app.deps.media.ffprobe, source) });
    return dir;
  }

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: 'sk-test-key' });
    twitch = await startFakeTwitch();
    app = await createTestApp({ ...twitch.env, TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: openai.url, TRANSCRIBE_API_KEY: 'sk-test-key', WHISPER_MODEL: 'whisper-1' });
    worker = await startWorker(app.deps, app.database.pool, 3);
    user = await app.deps.db.insertInto('users').values({ username: 'subber', password_hash: 'x' }).returning(['id', 'username', 'is_admin']).executeTakeFirstOrThrow();
    work = await mkdtemp(path.join(os.tmpdir(), 'clipshift-subtitles-'));
    await execFileAsync(app.deps.media.ffmpeg, [
      '-y', '-v', 'error',
      '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30:duration=3',
      '-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=48000:duration=3',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', path.join(work, 'source.mp4'),
    ]);
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await openai?.close();
    await twitch?.close();
  });
  beforeEach(() => {
    openai.reset();
    twitch.reset();
  });

  const api = () => callerFor(app.deps, { user }).api;

  it('burns captions into a new render from the source and stores the transcript', async () => {
    openai.setScenario('speech');
    const dir = await seedRealClip('Speechy');
    const before = path.join(work, 'before.mp4');
    await copyFile(path.join(dir, 'video.mp4'), before);

    const result = await api().subtitles.generate({ id: 'Speechy' });
    expect(result).toEqual({ ok: true, message: 'Subtitles generated successfully for clip!' });

    const details = await api().clips.details({ id: 'Speechy' });
    expect(details.subtitled).toBe(true);
    expect(details.transcript).toMatch(/no way/i);
    expect(details.metadata.descriptions.length).toBeGreaterThanOrEqual(3);
    // A fresh hook with the fresh descriptions, about the same clip.
    expect(details.hook_suggestion).toMatch(/Speechy/i);
    expect(openai.uploads.at(-1)).toMatchObject({ model: 'whisper-1', responseFormat: 'verbose_json', authorization: 'Bearer sk-test-key' });

    const after = storedClipPath(app.deps.env.dataDir, `${user.id}/${path.basename(dir)}`, 'video');
    expect(await probe(app.deps.media.ffprobe, after)).toMatchObject({ width: 1080, height: 1920, videoCodec: 'h264' });
    expect((await api().clips.details({ id: 'Speechy' })).loudness).toEqual(await clipLoudnessOf(app.deps.media.ffmpeg, after));
    // At 0.8 s a word is on screen: the caption band differs from the render without subtitles,
    // while the top of the picture (no captions there) stays the same.
    const plain = await grayFrame(app.deps.media.ffmpeg, before, 0.8);
    const captioned = await grayFrame(app.deps.media.ffmpeg, after, 0.8);
    expect(meanDifference(plain, captioned, 1080, 1100, 1420)).toBeGreaterThan(6);
    expect(meanDifference(plain, captioned, 1080, 0, 300)).toBeLessThan(3);
  });

  it('refuses a second request for the same clip while one runs', async () => {
    openai.setScenario('speech');
    await seedRealClip('Twice');
    // The first request's transcription is held at the server, so it is certainly still going.
    openai.hold();
    const first = api().subtitles.generate({ id: 'Twice' });
    await waitUntil(() => openai.pending() === 1, { message: 'the first transcription to reach the server' });
    await expect(api().subtitles.generate({ id: 'Twice' })).rejects.toMatchObject({ code: 'CONFLICT', message: 'Already generating subtitles for clip' });
    openai.release();
    await expect(first).resolves.toMatchObject({ ok: true });
  });

  it('shows the running job on the clip (stage and percent) in the list and the details, and idle once done', async () => {
    openai.setScenario('speech');
    await seedRealClip('Watched');
    const idle = { status: 'idle', stage: null, percent: null, error: null };
    const render = async () => (await api().clips.list({ search: 'Watched' })).clips[0]?.render;
    const details = async () => (await api().clips.details({ id: 'Watched' })).render;
    expect(await render()).toEqual(idle);
    expect(await details()).toEqual(idle);
    openai.hold();
    const generating = api().subtitles.generate({ id: 'Watched' });
    await waitUntil(() => openai.pending() === 1, { message: 'the transcription to reach the server' });
    const transcribing = { status: 'rendering', stage: 'transcribing', percent: 0, error: null };
    expect(await render()).toEqual(transcribing);
    expect(await details()).toEqual(transcribing);
    openai.release();
    // From here on the job moves through rendering and describing; what the clip shows only goes forward.
    const seen: Awaited<ReturnType<typeof render>>[] = [];
    const recorded = async () => {
      const current = await render();
      seen.push(current);
      return current;
    };
    await waitUntil(recorded, { message: 'the clip to be idle again', until: (current) => current?.status === 'idle', intervalMs: 50 });
    await expect(generating).resolves.toMatchObject({ ok: true });
    const percents = seen.filter((state) => state?.status === 'rendering').map((state) => state!.percent!);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(seen.at(-1)).toEqual(idle);
    expect(await details()).toEqual(idle);
    const request = await app.deps.db.selectFrom('subtitle_requests').innerJoin('clips', 'clips.id', 'subtitle_requests.clip_row_id').select(['status', 'percent']).where('clips.clip_id', '=', 'Watched').executeTakeFirstOrThrow();
    expect(request).toEqual({ status: 'done', percent: 100 });
  });

  it('a request ended by another process mid-work (recovery) stops, and the clip keeps its video and stays unsubtitled', async () => {
    openai.setScenario('speech');
    const dir = await seedRealClip('Taken');
    const video = storedClipPath(app.deps.env.dataDir, `${user.id}/${path.basename(dir)}`, 'video');
    const { readFile } = await import('node:fs/promises');
    const before = await readFile(video);
    openai.hold();
    const generating = api().subtitles.generate({ id: 'Taken' });
    await waitUntil(() => openai.pending() === 1, { message: 'the transcription to reach the server' });
    // What recovery does to a request it believes dead: the row has its final word.
    const ended = await app.deps.db
      .updateTable('subtitle_requests')
      .set({ status: 'failed', message: 'Interrupted: the worker stopped', finished_at: new Date() })
      .where('clip_row_id', '=', (qb) => qb.selectFrom('clips').select('id').where('clip_id', '=', 'Taken'))
      .where('status', '=', 'running')
      .executeTakeFirst();
    expect(ended.numUpdatedRows).toBe(1n);
    openai.release();
    await expect(generating).rejects.toMatchObject({ message: 'Interrupted: the worker stopped' });
    // The job saw the row no longer running and stopped: nothing placed, nothing marked.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const details = await api().clips.details({ id: 'Taken' });
    expect(details.subtitled).toBe(false);
    expect(details.transcript).toBeNull();
    expect((await readFile(video)).equals(before)).toBe(true);
    const request = await app.deps.db.selectFrom('subtitle_requests').innerJoin('clips', 'clips.id', 'subtitle_requests.clip_row_id').select(['status', 'message']).where('clips.clip_id', '=', 'Taken').executeTakeFirstOrThrow();
    expect(request).toEqual({ status: 'failed', message: 'Interrupted: the worker stopped' });
  });

  it('finishes a clip without speech as "no speech found" and leaves it unchanged', async () => {
    openai.setScenario('silence');
    await seedRealClip('Quiet');
    const result = await api().subtitles.generate({ id: 'Quiet' });
    expect(result).toMatchObject({ ok: false, no_speech: true, message: 'No speech found in this clip: there is nothing to subtitle' });
    expect((await api().clips.details({ id: 'Quiet' })).subtitled).toBe(false);
  });

  it('answers BAD_GATEWAY naming the failure when transcription fails', async () => {
    expectErrorLogs(/^Subtitles for "Clip Failing" failed: The transcription server answered HTTP 500/);
    openai.setScenario('speech');
    await seedRealClip('Failing');
    openai.failNext({ status: 500, times: 10 });
    await expect(api().subtitles.generate({ id: 'Failing' })).rejects.toMatchObject({ code: 'BAD_GATEWAY', message: expect.stringMatching(/^Subtitle generation failed: /) });
    expect((await api().clips.details({ id: 'Failing' })).subtitled).toBe(false);
    // The clip says so until the next attempt (which the server answers this time).
    openai.reset();
    const failed = { status: 'failed', stage: 'transcribing', percent: null, error: 'Subtitle generation failed: The transcription server answered HTTP 500: The server had an error while processing your request.' };
    expect((await api().clips.details({ id: 'Failing' })).render).toEqual(failed);
    expect((await api().clips.list({ search: 'Failing' })).clips[0]?.render).toEqual(failed);
    openai.hold();
    const again = api().subtitles.generate({ id: 'Failing' });
    await waitUntil(() => openai.pending() === 1, { message: 'the second attempt to reach the server' });
    expect((await api().clips.details({ id: 'Failing' })).render).toMatchObject({ status: 'rendering', error: null });
    openai.release();
    await expect(again).resolves.toMatchObject({ ok: true });
    expect((await api().clips.details({ id: 'Failing' })).render.status).toBe('idle');
  });

  it('answers a failed transcription in plain words: not the server’s address, not its page, not a stack', async () => {
    expectErrorLogs(/^Subtitles for "Clip Portal" failed: /);
    const page = '<html><head><title>Gateway</title></head><body>internal gateway gw-7.corp: upstream transcription pool at 10.20.30.40 is full</body></html>';
    await seedRealClip('Portal');
    // A gateway in front of the server answers with its own page: for a 200, that is no transcription at all.
    openai.failNext({ status: 200, times: 1, page });
    const failure = await api().subtitles.generate({ id: 'Portal' }).then(
      () => expect.fail('the transcription cannot have worked'),
      (error: Error) => error,
    );
    expect(failure).toMatchObject({ code: 'BAD_GATEWAY', message: 'Subtitle generation failed: The transcription server’s answer could not be read (it is not JSON)' });
    const internals = [openai.url, '127.0.0.1', '/v1/audio/transcriptions', '<html', 'gateway gw-7', '10.20.30.40'];
    expectPlainWords(failure.message, 'the 502 answer', internals);
    expectPlainWords((await api().clips.details({ id: 'Portal' })).render.error, 'the clip’s render error', internals);
    const rows = await api().logs.list({ limit: 500 });
    expect(rows.map((row) => row.message)).toContain('Subtitles for "Clip Portal" failed: The transcription server’s answer could not be read (it is not JSON)');
    for (const row of rows) {
      expectPlainWords(row.message, `the log message "${row.message}"`, internals);
      expectPlainWords(row.exception, `the exception of "${row.message}"`, internals);
    }
    // The server's own log says where it went and what came back.
    const logged = recordedErrorLogs().find((line) => line.msg.startsWith('Subtitles for "Clip Portal" failed'));
    expect(logged?.raw).toContain(`${openai.url}/v1/audio/transcriptions`);
    expect(logged?.raw).toContain('internal gateway gw-7.corp');
  });

  it('answers 503 that the work carries on when the transcription server stalls past the held-call limit, and finishes it in the background', async () => {
    openai.setScenario('speech');
    await seedRealClip('Stalled');
    openai.hold();
    const impatient = callerFor({ ...app.deps, heldCallLimitMs: 1_000 }, { user }).api;
    let answer: unknown;
    void impatient.subtitles.generate({ id: 'Stalled' }).then(
      (value) => (answer = value),
      (error: unknown) => (answer = error),
    );
    await waitUntil(() => openai.pending(), { message: 'the transcription to stall at the server', until: (held) => held === 1 });
    await waitUntil(() => answer, { message: 'the held call to answer once its limit passed', timeoutMs: 30_000 });
    expect(answer).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: SUBTITLES_CARRY_ON });
    // The transcription is still under way: the answer did not stop it.
    expect(openai.pending()).toBe(1);
    openai.release();
    await waitUntil(async () => (await api().clips.details({ id: 'Stalled' })).subtitled, { message: 'the subtitles to be made in the background', timeoutMs: 90_000 });
  }, 120_000);

  it('transcribes before the single render when the streamer has auto_subtitle', async () => {
    openai.setScenario('speech');
    twitch.addBroadcaster({ login: 'talker' });
    twitch.addClip({ broadcaster: 'talker', title: 'he said what', view_count: 10 });
    await api().streamers.create({ name: 'talker', auto_subtitle: true, clip_limit: 1 });
    const uploadsBefore = openai.uploads.length;
    await api().downloads.start({ name: 'talker' });
    const status = await waitUntil(async () => (await api().downloads.status()).talker, {
      until: (entry) => entry !== undefined && !['downloading', 'stopping'].includes(entry.status),
      message: 'the talker run',
      timeoutMs: renderLimitMs(1),
    });
    expect(status).toMatchObject({ status: 'completed', clips_downloaded: 1 });
    const clip = await app.deps.db.selectFrom('clips').selectAll().where('streamer_name', '=', 'talker').executeTakeFirstOrThrow();
    expect(clip).toMatchObject({ subtitled: true, format_type: 'vertical', width: 1080, height: 1920 });
    expect(clip.transcript).toMatch(/no way/i);
    expect(openai.uploads.length).toBe(uploadsBefore + 1);
    // Suggestions were written with the transcript at hand, and a hook with them.
    expect(clip.descriptions.length).toBeGreaterThanOrEqual(3);
    expect(clip.hook_suggestion).toEqual(expect.any(String));
  });

  it('answers 404 for a clip that is not the caller’s', async () => {
    await expect(api().subtitles.generate({ id: 'NoSuchClip' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
