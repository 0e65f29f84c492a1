export { liveCheckJob } from './check-live.ts';
export { momentClipJob } from './clip.ts';
export { startChatWatcher, type ChatWatcher, type ChatWatcherOptions } from '../watcher.ts';
