import { REELS_MAX_VIDEO_BYTES } from '@clipshift/shared';

/*
 * What Facebook would refuse about a Reel before anything is sent, from the shared rules the
 * composer shows (shared/src/reels.ts). The video's duration and picture are checked against
 * reelsPreflight('facebook', …) by the caller, which has probed it.
 */

/** Why these bytes cannot be a Facebook Reel, in plain words; null when they can. */
export function reelSizeProblem(size: number): string | null {
  if (size > REELS_MAX_VIDEO_BYTES) return 'The video is larger than the 1 GB Facebook Reels accept.';
  return null;
}
