import path from 'node:path';
import type { AppDeps } from '../deps.ts';
import type { Transcriber, Transcript } from '../../engines/providers/transcription/index.ts';
import { shiftWords, writeAssFile, type AssOptions } from '../../engines/media/captions/ass.ts';
import { captionFontsDir } from '../../engines/media/captions/fonts.ts';
import { outputFrame, type ClipLayout, type ProbeResult, type SubtitleOverlay, type VerticalLayoutSpec } from '../../engines/media/index.ts';
import type { CaptionStyle } from '@clipshift/shared';
import type { TranscriptUpdate } from '../clips/service.ts';
import { recordLog } from '../logs/service.ts';
import { whisperModelFor } from '../settings/service.ts';

interface CaptionTarget {
  width: number;
  height: number;
  vertical: boolean;
}

/**
 * Caption geometry for the output picture. Vertical output keeps the defaults (above TikTok's
 * bottom interface); horizontal output gets proportionally sized captions near the bottom edge.
 */
function assOptionsFor(target: CaptionTarget): Partial<AssOptions> {
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

/** A caption style's fields as ASS options (size is in pixels on a frame 1080 wide on its short side). */
function styleOptions(style: CaptionStyle, target: CaptionTarget): Partial<AssOptions> {
  const scale = Math.min(target.width, target.height) / 1080;
  return {
    fontSize: Math.round(style.size * scale),
    fontName: style.font,
    textColor: style.primary_color.slice(1),
    highlightColor: style.highlight_color.slice(1),
    outlineColor: style.outline_color.slice(1),
  };
}

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
  overlay: { assPath: string; fontsDir: string } | null;
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
  await writeAssFile(request.assPath, shiftWords(transcript.words, request.trimStart ?? 0), { ...assOptionsFor(request.target), ...styleOptions(request.style, request.target) });
  return { transcript, overlay: { assPath: request.assPath, fontsDir: await captionFontsDir() } };
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
