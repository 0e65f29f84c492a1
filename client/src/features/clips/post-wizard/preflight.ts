import { PLATFORM_LABELS, type AccountPlatform, type Clip } from '@clipshift/shared';

/*
 * The wizard's one call of the preflight checks (issue 14): what a platform would refuse about this
 * video, found before anything is sent. The shared pure function postPreflight(platform, media) is
 * being written beside this client work (shared/src/preflight.ts); until it is merged this module
 * holds the same rules, and at merge `problemsFor` calls it instead.
 */

/** YouTube counts a video as a Short up to 3 minutes (server/src/engines/providers/youtube/rules.ts). */
export const YOUTUBE_SHORTS_MAX_SEC = 180;
export const YOUTUBE_TITLE_MAX = 100;

/** What the checks read about the video. */
export interface PreflightMedia {
  /** Seconds, as rendered. */
  duration: number;
  /** Vertical (9:16) or horizontal, as rendered. */
  vertical: boolean;
}

export function mediaOf(clip: Pick<Clip, 'output_duration' | 'format_type'>): PreflightMedia {
  return { duration: clip.output_duration, vertical: clip.format_type === 'vertical' };
}

export interface PreflightLimits {
  /** The shortest max_video_post_duration_sec of the chosen TikTok accounts; null while unknown. */
  tiktokMaxDurationSec: number | null;
}

/** One platform's problems with the video, in words for the user; empty when it can go. */
export function problemsFor(platform: AccountPlatform, media: PreflightMedia, limits: PreflightLimits): string[] {
  const problems: string[] = [];
  if (platform === 'youtube') {
    if (!media.vertical) problems.push('YouTube Shorts must be vertical or square: this clip is horizontal. Render it vertical in the studio to post it as a Short.');
    if (media.duration > YOUTUBE_SHORTS_MAX_SEC) problems.push(`YouTube Shorts are at most ${YOUTUBE_SHORTS_MAX_SEC / 60} minutes long: this clip is ${Math.round(media.duration)} seconds.`);
  } else if (limits.tiktokMaxDurationSec !== null && media.duration > limits.tiktokMaxDurationSec) {
    problems.push(`TikTok takes videos of at most ${limits.tiktokMaxDurationSec} seconds from this account: this clip is ${Math.round(media.duration)} seconds.`);
  }
  return problems;
}

export interface PlatformProblems {
  platform: AccountPlatform;
  label: string;
  problems: string[];
}

/** The problems of each chosen platform that has any. */
export function preflight(platforms: ReadonlySet<AccountPlatform>, media: PreflightMedia, limits: PreflightLimits): PlatformProblems[] {
  const order: AccountPlatform[] = ['tiktok', 'youtube'];
  return order
    .filter((platform) => platforms.has(platform))
    .map((platform) => ({ platform, label: PLATFORM_LABELS[platform], problems: problemsFor(platform, media, limits) }))
    .filter((entry) => entry.problems.length > 0);
}

/** The YouTube title's own problems: YouTube refuses a blank one, one over 100 characters, and < or >. */
export function titleProblem(title: string): string | null {
  if (!title.trim()) return 'Enter a title for YouTube.';
  if (title.length > YOUTUBE_TITLE_MAX) return `YouTube titles are at most ${YOUTUBE_TITLE_MAX} characters.`;
  if (/[<>]/.test(title)) return 'YouTube titles cannot contain < or >.';
  return null;
}

/** The default title: the clip's, without < and >, cut to 100 characters. */
export function defaultYouTubeTitle(clipTitle: string): string {
  return clipTitle.replace(/[<>]/g, '').replace(/\s+/g, ' ').trim().slice(0, YOUTUBE_TITLE_MAX);
}
