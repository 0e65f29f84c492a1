import { INSTAGRAM_MAX_COLLABORATORS, instagramCaptionProblems, instagramUsername } from '@clipshift/shared';
import type { ReelContainerRequest } from './types.ts';

/*
 * What Instagram would refuse about a Reel before anything is sent, from the shared rules the
 * composer shows (shared/src/reels.ts). The video itself is checked against reelsPreflight by the
 * caller, which has probed it; Instagram checks it again when it downloads it.
 */

/** What is wrong with a container request, in plain words (empty when nothing is). */
export function reelContainerProblems(request: ReelContainerRequest): string[] {
  const problems = instagramCaptionProblems(request.caption);
  if (request.collaborators.length > INSTAGRAM_MAX_COLLABORATORS) {
    problems.push(`The Reel invites ${request.collaborators.length} collaborators; Instagram allows ${INSTAGRAM_MAX_COLLABORATORS}.`);
  }
  const invalid = request.collaborators.filter((name) => !instagramUsername.safeParse(name).success);
  if (invalid.length > 0) problems.push(`Not Instagram usernames: ${invalid.join(', ')}.`);
  if (!isFetchableUrl(request.videoUrl)) problems.push('The video address is not an http(s) URL Instagram could download.');
  return problems;
}

function isFetchableUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
