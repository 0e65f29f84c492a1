import { isDeliveredUpload, postClipInput, PRIVACY_LEVEL_LABELS, type Clip, type CreatorOptions, type PostClipInput } from '@clipshift/shared';

/** TikTok's four privacy levels, in the order the shared input schema lists them. */
export const PRIVACY_LEVELS = postClipInput.shape.privacy_level.unwrap().options;
export type PrivacyLevel = NonNullable<PostClipInput['privacy_level']>;

export function privacyLabel(level: PrivacyLevel): string {
  return PRIVACY_LEVEL_LABELS[level] ?? level;
}

export function isPrivacyLevel(value: string): value is PrivacyLevel {
  return (PRIVACY_LEVELS as readonly string[]).includes(value);
}

/** What TikTok's sharing guidelines let the creator switch off for one post; everything is allowed at first. */
export interface Interactions {
  comments: boolean;
  duet: boolean;
  stitch: boolean;
}

export const ALL_INTERACTIONS_ALLOWED: Interactions = { comments: true, duet: true, stitch: true };

/** The post input's disable_* flags for the interactions the user allowed. */
export function interactionFlags(interactions: Interactions): Pick<PostClipInput, 'disable_comment' | 'disable_duet' | 'disable_stitch'> {
  return { disable_comment: !interactions.comments, disable_duet: !interactions.duet, disable_stitch: !interactions.stitch };
}

/** The accounts that have the clip (published, or waiting in the creator's inbox). */
function deliveredTo(clip: Pick<Clip, 'posted_to'>): string[] {
  return clip.posted_to.filter((entry) => isDeliveredUpload(entry.status)).map((entry) => entry.account);
}

/** Whether any account has the clip (the cards' and rows' Posted badge). */
export function isPosted(clip: Pick<Clip, 'posted_to'>): boolean {
  return deliveredTo(clip).length > 0;
}

/** "@a, @b": the accounts that have the clip, for a badge's tooltip. */
export function deliveredAccounts(clip: Pick<Clip, 'posted_to'>): string {
  return deliveredTo(clip).join(', ');
}

/** What the chosen accounts all allow: the privacy levels every one offers, and interactions any has turned off. */
export interface CreatorLimits {
  privacyLevels: PrivacyLevel[] | null;
  locked: Interactions;
  loading: boolean;
}

/**
 * Asks TikTok (through tiktok.creatorOptions) what each chosen account may post with, so the
 * privacy menu lists exactly the offered levels and interactions the creator turned off stay off.
 * Until an account is chosen (or if TikTok cannot be asked), every level is listed and the server
 * still enforces the account's own options.
 */
export function combineCreatorOptions(options: readonly CreatorOptions[], loading: boolean): CreatorLimits {
  if (options.length === 0) return { privacyLevels: null, locked: { comments: false, duet: false, stitch: false }, loading };
  const offered = PRIVACY_LEVELS.filter((level) => options.every((option) => option.privacy_level_options.includes(level)));
  return {
    privacyLevels: offered,
    locked: {
      comments: options.some((option) => option.comment_disabled),
      duet: options.some((option) => option.duet_disabled),
      stitch: options.some((option) => option.stitch_disabled),
    },
    loading,
  };
}
