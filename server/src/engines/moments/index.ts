export { watchMoments, type WatchMomentsOptions, type WatchMomentsResult } from './watch.ts';
export type { DetectedMoment, MomentScorerOptions } from './scorer.ts';
