import { writeFile } from 'node:fs/promises';
import type { CaptionStyle, LogoPosition, TranscriptWordDto } from '@clipshift/shared';
import {
  assOptionsForStyle,
  buildCaptions,
  captionFontsDir,
  hookAssLines,
  logoPlacement,
  shiftWords,
  withHook,
  type CaptionFrame,
  type HookCard,
  type SubtitleOverlay,
} from '../../engines/media/index.ts';

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
  /** A title card over the render's first seconds. */
  hook?: HookCard | null | undefined;
  /** The streamer's logo (a local file), where and how opaque. */
  logo?: { image: string; position: LogoPosition; opacity: number } | null | undefined;
}

/**
 * The one way what is drawn over the picture is written for a render or a preview: the words on
 * the render's timeline, in the style, with the bundled fonts and the colour emoji pictures; the
 * hook in the same ASS file; the logo as an overlay. Null when there is nothing to draw.
 */
export async function writeCaptionOverlay(request: CaptionOverlayRequest): Promise<SubtitleOverlay | null> {
  const words = shiftWords(request.words, request.trimStart).filter((word) => word.text.trim());
  const hook = request.hook?.text.trim() ? request.hook : null;
  if (words.length === 0 && !hook && !request.logo) return null;
  const built = buildCaptions(words, assOptionsForStyle(request.style, request.frame, request.language, request.glossary));
  const placed = request.logo ? logoPlacement(request.logo.position, request.frame, request.style.safe_zone) : null;
  const hookLines = hook ? hookAssLines(hook, request.frame, request.style.safe_zone, request.style.font, request.style.highlight_color.slice(1), placed?.reaches ?? 0) : null;
  // The file is the job's or the preview's own, in its scratch folder: written once, whole.
  await writeFile(request.assPath, hookLines ? withHook(built.ass, hookLines) : built.ass, 'utf8');
  const images = built.emoji;
  const logo = request.logo && placed ? { image: request.logo.image, opacity: request.logo.opacity, x: placed.x, y: placed.y, box: placed.box } : null;
  return { assPath: request.assPath, fontsDir: await captionFontsDir(), images, logo };
}
