import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Rect } from '@clipshift/shared';
import { fontsDir } from '../../server/src/engines/media/captions/fonts.ts';

const execFileAsync = promisify(execFile);

/*
 * A detection set for the camera detector, made with real ffmpeg from lavfi generators: moving
 * "gameplay" (cellular automata, fractal zooms, scrolling and rotating test patterns, plasma) with
 * grain, some with static HUD elements (bars, score boxes, logos, letterboxing, a frame), and on
 * most of them a "webcam": a room (gradient, shelf, poster) with a person (head and shoulders)
 * moving in it and sensor noise, overlaid as a fixed rectangle, with or without a drawn border.
 * The truth is the overlay's outer rectangle, border included.
 */

export type Gameplay = 'testsrc2' | 'mandelbrot' | 'life' | 'cellauto' | 'scroll' | 'plasma' | 'rotate' | 'menu';
export type Hud = 'bar' | 'scorebox' | 'logo' | 'healthbar' | 'letterbox' | 'frame';
export type Anchor = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' | 'top' | 'bottom' | 'left' | 'right';

export interface CameraSpec {
  /** Width of the camera picture as a fraction of the frame width (border excluded). */
  width: number;
  /** Width / height of the camera picture. */
  aspect: number;
  anchor: Anchor;
  /** Gap to the frame edges it is anchored to, as a fraction of the frame width. */
  margin: number;
  /** Border thickness in source pixels (0: none); two colours make a double border. */
  border: number;
  borderColors?: readonly string[];
  /** Which room and person: changes colours, light and how the person moves. */
  look: number;
}

export interface SourceSpec {
  name: string;
  width: number;
  height: number;
  seconds: number;
  gameplay: Gameplay;
  hud: readonly Hud[];
  camera: CameraSpec | null;
  /** Frames between keyframes; small by default so short clips still have many (as Twitch's 2 s GOP gives long ones). */
  gop?: number;
  /** Frames per second (default 16: enough motion, quick to make). */
  rate?: number;
}

export interface DetectionCase {
  spec: SourceSpec;
  file: string;
  /** Where the camera is, as fractions of the frame; null for gameplay only. */
  truth: Rect | null;
}

const DEFAULT_RATE = 16;

const w640 = { width: 640, height: 360, seconds: 6 } as const;
const w1280 = { width: 1280, height: 720, seconds: 6 } as const;
const cam = (width: number, anchor: Anchor, extra: Partial<CameraSpec> = {}): CameraSpec => ({ width, aspect: 16 / 9, anchor, margin: 0, border: 0, look: 0, ...extra });

/** 20 sources with a camera, 10 without: corners and edges, sizes from 1/12 to 1/3 of the width. */
export const DETECTION_SET: readonly SourceSpec[] = [
  { name: 'cam-br-life-bordered', ...w640, gameplay: 'life', hud: [], camera: cam(0.25, 'bottom-right', { border: 2, look: 1 }) },
  { name: 'cam-tl-testsrc2', ...w640, gameplay: 'testsrc2', hud: [], camera: cam(0.22, 'top-left', { look: 2 }) },
  { name: 'cam-tr-mandelbrot-margin', ...w640, gameplay: 'mandelbrot', hud: [], camera: cam(0.2, 'top-right', { margin: 0.02, look: 3 }) },
  { name: 'cam-bl-scroll-4x3', ...w640, gameplay: 'scroll', hud: [], camera: cam(0.18, 'bottom-left', { aspect: 4 / 3, border: 3, borderColors: ['#ffffff'], look: 4 }) },
  { name: 'cam-br-plasma-small', ...w640, gameplay: 'plasma', hud: [], camera: cam(1 / 12, 'bottom-right', { margin: 0.015, look: 5 }) },
  { name: 'cam-tl-rotate-large', ...w640, gameplay: 'rotate', hud: [], camera: cam(1 / 3, 'top-left', { border: 2, borderColors: ['#20c0ff'], look: 6 }) },
  { name: 'cam-top-cellauto', ...w640, gameplay: 'cellauto', hud: [], camera: cam(0.2, 'top', { look: 7 }) },
  { name: 'cam-bottom-testsrc2-bar', ...w640, gameplay: 'testsrc2', hud: ['scorebox'], camera: cam(0.24, 'bottom', { border: 2, look: 0 }) },
  { name: 'cam-left-life-square', ...w640, gameplay: 'life', hud: [], camera: cam(0.16, 'left', { aspect: 1, look: 1 }) },
  { name: 'cam-right-mandelbrot', ...w640, gameplay: 'mandelbrot', hud: [], camera: cam(0.22, 'right', { margin: 0.01, look: 2 }) },
  { name: 'cam-br-menu', ...w640, gameplay: 'menu', hud: [], camera: cam(0.25, 'bottom-right', { look: 3 }) },
  { name: 'cam-tr-scroll-double-border', ...w640, gameplay: 'scroll', hud: ['healthbar'], camera: cam(0.2, 'top-right', { border: 4, borderColors: ['#000000', '#e0c000'], look: 4 }) },
  { name: 'cam-bl-plasma-hud', ...w640, gameplay: 'plasma', hud: ['scorebox'], camera: cam(0.3, 'bottom-left', { look: 5 }) },
  { name: 'cam-tl-cellauto-small', ...w640, gameplay: 'cellauto', hud: [], camera: cam(0.1, 'top-left', { margin: 0.015, border: 2, look: 6 }) },
  { name: 'cam-br-rotate-letterbox', ...w640, gameplay: 'rotate', hud: ['letterbox'], camera: cam(0.2, 'bottom-right', { margin: 0.02, look: 7 }) },
  { name: 'cam-tr-life-720p', ...w1280, gameplay: 'life', hud: ['bar'], camera: cam(0.18, 'top-right', { look: 0 }) },
  { name: 'cam-bl-testsrc2-720p-small', ...w1280, gameplay: 'testsrc2', hud: [], camera: cam(0.1, 'bottom-left', { border: 4, look: 1 }) },
  { name: 'cam-right-plasma-720p', ...w1280, gameplay: 'plasma', hud: [], camera: cam(0.25, 'right', { aspect: 4 / 3, look: 2 }) },
  { name: 'cam-top-menu-720p', ...w1280, gameplay: 'menu', hud: ['healthbar'], camera: cam(0.15, 'top', { margin: 0.01, border: 3, look: 3 }) },
  { name: 'cam-br-mandelbrot-720p-bar', ...w1280, gameplay: 'mandelbrot', hud: ['bar'], camera: cam(0.28, 'bottom-right', { look: 4 }) },
  { name: 'none-testsrc2', ...w640, gameplay: 'testsrc2', hud: [], camera: null },
  { name: 'none-mandelbrot-scorebox', ...w640, gameplay: 'mandelbrot', hud: ['scorebox'], camera: null },
  { name: 'none-life-bar', ...w640, gameplay: 'life', hud: ['bar'], camera: null },
  { name: 'none-plasma-logo', ...w640, gameplay: 'plasma', hud: ['logo'], camera: null },
  { name: 'none-scroll-hud', ...w640, gameplay: 'scroll', hud: ['healthbar', 'scorebox'], camera: null },
  { name: 'none-rotate-letterbox', ...w640, gameplay: 'rotate', hud: ['letterbox'], camera: null },
  { name: 'none-cellauto-frame', ...w640, gameplay: 'cellauto', hud: ['frame'], camera: null },
  { name: 'none-menu', ...w640, gameplay: 'menu', hud: [], camera: null },
  { name: 'none-plasma-bar-logo-720p', ...w1280, gameplay: 'plasma', hud: ['bar', 'logo'], camera: null },
  { name: 'none-testsrc2-hud-720p', ...w1280, gameplay: 'testsrc2', hud: ['scorebox', 'healthbar'], camera: null },
];

/** One 1920x1080 source with a camera in the bottom-right corner, as Twitch clips come. */
export const FULL_HD_SOURCE: SourceSpec = {
  name: 'cam-br-testsrc2-1080p',
  width: 1920,
  height: 1080,
  seconds: 4,
  gameplay: 'testsrc2',
  hud: [],
  camera: cam(0.22, 'bottom-right', { border: 4, look: 2 }),
};

function even(value: number): number {
  return Math.max(2, 2 * Math.round(value / 2));
}

/** Moving pictures that stand in for a game, each at the frame's size; `seed` fixes the random ones, so a set is the same every run. */
function gameplayGraph(kind: Gameplay, width: number, height: number, seed: number, rate: number): string {
  const small = `${even(width / 4)}x${even(height / 4)}`;
  const grain = 'format=yuv420p,noise=alls=4:allf=t';
  switch (kind) {
    case 'testsrc2':
      return `testsrc2=size=${width}x${height}:rate=${rate},${grain}`;
    case 'mandelbrot':
      // Rendered small and scaled: a full-size fractal costs seconds a frame.
      return `mandelbrot=size=${small}:rate=${rate}:start_scale=2:end_scale=0.05:end_pts=200,scale=${width}:${height},${grain}`;
    case 'life':
      return `life=size=${small}:rate=${rate}:seed=${seed}:mold=10:life_color=#30c050:death_color=#803020:mold_color=#101820:ratio=0.3,scale=${width}:${height}:flags=neighbor,${grain}`;
    case 'cellauto':
      return `cellauto=size=${small}:rate=${rate}:seed=${seed}:rule=110:random_fill_ratio=0.5:scroll=1,scale=${width}:${height}:flags=neighbor,format=yuv420p,hue=H=t*40:s=3,${grain}`;
    case 'scroll':
      // A side-scroller: a wide pattern panned across the frame, unevenly (an even pan can line up
      // with the sampling so that the pattern looks still).
      return `testsrc=size=${2 * width}x${height}:rate=${rate},crop=${width}:${height}:x='mod(t*${Math.round(width / 3)}+${Math.round(width / 12)}*sin(t*1.7),${width})':y=0,${grain}`;
    case 'plasma':
      return `color=c=black:size=${width}x${height}:rate=${rate},format=yuv420p,geq=lum='128+60*sin((X+T*${Math.round(width / 5)})/${Math.round(width / 11)})*cos((Y-T*${Math.round(height / 6)})/${Math.round(height / 7)})+30*sin((X+Y)/${Math.round(width / 25)}+T*3)':cb='128+50*sin(X/${Math.round(width / 6)}+T)':cr='128+50*cos(Y/${Math.round(height / 5)}-T*1.3)',${grain}`;
    case 'rotate':
      return `testsrc=size=${width}x${height}:rate=${rate},rotate=a=t*0.6:fillcolor=0x303060,${grain}`;
    case 'menu':
      // A nearly still scene (a menu, a loading screen): only its colours drift, under grain.
      return `smptehdbars=size=${width}x${height}:rate=${rate},format=yuv420p,hue=H=t*15,noise=alls=6:allf=t`;
  }
}

/** Static overlays a game or a stream layout draws: they must not count as a camera. */
function hudFilter(kind: Hud, width: number, height: number): string {
  const font = path.join(fontsDir, 'NotoSans-Bold.ttf');
  switch (kind) {
    case 'bar':
      return `drawbox=x=0:y=${even(height * 0.91)}:w=${width}:h=${even(height * 0.09)}:color=0x1a1a40:t=fill`;
    case 'scorebox': {
      const [x, y, w, h] = [even(width * 0.03), even(height * 0.04), even(width * 0.16), even(height * 0.1)];
      return (
        `drawbox=x=${x}:y=${y}:w=${w}:h=${h}:color=0x101010:t=fill,drawbox=x=${x}:y=${y}:w=${w}:h=${h}:color=0xffffff:t=2,` +
        `drawtext=fontfile=${font}:text='%{eif\\:floor(t*3)\\:d}':x=${x + w / 4}:y=${y + h / 6}:fontsize=${Math.round(h * 0.6)}:fontcolor=white`
      );
    }
    case 'logo':
      return `drawbox=x=${even(width * 0.86)}:y=${even(height * 0.05)}:w=${even(width * 0.1)}:h=${even(width * 0.1)}:color=0xd04020:t=fill,drawbox=x=${even(width * 0.88)}:y=${even(height * 0.09)}:w=${even(width * 0.06)}:h=${even(width * 0.06)}:color=0xffffff:t=fill`;
    case 'healthbar':
      return `drawbox=x=${even(width * 0.03)}:y=${even(height * 0.88)}:w=${even(width * 0.3)}:h=${even(height * 0.04)}:color=0x20c020:t=fill,drawbox=x=${even(width * 0.03)}:y=${even(height * 0.88)}:w=${even(width * 0.3)}:h=${even(height * 0.04)}:color=0xffffff:t=2`;
    case 'letterbox':
      return `scale=${width}:${even(height * 0.8)},pad=${width}:${height}:0:${even(height * 0.1)}:black`;
    case 'frame':
      return `scale=${even(width * 0.94)}:${even(height * 0.94)},pad=${width}:${height}:${even(width * 0.03)}:${even(height * 0.03)}:0x402060`;
  }
}

const LOOKS = [
  { wall: 60, slope: 40, head: 170, body: 90, cb: 128, cr: 140, speed: 1.3 },
  { wall: 110, slope: -30, head: 190, body: 40, cb: 140, cr: 120, speed: 0.9 },
  { wall: 35, slope: 25, head: 150, body: 120, cb: 110, cr: 150, speed: 1.7 },
  { wall: 140, slope: 20, head: 200, body: 70, cb: 125, cr: 128, speed: 1.1 },
  { wall: 80, slope: -20, head: 160, body: 30, cb: 150, cr: 110, speed: 2.1 },
  { wall: 50, slope: 60, head: 180, body: 140, cb: 120, cr: 135, speed: 0.7 },
  { wall: 95, slope: 0, head: 210, body: 60, cb: 135, cr: 145, speed: 1.5 },
  { wall: 70, slope: 35, head: 165, body: 100, cb: 118, cr: 125, speed: 1.9 },
] as const;

/**
 * A webcam: a room with a shelf and a poster, and a person whose head and shoulders move in it; a
 * source filtergraph (no input) of width x height plus the border, at `rate` frames a second.
 */
export function cameraGraph(spec: CameraSpec, width: number, height: number, rate: number): string {
  const look = LOOKS[spec.look % LOOKS.length]!;
  const phase = spec.look * 0.9;
  const headX = `W*(0.5+0.15*sin(T*${look.speed}+${phase}))`;
  const headY = `H*(0.42+0.06*sin(T*${look.speed * 1.6}))`;
  const head = `lt(pow((X-${headX})/(W*0.13),2)+pow((Y-${headY})/(H*0.22),2),1)`;
  const body = `lt(pow((X-W*(0.5+0.12*sin(T*${look.speed}+${phase})))/(W*0.3),2)+pow((Y-H*1.05)/(H*0.45),2),1)`;
  const shelf = `between(Y,H*0.25,H*0.29)*between(X,W*0.05,W*0.4)*(-30)`;
  const poster = `between(X,W*0.7,W*0.9)*between(Y,H*0.12,H*0.45)*40`;
  const room = `${look.wall}+${look.slope}*X/W+${shelf}+${poster}`;
  const lum = `if(${head},${look.head},if(${body},${look.body},${room}))`;
  const picture = `color=c=black:size=${width}x${height}:rate=${rate},format=yuv420p,geq=lum='${lum}':cb=${look.cb}:cr=${look.cr},noise=alls=5:allf=t`;
  const colors = spec.border > 0 ? (spec.borderColors ?? ['#ff30c0']) : [];
  const step = colors.length > 0 ? spec.border / colors.length : 0;
  // Outermost colour last: each pad wraps the previous one.
  const borders = [...colors].reverse().map((color) => `pad=w=iw+${2 * step}:h=ih+${2 * step}:x=${step}:y=${step}:color=${color.replace('#', '0x')}`);
  return [picture, ...borders].join(',');
}

export interface Placement {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where the overlay goes, in source pixels, border included; pictureW x pictureH is the picture inside the border. */
export function placement(spec: CameraSpec, width: number, height: number): Placement & { pictureW: number; pictureH: number } {
  const pictureW = even(spec.width * width);
  const pictureH = even(pictureW / spec.aspect);
  const border = spec.border > 0 ? (spec.borderColors?.length ?? 1) * Math.round(spec.border / (spec.borderColors?.length ?? 1)) : 0;
  const w = pictureW + 2 * border;
  const h = pictureH + 2 * border;
  const margin = even(spec.margin * width);
  const left = margin;
  const right = width - w - margin;
  const top = margin;
  const bottom = height - h - margin;
  const centreX = even((width - w) / 2);
  const centreY = even((height - h) / 2);
  const spots: Record<Anchor, [number, number]> = {
    'top-left': [left, top],
    'top-right': [right, top],
    'bottom-left': [left, bottom],
    'bottom-right': [right, bottom],
    top: [centreX, top],
    bottom: [centreX, bottom],
    left: [left, centreY],
    right: [right, centreY],
  };
  const [x, y] = spots[spec.anchor];
  return { x, y, w, h, pictureW, pictureH };
}

function truthOf(spec: SourceSpec): Rect | null {
  if (!spec.camera) return null;
  const where = placement(spec.camera, spec.width, spec.height);
  return { x: where.x / spec.width, y: where.y / spec.height, w: where.w / spec.width, h: where.h / spec.height };
}

/** A number from a source's name (FNV-1a), so each random generator gets its own fixed seed. */
function seedOf(name: string): number {
  let hash = 2166136261;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash % 1_000_000;
}

/** The whole filtergraph of a source: gameplay, its HUD, and the camera overlaid on top. */
export function sourceGraph(spec: SourceSpec): string {
  const game = [gameplayGraph(spec.gameplay, spec.width, spec.height, seedOf(spec.name), spec.rate ?? DEFAULT_RATE), ...spec.hud.map((hud) => hudFilter(hud, spec.width, spec.height))].join(',');
  if (!spec.camera) return `${game}[v]`;
  const where = placement(spec.camera, spec.width, spec.height);
  return `${game}[game];${cameraGraph(spec.camera, where.pictureW, where.pictureH, spec.rate ?? DEFAULT_RATE)}[cam];[game][cam]overlay=x=${where.x}:y=${where.y},format=yuv420p[v]`;
}

/** Makes (or reuses, within one folder) the H.264 file of one source. */
export async function makeSource(ffmpeg: string, spec: SourceSpec, dir: string): Promise<DetectionCase> {
  const file = path.join(dir, `${spec.name}.mp4`);
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    const partial = `${file}.part.mp4`;
    await execFileAsync(ffmpeg, [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-filter_complex', sourceGraph(spec), '-map', '[v]', '-t', String(spec.seconds),
      '-c:v', 'libx264', '-preset', spec.width * spec.height * spec.seconds > 1e8 ? 'veryfast' : 'ultrafast', '-crf', '23', '-g', String(spec.gop ?? 6), '-pix_fmt', 'yuv420p',
      partial,
    ]);
    await rename(partial, file);
  }
  return { spec, file, truth: truthOf(spec) };
}

/** Makes every source of a set, two at a time (the machines that run this have two cores). */
export async function makeDetectionSet(ffmpeg: string, dir: string, specs: readonly SourceSpec[] = DETECTION_SET): Promise<DetectionCase[]> {
  const cases: DetectionCase[] = new Array<DetectionCase>(specs.length);
  let next = 0;
  const lane = async () => {
    while (next < specs.length) {
      const index = next;
      next += 1;
      cases[index] = await makeSource(ffmpeg, specs[index]!, dir);
    }
  };
  await Promise.all([lane(), lane()]);
  return cases;
}

/** Intersection over union of two rectangles in the same units. */
export function iou(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const overlap = w * h;
  return overlap / (a.w * a.h + b.w * b.h - overlap);
}
