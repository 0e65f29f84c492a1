import { sortByRank, type Clip, type DescriptionOptionDto } from '@clipshift/shared';

type DescribedClip = Pick<Clip, 'custom_description' | 'selected_description' | 'metadata'>;

/** The suggestions highest rank first; the server already lists them so, this keeps it true whatever the source. */
export function rankedSuggestions(clip: DescribedClip): DescriptionOptionDto[] {
  return sortByRank(clip.metadata.descriptions);
}

/** What the details editor starts with: the saved custom text, else the chosen suggestion. */
export function savedDescription(clip: DescribedClip, options: readonly DescriptionOptionDto[]): string {
  if (clip.custom_description) return clip.custom_description;
  return options[clip.selected_description]?.description ?? '';
}

/** What the post wizard starts with: the saved description, else the Best Match suggestion. */
export function postDescription(clip: DescribedClip, options: readonly DescriptionOptionDto[]): string {
  return savedDescription(clip, options) || (options[0]?.description ?? '');
}
