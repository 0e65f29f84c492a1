export { watchMoments } from './watch.ts';
