import type { EmojiPlacement } from './captions/ass.ts';
import { DEFAULT_CROP_FOCUS, MAX_SPLIT_RATIO, MIN_SPLIT_RATIO, type Rect } from '@clipshift/shared';
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


/**
 * How the vertical picture is made. `crop.focus` is the horizontal centre of the 9:16 window
 * (0 = left edge, 1 = right edge). `split`: facecam on top (`splitRatio` of the height), gameplay
 * below; a null facecam ("facecam off") gives the whole frame to the gameplay region.
 */
export type VerticalLayoutSpec =
  | { kind: 'blur' }
  | { kind: 'crop'; focus: number }
  | { kind: 'split'; facecam: Rect | null; gameplay: Rect; splitRatio: number };


/** A picture laid over the captions (a colour emoji): pixels of the output frame, seconds of its timeline. */
export type ImageOverlay = EmojiPlacement;

/** The streamer's logo: fitted into a `box`-pixel square, at `opacity`, placed by overlay expressions. */
export interface LogoOverlay {
  image: string;
  x: string;
  y: string;
  box: number;
  opacity: number;
}

export interface SubtitleOverlay {
  assPath: string;
  fontsDir: string;
  /** Colour emoji drawn over the captions, in the same graph (libass draws no colour glyphs). */
  images?: readonly ImageOverlay[] | undefined;
  /** The logo, over everything else. */
  logo?: LogoOverlay | null | undefined;
}

/** Geometry inputs: the probe's displayed size, frame rate and (optional) pixel aspect. */
export type LayoutSource = Pick<ProbeResult, 'width' | 'height' | 'fps'> & Partial<Pick<ProbeResult, 'sampleAspectRatio'>>;

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

/**
 * The captions as a chain step: the ass filter, then each image overlaid while it shows. A picture
 * file is read once by a movie source (one frame, which overlay repeats), scaled, and split among
 * its uses; `t` in `enable` is the frame's time on the render's timeline, as libass's is, so a
 * preview (which shifts its frame to that timeline) shows the same pictures. The result continues
 * the chain it is put in: "…,<captions>,next" stays valid, the overlays closing on the last one.
 */
export function captionSteps(subtitles: SubtitleOverlay): string {
  const images = subtitles.images ?? [];
  const { logo } = subtitles;
  if (images.length === 0 && !logo) return assFilter(subtitles);
  const sources = new Map<string, { index: number; uses: number[] }>();
  images.forEach((image, use) => {
    const key = `${image.image}\n${image.size}`;
    const source = sources.get(key) ?? { index: sources.size, uses: [] };
    source.uses.push(use);
    sources.set(key, source);
  });
  const parts = [`${assFilter(subtitles)}[cap0]`];
  for (const [key, source] of sources) {
    const [file, size] = key.split('\n') as [string, string];
    const labels = source.uses.map((use) => `[img${use}]`).join('');
    const fan = source.uses.length > 1 ? `,split=${source.uses.length}` : '';
    parts.push(`movie=filename=${escapeFilterValue(file)},scale=${size}:${size},format=rgba${fan}${labels}`);
  }
  images.forEach((image, use) => {
    const next = use === images.length - 1 && !logo ? '' : `[cap${use + 1}]`;
    const during = `between(t,${image.start.toFixed(3)},${image.end.toFixed(3)})`;
    parts.push(`[cap${use}][img${use}]overlay=x=${image.x}:y=${image.y}:enable='${during}'${next}`);
  });
  if (logo) {
    const fit = `scale=${logo.box}:${logo.box}:force_original_aspect_ratio=decrease`;
    parts.push(`movie=filename=${escapeFilterValue(logo.image)},${fit},format=rgba,colorchannelmixer=aa=${logo.opacity.toFixed(3)}[logo]`);
    parts.push(`[cap${images.length}][logo]overlay=x=${logo.x}:y=${logo.y}`);
  }
  return parts.join(';');
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

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** The layout names of the existing callers as specs ('crop' is today's centred crop). */
export function toLayoutSpec(layout: VerticalLayout | VerticalLayoutSpec): VerticalLayoutSpec {
  if (typeof layout !== 'string') return layout;
  return layout === 'crop' ? { kind: 'crop', focus: DEFAULT_CROP_FOCUS } : { kind: 'blur' };
}

/** Height of the facecam band in `split`: the ratio (clamped to 0.2..0.6) of 1920, even. */
export function splitBandHeight(splitRatio: number): number {
  return even(VERTICAL_HEIGHT * clamp(splitRatio, MIN_SPLIT_RATIO, MAX_SPLIT_RATIO));
}

/**
 * Frame-rate cap as the graph's very first step: frames above 60 fps are dropped before any
 * scaling or blurring is spent on them (a 120 fps source costs what a 60 fps one does).
 */
function fpsCap(info: LayoutSource): string[] {
  return info.fps > MAX_FPS ? [`fps=${MAX_FPS}`] : [];
}

/** Width in square pixels: a source with non-square pixels is laid out as it is displayed. */
function displayWidth(info: LayoutSource): number {
  return info.width * (info.sampleAspectRatio ?? 1);
}

/** The centred 9:16 window in the source's own (possibly non-square) pixels. */
function sourceCropWindow(info: LayoutSource): { width: number; height: number } {
  const sar = info.sampleAspectRatio ?? 1;
  const window = cropWindow(displayWidth(info), info.height);
  return { width: Math.min(info.width - (info.width % 2), even(window.width / sar)), height: window.height };
}

/** After the layout: captions on the final 1080x1920 picture, square pixels, 8-bit 4:2:0. */
function finishing(subtitles: SubtitleOverlay | undefined): string {
  return [...(subtitles ? [captionSteps(subtitles)] : []), 'setsar=1', 'format=yuv420p'].join(',');
}

/** The crop's x offset: the centred expression for 0.5 (today's graph, unchanged), else a share of the slack. */
function cropX(windowWidth: number, focus: number): string {
  const share = clamp(focus, 0, 1);
  return share === DEFAULT_CROP_FOCUS ? `(iw-${windowWidth})/2` : `(iw-${windowWidth})*${Number(share.toFixed(4))}`;
}

function cropGraph(info: LayoutSource, subtitles: SubtitleOverlay | undefined, focus: number): string {
  const crop = sourceCropWindow(info);
  const steps = [
    ...fpsCap(info),
    // crop only moves plane pointers; the one real resample is the scale to 1080x1920.
    `crop=${crop.width}:${crop.height}:${cropX(crop.width, focus)}:(ih-${crop.height})/2`,
    `scale=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}:flags=bicubic`,
    finishing(subtitles),
  ];
  return `[0:v]${steps.join(',')}[v]`;
}

/**
 * Blur layout. The decoded frame is split once. Background: scaled (fast_bilinear is enough, the
 * blur hides its aliasing) to cover 135x240, cropped, blurred there and scaled back up — blurring
 * 32k pixels per frame instead of 2M. Foreground: the whole frame fitted inside 1080x1920 (full
 * width for landscape clips), centred on top. No step changes the pixel format (all yuv420p).
 */
function blurGraph(info: LayoutSource, subtitles: SubtitleOverlay | undefined): string {
  const fg = fitInside(displayWidth(info), info.height);
  const head = fpsCap(info);
  // Already 9:16: the foreground covers the whole frame and a background would be thrown away.
  if (fg.width === VERTICAL_WIDTH && fg.height === VERTICAL_HEIGHT) {
    return `[0:v]${[...head, `scale=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}:flags=bicubic`, finishing(subtitles)].join(',')}[v]`;
  }
  const smallWidth = VERTICAL_WIDTH / BACKGROUND_SCALE;
  const smallHeight = VERTICAL_HEIGHT / BACKGROUND_SCALE;
  return [
    `[0:v]${[...head, 'split=2'].join(',')}[bgsrc][fgsrc]`,
    `[bgsrc]scale=${smallWidth}:${smallHeight}:force_original_aspect_ratio=increase:flags=fast_bilinear,crop=${smallWidth}:${smallHeight},boxblur=${BACKGROUND_BLUR_RADIUS}:2,scale=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}:flags=bilinear[bg]`,
    `[fgsrc]scale=${fg.width}:${fg.height}:flags=bicubic[fg]`,
    `[bg][fg]overlay=(W-w)/2:(H-h)/2,${finishing(subtitles)}[v]`,
  ].join(';');
}

/**
 * The part of `region` (fractions of the displayed frame) with the aspect of a `bandWidth` x
 * `bandHeight` band, centred in it: scaling it to the band then fills the band without
 * distortion (cover, then centre crop). Returned in the source's own pixels, ready for `crop`.
 */
export function coverCrop(info: LayoutSource, region: Rect, bandWidth: number, bandHeight: number): { width: number; height: number; x: number; y: number } {
  const sar = info.sampleAspectRatio ?? 1;
  const regionWidth = region.w * displayWidth(info);
  const regionHeight = region.h * info.height;
  const bandRatio = bandWidth / bandHeight;
  const width = Math.min(regionWidth, regionHeight * bandRatio);
  const height = Math.min(regionHeight, regionWidth / bandRatio);
  const storedWidth = Math.min(info.width, Math.max(2, Math.round(width / sar)));
  const storedHeight = Math.min(info.height, Math.max(2, Math.round(height)));
  const x = Math.round((region.x * displayWidth(info) + (regionWidth - width) / 2) / sar);
  const y = Math.round(region.y * info.height + (regionHeight - height) / 2);
  return { width: storedWidth, height: storedHeight, x: clamp(x, 0, info.width - storedWidth), y: clamp(y, 0, info.height - storedHeight) };
}

/** One region cropped to the band's aspect and scaled to exactly fill it. */
function regionToBand(info: LayoutSource, region: Rect, bandHeight: number): string {
  const crop = coverCrop(info, region, VERTICAL_WIDTH, bandHeight);
  return `crop=${crop.width}:${crop.height}:${crop.x}:${crop.y},scale=${VERTICAL_WIDTH}:${bandHeight}:flags=bicubic`;
}

/**
 * Split layout: the frame is split once; the facecam region fills the top band and the gameplay
 * region the rest, stacked. Both bands keep the source's pixel format, so vstack needs no
 * conversion. Facecam off: the gameplay region alone fills the whole 9:16 frame.
 */
function splitGraph(info: LayoutSource, subtitles: SubtitleOverlay | undefined, facecam: Rect | null, gameplay: Rect, splitRatio: number): string {
  const head = fpsCap(info);
  if (!facecam) return `[0:v]${[...head, regionToBand(info, gameplay, VERTICAL_HEIGHT), finishing(subtitles)].join(',')}[v]`;
  const top = splitBandHeight(splitRatio);
  return [
    `[0:v]${[...head, 'split=2'].join(',')}[camsrc][gamesrc]`,
    `[camsrc]${regionToBand(info, facecam, top)}[cam]`,
    `[gamesrc]${regionToBand(info, gameplay, VERTICAL_HEIGHT - top)}[game]`,
    `[cam][game]vstack=inputs=2,${finishing(subtitles)}[v]`,
  ].join(';');
}

/**
 * The whole vertical picture in one filtergraph (frame-rate cap, layout, optional captions, pixel
 * format), so the render is a single encode from the source. Input [0:v], output label [v].
 */
export function buildVerticalFilter(layout: VerticalLayout | VerticalLayoutSpec, info: LayoutSource, subtitles?: SubtitleOverlay): string {
  const spec = toLayoutSpec(layout);
  if (spec.kind === 'crop') return cropGraph(info, subtitles, spec.focus);
  if (spec.kind === 'split') return splitGraph(info, subtitles, spec.facecam, spec.gameplay, spec.splitRatio);
  return blurGraph(info, subtitles);
}

/**
 * The textbook graph, for the benchmark: the background blurred at full 1080x1920 size. Same
 * picture layout and blur extent (radius scaled by 8), many times the blur work.
 */
export function buildNaiveBlurFilter(info: LayoutSource): string {
  const fg = fitInside(displayWidth(info), info.height);
  return [
    `[0:v]${[...fpsCap(info), 'split=2'].join(',')}[bgsrc][fgsrc]`,
    `[bgsrc]scale=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}:force_original_aspect_ratio=increase,crop=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT},boxblur=${BACKGROUND_BLUR_RADIUS * BACKGROUND_SCALE}:2[bg]`,
    `[fgsrc]scale=${fg.width}:${fg.height}:flags=bicubic[fg]`,
    `[bg][fg]overlay=(W-w)/2:(H-h)/2,${finishing(undefined)}[v]`,
  ].join(';');
}
