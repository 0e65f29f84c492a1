import {
  INSTAGRAM_MAX_COLLABORATORS,
  INSTAGRAM_USERNAME_INVALID,
  instagramPostOptions,
  instagramUsername,
  TOO_MANY_COLLABORATORS,
  type InstagramPostOptions,
} from '@clipshift/shared';

/*
 * Instagram's Reels options as the wizard and the review inbox edit them: the API's defaults
 * (shared to the feed, no trial, no collaborators) and its own rules and sentences for collaborators.
 */

/** What adding typed or pasted usernames did (see useChips): the list, why some were refused, what stays typed. */
export interface CollaboratorsAddition {
  terms: string[];
  problem: string | null;
  rest: string;
}

/**
 * Adds typed or pasted Instagram usernames (an "@" in front is dropped, as the API does) to the
 * collaborators; one that cannot be a username, or beyond three, stays in the input with the
 * API's reason. Usernames are compared without case, as Instagram does.
 */
export function addCollaborators(current: readonly string[], typed: string): CollaboratorsAddition {
  const terms = [...current];
  const refused: string[] = [];
  let problem: string | null = null;
  for (const raw of typed.split(/[,\s]+/)) {
    if (!raw.trim()) continue;
    const parsed = instagramUsername.safeParse(raw);
    if (!parsed.success) {
      problem ??= INSTAGRAM_USERNAME_INVALID;
      refused.push(raw.trim());
    } else if (terms.some((name) => name.toLowerCase() === parsed.data.toLowerCase())) {
      continue;
    } else if (terms.length >= INSTAGRAM_MAX_COLLABORATORS) {
      problem ??= TOO_MANY_COLLABORATORS;
      refused.push(parsed.data);
    } else {
      terms.push(parsed.data);
    }
  }
  return { terms, problem, rest: refused.join(', ') };
}

/** Why the API would refuse these options (its own first message), or null. */
export function instagramOptionsProblem(options: InstagramPostOptions): string | null {
  const parsed = instagramPostOptions.safeParse(options);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? INSTAGRAM_USERNAME_INVALID);
}
