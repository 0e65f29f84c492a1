/** Every message of the clips screen (spec section 8), so the wording lives in one place. */
export const clipMessages = {
  refreshed: 'Clips refreshed successfully',
  loadFailed: 'Failed to load clips',
  detailsFailed: 'Failed to load clip details',
  subtitlesStarted: 'Generating subtitles for clip. This may take several minutes...',
  subtitlesAlreadyRunning: 'Already generating subtitles for clip',
  subtitlesDone: 'Subtitles generated successfully for clip!',
  subtitlesFailed: 'Failed to generate subtitles',
  subtitlesUnreachable: 'Failed to generate subtitles for clip',
  downloading: (title: string) => `Downloading clip: ${title}`,
  deleteConfirm: 'This action cannot be undone. The clip will be permanently deleted.',
  deleted: 'Clip deleted successfully',
  deleteFailed: 'Failed to delete clip',
  descriptionSaved: 'Description saved',
  descriptionSaveFailed: 'Failed to save description',
  posted: 'Posted to TikTok successfully!',
  postFailed: 'Failed to post to TikTok',
  /** Some accounts took the clip and others refused it: the refusals, each with TikTok's reason. */
  postPartlyFailed: (failures: readonly { account: string; error: string | null }[]) =>
    `Error: ${failures.map((failure) => `not posted to ${failure.account}: ${failure.error ?? 'TikTok refused the video'}`).join('; ')}`,
  accountsLoadError: 'Error loading accounts',
  accountsLoadFailed: 'Failed to load accounts.',
} as const;

/** "Error: {server message}", or the fallback when the server gave none. */
export function errorText(message: string | null, fallback: string): string {
  return message ? `Error: ${message}` : fallback;
}
