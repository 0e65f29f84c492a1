import type { ProbeResult } from './probe.ts';

export const VERTICAL_WIDTH = 1080;
export const VERTICAL_HEIGHT = 1920;
export const MAX_FPS = 60;
/**
 * The blurred background is built at 1/8 of the output size: blurring 135x240 pixels and scaling
 * up is many times cheaper than blurring 1080x1920, and a blur hides the lost detail anyway.
 */
const BACKGROUND_SCALE = 8;
const BACKGROUND_BLUR_RADIUS = 6;

export type VerticalLayout = 'blur' | 'crop';

export interface SubtitleOverlay {
  assPath: string;
  fontsDir: string;
}

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/**
 * Escapes a value for an ffmpeg filter option inside a filtergraph: first the option level
 * (\ : '), then the graph level (\ ' [ ] , ;), so any path works.
 */
export function escapeFilterValue(value: string): string {
  const optionLevel = value.replace(/[\\:']/g, (char) => `\\${char}`);
  return optionLevel.replace(/[\\'[\],;]/g, (char) => `\\${char}`);
}

export function assFilter(subtitles: SubtitleOverlay): string {
  return `ass=filename=${escapeFilterValue(subtitles.assPath)}:fontsdir=${escapeFilterValue(subtitles.fontsDir)}`;
}

/** The foreground scaled to fit inside 1080x1920 with even dimensions. */
export function fitInside(width: number, height: number, boxWidth = VERTICAL_WIDTH, boxHeight = VERTICAL_HEIGHT): { width: number; height: number } {
  const scale = Math.min(boxWidth / width, boxHeight / height);
  return { width: Math.min(boxWidth, even(width * scale)), height: Math.min(boxHeight, even(height * scale)) };
}

/** The largest centred 9:16 window of the source, even-sized. */
export function cropWindow(width: number, height: number): { width: number; height: number } {
  const targetRatio = VERTICAL_WIDTH / VERTICAL_HEIGHT;
  if (width / height > targetRatio) return { width: Math.min(width, even(height * targetRatio)), height: height - (height % 2) };
  return { width: width - (width % 2), height: Math.min(height, even(width / targetRatio)) };
}

function fpsCap(info: Pick<ProbeResult, 'fps'>): string[] {
  return info.fps > MAX_FPS ? [`fps=${MAX_FPS}`] : [];
}

/**
 * The whole vertical picture in one filtergraph (layout, optional captions, pixel format), so the
 * render is a single encode from the source. Output label: [v].
 */
export function buildVerticalFilter(layout: VerticalLayout, info: Pick<ProbeResult, 'width' | 'height' | 'fps'>, subtitles?: SubtitleOverlay): string {
  const tail = [...fpsCap(info), ...(subtitles ? [assFilter(subtitles)] : []), 'setsar=1', 'format=yuv420p'].join(',');
  if (layout === 'crop') {
    const crop = cropWindow(info.width, info.height);
    return `[0:v]crop=${crop.width}:${crop.height}:(iw-${crop.width})/2:(ih-${crop.height})/2,scale=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}:flags=bicubic,${tail}[v]`;
  }
  const fg = fitInside(info.width, info.height);
  const smallWidth = VERTICAL_WIDTH / BACKGROUND_SCALE;
  const smallHeight = VERTICAL_HEIGHT / BACKGROUND_SCALE;
  return [
    `[0:v]split=2[bgsrc][fgsrc]`,
    `[bgsrc]scale=${smallWidth}:${smallHeight}:force_original_aspect_ratio=increase:flags=fast_bilinear,crop=${smallWidth}:${smallHeight},boxblur=${BACKGROUND_BLUR_RADIUS}:2,scale=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}:flags=bilinear[bg]`,
    `[fgsrc]scale=${fg.width}:${fg.height}:flags=bicubic[fg]`,
    `[bg][fg]overlay=(W-w)/2:(H-h)/2,${tail}[v]`,
  ].join(';');
}

/**
 * The textbook graph, for the benchmark: blur applied to the full-size 1080x1920 background.
 * Same picture layout, many times the blur work.
 */
export function buildNaiveBlurFilter(info: Pick<ProbeResult, 'width' | 'height' | 'fps'>): string {
  const fg = fitInside(info.width, info.height);
  return [
    `[0:v]split=2[bgsrc][fgsrc]`,
    `[bgsrc]scale=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}:force_original_aspect_ratio=increase,crop=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT},boxblur=${BACKGROUND_BLUR_RADIUS * BACKGROUND_SCALE}:2[bg]`,
    `[fgsrc]scale=${fg.width}:${fg.height}:flags=bicubic[fg]`,
    `[bg][fg]overlay=(W-w)/2:(H-h)/2,${[...fpsCap(info), 'setsar=1', 'format=yuv420p'].join(',')}[v]`,
  ].join(';');
}

/** Encoder settings of every rendered output: H.264 High, yuv420p, AAC, web-ready. */
export const ENCODE_ARGS = [
  '-c:v', 'libx264',
  // veryfast: about 2x faster than medium for a small size cost on short, high-motion clips.
  '-preset', 'veryfast',
  '-crf', '21',
  '-profile:v', 'high',
  '-pix_fmt', 'yuv420p',
  '-c:a', 'aac',
  '-b:a', '160k',
  '-ar', '48000',
  '-movflags', '+faststart',
] as const;
