import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CAPTION_PRESET_STYLES, clipDetails, clipTranscript, GLOSSARY_MAX_TERMS, RECT_RULE, streamer as streamerSchema } from '@clipshift/shared';
import { instanceWorkDir } from '../../server/src/domains/clips/files.ts';
import { IMAGES_BUSY } from '../../server/src/domains/studio/service.ts';
import { PROCESS_IDENTITY } from '../../server/src/platform/identity.ts';
import { createSlots } from '../../server/src/platform/slots.ts';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '../helpers/app.ts';
import { seedClip } from '../helpers/clips.ts';
import { adminAndMember, bodyOf, errorBody, type Reply, type RestClient, userIdOf } from './client.ts';

const execFileAsync = promisify(execFile);

/*
 * The synthetic source: a grey moving pattern (no saturated colour), a pure red block where the
 * streamer's camera sits (top left) and a pure green strip at the right edge, so a saturated colour
 * in a picture can only come from one of them (or from captions drawn in a colour of our choosing).
 */
const WIDTH = 640;
const HEIGHT = 360;
const SECONDS = 4;
const CAMERA = { x: 0, y: 0, w: 0.25, h: 1 / 3 };
const GAMEPLAY = { x: 0.6, y: 0, w: 0.4, h: 1 };
const WORDS = [
  { start: 0.5, end: 0.9, text: 'hello' },
  { start: 1, end: 1.4, text: 'world' },
];

interface Image {
  status: number;
  contentType: string;
  cacheControl: string | null;
  retryAfter: string | null;
  bytes: Buffer;
  /** The JSON error body, when the answer is one. */
  json: unknown;
}

interface RgbFrame {
  width: number;
  height: number;
  pixels: Buffer;
}

type Colour = 'red' | 'green' | 'magenta';

function isColour(frame: RgbFrame, index: number, colour: Colour): boolean {
  const [r, g, b] = [frame.pixels[index]!, frame.pixels[index + 1]!, frame.pixels[index + 2]!];
  if (colour === 'red') return r > 180 && g < 70 && b < 70;
  if (colour === 'green') return g > 180 && r < 70 && b < 70;
  return r > 180 && b > 180 && g < 70;
}

/** Share (0..1) of the pixels of rows [from, to) that are clearly `colour`. */
function colourShare(frame: RgbFrame, colour: Colour, from = 0, to = frame.height): number {
  let hits = 0;
  for (let row = from; row < to; row += 1) {
    for (let column = 0; column < frame.width; column += 1) {
      if (isColour(frame, (row * frame.width + column) * 3, colour)) hits += 1;
    }
  }
  return hits / ((to - from) * frame.width);
}

describe('REST studio: edits, transcripts, frames and previews', () => {
  let app: TestApp;
  let server: TestServer;
  let alice: RestClient;
  let bob: RestClient;
  let aliceId: string;
  let dir: string;
  let ffmpeg: string;
  let ffprobe: string;
  /** A vertical clip of alice's with the synthetic source, no streamer (its settings are the defaults). */
  const CLIP = 'StudioClip';
  /** The same source kept horizontal. */
  const HORIZONTAL = 'StudioWide';
  /** A clip of alice's streamer "camstream", whose facecam is the red block. */
  const STREAMER_CLIP = 'StudioStreamerClip';

  async function makeSource(file: string): Promise<void> {
    const picture = [
      `testsrc2=size=${WIDTH}x${HEIGHT}:rate=25:duration=${SECONDS}`,
      'hue=s=0',
      `drawbox=x=0:y=0:w=${WIDTH * CAMERA.w}:h=${HEIGHT * CAMERA.h}:color=red:t=fill`,
      `drawbox=x=${WIDTH - 80}:y=0:w=80:h=${HEIGHT}:color=lime:t=fill`,
    ].join(',');
    await execFileAsync(ffmpeg, ['-y', '-v', 'error', '-f', 'lavfi', '-i', picture, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25', file]);
  }

  async function seedStudioClip(clipId: string, source: Buffer, fields: { format_type?: 'vertical' | 'horizontal'; streamer?: string } = {}): Promise<void> {
    const { id } = await seedClip(app.deps, aliceId, { clip_id: clipId, streamer_name: fields.streamer ?? 'nobody', video: source });
    const streamerId = fields.streamer
      ? (await app.deps.db.selectFrom('streamers').select('id').where('name', '=', fields.streamer).executeTakeFirstOrThrow()).id
      : null;
    await app.deps.db
      .updateTable('clips')
      .set({ duration: SECONDS, output_duration: SECONDS, format_type: fields.format_type ?? 'vertical', streamer_id: streamerId })
      .where('id', '=', id)
      .execute();
  }

  /** A JPEG route's answer as bytes (the JSON client would mangle them). */
  async function image(client: RestClient | null, method: 'GET' | 'POST', url: string, json?: unknown): Promise<Image> {
    const headers: Record<string, string> = {};
    if (client?.cookie) headers.cookie = client.cookie;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.baseUrl}${url}`, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const bytes = Buffer.from(await response.arrayBuffer());
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', cacheControl: response.headers.get('cache-control'), retryAfter: response.headers.get('retry-after'), bytes, json: parsed };
  }

  /** A 200 JPEG answer (SOI and EOI markers), decoded: its size as ffprobe reads it and its RGB pixels. */
  async function decode(answer: Image): Promise<RgbFrame> {
    expect(answer.status, answer.bytes.toString('utf8', 0, 300)).toBe(200);
    expect(answer.contentType).toBe('image/jpeg');
    expect(answer.cacheControl).toBe('private, no-store');
    expect([...answer.bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect([...answer.bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
    const file = path.join(dir, `answer-${crypto.randomUUID()}.jpg`);
    await writeFile(file, answer.bytes);
    const { stdout } = await execFileAsync(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
    const [width, height] = stdout.trim().split(',').map(Number) as [number, number];
    const raw = await execFileAsync(ffmpeg, ['-v', 'error', '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', maxBuffer: width * height * 4 });
    expect(raw.stdout.length).toBe(width * height * 3);
    return { width, height, pixels: raw.stdout };
  }

  const expectError = (reply: Pick<Reply, 'status' | 'body'>, status: number, code: string, message: string) => {
    expect({ status: reply.status, body: reply.body }).toMatchObject({ status, body: errorBody(code, message) });
  };

  beforeAll(async () => {
    app = await createTestApp();
    ({ ffmpeg, ffprobe } = app.deps.media);
    server = await startTestServer(app.deps);
    ({ admin: alice, member: bob } = await adminAndMember(server.baseUrl));
    aliceId = await userIdOf(alice);
    dir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-studio-rest-'));
    const sourceFile = path.join(dir, 'source.mp4');
    await makeSource(sourceFile);
    const source = await readFile(sourceFile);
    expect((await alice.post('/api/streamers', { name: 'camstream', layout: 'split', facecam: CAMERA, gameplay: GAMEPLAY })).status).toBe(201);
    await seedStudioClip(CLIP, source);
    await seedStudioClip(HORIZONTAL, source, { format_type: 'horizontal' });
    await seedStudioClip(STREAMER_CLIP, source, { streamer: 'camstream' });
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });

  describe('PUT /api/clips/{id}/edit', () => {
    it('saves overrides, shows them with the effective trim, and null gives the streamer setting back', async () => {
      const saved = await alice.request('PUT', `/api/clips/${CLIP}/edit`, {
        json: { layout: 'crop', crop_focus: 0.3, trim_start: 0.5, trim_end: 3.5, caption_style: { preset: 'bold', size: 90 }, normalize_audio: false },
      });
      expect(saved.status, saved.text).toBe(200);
      const clip = bodyOf(saved, clipDetails);
      expect(clip.edit).toEqual({
        format: null,
        layout: 'crop',
        crop_focus: 0.3,
        facecam: null,
        gameplay: null,
        split_ratio: null,
        facecam_off: null,
        caption_style: { ...CAPTION_PRESET_STYLES.bold, size: 90 },
        trim_start: 0.5,
        trim_end: 3.5,
        normalize_audio: false,
        hook: null,
        brand: null,
      });
      expect([clip.trim_start, clip.trim_end, clip.duration]).toEqual([0.5, 3.5, SECONDS]);
      // Fields left out keep their saved values.
      const partly = bodyOf(await alice.request('PUT', `/api/clips/${CLIP}/edit`, { json: { crop_focus: 0.7 } }), clipDetails);
      expect(partly.edit).toMatchObject({ layout: 'crop', crop_focus: 0.7, trim_start: 0.5 });

      const reset = await alice.request('PUT', `/api/clips/${CLIP}/edit`, {
        json: { layout: null, crop_focus: null, caption_style: null, trim_start: null, trim_end: null, normalize_audio: null },
      });
      expect(reset.status, reset.text).toBe(200);
      const back = bodyOf(reset, clipDetails);
      expect(Object.values(back.edit).every((value) => value === null)).toBe(true);
      expect([back.trim_start, back.trim_end]).toEqual([0, SECONDS]);
      expect(bodyOf(await alice.get(`/api/clips/${CLIP}`), clipDetails).edit).toEqual(back.edit);
    });

    it('refuses what a render could not use with 400 and a message naming it, saving nothing', async () => {
      const cases: [string, Record<string, unknown>, string][] = [
        ['rectangle past the right edge', { facecam: { x: 0.9, y: 0, w: 0.2, h: 0.5 } }, RECT_RULE],
        ['rectangle too narrow', { gameplay: { x: 0, y: 0, w: 0.04, h: 1 } }, RECT_RULE],
        ['negative side', { facecam: { x: 0.1, y: 0.1, w: -0.2, h: 0.5 } }, RECT_RULE],
        ['trim end beyond the clip', { trim_start: 0, trim_end: 10 }, 'Trim end must be inside the clip (at most 4.0 s)'],
        ['trim start beyond the clip', { trim_start: 5 }, 'Trim start must be inside the clip (0 to 4.0 s)'],
        ['trim under a second', { trim_start: 1, trim_end: 1.5 }, 'A trimmed clip must be at least 1 s long'],
        ['negative trim', { trim_start: -1 }, 'Trim times must be seconds (a number of at least 0)'],
        ['split without a facecam anywhere', { layout: 'split' }, 'The split layout needs a facecam region (facecam), or turn the facecam off for this clip (facecam_off)'],
        ['unknown font', { caption_style: { preset: 'classic', font: 'Comic Sans MS' } }, 'Font "Comic Sans MS" is not available: choose one of GET /api/fonts'],
        ['caption size 200', { caption_style: { preset: 'classic', size: 200 } }, 'Caption size must be a whole number from 24 to 140'],
        ["colour 'red'", { caption_style: { preset: 'classic', primary_color: 'red' } }, 'Colours must be #RRGGBB'],
        ['unknown preset', { caption_style: { preset: 'loud' } }, 'Caption preset must be classic, bold, boxed, minimal, karaoke or punch'],
        ['a string for a number', { crop_focus: '0.5' }, 'crop_focus must be a number from 0 to 1'],
        ['a string for a trim', { trim_end: '3' }, 'Trim times must be seconds (a number of at least 0)'],
        ['unknown layout', { layout: 'pip' }, 'Layout must be auto, blur, crop or split'],
        ['split ratio out of range', { split_ratio: 0.9 }, 'split_ratio must be a number from 0.2 to 0.6'],
        ['unknown format', { format: 'square' }, 'format must be vertical, horizontal or null (as downloaded)'],
        ['a boolean for a format', { format: true }, 'format must be vertical, horizontal or null (as downloaded)'],
      ];
      for (const [name, body, message] of cases) {
        const reply = await alice.request('PUT', `/api/clips/${CLIP}/edit`, { json: body });
        expect({ name, status: reply.status, body: reply.body }).toMatchObject({ name, status: 400, body: errorBody('BAD_REQUEST', message) });
      }
      expect(Object.values(bodyOf(await alice.get(`/api/clips/${CLIP}`), clipDetails).edit).every((value) => value === null)).toBe(true);
    });

    it('takes a split with the facecam off, or with the streamer facecam', async () => {
      const off = await alice.request('PUT', `/api/clips/${CLIP}/edit`, { json: { layout: 'split', facecam_off: true } });
      expect(off.status, off.text).toBe(200);
      expect(bodyOf(off, clipDetails).edit).toMatchObject({ layout: 'split', facecam_off: true });
      // Turning the facecam back on with no region anywhere would leave an unrenderable split.
      expectError(await alice.request('PUT', `/api/clips/${CLIP}/edit`, { json: { facecam_off: null } }), 400, 'BAD_REQUEST', 'The split layout needs a facecam region (facecam), or turn the facecam off for this clip (facecam_off)');
      expect((await alice.request('PUT', `/api/clips/${CLIP}/edit`, { json: { layout: null, facecam_off: null } })).status).toBe(200);
      // camstream has a facecam: its clip may split without one of its own.
      expect((await alice.request('PUT', `/api/clips/${STREAMER_CLIP}/edit`, { json: { layout: 'split', split_ratio: 0.4 } })).status).toBe(200);
      expect((await alice.request('PUT', `/api/clips/${STREAMER_CLIP}/edit`, { json: { layout: null, split_ratio: null } })).status).toBe(200);
    });

    it("answers 404 for an unknown clip and for another user's clip, 401 without a session", async () => {
      expectError(await alice.request('PUT', '/api/clips/NoSuchClip/edit', { json: { layout: 'crop' } }), 404, 'NOT_FOUND', 'Clip NoSuchClip not found');
      expect((await bob.request('PUT', `/api/clips/${CLIP}/edit`, { json: { layout: 'crop' } })).status).toBe(404);
      expect((await alice.fresh().request('PUT', `/api/clips/${CLIP}/edit`, { json: { layout: 'crop' } })).status).toBe(401);
    });
  });

  describe("streamers' studio fields", () => {
    it('fills a caption style from its preset and refuses settings that cannot render', async () => {
      const created = await alice.post('/api/streamers', { name: 'presetstream', caption_style: { preset: 'bold' }, glossary: [' Pog ', 'Pog', '', 'KEKW'] });
      expect(created.status, created.text).toBe(201);
      const streamer = bodyOf(created, streamerSchema);
      expect(streamer.caption_style).toEqual(CAPTION_PRESET_STYLES.bold);
      expect(streamer.glossary).toEqual(['Pog', 'KEKW']);

      const glossaryRule = `glossary is a list of at most ${GLOSSARY_MAX_TERMS} terms, each 1 to 50 characters`;
      const cases: [string, Record<string, unknown>, string][] = [
        ['split without facecam', { layout: 'split' }, 'The split layout needs a facecam region (facecam)'],
        ['too many glossary terms', { glossary: Array.from({ length: GLOSSARY_MAX_TERMS + 1 }, (_, index) => `term${index}`) }, glossaryRule],
        ['a glossary term over 50 characters', { glossary: ['x'.repeat(51)] }, glossaryRule],
        ['unknown font', { caption_style: { preset: 'minimal', font: 'Papyrus' } }, 'Font "Papyrus" is not available: choose one of GET /api/fonts'],
        ['bad facecam', { layout: 'split', facecam: { x: 0.5, y: 0.5, w: 0.6, h: 0.2 } }, RECT_RULE],
      ];
      for (const [name, body, message] of cases) {
        const createdReply = await alice.post('/api/streamers', { name: 'badstream', ...body });
        expect({ name, status: createdReply.status, body: createdReply.body }).toMatchObject({ name, status: 400, body: errorBody('BAD_REQUEST', message) });
        const updated = await alice.request('PUT', '/api/streamers/presetstream', { json: body });
        expect({ name, status: updated.status, body: updated.body }).toMatchObject({ name, status: 400, body: errorBody('BAD_REQUEST', message) });
      }
      expect((bodyOf(await alice.get('/api/streamers'), z.array(streamerSchema))).map((row) => row.name)).not.toContain('badstream');
      const split = await alice.request('PUT', '/api/streamers/presetstream', { json: { layout: 'split', facecam: CAMERA } });
      expect(split.status, split.text).toBe(200);
      expect(bodyOf(split, streamerSchema)).toMatchObject({ layout: 'split', facecam: CAMERA, caption_style: CAPTION_PRESET_STYLES.bold });
    });

    it('takes the automatic look from the preset, refuses it out of range, and completes styles stored before it', async () => {
      const created = await alice.post('/api/streamers', { name: 'lookstream', caption_style: { preset: 'punch', safe_zone: 'tiktok', max_words: 1 } });
      expect(created.status, created.text).toBe(201);
      expect(bodyOf(created, streamerSchema).caption_style).toEqual({ ...CAPTION_PRESET_STYLES.punch, safe_zone: 'tiktok', max_words: 1 });
      const refused = await alice.request('PUT', '/api/streamers/lookstream', { json: { caption_style: { preset: 'karaoke', stroke_width: 20 } } });
      expect({ status: refused.status, body: refused.body }).toMatchObject({ status: 400, body: errorBody('BAD_REQUEST', 'stroke_width must be a whole number of pixels from 0 to 12') });

      // As saved before the automatic look: the eight first fields only.
      const old = { preset: 'boxed', font: 'Noto Sans', size: 90, primary_color: '#FFFFFF', highlight_color: '#FF00AA', outline_color: '#111111', position: 0.7, uppercase: false };
      await sql`update streamers set caption_style = ${JSON.stringify(old)}::jsonb where name = 'lookstream'`.execute(app.deps.db);
      const streamers = bodyOf(await alice.get('/api/streamers'), z.array(streamerSchema));
      expect(streamers.find((row) => row.name === 'lookstream')!.caption_style).toEqual({ ...CAPTION_PRESET_STYLES.boxed, size: 90, highlight_color: '#FF00AA' });
      await sql`update clips set edit = ${JSON.stringify({ caption_style: old })}::jsonb where clip_id = ${CLIP}`.execute(app.deps.db);
      const clip = bodyOf(await alice.get(`/api/clips/${CLIP}`), clipDetails);
      expect(clip.edit.caption_style).toEqual({ ...CAPTION_PRESET_STYLES.boxed, size: 90, highlight_color: '#FF00AA' });
      await sql`update clips set edit = '{}'::jsonb where clip_id = ${CLIP}`.execute(app.deps.db);
    });
  });

  describe('GET/PUT /api/clips/{id}/transcript', () => {
    it('answers 404 until the clip has a transcript', async () => {
      expectError(await alice.get(`/api/clips/${CLIP}/transcript`), 404, 'NOT_FOUND', `Clip ${CLIP} has no transcript yet: generate subtitles first`);
      expectError(await alice.request('PUT', `/api/clips/${CLIP}/transcript`, { json: { words: WORDS } }), 404, 'NOT_FOUND', `Clip ${CLIP} has no transcript yet: generate subtitles first`);
      expect((await alice.get('/api/clips/NoSuchClip/transcript')).status).toBe(404);
    });

    it('shows the words, refuses bad ones, and saves edited words', async () => {
      await sql`update clips set transcript = 'hello world', transcript_words = ${JSON.stringify(WORDS)}::jsonb, transcript_language = 'en' where clip_id = ${CLIP}`.execute(app.deps.db);
      const read = await alice.get(`/api/clips/${CLIP}/transcript`);
      expect(read.status, read.text).toBe(200);
      expect(bodyOf(read, clipTranscript)).toEqual({ language: 'en', edited: false, words: WORDS });

      const cases: [string, unknown, string][] = [
        ['times not increasing', [WORDS[1], WORDS[0]], 'Word 2 ("hello") starts before the word before it: times must increase'],
        ['ending before it starts', [{ start: 1, end: 0.5, text: 'oops' }], 'Word 1 ("oops") ends before it starts'],
        ['outside the clip', [{ start: 3.8, end: 5, text: 'late' }], 'Word 1 ("late") ends after the clip (4.0 s)'],
        ['empty text', [{ start: 0.5, end: 0.9, text: '  ' }], 'Word 1 has no text: delete it instead'],
        ['a string for a time', [{ start: '0.5', end: 0.9, text: 'hi' }], 'Word times must be numbers of seconds'],
        ['negative time', [{ start: -1, end: 0.9, text: 'hi' }], 'Word times must be at least 0'],
      ];
      for (const [name, words, message] of cases) {
        const reply = await alice.request('PUT', `/api/clips/${CLIP}/transcript`, { json: { words } });
        expect({ name, status: reply.status, body: reply.body }).toMatchObject({ name, status: 400, body: errorBody('BAD_REQUEST', message) });
      }
      expectError(await alice.request('PUT', `/api/clips/${CLIP}/transcript`, { json: { words: 'hello' } }), 400, 'BAD_REQUEST', 'words must be a list of {start, end, text}');

      const edited = [WORDS[0]!, { ...WORDS[1]!, text: ' there ' }];
      const saved = await alice.request('PUT', `/api/clips/${CLIP}/transcript`, { json: { words: edited } });
      expect(saved.status, saved.text).toBe(200);
      const expected = { language: 'en', edited: true, words: [WORDS[0], { ...WORDS[1], text: 'there' }] };
      expect(bodyOf(saved, clipTranscript)).toEqual(expected);
      expect(bodyOf(await alice.get(`/api/clips/${CLIP}/transcript`), clipTranscript)).toEqual(expected);
      expect(bodyOf(await alice.get(`/api/clips/${CLIP}`), clipDetails).transcript).toBe('hello there');
      expect((await bob.get(`/api/clips/${CLIP}/transcript`)).status).toBe(404);
    });
  });

  describe('GET /api/clips/{id}/frame', () => {
    it("answers the untouched source frame at t, at the source's size", async () => {
      const first = await decode(await image(alice, 'GET', `/api/clips/${CLIP}/frame?t=0.5`));
      expect([first.width, first.height]).toEqual([WIDTH, HEIGHT]);
      // The camera block sits untouched in the top-left corner, the green strip at the right.
      expect(colourShare(first, 'red', 0, Math.floor(HEIGHT * CAMERA.h) - 4)).toBeGreaterThan(0.2);
      expect(colourShare(first, 'green')).toBeGreaterThan(0.08);
      // Another moment of the moving pattern is another picture; t defaults to 0 and is clamped into the clip.
      const later = await image(alice, 'GET', `/api/clips/${CLIP}/frame?t=3`);
      expect(later.bytes.equals((await image(alice, 'GET', `/api/clips/${CLIP}/frame?t=0.5`)).bytes)).toBe(false);
      expect((await decode(await image(alice, 'GET', `/api/clips/${CLIP}/frame`))).width).toBe(WIDTH);
      expect((await decode(await image(alice, 'GET', `/api/clips/${CLIP}/frame?t=999`))).height).toBe(HEIGHT);
      // A vertical clip's frame is still the source's picture, whatever its settings.
      expect((await decode(await image(alice, 'GET', `/api/clips/${STREAMER_CLIP}/frame?t=1`))).width).toBe(WIDTH);
    });

    it('answers a bad t with 400, an unknown clip with 404 and no session with 401, in JSON', async () => {
      const rule = 't must be seconds from the start of the clip: digits, optionally with a decimal point (e.g. 2.5)';
      for (const t of ['abc', '-1', '1e3', '', '1,5', '0x10', '1.', ' 1']) {
        const reply = await image(alice, 'GET', `/api/clips/${CLIP}/frame?t=${encodeURIComponent(t)}`);
        expect({ t, status: reply.status, type: reply.contentType, body: reply.json }).toMatchObject({ t, status: 400, type: expect.stringContaining('application/json'), body: errorBody('BAD_REQUEST', rule) });
      }
      expect((await image(alice, 'GET', `/api/clips/${CLIP}/frame?t=1&t=2`)).status).toBe(400);
      const missing = await image(alice, 'GET', '/api/clips/NoSuchClip/frame?t=1');
      expect({ status: missing.status, body: missing.json }).toEqual({ status: 404, body: errorBody('NOT_FOUND', 'Clip NoSuchClip not found') });
      expect((await image(bob, 'GET', `/api/clips/${CLIP}/frame`)).status).toBe(404);
      const anonymous = await image(null, 'GET', `/api/clips/${CLIP}/frame`);
      expect({ status: anonymous.status, body: anonymous.json }).toEqual({ status: 401, body: errorBody('UNAUTHORIZED', 'Authentication required') });
    });

    it('answers 404 naming the problem, without paths or ffprobe output, when the source holds no readable video', async () => {
      // seedClip writes bytes that are no video at all as the source.
      await seedClip(app.deps, aliceId, { clip_id: 'Unreadable', streamer_name: 'nobody' });
      for (const [method, route] of [['GET', 'frame'], ['POST', 'preview']] as const) {
        const reply = await image(alice, method, `/api/clips/Unreadable/${route}`);
        expect({ status: reply.status, body: reply.json }).toEqual({ status: 404, body: errorBody('NOT_FOUND', 'The source video of clip Unreadable cannot be read') });
      }
    });
  });

  describe('POST /api/clips/{id}/preview', () => {
    const BAND = Math.round(1920 * 0.35);

    it('answers 1080x1920 as the render would frame it, with unsaved settings, without saving them', async () => {
      const plain = await decode(await image(alice, 'POST', `/api/clips/${CLIP}/preview`));
      expect([plain.width, plain.height]).toEqual([1080, 1920]);

      // Split with the camera on top: the red block fills the top band…
      const split = await decode(await image(alice, 'POST', `/api/clips/${CLIP}/preview`, { layout: 'split', facecam: CAMERA, gameplay: GAMEPLAY, t: 1 }));
      expect(colourShare(split, 'red', 0, BAND - 4)).toBeGreaterThan(0.9);
      expect(colourShare(split, 'red', BAND + 4)).toBe(0);
      expect(colourShare(split, 'green', BAND + 4)).toBeGreaterThan(0.1);
      // …the facecam turned off leaves no red anywhere: the gameplay fills the frame.
      const off = await decode(await image(alice, 'POST', `/api/clips/${CLIP}/preview`, { layout: 'split', facecam: CAMERA, gameplay: GAMEPLAY, facecam_off: true, t: 1 }));
      expect(colourShare(off, 'red')).toBe(0);
      expect(colourShare(off, 'green', 0, BAND)).toBeGreaterThan(0.1);
      // Crop at the left edge shows the camera block, not the strip on the right.
      const left = await decode(await image(alice, 'POST', `/api/clips/${CLIP}/preview`, { layout: 'crop', crop_focus: 0, t: 1 }));
      expect(colourShare(left, 'red')).toBeGreaterThan(0.1);
      expect(colourShare(left, 'green')).toBe(0);

      expect(Object.values(bodyOf(await alice.get(`/api/clips/${CLIP}`), clipDetails).edit).every((value) => value === null)).toBe(true);
    });

    it("uses the saved settings and the streamer's where a field is not sent (null = the streamer's)", async () => {
      // camstream splits with the red camera on top.
      const streamers = await decode(await image(alice, 'POST', `/api/clips/${STREAMER_CLIP}/preview`, { t: 1 }));
      expect(colourShare(streamers, 'red', 0, BAND - 4)).toBeGreaterThan(0.9);
      expect((await alice.request('PUT', `/api/clips/${STREAMER_CLIP}/edit`, { json: { layout: 'crop', crop_focus: 1 } })).status).toBe(200);
      const saved = await decode(await image(alice, 'POST', `/api/clips/${STREAMER_CLIP}/preview`, { t: 1 }));
      expect(colourShare(saved, 'red')).toBe(0);
      expect(colourShare(saved, 'green')).toBeGreaterThan(0.1);
      const reset = await decode(await image(alice, 'POST', `/api/clips/${STREAMER_CLIP}/preview`, { t: 1, layout: null }));
      expect(colourShare(reset, 'red', 0, BAND - 4)).toBeGreaterThan(0.9);
      expect((await alice.request('PUT', `/api/clips/${STREAMER_CLIP}/edit`, { json: { layout: null, crop_focus: null } })).status).toBe(200);
    });

    it("burns the clip's words in the given caption style, timed on the trimmed render", async () => {
      await sql`update clips set transcript_words = ${JSON.stringify(WORDS)}::jsonb where clip_id = ${CLIP}`.execute(app.deps.db);
      const magenta = { preset: 'classic', primary_color: '#FF00FF', highlight_color: '#FF00FF', size: 120 };
      const settings = { layout: 'blur', caption_style: magenta, trim_start: 0.5, trim_end: 3.5 };
      const speaking = await decode(await image(alice, 'POST', `/api/clips/${CLIP}/preview`, { ...settings, t: 0.7 }));
      expect(colourShare(speaking, 'magenta')).toBeGreaterThan(0.001);
      const silent = await decode(await image(alice, 'POST', `/api/clips/${CLIP}/preview`, { ...settings, t: 3 }));
      expect(colourShare(silent, 'magenta')).toBe(0);
      // Without the magenta style the same moment shows no magenta: the colour is the style's.
      const classic = await decode(await image(alice, 'POST', `/api/clips/${CLIP}/preview`, { ...settings, caption_style: { preset: 'classic' }, t: 0.7 }));
      expect(colourShare(classic, 'magenta')).toBe(0);
      await sql`update clips set transcript_words = null where clip_id = ${CLIP}`.execute(app.deps.db);
    });

    it("draws the hook over the first seconds and the streamer's logo, as the render would (the automatic look)", async () => {
      // The hook's box takes the caption style's highlight colour: magenta, which nothing else in the source has.
      const look = { layout: 'blur', caption_style: { preset: 'classic', highlight_color: '#FF00FF' }, hook: { text: 'Watch the corner', seconds: 2 } };
      const early = await decode(await image(alice, 'POST', `/api/clips/${STREAMER_CLIP}/preview`, { ...look, t: 1 }));
      expect(colourShare(early, 'magenta', 0, 700)).toBeGreaterThan(0.02);
      const late = await decode(await image(alice, 'POST', `/api/clips/${STREAMER_CLIP}/preview`, { ...look, t: 3 }));
      expect(colourShare(late, 'magenta')).toBe(0);
      // Empty hook text on the clip: no card on it.
      const none = await decode(await image(alice, 'POST', `/api/clips/${STREAMER_CLIP}/preview`, { ...look, hook: { text: '', seconds: 2 }, t: 1 }));
      expect(colourShare(none, 'magenta')).toBe(0);

      // The streamer's logo (pure green), drawn where the brand puts it, once uploaded.
      const logo = path.join(dir, 'logo.png');
      await execFileAsync(ffmpeg, ['-y', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=0x00FF00:size=200x200', '-frames:v', '1', logo]);
      const put = await fetch(`${server.baseUrl}/api/streamers/camstream/logo`, { method: 'PUT', headers: { cookie: alice.cookie!, 'content-type': 'image/png' }, body: new Uint8Array(await readFile(logo)) });
      expect(put.status).toBe(200);
      const branded = { layout: 'blur', brand: { logo: true, position: 'bottom-left', opacity: 1, outro_seconds: 0 }, t: 1 };
      const withLogo = await decode(await image(alice, 'POST', `/api/clips/${STREAMER_CLIP}/preview`, branded));
      const withoutLogo = await decode(await image(alice, 'POST', `/api/clips/${STREAMER_CLIP}/preview`, { ...branded, brand: { ...branded.brand, logo: false } }));
      // Bottom left, above the platforms' caption area: a square of about a fifth of the width more green there.
      const added = colourShare(withLogo, 'green', 1100, 1530) - colourShare(withoutLogo, 'green', 1100, 1530);
      expect(added).toBeGreaterThan(0.06);
      expect(colourShare(withLogo, 'green', 0, 1100)).toBeCloseTo(colourShare(withoutLogo, 'green', 0, 1100), 2);
      expect(Object.values(bodyOf(await alice.get(`/api/clips/${STREAMER_CLIP}`), clipDetails).edit).every((value) => value === null)).toBe(true);
    });

    it("answers a horizontal clip at the source's size", async () => {
      const wide = await decode(await image(alice, 'POST', `/api/clips/${HORIZONTAL}/preview`, { layout: 'split', facecam: CAMERA, t: 1 }));
      expect([wide.width, wide.height]).toEqual([WIDTH, HEIGHT]);
    });

    it('frames a horizontal clip made vertical (format) with its layout, and keeps a vertical one horizontal', async () => {
      const tall = await decode(await image(alice, 'POST', `/api/clips/${HORIZONTAL}/preview`, { format: 'vertical', layout: 'split', facecam: CAMERA, t: 1 }));
      expect([tall.width, tall.height]).toEqual([1080, 1920]);
      expect(colourShare(tall, 'red', 0, 600)).toBeGreaterThan(0.9);
      const wide = await decode(await image(alice, 'POST', `/api/clips/${CLIP}/preview`, { format: 'horizontal', t: 1 }));
      expect([wide.width, wide.height]).toEqual([WIDTH, HEIGHT]);

      // Saved, the format shows on the clip; null is the downloaded format again.
      const saved = bodyOf(await alice.request('PUT', `/api/clips/${HORIZONTAL}/edit`, { json: { format: 'vertical' } }), clipDetails);
      expect([saved.edit.format, saved.downloaded_format]).toEqual(['vertical', 'horizontal']);
      const savedTall = await decode(await image(alice, 'POST', `/api/clips/${HORIZONTAL}/preview`, { t: 1 }));
      expect([savedTall.width, savedTall.height]).toEqual([1080, 1920]);
      const reset = bodyOf(await alice.request('PUT', `/api/clips/${HORIZONTAL}/edit`, { json: { format: null } }), clipDetails);
      expect(reset.edit.format).toBeNull();
      const savedWide = await decode(await image(alice, 'POST', `/api/clips/${HORIZONTAL}/preview`, { t: 1 }));
      expect([savedWide.width, savedWide.height]).toEqual([WIDTH, HEIGHT]);
    });

    it('refuses what PUT /edit refuses (400), unknown clips (404) and no session (401), in JSON', async () => {
      const cases: [Record<string, unknown> | unknown[], string][] = [
        [{ layout: 'split' }, 'The split layout needs a facecam region (facecam), or turn the facecam off for this clip (facecam_off)'],
        [{ trim_end: 10 }, 'Trim end must be inside the clip (at most 4.0 s)'],
        [{ trim_start: 1, trim_end: 1.2 }, 'A trimmed clip must be at least 1 s long'],
        [{ facecam: { x: 0.9, y: 0, w: 0.2, h: 0.5 } }, RECT_RULE],
        [{ caption_style: { preset: 'classic', font: 'Wingdings' } }, 'Font "Wingdings" is not available: choose one of GET /api/fonts'],
        [{ caption_style: { preset: 'classic', size: 200 } }, 'Caption size must be a whole number from 24 to 140'],
        [{ caption_style: { preset: 'classic', outline_color: 'red' } }, 'Colours must be #RRGGBB'],
        [{ t: '1' }, 't must be seconds from the start of the clip (a number of at least 0)'],
        [{ t: -1 }, 't must be seconds from the start of the clip (a number of at least 0)'],
        [{ crop_focus: '0.5' }, 'crop_focus must be a number from 0 to 1'],
      ];
      for (const [body, message] of cases) {
        const reply = await image(alice, 'POST', `/api/clips/${CLIP}/preview`, body);
        expect({ body, status: reply.status, json: reply.json }).toMatchObject({ body, status: 400, json: errorBody('BAD_REQUEST', message) });
      }
      expect((await image(alice, 'POST', `/api/clips/${CLIP}/preview`, [1, 2])).status).toBe(400);
      const nul = await image(alice, 'POST', `/api/clips/${CLIP}/preview`, { caption_style: { preset: 'classic', font: 'Noto\u0000Sans' } });
      expect({ status: nul.status, json: nul.json }).toEqual({ status: 400, json: errorBody('BAD_REQUEST', 'The request contains a NUL byte') });
      const missing = await image(alice, 'POST', '/api/clips/NoSuchClip/preview', {});
      expect({ status: missing.status, json: missing.json }).toEqual({ status: 404, json: errorBody('NOT_FOUND', 'Clip NoSuchClip not found') });
      expect((await image(bob, 'POST', `/api/clips/${CLIP}/preview`, {})).status).toBe(404);
      const anonymous = await image(null, 'POST', `/api/clips/${CLIP}/preview`, {});
      expect({ status: anonymous.status, json: anonymous.json }).toEqual({ status: 401, json: errorBody('UNAUTHORIZED', 'Authentication required') });
    });

    it('makes a few previews at once and refuses a burst beyond that with 429, leaving no scratch files', async () => {
      const burst = await Promise.all(Array.from({ length: 14 }, (_, index) => image(alice, 'POST', `/api/clips/${CLIP}/preview`, { t: index * 0.25 })));
      const refused = burst.filter((answer) => answer.status === 429);
      expect(burst.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(2);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(burst.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
      for (const answer of refused) expect({ body: answer.json, retryAfter: answer.retryAfter }).toEqual({ body: errorBody('TOO_MANY_REQUESTS', IMAGES_BUSY), retryAfter: '1' });
      const work = instanceWorkDir(app.deps.env.dataDir, PROCESS_IDENTITY.instance);
      const left = existsSync(work) ? (await readdir(work)).filter((name) => name.startsWith('preview-')) : [];
      expect(left).toEqual([]);
    });
  });
});

describe('preview slots', () => {
  it('runs at most `size` tasks at once, hands freed slots to waiters in order, and refuses beyond the queue or after the wait', async () => {
    const refused = () => new Error('busy');
    const slots = createSlots({ size: 2, waitMs: 200, maxWaiting: 2, refuse: refused });
    const order: string[] = [];
    let peak = 0;
    const gates = new Map<string, () => void>();
    const task = (name: string) =>
      slots.run(async () => {
        order.push(name);
        peak = Math.max(peak, slots.running);
        await new Promise<void>((resolve) => gates.set(name, resolve));
        return name;
      });
    const a = task('a');
    const b = task('b');
    const c = task('c');
    const d = task('d');
    await expect(task('e')).rejects.toThrow('busy');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['a', 'b']);
    gates.get('a')!();
    expect(await a).toBe('a');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['a', 'b', 'c']);
    // d waited longer than waitMs: refused, while b and c still run.
    await expect(d).rejects.toThrow('busy');
    gates.get('b')!();
    gates.get('c')!();
    expect(await Promise.all([b, c])).toEqual(['b', 'c']);
    expect(peak).toBe(2);
    expect(slots.running).toBe(0);
  });
});
