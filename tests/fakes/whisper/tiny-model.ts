import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * A tiny whisper.cpp model with random weights, in the legacy ggml format that whisper_model_load
 * (whisper.cpp src/whisper.cpp) reads:
 *
 *   u32 magic 0x67676d6c ("ggml")
 *   i32 × 11 hparams: n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer,
 *                     n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype
 *   mel filters: i32 n_mel, i32 n_fft, f32 × n_mel·n_fft
 *   vocab: i32 count, then per token u32 length + bytes (special tokens past the count are synthesised
 *          by the loader, exactly as for the published multilingual models)
 *   tensors until EOF: i32 n_dims, i32 name length, i32 type (0 f32, 1 f16), i32 × n_dims shape
 *          (ggml order, innermost first), name bytes, data
 *
 * The loader rejects a file unless every tensor it expects is present with its exact shape and type,
 * so this mirrors its list. The weights are random, except that by default the decoder is wired to
 * spell a fixed sentence: its attention and MLP outputs are zeroed, so each position's logits come
 * from the positional embedding alone, and the token embeddings (which whisper also uses as the
 * output projection) put one chosen token on top at each position. That makes whisper.cpp's real
 * decoding loop (timestamp rules, segments, token timestamps, language detection) produce
 * predictable words, "Hello clipshift works great" in two timed segments, whatever the audio;
 * with `spell: false` the decoder is fully random and produces one garbage word or so.
 */

export interface TinyModelOptions {
  /** Seed of the deterministic random weights. */
  seed?: number;
  /** Width of both encoder and decoder (the loader requires them equal). */
  state?: number;
  heads?: number;
  layers?: number;
  /** Decoder context: small, so a random decoder stops after a few tokens per 30 s window. */
  textContext?: number;
  /** Wire the decoder to produce SPELLED_WORDS (default true). */
  spell?: boolean;
  /**
   * Leave the " " token out of the vocabulary: the model loads, but whisper_full then throws
   * (std::out_of_range in its blank suppression), a real native failure for error-path tests.
   */
  breakDecoding?: boolean;
}

/** What the spelling decoder says (words after whisper.cpp's BPE pieces are joined). */
export const SPELLED_WORDS = ['Hello', 'clipshift', 'works', 'great'] as const;
/** Its language token, reported as the detected language. */
export const SPELLED_LANGUAGE = 'en';

const GGML_MAGIC = 0x67676d6c;
/** 51865 makes the loader treat the model as multilingual with 99 languages (like tiny…large-v2). */
const N_VOCAB = 51865;
/** Ordinary tokens stored in the file; eot, sot, languages and timestamps follow, made by the loader. */
const STORED_TOKENS = 50257;
/** Fixed by whisper's 30 s windows: 3000 mel frames, halved by the second convolution. */
const N_AUDIO_CTX = 1500;
const N_MELS = 80;
const N_FFT = 201;
const FTYPE_F16 = 1;

/* Special token ids of a 99-language model, as whisper.cpp derives them (vocab.token_*). */
const TOKEN_EOT = 50257;
const TOKEN_LANG_EN = 50259;
const TOKEN_BEG = 50364;
/** One timestamp token step is 20 ms. */
const timestampToken = (seconds: number) => TOKEN_BEG + Math.round(seconds / 0.02);

/** Ordinary tokens the spelling decoder uses: BPE pieces, " clip" + "shift" make one word. */
const SPELL_TOKENS = new Map<number, string>([
  [1000, ' Hello'],
  [1001, ' clip'],
  [1002, 'shift'],
  [1003, ' works'],
  [1004, ' great'],
]);

/**
 * The token the logits at each decoder position must pick. Position 0 answers language detection
 * (the decoder sees only <|startoftranscript|>); the prompt is <|sot|><|lang|><|transcribe|>, so
 * decoding starts with the logits of position 2. Timestamps come in pairs between segments.
 */
const SPELL_SEQUENCE: ReadonlyArray<[position: number, token: number]> = [
  [0, TOKEN_LANG_EN],
  [2, timestampToken(0)],
  [3, 1000],
  [4, 1001],
  [5, 1002],
  [6, timestampToken(1)],
  [7, timestampToken(1)],
  [8, 1003],
  [9, 1004],
  [10, timestampToken(2)],
  [11, TOKEN_EOT],
];

type TensorType = 'f32' | 'f16';

interface TensorSpec {
  name: string;
  /** ggml order: ne[0] is the innermost (fastest varying) dimension. */
  shape: number[];
  type: TensorType;
}

/** Values a tensor gets instead of random ones (index in ggml order), for the spelling decoder. */
type Fill = (values: Float32Array | Uint16Array) => void;

/** Writes the model to `dir/ggml-{name}.bin` (through a temporary name) and returns its path. */
export async function writeTinyWhisperModel(dir: string, name = 'tiny-random', options: TinyModelOptions = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `ggml-${name}.bin`);
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, buildTinyWhisperModel(options));
  await rename(partial, file);
  return file;
}

/** The model file's bytes. */
export function buildTinyWhisperModel(options: TinyModelOptions = {}): Buffer {
  const state = options.state ?? 64;
  const heads = options.heads ?? 2;
  const layers = options.layers ?? 1;
  const textContext = options.textContext ?? 32;
  const random = xorshift(options.seed ?? 20240531);

  const header = headerBytes({ state, heads, layers, textContext });
  const filters = melFilterBytes(random);
  const vocab = vocabBytes(options.breakDecoding === true);
  const fills = options.spell === false ? new Map<string, Fill>() : spellingFills(state, layers);
  const tensors = tensorList(state, layers, textContext).map((spec) => tensorBytes(spec, random, fills.get(spec.name)));
  return Buffer.concat([header, filters, vocab, ...tensors]);
}

function headerBytes(dims: { state: number; heads: number; layers: number; textContext: number }): Buffer {
  const values = [
    N_VOCAB,
    N_AUDIO_CTX,
    dims.state,
    dims.heads,
    dims.layers,
    dims.textContext,
    dims.state,
    dims.heads,
    dims.layers,
    N_MELS,
    FTYPE_F16,
  ];
  const buffer = Buffer.alloc(4 + values.length * 4);
  buffer.writeUInt32LE(GGML_MAGIC, 0);
  values.forEach((value, index) => buffer.writeInt32LE(value, 4 + index * 4));
  return buffer;
}

function melFilterBytes(random: () => number): Buffer {
  const buffer = Buffer.alloc(8 + N_MELS * N_FFT * 4);
  buffer.writeInt32LE(N_MELS, 0);
  buffer.writeInt32LE(N_FFT, 4);
  // Mel filter weights are non-negative; their exact values only shape the (random) features.
  for (let i = 0; i < N_MELS * N_FFT; i++) buffer.writeFloatLE(random() * 0.05, 8 + i * 4);
  return buffer;
}

/**
 * Text tokens whisper.cpp looks up by their text while decoding (suppress_blank needs " ", the
 * non-speech suppression " -" and " '"); at their ids in the real GPT-2 vocabulary. A vocabulary
 * without " " makes whisper_full throw std::out_of_range.
 */
const SPECIAL_TEXT_TOKENS = new Map<number, string>([
  [220, ' '],
  [532, ' -'],
  [705, " '"],
]);

/** Word-like tokens, about a third with a leading space, so the garbage output still splits into words. */
function vocabBytes(withoutBlank: boolean): Buffer {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'da', 'fu'];
  const parts: Buffer[] = [int32(STORED_TOKENS)];
  for (let id = 0; id < STORED_TOKENS; id++) {
    const special = withoutBlank && id === 220 ? 'blank' : SPECIAL_TEXT_TOKENS.get(id);
    const text = special ?? SPELL_TOKENS.get(id) ?? `${id % 3 === 0 ? ' ' : ''}${syllables[id % syllables.length]}${syllables[(id >> 4) % syllables.length]}`;
    const bytes = Buffer.from(text, 'utf8');
    parts.push(int32(bytes.length), bytes);
  }
  return Buffer.concat(parts);
}

function tensorList(state: number, layers: number, textContext: number): TensorSpec[] {
  const vector = (name: string): TensorSpec => ({ name, shape: [state], type: 'f32' });
  const matrix = (name: string, rows = state, columns = state): TensorSpec => ({ name, shape: [columns, rows], type: 'f16' });
  const attention = (prefix: string): TensorSpec[] => [
    vector(`${prefix}_ln.weight`),
    vector(`${prefix}_ln.bias`),
    matrix(`${prefix}.query.weight`),
    vector(`${prefix}.query.bias`),
    matrix(`${prefix}.key.weight`),
    matrix(`${prefix}.value.weight`),
    vector(`${prefix}.value.bias`),
    matrix(`${prefix}.out.weight`),
    vector(`${prefix}.out.bias`),
  ];
  const mlp = (prefix: string): TensorSpec[] => [
    vector(`${prefix}.mlp_ln.weight`),
    vector(`${prefix}.mlp_ln.bias`),
    matrix(`${prefix}.mlp.0.weight`, 4 * state, state),
    { name: `${prefix}.mlp.0.bias`, shape: [4 * state], type: 'f32' },
    matrix(`${prefix}.mlp.2.weight`, state, 4 * state),
    vector(`${prefix}.mlp.2.bias`),
  ];

  const specs: TensorSpec[] = [
    { name: 'encoder.positional_embedding', shape: [state, N_AUDIO_CTX], type: 'f32' },
    { name: 'encoder.conv1.weight', shape: [3, N_MELS, state], type: 'f16' },
    { name: 'encoder.conv1.bias', shape: [1, state], type: 'f32' },
    { name: 'encoder.conv2.weight', shape: [3, state, state], type: 'f16' },
    { name: 'encoder.conv2.bias', shape: [1, state], type: 'f32' },
    vector('encoder.ln_post.weight'),
    vector('encoder.ln_post.bias'),
  ];
  for (let layer = 0; layer < layers; layer++) {
    specs.push(...mlp(`encoder.blocks.${layer}`), ...attention(`encoder.blocks.${layer}.attn`));
  }
  specs.push(
    { name: 'decoder.positional_embedding', shape: [state, textContext], type: 'f32' },
    { name: 'decoder.token_embedding.weight', shape: [state, N_VOCAB], type: 'f16' },
    vector('decoder.ln.weight'),
    vector('decoder.ln.bias'),
  );
  for (let layer = 0; layer < layers; layer++) {
    specs.push(
      ...mlp(`decoder.blocks.${layer}`),
      ...attention(`decoder.blocks.${layer}.attn`),
      ...attention(`decoder.blocks.${layer}.cross_attn`),
    );
  }
  return specs;
}

const F16_TWO = 0x4000;

/**
 * Decoder weights that make it spell SPELL_SEQUENCE: no attention or MLP output (the residual stream
 * is token + position embedding), a plain final layer norm, position p embedded as 10 along
 * dimension p, and each wanted token's embedding 2 along the dimension of the position that must
 * pick it. After the layer norm, dimension p dominates, so that token's logit stands ~15 above
 * the rest.
 */
function spellingFills(state: number, layers: number): Map<string, Fill> {
  const zero: Fill = (values) => values.fill(0);
  const fills = new Map<string, Fill>();
  for (let layer = 0; layer < layers; layer++) {
    for (const part of ['attn.out.weight', 'attn.out.bias', 'cross_attn.out.weight', 'cross_attn.out.bias', 'mlp.2.weight', 'mlp.2.bias']) {
      fills.set(`decoder.blocks.${layer}.${part}`, zero);
    }
  }
  fills.set('decoder.ln.weight', (values) => values.fill(1));
  fills.set('decoder.ln.bias', zero);
  fills.set('decoder.positional_embedding', (values) => {
    values.fill(0);
    for (let position = 0; position * state < values.length && position < state; position++) values[position * state + position] = 10;
  });
  fills.set('decoder.token_embedding.weight', (values) => {
    for (const [position, token] of SPELL_SEQUENCE) values[token * state + position] = F16_TWO;
  });
  return fills;
}

function tensorBytes(spec: TensorSpec, random: () => number, fill?: Fill): Buffer {
  const name = Buffer.from(spec.name, 'utf8');
  const header = Buffer.alloc(12 + spec.shape.length * 4);
  header.writeInt32LE(spec.shape.length, 0);
  header.writeInt32LE(name.length, 4);
  header.writeInt32LE(spec.type === 'f32' ? 0 : 1, 8);
  spec.shape.forEach((size, index) => header.writeInt32LE(size, 12 + index * 4));
  const count = spec.shape.reduce((product, size) => product * size, 1);
  const values = spec.type === 'f32' ? randomF32(count, random) : randomF16(count, random);
  fill?.(values);
  return Buffer.concat([header, name, Buffer.from(values.buffer, values.byteOffset, values.byteLength)]);
}

/** Uniform in ±0.1: small enough that layer norms and softmaxes stay finite. */
function randomF32(count: number, random: () => number): Float32Array {
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) values[i] = (random() - 0.5) * 0.2;
  return values;
}

/**
 * Half floats built from their bits (sign, exponent 2^-10…2^-4, random mantissa): faster than
 * converting floats and always finite.
 */
function randomF16(count: number, random: () => number): Uint16Array {
  const values = new Uint16Array(count);
  for (let i = 0; i < count; i++) {
    const bits = Math.floor(random() * 0x1_0000_0000);
    const sign = bits & 0x8000;
    const exponent = 5 + ((bits >>> 16) % 7);
    values[i] = sign | (exponent << 10) | (bits & 0x3ff);
  }
  return values;
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32LE(value, 0);
  return buffer;
}

/** Deterministic, so a failing run can be reproduced with the same weights. */
function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}
