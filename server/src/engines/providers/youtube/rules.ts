import { HASHTAG_PATTERN, SHORTS_MAX_DURATION_SEC, YOUTUBE_MAX_VIDEO_BYTES } from '@clipshift/shared';

/*
 * YouTube's limits on a video's details and on what counts as a Short, as pure functions: the
 * wizard's preflight and the post job check them before any byte is sent, and startUpload refuses
 * what YouTube would refuse.
 */

/** snippet.title: 1–100 characters, no < or >. */
export const MAX_TITLE_LENGTH = 100;
/** snippet.description: at most 5,000 bytes (UTF-8), no < or >. */
export const MAX_DESCRIPTION_BYTES = 5_000;
/** snippet.tags: at most 500 characters together, as YouTube counts them (see tagsLength). */
export const MAX_TAGS_LENGTH = 500;
/** Shorts are at most 3 minutes long. */
export const MAX_SHORTS_DURATION_SEC = SHORTS_MAX_DURATION_SEC;
/** YouTube's upload limit: 256 GB. */
export const MAX_VIDEO_BYTES = YOUTUBE_MAX_VIDEO_BYTES;
/** Gaming: every Clipshift video is a stream clip. */
export const GAMING_CATEGORY_ID = '20';
export const FALLBACK_TITLE = 'Stream clip';

const ANGLE_BRACKETS = /[<>]/g;

/** Code points, so a cut never splits an emoji's surrogate pair. */
function cutAtCodeUnits(text: string, max: number): string {
  let out = '';
  for (const char of text) {
    if (out.length + char.length > max) break;
    out += char;
  }
  return out;
}

/**
 * The default YouTube title from the clip's title: < and > removed (YouTube refuses them), blanks
 * collapsed, and cut to 100 characters at a word boundary. Characters are counted in UTF-16 units,
 * the strictest reading of YouTube's "100 characters", so no emoji-heavy title can be refused.
 */
export function youtubeTitle(clipTitle: string): string {
  const clean = clipTitle.replace(ANGLE_BRACKETS, '').replace(/\s+/g, ' ').trim();
  if (!clean) return FALLBACK_TITLE;
  if (clean.length <= MAX_TITLE_LENGTH) return clean;
  const cut = cutAtCodeUnits(clean, MAX_TITLE_LENGTH);
  // The cut fell inside a word unless the next character is a blank: back up to the last blank.
  const atBoundary = /\s/.test(clean.charAt(cut.length));
  const lastBlank = cut.search(/\s\S*$/);
  const words = atBoundary || lastBlank <= 0 ? cut : cut.slice(0, lastBlank);
  return words.trim();
}

/**
 * YouTube's count for the tags limit: each tag's length, a comma between tags, and two more for a
 * tag with a space (YouTube wraps it in quotes).
 */
export function tagsLength(tags: readonly string[]): number {
  return tags.reduce((sum, tag, index) => sum + tag.length + (/\s/.test(tag) ? 2 : 0) + (index > 0 ? 1 : 0), 0);
}

/** Tags from the description's hashtags, without '#', first occurrence first, case-insensitively unique, within 500 characters. */
export function youtubeTags(description: string): string[] {
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const match of description.matchAll(HASHTAG_PATTERN)) {
    const tag = match[0].trim().replace(/^#/, '');
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    // A tag that does not fit is skipped, not cut: half a hashtag is a different tag.
    if (tagsLength([...tags, tag]) > MAX_TAGS_LENGTH) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}

/** The description as YouTube accepts it: < and > removed, cut to 5,000 UTF-8 bytes on a character boundary. */
export function youtubeDescription(text: string): string {
  const clean = text.replace(ANGLE_BRACKETS, '');
  if (Buffer.byteLength(clean, 'utf8') <= MAX_DESCRIPTION_BYTES) return clean;
  let out = '';
  let bytes = 0;
  for (const char of clean) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > MAX_DESCRIPTION_BYTES) break;
    out += char;
    bytes += size;
  }
  return out;
}

/** What is wrong with a title, description and tags for YouTube, in plain words (empty when nothing is). */
export function metadataProblems(metadata: { title: string; description: string; tags: readonly string[] }): string[] {
  const problems: string[] = [];
  if (!metadata.title.trim()) problems.push('The YouTube title is empty.');
  if (metadata.title.length > MAX_TITLE_LENGTH) problems.push(`The YouTube title has ${metadata.title.length} characters; YouTube allows ${MAX_TITLE_LENGTH}.`);
  if (/[<>]/.test(metadata.title)) problems.push('The YouTube title contains < or >, which YouTube does not allow.');
  const descriptionBytes = Buffer.byteLength(metadata.description, 'utf8');
  if (descriptionBytes > MAX_DESCRIPTION_BYTES) problems.push(`The description is ${descriptionBytes} bytes long; YouTube allows ${MAX_DESCRIPTION_BYTES}.`);
  if (/[<>]/.test(metadata.description)) problems.push('The description contains < or >, which YouTube does not allow.');
  if (tagsLength(metadata.tags) > MAX_TAGS_LENGTH) problems.push(`The tags take ${tagsLength(metadata.tags)} characters together; YouTube allows ${MAX_TAGS_LENGTH}.`);
  return problems;
}

export interface ShortsVideo {
  durationSec: number;
  width: number;
  height: number;
  sizeBytes: number;
  /** ffprobe's format_name ("mov,mp4,m4a,3gp,3g2,mj2") or a plain "mp4". */
  container: string;
  /** ffprobe's codec_name of the picture ("h264"), when known. */
  videoCodec?: string;
}

/** Seconds for people: whole seconds as such, otherwise one decimal. */
function formatSeconds(seconds: number): string {
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

/** Why this video cannot be posted as a YouTube Short, in plain words; empty when it can. */
export function shortsPreflight(video: ShortsVideo): string[] {
  const problems: string[] = [];
  if (video.width > video.height) problems.push(`The video is ${video.width}×${video.height} (landscape); YouTube Shorts must be vertical or square.`);
  if (video.durationSec > MAX_SHORTS_DURATION_SEC) {
    problems.push(`The video is ${formatSeconds(video.durationSec)} s long; YouTube Shorts can be at most ${MAX_SHORTS_DURATION_SEC} s (3 minutes).`);
  }
  if (video.sizeBytes <= 0) problems.push('The video file is empty.');
  if (video.sizeBytes > MAX_VIDEO_BYTES) problems.push('The video is larger than the 256 GB YouTube accepts.');
  const formats = video.container.toLowerCase().split(',').map((name) => name.trim());
  if (!formats.includes('mp4')) problems.push(`The video is a ${video.container} file; Clipshift posts MP4 files to YouTube.`);
  if (video.videoCodec !== undefined && video.videoCodec.toLowerCase() !== 'h264') {
    problems.push(`The video is encoded as ${video.videoCodec}; Clipshift posts H.264 video to YouTube.`);
  }
  return problems;
}
