import { spawnTied } from '../../../platform/processes.ts';
import { abortedError, TranscriptionError } from './types.ts';

/** whisper's input format: 16 kHz, mono. */
export const SAMPLE_RATE = 16_000;

/** A minute-long clip decodes in well under a second; this only catches a wedged ffmpeg. */
const DECODE_TIMEOUT_MS = 120_000;

/** Longest audio we transcribe (clips are at most a minute; this bounds memory for odd inputs). */
const MAX_SECONDS = 30 * 60;

/** How much of ffmpeg's error output is kept for the error message. */
const STDERR_TAIL = 2000;

/**
 * Decodes the audio track of any file ffmpeg reads into 16 kHz mono signed 16-bit PCM, in memory.
 * A file without an audio track gives empty PCM (a silent clip), not an error.
 */
export async function decodePcm(ffmpegPath: string, inputPath: string, signal?: AbortSignal): Promise<Int16Array> {
  if (signal?.aborted) throw abortedError(signal.reason);
  // -map 0:a:0? makes the audio optional, so a video-only file ends cleanly with no samples.
  const args = [
    '-nostdin', '-hide_banner', '-loglevel', 'error',
    '-i', inputPath,
    '-map', '0:a:0?', '-vn', '-sn', '-dn',
    '-t', String(MAX_SECONDS),
    '-ac', '1', '-ar', String(SAMPLE_RATE), '-acodec', 'pcm_s16le', '-f', 's16le', 'pipe:1',
  ];
  const { stdout, stderr, code } = await runFfmpeg(ffmpegPath, args, signal);
  if (code !== 0) {
    if (/does not contain any stream/i.test(stderr)) return new Int16Array(0);
    throw new TranscriptionError('audio', `ffmpeg could not read the audio of ${inputPath}: ${lastLine(stderr) || `exit code ${code}`}`);
  }
  return toInt16(stdout);
}

interface FfmpegOutput {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

/** Runs ffmpeg with an argument array (no shell), killing it on abort or timeout. */
function runFfmpeg(ffmpegPath: string, args: string[], signal?: AbortSignal): Promise<FfmpegOutput> {
  return new Promise((resolve, reject) => {
    const child = spawnTied(ffmpegPath, args);
    const chunks: Buffer[] = [];
    let stderr = '';
    let failure: Error | null = null;
    const stop = (error: Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(abortedError(signal?.reason));
    const timer = setTimeout(() => stop(new TranscriptionError('audio', `ffmpeg took longer than ${DECODE_TIMEOUT_MS / 1000} s to decode the audio`)), DECODE_TIMEOUT_MS);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      finish();
      reject(new TranscriptionError('audio', `ffmpeg could not be started (${ffmpegPath}): ${error.message}`, { cause: error }));
    });
    child.on('close', (code) => {
      finish();
      if (failure) reject(failure);
      else resolve({ stdout: Buffer.concat(chunks), stderr, code });
    });
  });
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}

/** Copies into an aligned Int16Array (Buffer pool slices may start at odd offsets). */
function toInt16(buffer: Buffer): Int16Array {
  const samples = new Int16Array(Math.floor(buffer.length / 2));
  for (let i = 0; i < samples.length; i++) samples[i] = buffer.readInt16LE(i * 2);
  return samples;
}

/** A standalone copy of the samples' bytes, as the native binding and uploads want an ArrayBuffer. */
export function pcmArrayBuffer(pcm: Int16Array): ArrayBuffer {
  const copy = new ArrayBuffer(pcm.byteLength);
  new Int16Array(copy).set(pcm);
  return copy;
}

/** A canonical 44-byte-header WAV (PCM s16le mono) around the samples, for upload to an API. */
export function wavFile(pcm: Int16Array, sampleRate = SAMPLE_RATE): Uint8Array<ArrayBuffer> {
  const dataBytes = pcm.length * 2;
  const bytes = new Uint8Array(new ArrayBuffer(44 + dataBytes));
  const header = Buffer.from(bytes.buffer, 0, 44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  // WAV is little-endian, like every platform Node runs this app on.
  new Int16Array(bytes.buffer, 44, pcm.length).set(pcm);
  return bytes;
}
