import type { Transcriber, Transcript } from '../../engines/providers/transcription/index.ts';
import { writeAssFile, type AssOptions } from '../../engines/media/captions/ass.ts';
import { fontsDir } from '../../engines/media/captions/fonts.ts';

export interface CaptionTarget {
  width: number;
  height: number;
  vertical: boolean;
}

/**
 * Caption geometry for the output picture. Vertical output keeps the defaults (above TikTok's
 * bottom interface); horizontal output gets proportionally sized captions near the bottom edge.
 */
export function assOptionsFor(target: CaptionTarget): Partial<AssOptions> {
  if (target.vertical) return { playResX: target.width, playResY: target.height };
  const scale = target.height / 1080;
  return {
    playResX: target.width,
    playResY: target.height,
    fontSize: Math.round(58 * scale),
    marginV: Math.round(70 * scale),
    marginH: Math.round(120 * scale),
    outline: Math.max(2, Math.round(4 * scale)),
    shadow: Math.max(1, Math.round(2 * scale)),
    maxLineWidth: 40,
  };
}

export interface CaptionRequest {
  transcriber: Transcriber;
  sourcePath: string;
  assPath: string;
  target: CaptionTarget;
  language?: string;
  model?: string;
  signal?: AbortSignal;
}

export interface CaptionResult {
  transcript: Transcript;
  /** The ASS file and the fonts it needs, or null when no speech was found. */
  overlay: { assPath: string; fontsDir: string } | null;
}

/** Transcribes a clip and writes its captions; a clip with no speech gets no captions at all. */
export async function captionClip(request: CaptionRequest): Promise<CaptionResult> {
  const transcript = await request.transcriber.transcribe({
    audioPath: request.sourcePath,
    language: request.language || undefined,
    // The browser's model preference names whisper.cpp models; an OpenAI-compatible server uses its own.
    model: request.transcriber.engine === 'local' ? request.model : undefined,
    signal: request.signal,
  });
  if (transcript.noSpeech || transcript.words.length === 0) return { transcript, overlay: null };
  await writeAssFile(request.assPath, transcript.words, assOptionsFor(request.target));
  return { transcript, overlay: { assPath: request.assPath, fontsDir } };
}
