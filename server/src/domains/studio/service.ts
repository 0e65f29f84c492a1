export { renderPlan, trimOf, type PlanInput, type RenderPlan } from './settings.ts';
export { writeCaptionOverlay, type CaptionOverlayRequest } from './captions.ts';
