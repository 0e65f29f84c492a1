import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local OpenAI-compatible transcription server: POST /v1/audio/transcriptions with a real
 * multipart upload, validated like the real API (model, response_format, timestamp_granularities,
 * Bearer key), answering verbose_json with words and segments the way OpenAI does. It can fail on
 * demand (500 / 429 with Retry-After) and answer as whisper does for a clip without speech.
 */

export type FakeScenario =
  /** A streamer's exclamation, with words at the top level (OpenAI's layout). */
  | 'speech'
  /** The same, with the words inside the segments (faster-whisper based servers). */
  | 'speech-segment-words'
  /** What whisper says over silence: "Thank you." with a high no_speech_prob. */
  | 'silence'
  /** A decoding loop: one phrase repeated many times. */
  | 'loop'
  /** Japanese, words per token, language reported by name. */
  | 'japanese'
  /** A streamer talking the whole clip long (words every 0.4 s, sentence segments): captions on every second. */
  | 'commentary';

export interface RecordedUpload {
  model: string | null;
  responseFormat: string | null;
  granularities: string[];
  language: string | null;
  /** The prompt field (a glossary as comma-separated terms), null when none was sent. */
  prompt: string | null;
  authorization: string | null;
  fileName: string | null;
  fileType: string | null;
  fileBytes: number;
  /** From the WAV header when the upload is a WAV file. */
  wav: { sampleRate: number; channels: number; bitsPerSample: number; seconds: number } | null;
}

export interface FailurePlan {
  status: 200 | 500 | 502 | 429 | 503;
  times: number;
  retryAfterSeconds?: number;
  /**
   * Answer with this text/html page instead of OpenAI's JSON error, as a proxy or gateway in front
   * of the server does (with status 200: a captive portal, a misrouted request).
   */
  page?: string;
}

export interface FakeOpenAi {
  url: string;
  uploads: RecordedUpload[];
  /** Every request, including the failed ones. */
  requestCount(): number;
  setScenario(scenario: FakeScenario): void;
  failNext(plan: FailurePlan): void;
  /** Holds every transcription unanswered (a very slow server) until release(). */
  hold(): void;
  /** Answers the held transcriptions and stops holding. */
  release(): void;
  /** Transcriptions received and held, not answered yet. */
  pending(): number;
  /**
   * Forgets what tests recorded and scripted: uploads, the request count, failures, the scenario
   * (back to the options'), a hold (held transcriptions are answered). Tests call it in beforeEach
   * so none depends on what an earlier one scripted.
   */
  reset(): void;
  close(): Promise<void>;
}

export interface FakeOpenAiOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  scenario?: FakeScenario;
  /** Model ids the server knows (default whisper-1). */
  models?: string[];
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const uploads: RecordedUpload[] = [];
  const models = options.models ?? ['whisper-1'];
  let scenario: FakeScenario = options.scenario ?? 'speech';
  let failure: FailurePlan | null = null;
  let requests = 0;
  let holding = false;
  const held = new Set<() => void>();

  const server = createServer((req, res) => {
    requests++;
    handle(req, res).catch((error: unknown) => sendJson(res, 500, { error: { message: `fake crashed: ${String(error)}`, type: 'server_error' } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      sendJson(res, 404, { error: { message: `Unknown route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      return;
    }
    const body = await readBody(req);
    if (failure && failure.times > 0) {
      failure.times--;
      const headers = failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : undefined;
      if (failure.page !== undefined) {
        res.writeHead(failure.status, { ...headers, 'content-type': 'text/html; charset=utf-8' });
        res.end(failure.page);
        return;
      }
      const message = failure.status === 429 ? 'Rate limit reached for requests' : 'The server had an error while processing your request.';
      sendJson(res, failure.status, { error: { message, type: failure.status === 429 ? 'requests' : 'server_error' } }, headers);
      return;
    }
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
      return;
    }
    const form = await parseMultipart(req, body);
    if (!form) {
      sendJson(res, 400, { error: { message: 'Expected a multipart/form-data body', type: 'invalid_request_error' } });
      return;
    }
    const upload = await recordUpload(form, req.headers.authorization ?? null);
    uploads.push(upload);
    if (holding) {
      // A client that gives up closes the connection, which ends the hold too.
      await new Promise<void>((resolve) => {
        const done = () => {
          held.delete(done);
          resolve();
        };
        held.add(done);
        res.once('close', done);
      });
      if (res.destroyed) return;
    }
    const problem = validate(upload, models);
    if (problem) {
      sendJson(res, 400, { error: { message: problem, type: 'invalid_request_error' } });
      return;
    }
    sendJson(res, 200, verboseJson(scenario, upload.wav?.seconds ?? 3, upload.language));
  }

  function release(): void {
    holding = false;
    for (const done of [...held]) done();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    uploads,
    requestCount: () => requests,
    setScenario: (next) => {
      scenario = next;
    },
    failNext: (plan) => {
      failure = { ...plan };
    },
    hold: () => {
      holding = true;
    },
    release,
    pending: () => held.size,
    reset: () => {
      release();
      uploads.length = 0;
      requests = 0;
      failure = null;
      scenario = options.scenario ?? 'speech';
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Parses the multipart body with the platform's own parser (undici's Request.formData). */
async function parseMultipart(req: IncomingMessage, body: Buffer): Promise<FormData | null> {
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) return null;
  try {
    return await new Request('http://fake.local/', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(body) }).formData();
  } catch {
    return null;
  }
}

async function recordUpload(form: FormData, authorization: string | null): Promise<RecordedUpload> {
  const file = form.get('file');
  const bytes = file instanceof Blob ? Buffer.from(await file.arrayBuffer()) : null;
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : null;
  };
  return {
    model: text('model'),
    responseFormat: text('response_format'),
    granularities: form.getAll('timestamp_granularities[]').filter((value): value is string => typeof value === 'string'),
    language: text('language'),
    prompt: text('prompt'),
    authorization,
    fileName: file instanceof File ? file.name : null,
    fileType: file instanceof Blob ? file.type : null,
    fileBytes: bytes?.length ?? 0,
    wav: bytes ? wavInfo(bytes) : null,
  };
}

function wavInfo(bytes: Buffer): RecordedUpload['wav'] {
  if (bytes.length < 44 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return null;
  const channels = bytes.readUInt16LE(22);
  const sampleRate = bytes.readUInt32LE(24);
  const bitsPerSample = bytes.readUInt16LE(34);
  const dataBytes = bytes.readUInt32LE(40);
  return { sampleRate, channels, bitsPerSample, seconds: dataBytes / (sampleRate * channels * (bitsPerSample / 8)) };
}

/** The checks the real API makes on the fields this app sends. */
function validate(upload: RecordedUpload, models: readonly string[]): string | null {
  if (!upload.model) return "you must provide a model parameter";
  if (!models.includes(upload.model)) return `The model \`${upload.model}\` does not exist or you do not have access to it.`;
  if (upload.fileBytes === 0) return 'No file uploaded';
  if (upload.responseFormat !== 'verbose_json') return 'timestamp_granularities requires response_format=verbose_json';
  if (!upload.granularities.includes('word')) return 'Expected timestamp_granularities[]=word';
  if (upload.language !== null && !/^[a-z]{2,3}$/.test(upload.language)) return `Invalid language '${upload.language}'. Language parameter must be specified in ISO-639-1 format.`;
  return null;
}

export interface FakeWord {
  word: string;
  start: number;
  end: number;
}

function verboseJson(scenario: FakeScenario, duration: number, language: string | null): Record<string, unknown> {
  switch (scenario) {
    case 'speech':
      return speechResponse(duration, language, false);
    case 'speech-segment-words':
      return speechResponse(duration, language, true);
    case 'silence':
      return silenceResponse(duration);
    case 'loop':
      return loopResponse(duration);
    case 'japanese':
      return japaneseResponse(duration);
    case 'commentary':
      return commentaryResponse(duration);
  }
}

const SPEECH: Array<[string, number, number]> = [
  ['Oh', 0.1, 0.3],
  ['my', 0.3, 0.45],
  ['god,', 0.45, 0.8],
  ['no', 0.9, 1.1],
  ['way!', 1.1, 1.5],
  ['Did', 1.8, 1.95],
  ['you', 1.95, 2.05],
  ['see', 2.05, 2.25],
  ['that?', 2.25, 2.6],
];

/** What the speech scenario hears in every upload (the demo's subtitled clips say it). */
export const SPEECH_TRANSCRIPT = SPEECH.map(([word]) => word).join(' ');

function speechResponse(duration: number, language: string | null, wordsInSegments: boolean): Record<string, unknown> {
  // faster-whisper servers keep the token's leading space in each word; OpenAI trims it.
  const words: FakeWord[] = SPEECH.map(([word, start, end]) => ({ word: wordsInSegments ? ` ${word}` : word, start, end }));
  const segments = [
    segment(0, 0, 1.6, ' Oh my god, no way!', -0.21, 0.004, wordsInSegments ? words.slice(0, 5) : undefined),
    segment(1, 1.6, Math.min(duration, 2.8), ' Did you see that?', -0.18, 0.002, wordsInSegments ? words.slice(5) : undefined),
  ];
  return {
    task: 'transcribe',
    language: language === 'en' || language === null ? 'english' : language,
    duration,
    text: SPEECH_TRANSCRIPT,
    ...(wordsInSegments ? {} : { words }),
    segments,
  };
}

function silenceResponse(duration: number): Record<string, unknown> {
  return {
    task: 'transcribe',
    language: 'english',
    duration,
    text: 'Thank you.',
    words: [
      { word: 'Thank', start: 0.0, end: 0.6 },
      { word: 'you.', start: 0.6, end: 1.2 },
    ],
    segments: [segment(0, 0, duration, ' Thank you.', -1.35, 0.93)],
  };
}

function loopResponse(duration: number): Record<string, unknown> {
  const words: FakeWord[] = [
    { word: 'Let', start: 0.1, end: 0.2 },
    { word: 'me', start: 0.2, end: 0.3 },
    { word: 'know', start: 0.3, end: 0.5 },
  ];
  let time = 0.6;
  for (let repeat = 0; repeat < 6; repeat++) {
    for (const word of ['thank', 'you', 'so', 'much.']) {
      words.push({ word: repeat === 0 && word === 'thank' ? 'Thank' : word, start: time, end: time + 0.1 });
      time += 0.1;
    }
  }
  return {
    task: 'transcribe',
    language: 'english',
    duration,
    text: words.map((word) => word.word).join(' '),
    words,
    segments: [segment(0, 0, duration, ' Let me know thank you so much.', -0.4, 0.01)],
  };
}

/**
 * What a streamer says over a round, with the words that earn caption emoji (insane, clutch, money,
 * boom, lol, gg, …); no phrase repeats back to back, so the loop guard keeps every word.
 */
const COMMENTARY = [
  'Okay he is rotating to the site right now.',
  'No way, that flick was insane!',
  'We need money for the next round, save it.',
  'Did you see that clutch? Crazy.',
  'Wait, what is he doing over there?',
  'He is going for the bomb, boom, headshot, perfect.',
  'Lol, he died to fall damage.',
  'Easy round chat, we are cooking now.',
  'First blood for us, that is a win.',
  'Hold the corner, they always push here.',
  'GG, that was so fast.',
  'I think they are scared of us now.',
];

/** The commentary's words, 0.3 s each every 0.4 s, over `duration` seconds (the paragraph starts again when it runs out). */
export function commentaryWords(duration: number): FakeWord[] {
  const spoken = COMMENTARY.join(' ').split(' ');
  const words: FakeWord[] = [];
  for (let index = 0; 0.2 + index * 0.4 + 0.3 <= duration; index += 1) {
    const start = Math.round((0.2 + index * 0.4) * 100) / 100;
    words.push({ word: spoken[index % spoken.length]!, start, end: Math.round((start + 0.3) * 100) / 100 });
  }
  return words;
}

function commentaryResponse(duration: number): Record<string, unknown> {
  const words = commentaryWords(duration);
  // One segment per sentence, as whisper cuts them.
  const segments: Record<string, unknown>[] = [];
  let first = 0;
  words.forEach((word, index) => {
    if (!/[.!?]$/.test(word.word) && index < words.length - 1) return;
    const sentence = words.slice(first, index + 1);
    segments.push(segment(segments.length, sentence[0]!.start, word.end, ` ${sentence.map((item) => item.word).join(' ')}`, -0.2, 0.01));
    first = index + 1;
  });
  return { task: 'transcribe', language: 'english', duration, text: words.map((word) => word.word).join(' '), words, segments };
}

function japaneseResponse(duration: number): Record<string, unknown> {
  const words: FakeWord[] = [
    { word: 'すご', start: 0.1, end: 0.4 },
    { word: 'い', start: 0.4, end: 0.5 },
    { word: '！', start: 0.5, end: 0.6 },
    { word: '本当', start: 0.8, end: 1.1 },
    { word: 'に', start: 1.1, end: 1.2 },
    { word: 'ありがとう', start: 1.2, end: 1.9 },
  ];
  return {
    task: 'transcribe',
    language: 'japanese',
    duration,
    text: 'すごい！本当にありがとう',
    words,
    segments: [segment(0, 0, 2, 'すごい！本当にありがとう', -0.3, 0.01)],
  };
}

function segment(
  id: number,
  start: number,
  end: number,
  text: string,
  avgLogprob: number,
  noSpeechProb: number,
  words?: FakeWord[],
): Record<string, unknown> {
  return {
    id,
    seek: 0,
    start,
    end,
    text,
    tokens: [50364, 876, 452, 3044],
    temperature: 0,
    avg_logprob: avgLogprob,
    compression_ratio: 1.1,
    no_speech_prob: noSpeechProb,
    ...(words ? { words: words.map((word) => ({ ...word, probability: 0.9 })) } : {}),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
