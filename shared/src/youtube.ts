/*
 * YouTube Shorts as a destination (rest-api.md "YouTube Shorts"): the choices a post offers and the
 * words both sides use for them.
 */

export const YOUTUBE_AUTH_MESSAGE_TYPE = 'youtube-auth';

/** Who may see a YouTube video, as YouTube names the choices; chosen by the user, no default. */
export const YOUTUBE_PRIVACY_STATUSES = ['private', 'unlisted', 'public'] as const;
export type YouTubePrivacyStatus = (typeof YOUTUBE_PRIVACY_STATUSES)[number];

export const YOUTUBE_PRIVACY_LABELS: Record<YouTubePrivacyStatus, string> = { private: 'Private', unlisted: 'Unlisted', public: 'Public' };
/** What each choice means, shown beneath its name. */
export const YOUTUBE_PRIVACY_HINTS: Record<YouTubePrivacyStatus, string> = {
  private: 'Only you and people you choose',
  unlisted: 'Anyone with the link',
  public: 'Everyone, in Shorts and search',
};

/** snippet.title: at most 100 characters (UTF-16 units, YouTube's strictest reading). */
export const YOUTUBE_TITLE_MAX_LENGTH = 100;
export const YOUTUBE_TITLE_TOO_LONG = `Title must be at most ${YOUTUBE_TITLE_MAX_LENGTH} characters`;
export const YOUTUBE_TITLE_BRACKETS = 'Title must not contain < or > (YouTube refuses them)';
/** A post to a YouTube account without youtube_privacy. */
export const YOUTUBE_PRIVACY_NEEDED = 'Choose who can see the video on YouTube';

/** Upload.warning for a video YouTube kept private although public or unlisted was asked. */
export const YOUTUBE_PRIVATE_LOCK_WARNING =
  "YouTube made this video private: your Google Cloud project has not passed YouTube's API audit, so every upload stays private until it does";

/** "3 uploads left today" beside a YouTube account (the Google project's uploads, until midnight Pacific). */
export function uploadsLeftLabel(uploads: number): string {
  return `${uploads} upload${uploads === 1 ? '' : 's'} left today`;
}

export const isYouTubePrivacy = (value: string): value is YouTubePrivacyStatus => (YOUTUBE_PRIVACY_STATUSES as readonly string[]).includes(value);

/** The public address of a Short. */
export function youtubeShortUrl(videoId: string): string {
  return `https://www.youtube.com/shorts/${videoId}`;
}
