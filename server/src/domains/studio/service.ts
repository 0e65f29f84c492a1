export { renderPlan, trimOf, type PlanInput, type RenderPlan } from './settings.ts';
export { writeCaptionOverlay, type CaptionOverlayRequest } from './captions.ts';
export { assertRenderable, clipTranscript, mergedEdit, streamerStudioOf, updateClipEdit, updateClipTranscript } from './edits.ts';
