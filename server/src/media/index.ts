export { resolveMediaBinaries, type MediaBinaries } from './binaries.ts';
export { isMediaError, MediaError } from './errors.ts';
export { assFilter, buildNaiveBlurFilter, buildVerticalFilter, cropWindow, ENCODE_ARGS, escapeFilterValue, fitInside, MAX_FPS, VERTICAL_HEIGHT, VERTICAL_WIDTH, type SubtitleOverlay, type VerticalLayout } from './filters.ts';
export { probe, type ProbeResult } from './probe.ts';
export { makeThumbnail, renderHorizontal, renderVertical, verticalArgs, writeAtomically, type HorizontalRender, type ThumbnailOptions, type VerticalRender } from './render.ts';
export { runFfmpeg, type RunOptions } from './run.ts';
