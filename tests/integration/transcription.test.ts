import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  downloadModel,
  formatProgress,
  parseArgs,
  resolveTarget,
  UsageError,
} from '../../scripts/models-download.ts';
import { loadEnv } from '../../server/src/platform/env.ts';
import { createLogger, type Logger } from '../../server/src/platform/logger.ts';
import { type Transcriber } from '../../server/src/engines/providers/transcription/index.ts';
import { createTranscriber, transcriptionConfigFromEnv } from '../../server/src/engines/providers/transcription/config.ts';
import { applyQualityGuards, audioLevels, collapseRepeatedPhrases, dropNoSpeechSegments, dropSoundAnnotations, dropWordsInSilence } from '../../server/src/engines/providers/transcription/guards.ts';
import { isTranscriptionError, type TranscriptionError, type TranscriptionErrorKind, type TranscriptWord } from '../../server/src/engines/providers/transcription/types.ts';
import { KNOWN_MODELS, modelNotInstalledMessage, modelPath, verifyModelChecksum } from '../../server/src/engines/providers/transcription/models.ts';
import { languageCode, normalizeLanguageHint } from '../../server/src/engines/providers/transcription/languages.ts';
import { releaseWhisperModels } from '../../server/src/engines/providers/transcription/local.ts';
import { transcriptionsUrl, type TranscriptionBudget } from '../../server/src/engines/providers/transcription/openai.ts';
import { piecesToWords, repairBrokenCharacters } from '../../server/src/engines/providers/transcription/tokens.ts';
import { buildAss } from '../../server/src/engines/media/captions/ass.ts';
import { commentaryWords, startFakeOpenAi, type FakeOpenAi } from '../fakes/openai/index.ts';
import {
  ffmpegBinary,
  silentClip,
  SPELLED_LANGUAGE,
  SPELLED_WORDS,
  toneClip,
  videoOnlyClip,
  writeTinyWhisperModel,
} from '../fakes/whisper/index.ts';

let workDir: string;
let ffmpegPath: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-transcription-'));
  ffmpegPath = await ffmpegBinary();
});

afterAll(async () => {
  await releaseWhisperModels();
  await rm(workDir, { recursive: true, force: true });
});

const word = (text: string, start: number, end: number): TranscriptWord => ({ text, start, end });

function wordsOf(text: string, start = 0, step = 0.2): TranscriptWord[] {
  return text.split(' ').map((item, index) => word(item, start + index * step, start + (index + 1) * step));
}

async function expectTranscriptionError(promise: Promise<unknown>, kind: TranscriptionErrorKind, message?: RegExp | string) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isTranscriptionError(error, kind), `expected a ${kind} TranscriptionError, got ${String(error)}`).toBe(true);
  if (message !== undefined && error instanceof Error) {
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  }
  return error as Error & { status?: number };
}

/** A logger whose JSON lines are kept for assertions. */
function capturingLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: createLogger('debug', sink), lines };
}

describe('quality guards', () => {
  it('collapses a phrase looped three or more times into one', () => {
    const looped = wordsOf('Let me know thank you so much. thank you so much. Thank you so much thank you so much.');
    expect(collapseRepeatedPhrases(looped).map((item) => item.text).join(' ')).toBe('Let me know thank you so much.');
    // The kept occurrence keeps its own timing.
    expect(collapseRepeatedPhrases(looped)[3]!.start).toBeCloseTo(looped[3]!.start);
  });

  it('keeps short natural repetition but drops single-word loops', () => {
    expect(collapseRepeatedPhrases(wordsOf('no no no')).map((item) => item.text)).toEqual(['no', 'no', 'no']);
    expect(collapseRepeatedPhrases(wordsOf('go go go go go go go go')).map((item) => item.text)).toEqual(['go']);
    expect(collapseRepeatedPhrases(wordsOf('let us go let us go')).map((item) => item.text)).toHaveLength(6);
    expect(collapseRepeatedPhrases(wordsOf('a b a c a b')).map((item) => item.text)).toHaveLength(6);
  });

  it('drops windows whisper itself would call silence', () => {
    const segments = [
      { start: 0, end: 2, noSpeechProb: 0.95, avgLogprob: -1.4 },
      { start: 2, end: 4, noSpeechProb: 0.95, avgLogprob: -0.2 },
      { start: 4, end: 6, noSpeechProb: 0.1, avgLogprob: -1.5 },
    ];
    expect(dropNoSpeechSegments(segments).map((segment) => segment.start)).toEqual([2, 4]);
  });

  it('drops words said over digital silence and keeps those over sound', () => {
    const pcm = new Int16Array(16_000 * 2);
    for (let i = 16_000; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin((i / 16_000) * 2 * Math.PI * 220));
    const levels = audioLevels(pcm);
    const kept = dropWordsInSilence([word('ghost', 0.1, 0.5), word('real', 1.2, 1.6)], levels);
    expect(kept.map((item) => item.text)).toEqual(['real']);
  });

  it('drops sound descriptions such as [Music] and (upbeat music)', () => {
    const words = [word('[Music]', 0, 1), word('(upbeat', 1, 1.2), word('music)', 1.2, 1.5), word('♪', 1.5, 2), word('hey', 2, 2.2), word('guys', 2.2, 2.5)];
    expect(dropSoundAnnotations(words).map((item) => item.text)).toEqual(['hey', 'guys']);
  });

  it('reports no speech when only a silence hallucination or symbols remain', () => {
    expect(applyQualityGuards({ words: wordsOf('Thanks for watching!'), language: 'en' })).toEqual({ language: 'en', words: [], text: '', noSpeech: true });
    expect(applyQualityGuards({ words: [word('...', 0, 1), word('♪', 1, 2)], language: null }).noSpeech).toBe(true);
    expect(applyQualityGuards({ words: [], language: null }).noSpeech).toBe(true);
    const real = applyQualityGuards({ words: wordsOf('thank you chat'), language: 'en' });
    expect(real).toMatchObject({ noSpeech: false, text: 'thank you chat' });
  });
});

describe('tokens to words', () => {
  it('joins BPE pieces, attaches punctuation and splits CJK per token', () => {
    const pieces = [
      { text: ' Hello', start: 0, end: 0.2 },
      { text: ' clip', start: 0.2, end: 0.4 },
      { text: 'shift', start: 0.4, end: 0.6 },
      { text: '!', start: 0.6, end: 0.65 },
      { text: ' "', start: 0.7, end: 0.72 },
      { text: 'yes', start: 0.72, end: 0.9 },
      { text: '"', start: 0.9, end: 0.95 },
      { text: ' 今日', start: 1, end: 1.2 },
      { text: 'は', start: 1.2, end: 1.3 },
      { text: '。', start: 1.3, end: 1.35 },
    ];
    expect(piecesToWords(pieces)).toEqual([
      word('Hello', 0, 0.2),
      word('clipshift!', 0.2, 0.65),
      word('"yes"', 0.7, 0.95),
      word('今日', 1, 1.2),
      word('は。', 1.2, 1.35),
    ]);
  });

  it('restores characters whose bytes were split over two tokens', () => {
    // 本 and 語 each arrive as two halves that the binding turned into U+FFFD.
    const pieces = [
      { text: ' 日', start: 0, end: 0.1 },
      { text: '\uFFFD', start: 0.1, end: 0.2 },
      { text: '\uFFFD\uFFFD', start: 0.2, end: 0.3 },
      { text: '\uFFFD', start: 0.3, end: 0.4 },
      { text: '\uFFFD です', start: 0.4, end: 0.6 },
    ];
    const repaired = repairBrokenCharacters(pieces, ' 日本語 です');
    expect(repaired.map((piece) => piece.text).join('')).toBe(' 日本語 です');
    expect(repaired.every((piece) => !piece.text.includes('\uFFFD'))).toBe(true);
    expect(piecesToWords(repaired).map((item) => item.text).join('')).toBe('日本語です');
  });
});

describe('languages and configuration', () => {
  it('turns streamer languages into whisper codes and ignores unknown ones', () => {
    expect(normalizeLanguageHint('en')).toBe('en');
    expect(normalizeLanguageHint('pt-BR')).toBe('pt');
    expect(normalizeLanguageHint('zh-hk')).toBe('zh');
    expect(normalizeLanguageHint('iw')).toBe('he');
    expect(normalizeLanguageHint('other')).toBeUndefined();
    expect(normalizeLanguageHint('asl')).toBeUndefined();
    expect(normalizeLanguageHint(undefined)).toBeUndefined();
    expect(languageCode('japanese')).toBe('ja');
    expect(languageCode('EN')).toBe('en');
    expect(languageCode('klingon')).toBeNull();
  });

  it('builds the engine named by TRANSCRIBE_ENGINE', () => {
    const local = transcriptionConfigFromEnv(loadEnv({ DATA_DIR: '/srv/data' }), '/usr/bin/ffmpeg');
    expect(local).toMatchObject({ engine: 'local', modelsDir: '/srv/data/models', defaultModel: 'large-v3-turbo' });
    expect(createTranscriber(local).engine).toBe('local');
    const remote = transcriptionConfigFromEnv(
      loadEnv({ TRANSCRIBE_ENGINE: 'openai', TRANSCRIBE_API_URL: 'http://stt.local:8000', TRANSCRIBE_API_KEY: 'k', WHISPER_MODEL: 'whisper-1' }),
      '/usr/bin/ffmpeg',
    );
    expect(remote).toMatchObject({ engine: 'openai', apiUrl: 'http://stt.local:8000', apiKey: 'k', defaultModel: 'whisper-1' });
    expect(createTranscriber(remote).engine).toBe('openai');
    expect(() => transcriptionConfigFromEnv(loadEnv({ TRANSCRIBE_ENGINE: 'openai' }), 'ffmpeg')).toThrow(/TRANSCRIBE_API_URL/);
    expect(transcriptionsUrl('https://api.openai.com/v1/')).toBe('https://api.openai.com/v1/audio/transcriptions');
    expect(transcriptionsUrl('http://stt.local:8000')).toBe('http://stt.local:8000/v1/audio/transcriptions');
  });
});

describe('openai engine against an OpenAI-compatible server', () => {
  let fake: FakeOpenAi;
  let sleeps: number[];
  let transcriber: Transcriber;
  let tone: string;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-test-key' });
    tone = await toneClip();
  });

  afterAll(async () => {
    await fake.close();
  });

  beforeEach(() => fake.reset());

  function engine(overrides: { apiKey?: string; model?: string; apiUrl?: string; budget?: TranscriptionBudget } = {}): Transcriber {
    sleeps = [];
    transcriber = createTranscriber({
      engine: 'openai',
      apiUrl: overrides.apiUrl ?? fake.url,
      apiKey: 'apiKey' in overrides ? overrides.apiKey : 'sk-test-key',
      defaultModel: overrides.model ?? 'whisper-1',
      ffmpegPath,
      budget: overrides.budget,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    return transcriber;
  }

  it('uploads 16 kHz mono WAV with verbose_json word timestamps and returns timed words', async () => {
    fake.setScenario('speech');
    const transcript = await engine().transcribe({ audioPath: tone, language: 'en-GB' });
    expect(transcript.noSpeech).toBe(false);
    expect(transcript.language).toBe('en');
    expect(transcript.text).toBe('Oh my god, no way! Did you see that?');
    expect(transcript.words[0]).toEqual({ text: 'Oh', start: 0.1, end: 0.3, probability: undefined });
    const upload = fake.uploads.at(-1)!;
    expect(upload).toMatchObject({
      model: 'whisper-1',
      responseFormat: 'verbose_json',
      granularities: ['word', 'segment'],
      language: 'en',
      authorization: 'Bearer sk-test-key',
      fileName: 'audio.wav',
      fileType: 'audio/wav',
    });
    expect(upload.wav).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    expect(upload.wav!.seconds).toBeGreaterThan(2.9);
  });

  it('sends no language when the hint is unknown and lets the server detect it', async () => {
    fake.setScenario('japanese');
    const transcript = await engine().transcribe({ audioPath: tone, language: 'other', model: 'whisper-1' });
    expect(fake.uploads.at(-1)!.language).toBeNull();
    expect(transcript.language).toBe('ja');
    expect(transcript.text).toBe('すごい！本当にありがとう');
  });

  it('reads words nested in segments, as faster-whisper servers send them', async () => {
    fake.setScenario('speech-segment-words');
    const transcript = await engine().transcribe({ audioPath: tone });
    expect(transcript.words.map((item) => item.text)).toEqual(['Oh', 'my', 'god,', 'no', 'way!', 'Did', 'you', 'see', 'that?']);
    expect(transcript.words[0]!.probability).toBe(0.9);
  });

  it('keeps every word of commentary that runs the whole clip (what bench:pipeline captions)', async () => {
    fake.setScenario('commentary');
    const transcript = await engine().transcribe({ audioPath: await toneClip(8) });
    const spoken = commentaryWords(fake.uploads.at(-1)!.wav!.seconds);
    expect(spoken.length).toBeGreaterThanOrEqual(18);
    expect(spoken.at(-1)!.end).toBeGreaterThan(7.5);
    expect(transcript.words.map((item) => [item.text, item.start, item.end])).toEqual(spoken.map((item) => [item.word, item.start, item.end]));
  });

  it('collapses a decoding loop in the answer', async () => {
    fake.setScenario('loop');
    const transcript = await engine().transcribe({ audioPath: tone });
    expect(transcript.text).toBe('Let me know Thank you so much.');
  });

  it('finishes a silent clip as no speech', async () => {
    fake.setScenario('silence');
    // Over a loud tone the segment's no-speech probability alone decides…
    expect(await engine().transcribe({ audioPath: tone })).toEqual({ language: 'en', words: [], text: '', noSpeech: true });
    // …and over real silence the audio level does too.
    expect((await engine().transcribe({ audioPath: await silentClip() })).noSpeech).toBe(true);
  });

  it('retries a 500 and a 429 (honouring Retry-After) and then succeeds', async () => {
    fake.setScenario('speech');
    const before = fake.requestCount();
    fake.failNext({ status: 500, times: 1 });
    await engine().transcribe({ audioPath: tone });
    expect(fake.requestCount() - before).toBe(2);
    expect(sleeps).toEqual([500]);

    fake.failNext({ status: 429, times: 1, retryAfterSeconds: 2 });
    const transcript = await engine().transcribe({ audioPath: tone });
    expect(transcript.noSpeech).toBe(false);
    expect(sleeps).toEqual([2000]);
  });

  it('gives up after three failed attempts with the status and server message', async () => {
    fake.failNext({ status: 503, times: 5 });
    const error = await expectTranscriptionError(engine().transcribe({ audioPath: tone }), 'upstream', /^The transcription server answered HTTP 503: The server had an error/);
    expect(error.status).toBe(503);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('fails at once on a refused key or unknown model, naming the server message', async () => {
    const before = fake.requestCount();
    const unauthorized = await expectTranscriptionError(engine({ apiKey: 'wrong' }).transcribe({ audioPath: tone }), 'bad_request', /^The transcription server answered HTTP 401: Incorrect API key provided/);
    expect(unauthorized.status).toBe(401);
    await expectTranscriptionError(engine().transcribe({ audioPath: tone, model: 'whisper-9' }), 'bad_request', /^The transcription server answered HTTP 400: The model `whisper-9` does not exist/);
    expect(fake.requestCount() - before).toBe(2);
    expect(sleeps).toEqual([]);
  });

  it('reports an unreachable server clearly after retrying', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await expectTranscriptionError(engine({ apiUrl: `http://127.0.0.1:${port}` }).transcribe({ audioPath: tone }), 'upstream', 'The transcription server could not be reached (connection refused)');
    // Where it tried and what the network said are for the server's log.
    expect((error as TranscriptionError).detail).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/v1/audio/transcriptions: .*ECONNREFUSED`));
    expect(sleeps).toHaveLength(2);
  });

  it('gives a stalled request the time its audio needs (not five minutes), then retries and gives up', async () => {
    fake.hold();
    const stalled = engine({ budget: { startMs: 1_000, perAudioSecondMs: 100 } }).transcribe({ audioPath: tone });
    await expectTranscriptionError(stalled, 'upstream', /^The transcription server could not be reached \(no answer within \d+\.\d s\)$/);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('stops when the job is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expectTranscriptionError(engine().transcribe({ audioPath: tone, signal: controller.signal }), 'aborted');
  });

  it('turns the answer into captions', async () => {
    fake.setScenario('speech');
    const transcript = await engine().transcribe({ audioPath: tone });
    const ass = buildAss(transcript.words);
    const events = ass.split('\n').filter((line) => line.startsWith('Dialogue:'));
    expect(events).toHaveLength(transcript.words.length);
    expect(events[0]).toContain('0:00:00.10,0:00:00.30');
  });
});

describe('local engine (whisper.cpp) on a generated tiny model', () => {
  let modelsDir: string;
  let tone: string;

  beforeAll(async () => {
    modelsDir = path.join(workDir, 'models');
    await writeTinyWhisperModel(modelsDir, 'tiny-test');
    tone = await toneClip();
  });

  afterAll(async () => {
    await releaseWhisperModels();
  });

  function local(logger?: Logger, defaultModel = 'tiny-test'): Transcriber {
    return createTranscriber({ engine: 'local', modelsDir, defaultModel, ffmpegPath, threads: 2, logger });
  }

  it('loads the model from WHISPER_MODELS_DIR and returns timed words and the detected language', async () => {
    const transcript = await local().transcribe({ audioPath: tone });
    expect(transcript.noSpeech).toBe(false);
    expect(transcript.language).toBe(SPELLED_LANGUAGE);
    expect(transcript.words.map((item) => item.text)).toEqual([...SPELLED_WORDS]);
    expect(transcript.text).toBe(SPELLED_WORDS.join(' '));
    let previousEnd = 0;
    for (const item of transcript.words) {
      expect(item.start).toBeGreaterThanOrEqual(previousEnd - 0.001);
      expect(item.end).toBeGreaterThanOrEqual(item.start);
      expect(item.end).toBeLessThanOrEqual(3.1);
      previousEnd = item.end;
    }
    // Segment boundaries from the timestamp tokens: "works" starts at <|1.00|>.
    expect(transcript.words[2]!.start).toBeCloseTo(1, 1);
  });

  it('writes captions from the words it heard', async () => {
    const transcript = await local().transcribe({ audioPath: tone, language: 'en' });
    const ass = buildAss(transcript.words);
    const events = ass.split('\n').filter((line) => line.startsWith('Dialogue:'));
    expect(events).toHaveLength(SPELLED_WORDS.length);
    expect(events[1]).toContain('{\\1c&H00E5FF&}clipshift{\\1c&HFFFFFF&}');
    const file = path.join(workDir, 'local.ass');
    await writeFile(file, ass);
    expect((await stat(file)).size).toBeGreaterThan(500);
  });

  it('passes the streamer language as the decoding language', async () => {
    const transcript = await local().transcribe({ audioPath: tone, language: 'ja-JP' });
    expect(transcript.language).toBe('ja');
  });

  it('keeps the model loaded between jobs and serialises concurrent ones', async () => {
    await releaseWhisperModels();
    const { logger, lines } = capturingLogger();
    const transcriber = local(logger);
    const results = await Promise.all([
      transcriber.transcribe({ audioPath: tone }),
      transcriber.transcribe({ audioPath: tone }),
    ]);
    await transcriber.transcribe({ audioPath: tone });
    expect(results.map((result) => result.text)).toEqual([SPELLED_WORDS.join(' '), SPELLED_WORDS.join(' ')]);
    expect(lines.filter((line) => line.msg === 'whisper model loaded')).toHaveLength(1);
    // whisper.cpp's own log lines go through the logger, not raw to stderr.
    expect(lines.some((line) => typeof line.whisper === 'string')).toBe(true);
    await transcriber.close();
  });

  it('reloads a model file that was replaced', async () => {
    const { logger, lines } = capturingLogger();
    const transcriber = local(logger, 'tiny-replaced');
    await copyFile(path.join(modelsDir, 'ggml-tiny-test.bin'), path.join(modelsDir, 'ggml-tiny-replaced.bin'));
    await transcriber.transcribe({ audioPath: tone });
    const later = new Date(Date.now() + 5000);
    await utimes(path.join(modelsDir, 'ggml-tiny-replaced.bin'), later, later);
    await transcriber.transcribe({ audioPath: tone });
    expect(lines.filter((line) => line.msg === 'whisper model loaded')).toHaveLength(2);
    await transcriber.close();
  });

  it('finds no speech in a silent clip or a clip without audio', async () => {
    expect(await local().transcribe({ audioPath: await silentClip() })).toMatchObject({ words: [], text: '', noSpeech: true });
    expect(await local().transcribe({ audioPath: await videoOnlyClip() })).toMatchObject({ words: [], noSpeech: true });
  });

  it('names the download command when the model is not installed', async () => {
    await expectTranscriptionError(
      local(undefined, 'large-v3-turbo').transcribe({ audioPath: tone }),
      'model_missing',
      'Whisper model large-v3-turbo is not installed: run `npm run models:download -- large-v3-turbo`',
    );
    await expectTranscriptionError(local().transcribe({ audioPath: tone, model: 'small' }), 'model_missing', modelNotInstalledMessage('small'));
    await expectTranscriptionError(local().transcribe({ audioPath: tone, model: '../secrets' }), 'model_missing', /not a valid Whisper model name/);
  });

  it('rejects a damaged model file with a clear error', async () => {
    await writeFile(path.join(modelsDir, 'ggml-broken.bin'), Buffer.from('this is not a ggml model at all'));
    await expectTranscriptionError(local().transcribe({ audioPath: tone, model: 'broken' }), 'model_invalid', /ggml-broken\.bin could not be loaded/);
  });

  it('fails a run whose native side died instead of waiting forever, and drops that model', async () => {
    // This model loads, but whisper_full throws inside the binding, whose promise then never settles.
    await writeTinyWhisperModel(modelsDir, 'tiny-crashing', { breakDecoding: true });
    const { logger, lines } = capturingLogger();
    const transcriber = createTranscriber({ engine: 'local', modelsDir, defaultModel: 'tiny-crashing', ffmpegPath, threads: 2, logger, stallTimeoutMs: 1500 });
    // Without the stall guard this would wait for ever (the test's own limit would end it).
    await expectTranscriptionError(transcriber.transcribe({ audioPath: tone }), 'engine', /stopped responding \(no progress for 2 s\)/);
    // The dead context was evicted: the next job loads the model afresh instead of queueing behind it.
    await expectTranscriptionError(transcriber.transcribe({ audioPath: tone }), 'engine');
    expect(lines.filter((line) => line.msg === 'whisper model loaded' && String(line.model).endsWith('ggml-tiny-crashing.bin'))).toHaveLength(2);
    // Other models are unaffected.
    expect((await local().transcribe({ audioPath: tone })).noSpeech).toBe(false);
  });

  it('rejects unreadable audio and honours cancellation', async () => {
    const notMedia = path.join(workDir, 'not-media.mp4');
    await writeFile(notMedia, 'hello');
    await expectTranscriptionError(local().transcribe({ audioPath: notMedia }), 'audio', /ffmpeg could not read the audio/);
    const controller = new AbortController();
    const running = local().transcribe({ audioPath: tone, signal: controller.signal });
    setTimeout(() => controller.abort(), 150);
    await expectTranscriptionError(running, 'aborted');
    // The model is still usable afterwards.
    expect((await local().transcribe({ audioPath: tone })).noSpeech).toBe(false);
  });
});

describe('models:download', () => {
  it('parses its arguments', () => {
    expect(parseArgs(['large-v3-turbo', '--force', '--dir', '/m'])).toEqual({ names: ['large-v3-turbo'], force: true, dir: '/m', list: false });
    expect(parseArgs(['--dir=/x', 'tiny', 'base'])).toMatchObject({ names: ['tiny', 'base'], dir: '/x' });
    expect(() => parseArgs(['--bogus'])).toThrow(UsageError);
  });

  it('knows the published checksums of the usual models', () => {
    for (const name of ['tiny', 'base', 'small', 'medium', 'large-v3', 'large-v3-turbo']) {
      expect(KNOWN_MODELS.find((model) => model.name === name)?.sha1).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(KNOWN_MODELS.find((model) => model.name === 'large-v3-turbo')!.sha1).toBe('4af2b29d7ec73d781377bfd1758ca957a807e941');
  });

  it('resolves the official URL and the file in the models directory', () => {
    const target = resolveTarget('large-v3-turbo', '/data/models');
    expect(target).toEqual({
      name: 'large-v3-turbo',
      url: 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-large-v3-turbo.bin',
      file: '/data/models/ggml-large-v3-turbo.bin',
      partFile: '/data/models/ggml-large-v3-turbo.bin.part',
      sha1: '4af2b29d7ec73d781377bfd1758ca957a807e941',
    });
    expect(modelPath('/data/models', 'base.en')).toBe('/data/models/ggml-base.en.bin');
    expect(() => resolveTarget('gpt-5', '/data/models')).toThrow(/Unknown model "gpt-5"/);
    expect(() => modelPath('/data/models', '../../etc/passwd')).toThrow(/not a valid/);
  });

  it('draws a progress bar', () => {
    expect(formatProgress(512 * 1024 * 1024, 1024 * 1024 * 1024, 10_000, 10)).toBe('[#####-----]  50.0%  512.0/1024.0 MiB  51.2 MiB/s');
    expect(formatProgress(5 * 1024 * 1024, null, 1000)).toBe('5.0 MiB  5.0 MiB/s');
  });

  it('verifies a file against its SHA-1', async () => {
    const file = path.join(workDir, 'checksum.bin');
    await writeFile(file, 'whisper');
    const sha1 = createHash('sha1').update('whisper').digest('hex');
    expect(await verifyModelChecksum(file, sha1.toUpperCase())).toEqual({ ok: true, expected: sha1, actual: sha1 });
    expect((await verifyModelChecksum(file, '0'.repeat(40))).ok).toBe(false);
  });

  describe('download', () => {
    let server: Server;
    let baseUrl: string;
    const payload = Buffer.alloc(300_000, 7);

    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === '/ggml-tiny.bin') {
          res.writeHead(200, { 'content-length': String(payload.length) });
          res.end(payload);
        } else {
          res.writeHead(404).end('Entry not found');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    function progressSink(): { stream: Writable; text: () => string } {
      let text = '';
      const stream = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          text += chunk.toString('utf8');
          callback();
        },
      });
      return { stream, text: () => text };
    }

    it('downloads to a .part file, checks the SHA-1 and renames it into place', async () => {
      const dir = path.join(workDir, 'download-ok');
      const target = { ...resolveTarget('tiny', dir, baseUrl), sha1: createHash('sha1').update(payload).digest('hex') };
      const progress = progressSink();
      await downloadModel(target, { progress: progress.stream });
      expect(await readFile(target.file)).toEqual(payload);
      await expect(stat(target.partFile)).rejects.toThrow();
      expect(progress.text()).toContain('100.0%');
    });

    it('discards a file whose checksum does not match', async () => {
      const dir = path.join(workDir, 'download-bad');
      const target = resolveTarget('tiny', dir, baseUrl);
      await expect(downloadModel(target)).rejects.toThrow(/Checksum mismatch for ggml-tiny\.bin: expected SHA-1 bd577a113a864445d4c299885e0cb97d4ba92b5f/);
      await expect(stat(target.file)).rejects.toThrow();
      await expect(stat(target.partFile)).rejects.toThrow();
    });

    it('fails with a clear message when the host cannot be reached', async () => {
      const dir = path.join(workDir, 'download-offline');
      await mkdir(dir, { recursive: true });
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const target = resolveTarget('tiny', dir, `http://127.0.0.1:${port}`);
      await expect(downloadModel(target)).rejects.toThrow(
        new RegExp(`Could not reach 127\\.0\\.0\\.1:${port} to download ggml-tiny\\.bin \\(ECONNREFUSED\\)\\. .*save it as ${target.file.replace(/[.]/g, '\\.')}`),
      );
    });
  });
});
