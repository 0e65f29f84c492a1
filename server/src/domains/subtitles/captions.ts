import path from 'node:path';
import type { AppDeps } from '../deps.ts';
import type { Transcriber, Transcript } from '../../engines/providers/transcription/index.ts';
import { writeCaptionOverlay } from '../studio/service.ts';
import { outputFrame, type CaptionFrame, type ClipLayout, type ProbeResult, type SubtitleOverlay, type VerticalLayoutSpec } from '../../engines/media/index.ts';
import type { CaptionStyle } from '@clipshift/shared';
import type { TranscriptUpdate } from '../clips/service.ts';
import { recordLog } from '../logs/service.ts';
import { whisperModelFor } from '../settings/service.ts';

type CaptionTarget = CaptionFrame;

interface CaptionRequest {
  transcriber: Transcriber;
  sourcePath: string;
  assPath: string;
  target: CaptionTarget;
  language?: string;
  model?: string;
  /** The streamer's glossary, given to speech recognition as vocabulary. */
  vocabulary?: readonly string[];
  style: CaptionStyle;
  /** The render starts this far into the source: captions move onto its timeline. */
  trimStart?: number;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

interface CaptionResult {
  transcript: Transcript;
  /** The ASS file and the fonts it needs, or null when no speech was found. */
  overlay: SubtitleOverlay | null;
}

/** Transcribes a clip and writes its captions; a clip with no speech gets no captions at all. */
export async function captionClip(request: CaptionRequest): Promise<CaptionResult> {
  const transcript = await request.transcriber.transcribe({
    audioPath: request.sourcePath,
    language: request.language || undefined,
    // The browser's model preference names whisper.cpp models; an OpenAI-compatible server uses its own.
    model: request.transcriber.engine === 'local' ? request.model : undefined,
    vocabulary: request.vocabulary,
    signal: request.signal,
    onProgress: request.onProgress,
  });
  if (transcript.noSpeech || transcript.words.length === 0) return { transcript, overlay: null };
  const overlay = await writeCaptionOverlay({ words: transcript.words, style: request.style, frame: request.target, trimStart: request.trimStart ?? 0, assPath: request.assPath, language: transcript.language, glossary: request.vocabulary });
  return { transcript, overlay };
}

/** The transcriber, or the reason subtitles cannot be made on this server. */
export function requireTranscriber(deps: AppDeps): Transcriber {
  if (!deps.transcriber) throw new Error(deps.transcriberProblem ?? 'Transcription is not configured');
  return deps.transcriber;
}

interface RunCaptionRequest {
  userId: string;
  clipTitle: string;
  sourcePath: string;
  sourceInfo: ProbeResult;
  layout: ClipLayout | VerticalLayoutSpec;
  captionStyle: CaptionStyle;
  glossary: readonly string[];
  trimStart?: number;
  /** Where the ASS file goes (the clip's work folder). */
  workDir: string;
  language: string | null;
  signal: AbortSignal;
}

export interface RunCaptions {
  overlay: SubtitleOverlay;
  transcript: TranscriptUpdate;
}

/** Speech recognition's words as the clip stores them (seconds from the source's start). */
export function recognisedTranscript(transcript: Transcript): TranscriptUpdate {
  return {
    text: transcript.text,
    words: transcript.words.map((word) => ({ start: word.start, end: word.end, text: word.text })),
    language: transcript.language ?? null,
    edited: false,
  };
}

/**
 * Captions for a clip a run is about to render (auto_subtitle), so they join its one encode. Runs
 * have no browser behind them: the model is the one saved in Settings. Null when the clip has no
 * speech; the user's log says it was rendered without captions.
 */
export async function captionsForRun(deps: AppDeps, request: RunCaptionRequest): Promise<RunCaptions | null> {
  const { transcript, overlay } = await captionClip({
    transcriber: requireTranscriber(deps),
    sourcePath: request.sourcePath,
    assPath: path.join(request.workDir, 'captions.ass'),
    target: outputFrame(request.layout, request.sourceInfo),
    language: request.language || undefined,
    model: await whisperModelFor(deps.db, request.userId),
    vocabulary: request.glossary,
    style: request.captionStyle,
    trimStart: request.trimStart,
    signal: request.signal,
  });
  if (!overlay) {
    await recordLog(deps.db, deps.logger, {
      level: 'INFO',
      logger: 'subtitles',
      message: `No speech found in "${request.clipTitle}": rendered without captions`,
      userId: request.userId,
    });
    return null;
  }
  return { overlay, transcript: recognisedTranscript(transcript) };
}
