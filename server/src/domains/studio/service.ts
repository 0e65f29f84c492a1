export { renderPlan, type PlanInput, type RenderPlan } from './settings.ts';
export { assertRenderable, clipRenderPlan, clipTranscript, mergedEdit, streamerStudioOf, updateClipEdit, updateClipTranscript } from './edits.ts';
export { clipFrame, IMAGES_BUSY, previewClip, type ImageRun } from './preview.ts';
export { captionsFor, makeClipVideo, NoSpeechFound, savedCaptionsOf, type CaptionSource, type ClipVideo, type ClipVideoJob, type PipelineStage } from './pipeline.ts';
export { combinedDetection, detectClip, detectStreamer, STREAMER_DETECTION_CLIPS } from './detect.ts';
