export { renderPlan, trimOf, type PlanInput, type RenderPlan } from './settings.ts';
