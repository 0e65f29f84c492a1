export { resolveMediaBinaries, type MediaBinaries } from './binaries.ts';
export { isMediaError } from './errors.ts';
export { type SubtitleOverlay, type VerticalLayoutSpec } from './filters.ts';
export { configureRendering, renderEncoder } from './planner.ts';
export { type LoudnessReading } from './loudness.ts';
export { type Trim } from './trim.ts';
export { probe, type ProbeResult } from './probe.ts';
export { clipThumbnail, outputFrame, previewFrame, renderClip, type ClipLayout } from './render.ts';
