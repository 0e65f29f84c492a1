import { postClipInput, PRIVACY_LEVEL_LABELS, type Clip, type PostClipInput } from '@clipshift/shared';

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

type PostedEntry = Clip['posted_to'][number];

/** Upload statuses after which the clip is on TikTok (published, or waiting in the creator's inbox). */
const DELIVERED = new Set(['published', 'sent_to_inbox']);

export const POST_STATUS_LABELS: Record<string, string> = {
  queued: 'Queued',
  uploading: 'Uploading',
  processing: 'Processing',
  sent_to_inbox: 'Sent to inbox',
  published: 'Published',
  failed: 'Failed',
};

/** Still on its way: queued, uploading, or processing at TikTok. */
export function isPostInProgress(entry: PostedEntry): boolean {
  return !DELIVERED.has(entry.status) && entry.status !== 'failed';
}

export function isDelivered(entry: PostedEntry): boolean {
  return DELIVERED.has(entry.status);
}

/** Whether any account has the clip (the cards' and rows' Posted badge). */
export function isPosted(clip: Pick<Clip, 'posted_to'>): boolean {
  return clip.posted_to.some(isDelivered);
}

/** "@a, @b": the accounts that have the clip, for a badge's tooltip. */
export function deliveredAccounts(clip: Pick<Clip, 'posted_to'>): string {
  return clip.posted_to
    .filter(isDelivered)
    .map((entry) => entry.account)
    .join(', ');
}
