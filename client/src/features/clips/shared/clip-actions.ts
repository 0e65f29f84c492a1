import type { Clip } from '@clipshift/shared';

/** What a card, a row or the details modal can do with a clip; the page carries them out. */
export interface ClipActions {
  open(clip: Clip): void;
  generateSubtitles(clip: Clip): void;
  isGenerating(clipId: string): boolean;
  download(clip: Clip): void;
  requestDelete(clip: Clip): void;
  requestPost(clip: Clip): void;
}
