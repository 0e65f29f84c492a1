import type { AccountPlatform } from '@clipshift/shared';

/** What a clip offers for describing it (the pipeline has these after download and transcription). */
export interface DescriptionInput {
  title: string;
  /** The streamer's name as shown (display name or login). */
  streamer: string;
  gameName: string | null;
  /** Speech in the clip, when subtitles were generated. */
  transcript: string | null;
  /** The clip's language code from Twitch ("en", "de", "zh-hk", "other"…), or null to guess from the text. */
  language: string | null;
  /**
   * The Twitch clip id: what varies the wording between clips, so describing the same clip again
   * gives the same text. Without it the title, streamer and game seed the choice.
   */
  clipId?: string;
  /** Where the clip will be posted (the streamer's linked accounts): their reach tags are used; none known, #twitchclips. */
  platforms?: readonly AccountPlatform[];
}
