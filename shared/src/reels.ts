import { z } from 'zod';

/*
 * Instagram Reels and Facebook Page Reels (rest-api.md "Posting to any platform"): what a video and
 * a caption must be for Meta to take them, in plain words, so the composer can show the same
 * sentences the post refuses with. Where Meta's two documents differ (Instagram allows 15 minutes
 * and 23 fps, Facebook 90 seconds, 24 fps and at least 540×960) each platform gets its own limit;
 * the rest is the stricter of the two. H.264 and AAC are what Clipshift renders; both platforms
 * also take HEVC, but a video that is neither H.264 nor what we render is refused here first.
 */

export const REELS_PLATFORMS = ['instagram', 'facebook'] as const;
export type ReelsPlatform = (typeof REELS_PLATFORMS)[number];

const LABELS: Record<ReelsPlatform, string> = { instagram: 'Instagram', facebook: 'Facebook' };

export const REELS_MIN_DURATION_SEC = 3;
/** Instagram's API takes Reels of up to 15 minutes. */
export const INSTAGRAM_REELS_MAX_DURATION_SEC = 15 * 60;
/** Facebook Page Reels are at most 90 seconds. */
export const FACEBOOK_REELS_MAX_DURATION_SEC = 90;
/** Instagram's limit is "1 GB"; counted in decimal bytes, the stricter reading. */
export const REELS_MAX_VIDEO_BYTES = 1_000_000_000;
/** 9:16, within this fraction (1088×1920 from a 16-pixel-aligned encoder still passes). */
export const REELS_ASPECT_RATIO = 9 / 16;
const ASPECT_TOLERANCE = 0.01;
export const REELS_MAX_FRAME_RATE = 60;
export const REELS_MIN_FRAME_RATE: Record<ReelsPlatform, number> = { instagram: 23, facebook: 24 };
/** Facebook's minimum picture; Instagram names none. */
export const FACEBOOK_REELS_MIN_WIDTH = 540;
export const FACEBOOK_REELS_MIN_HEIGHT = 960;
/** Instagram's widest picture (horizontal pixels). */
export const INSTAGRAM_REELS_MAX_WIDTH = 1920;
export const REELS_MAX_AUDIO_SAMPLE_RATE = 48_000;
export const REELS_MAX_AUDIO_CHANNELS = 2;

export const INSTAGRAM_CAPTION_MAX_LENGTH = 2200;
export const INSTAGRAM_MAX_HASHTAGS = 30;
export const INSTAGRAM_MAX_MENTIONS = 20;
export const INSTAGRAM_MAX_COLLABORATORS = 3;

/** A rendered video as ffprobe describes it; the optional fields are checked only when known. */
export interface ReelsVideo {
  /** Seconds. */
  duration: number;
  /** Pixels; 0 when unknown (the picture is then not checked). */
  width: number;
  height: number;
  /** null when unknown. */
  size_bytes: number | null;
  /** ffprobe's format_name ("mov,mp4,m4a,3gp,3g2,mj2") or a plain "mp4". */
  container?: string;
  /** ffprobe's codec_name of the picture ("h264"). */
  video_codec?: string;
  /** ffprobe's codec_name of the sound ("aac"); null for a video without sound. */
  audio_codec?: string | null;
  /** Frames per second. */
  frame_rate?: number;
  audio_sample_rate?: number;
  audio_channels?: number;
}

/** Seconds for people: whole seconds as such, otherwise one decimal. */
function seconds(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function maxDuration(platform: ReelsPlatform): number {
  return platform === 'instagram' ? INSTAGRAM_REELS_MAX_DURATION_SEC : FACEBOOK_REELS_MAX_DURATION_SEC;
}

function durationLimitText(platform: ReelsPlatform): string {
  return platform === 'instagram' ? `${INSTAGRAM_REELS_MAX_DURATION_SEC} s (15 minutes)` : `${FACEBOOK_REELS_MAX_DURATION_SEC} s`;
}

function durationProblems(platform: ReelsPlatform, duration: number): string[] {
  const label = LABELS[platform];
  if (duration < REELS_MIN_DURATION_SEC) return [`The video is ${seconds(duration)} s long; ${label} Reels must be at least ${REELS_MIN_DURATION_SEC} s.`];
  if (duration > maxDuration(platform)) return [`The video is ${seconds(duration)} s long; ${label} Reels can be at most ${durationLimitText(platform)}.`];
  return [];
}

export function isNineBySixteen(width: number, height: number): boolean {
  return Math.abs(width / height / REELS_ASPECT_RATIO - 1) <= ASPECT_TOLERANCE;
}

function pictureProblems(platform: ReelsPlatform, width: number, height: number): string[] {
  if (width <= 0 || height <= 0) return [];
  const label = LABELS[platform];
  if (!isNineBySixteen(width, height)) return [`The video is ${width}×${height}; ${label} Reels must be vertical 9:16 (such as 1080×1920).`];
  if (platform === 'facebook' && (width < FACEBOOK_REELS_MIN_WIDTH || height < FACEBOOK_REELS_MIN_HEIGHT)) {
    return [`The video is ${width}×${height}; Facebook Reels must be at least ${FACEBOOK_REELS_MIN_WIDTH}×${FACEBOOK_REELS_MIN_HEIGHT}.`];
  }
  if (platform === 'instagram' && width > INSTAGRAM_REELS_MAX_WIDTH) return [`The video is ${width} pixels wide; Instagram takes at most ${INSTAGRAM_REELS_MAX_WIDTH}.`];
  return [];
}

function sizeProblems(platform: ReelsPlatform, size: number | null): string[] {
  if (size === null) return [];
  if (size <= 0) return ['The video file is empty.'];
  if (size > REELS_MAX_VIDEO_BYTES) return [`The video is larger than the 1 GB ${LABELS[platform]} Reels accept.`];
  return [];
}

function encodingProblems(platform: ReelsPlatform, video: ReelsVideo): string[] {
  const label = LABELS[platform];
  const problems: string[] = [];
  if (video.container !== undefined) {
    const formats = video.container.toLowerCase().split(',').map((name) => name.trim());
    if (!formats.includes('mp4') && !formats.includes('mov')) problems.push(`The video is a ${video.container} file; ${label} Reels must be MP4 or MOV.`);
  }
  if (video.video_codec !== undefined && video.video_codec.toLowerCase() !== 'h264') {
    problems.push(`The video is encoded as ${video.video_codec}; Clipshift posts H.264 video to ${label}.`);
  }
  const fps = video.frame_rate;
  if (fps !== undefined && fps > 0 && (fps < REELS_MIN_FRAME_RATE[platform] || fps > REELS_MAX_FRAME_RATE)) {
    problems.push(`The video has ${Number(fps.toFixed(2))} frames per second; ${label} Reels need ${REELS_MIN_FRAME_RATE[platform]} to ${REELS_MAX_FRAME_RATE}.`);
  }
  return problems;
}

function audioProblems(platform: ReelsPlatform, video: ReelsVideo): string[] {
  const label = LABELS[platform];
  const problems: string[] = [];
  if (video.audio_codec !== undefined && video.audio_codec !== null && video.audio_codec.toLowerCase() !== 'aac') {
    problems.push(`The sound is encoded as ${video.audio_codec}; ${label} Reels need AAC.`);
  }
  if (video.audio_sample_rate !== undefined && video.audio_sample_rate > REELS_MAX_AUDIO_SAMPLE_RATE) {
    problems.push(`The sound is sampled at ${video.audio_sample_rate} Hz; ${label} Reels take at most ${REELS_MAX_AUDIO_SAMPLE_RATE} Hz.`);
  }
  if (video.audio_channels !== undefined && video.audio_channels > REELS_MAX_AUDIO_CHANNELS) {
    problems.push(`The sound has ${video.audio_channels} channels; ${label} Reels take mono or stereo.`);
  }
  return problems;
}

/** Why this video cannot be posted as a Reel on the platform, in plain words; empty when it can. */
export function reelsPreflight(platform: ReelsPlatform, video: ReelsVideo): string[] {
  return [
    ...sizeProblems(platform, video.size_bytes),
    ...durationProblems(platform, video.duration),
    ...pictureProblems(platform, video.width, video.height),
    ...encodingProblems(platform, video),
    ...audioProblems(platform, video),
  ];
}

// ---------------------------------------------------------------------------------------------
// Caption and options (Instagram)

/** A # that starts a word: "a#b" tags nothing. */
const HASHTAG = /(?<![\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu;
/** An @ that starts a word: "me@example.com" mentions no one. */
const MENTION = /(?<![\p{L}\p{N}_.@])@[A-Za-z0-9._]+/gu;

export function countHashtags(caption: string): number {
  return caption.match(HASHTAG)?.length ?? 0;
}

export function countMentions(caption: string): number {
  return caption.match(MENTION)?.length ?? 0;
}

/**
 * What Instagram would refuse in a caption, in plain words; empty when nothing. Length in UTF-16
 * units, which is never less than the characters Instagram counts.
 */
export function instagramCaptionProblems(caption: string): string[] {
  const problems: string[] = [];
  if (caption.length > INSTAGRAM_CAPTION_MAX_LENGTH) {
    problems.push(`The caption has ${caption.length} characters; Instagram allows ${INSTAGRAM_CAPTION_MAX_LENGTH}.`);
  }
  const hashtags = countHashtags(caption);
  if (hashtags > INSTAGRAM_MAX_HASHTAGS) problems.push(`The caption has ${hashtags} hashtags; Instagram allows ${INSTAGRAM_MAX_HASHTAGS}.`);
  const mentions = countMentions(caption);
  if (mentions > INSTAGRAM_MAX_MENTIONS) problems.push(`The caption mentions ${mentions} accounts; Instagram allows ${INSTAGRAM_MAX_MENTIONS}.`);
  return problems;
}

/** Instagram usernames: 1 to 30 letters, digits, periods and underscores. */
const USERNAME = /^[A-Za-z0-9._]{1,30}$/;
export const INSTAGRAM_USERNAME_INVALID = 'Collaborators must be Instagram usernames (letters, digits, periods and underscores, at most 30)';
export const TOO_MANY_COLLABORATORS = `A Reel can invite at most ${INSTAGRAM_MAX_COLLABORATORS} collaborators`;

export const instagramUsername = z
  .string({ error: INSTAGRAM_USERNAME_INVALID })
  .trim()
  .transform((name) => name.replace(/^@/, ''))
  .pipe(z.string().regex(USERNAME, INSTAGRAM_USERNAME_INVALID));

/** The `instagram` options of a post (rest-api.md): share_to_feed true and trial_reel false unless chosen. */
export const instagramPostOptions = z.object({
  share_to_feed: z.boolean({ error: 'instagram.share_to_feed must be true or false' }).default(true),
  /** A trial Reel is shown to non-followers first; Instagram shares it to followers later (or never). */
  trial_reel: z.boolean({ error: 'instagram.trial_reel must be true or false' }).default(false),
  collaborators: z
    .array(instagramUsername)
    .max(INSTAGRAM_MAX_COLLABORATORS, TOO_MANY_COLLABORATORS)
    .default([])
    .transform((names) => [...new Map(names.map((name) => [name.toLowerCase(), name])).values()]),
});
export type InstagramPostOptions = z.output<typeof instagramPostOptions>;
export type InstagramPostOptionsInput = z.input<typeof instagramPostOptions>;

export const DEFAULT_INSTAGRAM_OPTIONS: InstagramPostOptions = { share_to_feed: true, trial_reel: false, collaborators: [] };
