export { resolveMediaBinaries, type MediaBinaries } from './binaries.ts';
export { isMediaError, MediaAbortError, MediaError, type MediaErrorKind } from './errors.ts';
export {
  assFilter,
  buildNaiveBlurFilter,
  buildVerticalFilter,
  coverCrop,
  cropWindow,
  escapeFilterValue,
  fitInside,
  MAX_FPS,
  splitBandHeight,
  toLayoutSpec,
  VERTICAL_HEIGHT,
  VERTICAL_WIDTH,
  type LayoutSource,
  type SubtitleOverlay,
  type VerticalLayout,
  type VerticalLayoutSpec,
} from './filters.ts';
export {
  AUDIO_ENCODE_ARGS,
  chooseEncoder,
  ENCODE_ARGS,
  ENCODER_SETTINGS,
  ENCODERS,
  OUTPUT_TAIL_ARGS,
  VAAPI_DEVICE,
  withEncoderSuffix,
  type EncoderChoice,
  type EncoderName,
  type EncoderSetting,
  type EncoderSpec,
} from './encoders.ts';
export { configureRendering, currentRenderPlan, inRenderSlot, planRenders, renderEncoder, renderSlotUsage, renderThreadsNow, threadsFor, type RenderPlan, type RenderSettings, type SlotWait } from './planner.ts';
export { LOUDNESS_TARGET, loudnormFilter, measureLoudness, normaliseFilter, parseLoudnormReport, type LoudnessMeasurement, type MeasureOptions } from './loudness.ts';
export { outputDuration, trimInputArgs, type Trim } from './trim.ts';
export { probe, type ProbeResult } from './probe.ts';
export {
  clipArgs,
  clipThumbnail,
  clipVideoGraph,
  isTemporaryOutput,
  makeThumbnail,
  outputFrame,
  previewFrame,
  remuxHorizontal,
  renderClip,
  renderHorizontal,
  renderVertical,
  TEMPORARY_MARKER,
  thumbnailTime,
  writeAtomically,
  type AudioOptions,
  type ClipArgsInput,
  type ClipLayout,
  type ClipRender,
  type Encoding,
  type HorizontalRender,
  type PreviewOptions,
  type RemuxOptions,
  type RenderResult,
  type ThumbnailOptions,
  type VerticalRender,
} from './render.ts';
export { createProgressParser, ffmpegStdout, runFfmpeg, runFfprobe, summariseStderr, type ProgressCallback, type RunOptions, type RunResult } from './run.ts';
