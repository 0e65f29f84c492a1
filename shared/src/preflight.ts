import type { AccountPlatform } from './accounts.ts';
import { reelsPreflight } from './reels.ts';

/*
 * What can be checked about a clip's video before anything is queued or sent, per platform, in
 * plain words. The wizard shows the same sentences the API refuses with (400). Checks that need the
 * account (TikTok's duration limit from its creator info) stay with the post itself.
 */

/** YouTube Shorts are at most 3 minutes long. */
export const SHORTS_MAX_DURATION_SEC = 180;
/** YouTube's upload limit: 256 GB. */
export const YOUTUBE_MAX_VIDEO_BYTES = 256 * 1024 ** 3;
/** TikTok's upload limit: 4 GB. */
export const TIKTOK_MAX_VIDEO_BYTES = 4 * 1024 ** 3;

export interface PreflightVideo {
  /** Seconds (the rendered video's length). */
  duration: number;
  /** Pixels; 0 when unknown (the orientation is then not checked). */
  width: number;
  height: number;
  /** The video file's size; null when unknown. */
  size_bytes: number | null;
}

/** Seconds for people: whole seconds as such, otherwise one decimal. */
function seconds(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function gigabytes(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 3)} GB`;
}

/** Why this video cannot be posted to the platform, in plain words; empty when it can. */
export function postPreflight(platform: AccountPlatform, video: PreflightVideo): string[] {
  const problems: string[] = [];
  if (video.size_bytes !== null && video.size_bytes <= 0) problems.push('The video file is empty.');
  if (platform === 'instagram' || platform === 'facebook') {
    problems.push(...reelsPreflight(platform, video));
  } else if (platform === 'youtube') {
    if (video.width > 0 && video.height > 0 && video.width > video.height) {
      problems.push(`The video is ${video.width}×${video.height} (landscape); YouTube Shorts must be vertical or square.`);
    }
    if (video.duration > SHORTS_MAX_DURATION_SEC) {
      problems.push(`The video is ${seconds(video.duration)} s long; YouTube Shorts can be at most ${SHORTS_MAX_DURATION_SEC} s (3 minutes).`);
    }
    if (video.size_bytes !== null && video.size_bytes > YOUTUBE_MAX_VIDEO_BYTES) problems.push(`The video is larger than the ${gigabytes(YOUTUBE_MAX_VIDEO_BYTES)} YouTube accepts.`);
  } else if (video.size_bytes !== null && video.size_bytes > TIKTOK_MAX_VIDEO_BYTES) {
    problems.push(`The video is larger than the ${gigabytes(TIKTOK_MAX_VIDEO_BYTES)} TikTok accepts.`);
  }
  return problems;
}
