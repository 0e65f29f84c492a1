export { liveCheckJob } from './check-live.ts';
export { momentClipJob } from './clip.ts';
