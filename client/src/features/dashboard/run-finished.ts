import { isBusyStatus, type StatusMap } from '@clipshift/shared';
import { paths } from '@/lib/paths';

/** The Clips screen showing one streamer's clips. */
export function clipsOfStreamer(streamer: string): string {
  return `${paths.app.clips}?streamer=${encodeURIComponent(streamer)}`;
}

/** Streamers whose run was busy in `before` and has finished in `after`. */
export function finishedRuns(before: StatusMap, after: StatusMap): string[] {
  return Object.keys(after).filter((name) => isBusyStatus(before[name]?.status) && after[name]?.status === 'completed');
}
