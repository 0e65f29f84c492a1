export { renderPlan, type PlanInput, type RenderPlan } from './settings.ts';
export { writeCaptionOverlay, type CaptionOverlayRequest } from './captions.ts';
export { assertRenderable, clipRenderPlan, clipTranscript, mergedEdit, streamerStudioOf, updateClipEdit, updateClipTranscript } from './edits.ts';
export { clipFrame, IMAGES_BUSY, previewClip, type ImageRun } from './preview.ts';
