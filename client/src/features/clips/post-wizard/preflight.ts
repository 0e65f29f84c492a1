import { ACCOUNT_PLATFORMS, instagramCaptionProblems, postPreflight, YOUTUBE_TITLE_BRACKETS, YOUTUBE_TITLE_MAX_LENGTH, YOUTUBE_TITLE_TOO_LONG, type AccountPlatform, type Clip, type PreflightVideo } from '@clipshift/shared';

/*
 * The wizard's preflight (issue 14): what a platform would refuse about this video, found before
 * anything is sent. The rules and their sentences are the API's own (shared postPreflight: Reels
 * for Instagram and Facebook); added here are TikTok's per-account duration limit, which comes from
 * the creator info, and what Instagram would refuse in the caption (its post would fail later).
 */

export const YOUTUBE_TITLE_MAX = YOUTUBE_TITLE_MAX_LENGTH;

/** The rendered video as the checks read it; a clip without known pixels counts by its format. */
export function mediaOf(clip: Pick<Clip, 'output_duration' | 'format_type' | 'width' | 'height' | 'video_bytes'>): PreflightVideo {
  const [formatWidth, formatHeight] = clip.format_type === 'vertical' ? [1080, 1920] : [1920, 1080];
  const known = clip.width !== null && clip.height !== null && clip.width > 0 && clip.height > 0;
  return {
    duration: clip.output_duration,
    width: known ? clip.width! : formatWidth,
    height: known ? clip.height! : formatHeight,
    size_bytes: clip.video_bytes,
  };
}

export interface PreflightLimits {
  /** The shortest max_video_post_duration_sec of the chosen TikTok accounts; null while unknown. */
  tiktokMaxDurationSec: number | null;
  /** The description as it will be posted: Instagram checks its caption's length, hashtags and mentions. */
  caption?: string;
}

/** One platform's problems with the video, in words for the user; empty when it can go. */
export function problemsFor(platform: AccountPlatform, media: PreflightVideo, limits: PreflightLimits): string[] {
  const problems = postPreflight(platform, media);
  if (platform === 'tiktok' && limits.tiktokMaxDurationSec !== null && media.duration > limits.tiktokMaxDurationSec) {
    problems.push(`TikTok takes videos of at most ${limits.tiktokMaxDurationSec} seconds from this account: this clip is ${Math.round(media.duration)} seconds.`);
  }
  if (platform === 'instagram' && limits.caption !== undefined) problems.push(...instagramCaptionProblems(limits.caption));
  return problems;
}

export interface PlatformProblems {
  platform: AccountPlatform;
  problems: string[];
}

/** The problems of each chosen platform that has any, in the platforms' usual order. */
export function preflight(platforms: ReadonlySet<AccountPlatform>, media: PreflightVideo, limits: PreflightLimits): PlatformProblems[] {
  return ACCOUNT_PLATFORMS.filter((platform) => platforms.has(platform))
    .map((platform) => ({ platform, problems: problemsFor(platform, media, limits) }))
    .filter((entry) => entry.problems.length > 0);
}

/** The YouTube title's own problems, in the API's words: YouTube refuses a blank one, one over 100 characters, and < or >. */
export function titleProblem(title: string): string | null {
  if (!title.trim()) return 'Enter a title for YouTube.';
  if (title.length > YOUTUBE_TITLE_MAX) return YOUTUBE_TITLE_TOO_LONG;
  if (/[<>]/.test(title)) return YOUTUBE_TITLE_BRACKETS;
  return null;
}

/** The default title: the clip's, without < and >, cut to 100 characters. */
export function defaultYouTubeTitle(clipTitle: string): string {
  return clipTitle.replace(/[<>]/g, '').replace(/\s+/g, ' ').trim().slice(0, YOUTUBE_TITLE_MAX);
}
