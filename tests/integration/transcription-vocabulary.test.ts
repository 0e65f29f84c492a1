import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTranscriber } from '../../server/src/engines/providers/transcription/config.ts';
import { releaseWhisperModels } from '../../server/src/engines/providers/transcription/local.ts';
import { nativeTranscribeOptions } from '../../server/src/engines/providers/transcription/local.ts';
import { PROMPT_BYTE_BUDGET, vocabularyPrompt } from '../../server/src/engines/providers/transcription/vocabulary.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/openai/index.ts';
import { ffmpegBinary, SPELLED_WORDS, toneClip, writeTinyWhisperModel } from '../fakes/whisper/index.ts';

/*
 * A streamer's glossary reaches speech recognition as whisper's prompt: the `prompt` form field of
 * an OpenAI-compatible server, whisper.cpp's initial prompt for the local engine.
 */

const GLOSSARY = ['Shroud', 'Valorant', 'KEKW', 'Jett'];

let workDir: string;
let ffmpegPath: string;
let tone: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'clipshift-vocabulary-'));
  ffmpegPath = await ffmpegBinary();
  tone = await toneClip();
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('glossary as a prompt', () => {
  it('joins the terms with commas, tidied, repeats and blanks left out', () => {
    expect(vocabularyPrompt(GLOSSARY)).toBe('Shroud, Valorant, KEKW, Jett');
    expect(vocabularyPrompt(['  Pog  Champ ', '', 'shroud', 'Shroud', '   '])).toBe('Pog Champ, shroud');
    expect(vocabularyPrompt([])).toBeUndefined();
    expect(vocabularyPrompt(undefined)).toBeUndefined();
    expect(vocabularyPrompt(['', ' '])).toBeUndefined();
  });

  it('stays within the 224-token budget counted in UTF-8 bytes, keeping whole terms in glossary order', () => {
    // The contract's largest glossary: 100 terms of 50 characters.
    const terms = Array.from({ length: 100 }, (_, index) => `term${String(index).padStart(2, '0')}`.padEnd(50, 'x'));
    const prompt = vocabularyPrompt(terms)!;
    expect(Buffer.byteLength(prompt, 'utf8')).toBeLessThanOrEqual(PROMPT_BYTE_BUDGET);
    expect(prompt.split(', ')).toEqual(terms.slice(0, 4));
    // Hangul takes 3 bytes a syllable (up to 3 tokens): fewer Korean terms fit.
    const korean = vocabularyPrompt(Array.from({ length: 40 }, (_, index) => `페이커${index}`))!;
    expect(Buffer.byteLength(korean, 'utf8')).toBeLessThanOrEqual(PROMPT_BYTE_BUDGET);
    expect(korean.startsWith('페이커0, 페이커1, ')).toBe(true);
    // A short term after one that does not fit still gets in.
    expect(vocabularyPrompt(['Jett', 'x'.repeat(300), 'Sage'])).toBe('Jett, Sage');
  });
});

describe('openai engine', () => {
  let fake: FakeOpenAi;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });

  afterAll(async () => {
    await fake.close();
  });

  beforeEach(() => fake.reset());

  function engine() {
    return createTranscriber({ engine: 'openai', apiUrl: fake.url, defaultModel: 'whisper-1', ffmpegPath, sleep: async () => undefined });
  }

  it('sends the glossary as the prompt field', async () => {
    const transcript = await engine().transcribe({ audioPath: tone, language: 'en', vocabulary: GLOSSARY });
    expect(transcript.noSpeech).toBe(false);
    expect(fake.uploads.at(-1)!.prompt).toBe('Shroud, Valorant, KEKW, Jett');
  });

  it('sends no prompt without a glossary', async () => {
    await engine().transcribe({ audioPath: tone, language: 'en' });
    await engine().transcribe({ audioPath: tone, language: 'en', vocabulary: [' '] });
    expect(fake.uploads.map((upload) => upload.prompt)).toEqual([null, null]);
  });
});

describe('local engine', () => {
  it('maps the glossary to whisper.cpp\'s initial prompt, next to the language and thread options', () => {
    const onProgress = () => undefined;
    expect(nativeTranscribeOptions({ language: 'ko', vocabulary: ['페이커', 'T1'], threads: 4 }, onProgress)).toEqual({
      language: 'ko',
      tokenTimestamps: true,
      maxLen: 1,
      maxThreads: 4,
      prompt: '페이커, T1',
      onProgress,
    });
    const plain = nativeTranscribeOptions({ language: undefined, vocabulary: undefined, threads: 2 }, onProgress);
    expect(plain).toEqual({ language: 'auto', tokenTimestamps: true, maxLen: 1, maxThreads: 2, onProgress });
    expect('prompt' in plain).toBe(false);
  });

  it('runs whisper.cpp with a glossary prompt', async () => {
    const modelsDir = path.join(workDir, 'models');
    await writeTinyWhisperModel(modelsDir, 'tiny-test');
    try {
      const local = createTranscriber({ engine: 'local', modelsDir, defaultModel: 'tiny-test', ffmpegPath, threads: 2 });
      const transcript = await local.transcribe({ audioPath: tone, language: 'en', vocabulary: GLOSSARY });
      expect(transcript.words.map((word) => word.text)).toEqual([...SPELLED_WORDS]);
    } finally {
      await releaseWhisperModels();
    }
  });
});
