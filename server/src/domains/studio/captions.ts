import type { CaptionStyle, TranscriptWordDto } from '@clipshift/shared';
import { assOptionsForStyle, captionFontsDir, shiftWords, writeAssFile, type CaptionFrame, type SubtitleOverlay } from '../../engines/media/index.ts';

export interface CaptionOverlayRequest {
  /** Timed from the source's start. */
  words: readonly TranscriptWordDto[];
  style: CaptionStyle;
  frame: CaptionFrame;
  /** The render starts this far into the source: the words move onto its timeline. */
  trimStart: number;
  /** Where the ASS file goes (the job's or preview's work folder). */
  assPath: string;
  /** The transcript's language: upper case follows its rules. */
  language?: string | null | undefined;
  /** The streamer's glossary: its terms are keywords for the emphasis. */
  glossary?: readonly string[] | undefined;
}

/**
 * The one way captions are written for a render or a preview: the words on the render's timeline,
 * in the style, with the bundled fonts and the colour emoji pictures. Null when there are no words to show.
 */
export async function writeCaptionOverlay(request: CaptionOverlayRequest): Promise<SubtitleOverlay | null> {
  const words = shiftWords(request.words, request.trimStart).filter((word) => word.text.trim());
  if (words.length === 0) return null;
  const images = await writeAssFile(request.assPath, words, assOptionsForStyle(request.style, request.frame, request.language, request.glossary));
  return { assPath: request.assPath, fontsDir: await captionFontsDir(), images };
}
