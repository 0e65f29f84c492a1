export { resolveMediaBinaries, type MediaBinaries } from './binaries.ts';
export { isMediaError, MediaAbortError, MediaError, type MediaErrorKind } from './errors.ts';
export {
  assFilter,
  buildNaiveBlurFilter,
  buildVerticalFilter,
  cropWindow,
  ENCODE_ARGS,
  escapeFilterValue,
  fitInside,
  MAX_FPS,
  VERTICAL_HEIGHT,
  VERTICAL_WIDTH,
  type LayoutSource,
  type SubtitleOverlay,
  type VerticalLayout,
} from './filters.ts';
export { probe, type ProbeResult } from './probe.ts';
export {
  isTemporaryOutput,
  makeThumbnail,
  outputFrame,
  remuxHorizontal,
  renderClip,
  renderHorizontal,
  renderVertical,
  TEMPORARY_MARKER,
  thumbnailTime,
  verticalArgs,
  writeAtomically,
  type ClipLayout,
  type ClipRender,
  type HorizontalRender,
  type RemuxOptions,
  type RenderResult,
  type ThumbnailOptions,
  type VerticalRender,
} from './render.ts';
export { createProgressParser, runFfmpeg, runFfprobe, summariseStderr, type ProgressCallback, type RunOptions, type RunResult } from './run.ts';
