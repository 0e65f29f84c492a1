import type { Clip } from '@clipshift/shared';

/** What a card, a row or the details modal can do with a clip; the page carries them out. */
export interface ClipActions {
  open(clip: Clip): void;
  generateSubtitles(clip: Clip): void;
  /** This page asked for the clip's subtitles, or the server says its job is queued or running. */
  isGenerating(clip: Clip): boolean;
  download(clip: Clip): void;
  requestDelete(clip: Clip): void;
  /** Opens the post wizard; `description` (the details modal's text) fills its description step. */
  requestPost(clip: Clip, description?: string): void;
}
