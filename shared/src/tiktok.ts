import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH } from './constants.ts';
import { DESCRIPTION_REQUIRED, DESCRIPTION_TOO_LONG, wholePercent } from './clips.ts';
import { rowId } from './input.ts';
import { ACCOUNT_PLATFORMS, postStats } from './accounts.ts';
import { tiktokCommercial } from './tiktok-commercial.ts';
import { YOUTUBE_PRIVACY_NEEDED, YOUTUBE_PRIVACY_STATUSES, YOUTUBE_TITLE_BRACKETS, YOUTUBE_TITLE_MAX_LENGTH, YOUTUBE_TITLE_TOO_LONG } from './youtube.ts';

export const TIKTOK_AUTH_MESSAGE_TYPE = 'tiktok-auth';
export const DELETE_ACCOUNT_CONFIRM = 'Are you sure you want to delete this TikTok account?';

/** Who may see a post, as TikTok names the choices. */
export const PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;
export type PrivacyLevel = (typeof PRIVACY_LEVELS)[number];

export const PRIVACY_LEVEL_LABELS: Record<string, string> = {
  PUBLIC_TO_EVERYONE: 'Everyone',
  MUTUAL_FOLLOW_FRIENDS: 'Friends (followers you follow back)',
  FOLLOWER_OF_CREATOR: 'Followers',
  SELF_ONLY: 'Only me',
};

export const tiktokAccount = z.object({
  id: z.string(),
  display_name: z.string(),
  username: z.string().nullable(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
  linked_streamers: z.array(z.string()),
  needs_reconnect: z.boolean(),
});
export type TikTokAccount = z.infer<typeof tiktokAccount>;

/** "@username", or null for an account without one. */
export function accountUsername(username: string | null): string | null {
  return username ? `@${username}` : null;
}

/** How an account is named to people: "@username", else its display name. */
export function formatAccountHandle(account: { username: string | null; display_name: string }): string {
  return accountUsername(account.username) ?? account.display_name;
}

/** A TikTok account's or an upload's id in the path. */
export const accountIdInput = z.object({ id: rowId('id is required') });

export const linkAccountInput = z.object({
  name: z.string().trim().min(1),
  tiktok_account_id: rowId('tiktok_account_id is required'),
});

/** `scheduled`: waiting for its posting slot; `canceled`: taken off the queue before it started. */
export const UPLOAD_STATUSES = ['queued', 'uploading', 'processing', 'sent_to_inbox', 'published', 'failed', 'scheduled', 'canceled'] as const;

export const upload = z.object({
  id: z.string(),
  clip_id: z.string(),
  /** null once the account has been removed; `account` keeps its name. */
  tiktok_account_id: z.string().nullable(),
  account: z.string(),
  status: z.enum(UPLOAD_STATUSES),
  /** How much of the video TikTok has received; null before the upload starts. */
  percent: wholePercent.nullable(),
  publish_id: z.string().nullable(),
  error: z.string().nullable(),
  /** What the platform did that was not asked for although the post went out (YouTube keeping the video private: YOUTUBE_PRIVATE_LOCK_WARNING). */
  warning: z.string().nullable().describe('What the platform did that was not asked for although the post went out, e.g. YouTube keeping the video private for an unaudited Google Cloud project'),
  /** When it goes (or went) to TikTok: its posting slot, or when it was queued for an immediate post. */
  scheduled_for: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  platform: z.enum(ACCOUNT_PLATFORMS),
  /** TikTok's public post id or the YouTube video id, once known. */
  external_id: z.string().nullable(),
  /** The post's counts as last read from its platform, for published posts (YouTube has no shares). */
  stats: postStats.nullable(),
});
export type Upload = z.infer<typeof upload>;

export const postClipInput = z.object({
  id: z.string().trim().min(1),
  // Checks of the string itself (not a refinement), so that the OpenAPI document shows them.
  description: z
    .string({ error: DESCRIPTION_REQUIRED })
    .regex(/\S/, { error: DESCRIPTION_REQUIRED, abort: true })
    .max(DESCRIPTION_MAX_LENGTH, DESCRIPTION_TOO_LONG),
  tiktok_account_id: rowId('tiktok_account_id must be an account id').optional(),
  tiktok_account_ids: z.array(rowId('tiktok_account_ids must be account ids')).max(20).optional(),
  /** Accounts of any platform (TikTok and YouTube), alongside tiktok_account_id(s). */
  account_ids: z.array(rowId('account_ids must be account ids')).max(20).optional(),
  /** The YouTube title; blank or absent: made from the clip's title. */
  title: z.string().max(YOUTUBE_TITLE_MAX_LENGTH, YOUTUBE_TITLE_TOO_LONG).regex(/^[^<>]*$/, YOUTUBE_TITLE_BRACKETS).optional(),
  /** Who can see the video on YouTube; required when a YouTube account is chosen (no default). */
  youtube_privacy: z.enum(YOUTUBE_PRIVACY_STATUSES, { error: YOUTUBE_PRIVACY_NEEDED }).optional(),
  /** YouTube's notifySubscribers (tell the channel's subscribers about the video); default false. */
  youtube_notify_subscribers: z.boolean().optional().describe("YouTube's notifySubscribers: tell the channel's subscribers about the video (default false)"),
  /** One of the creator's privacy_level_options; no default is chosen for the user. */
  privacy_level: z.enum(PRIVACY_LEVELS).optional(),
  disable_comment: z.boolean().optional(),
  disable_duet: z.boolean().optional(),
  disable_stitch: z.boolean().optional(),
  /** TikTok's commercial content disclosure; absent: nothing disclosed. Branded content cannot be private (commercialProblem). */
  tiktok_commercial: tiktokCommercial.optional(),
});
/** What a caller sends; PostClipRequest is what the server works with (ids that cannot exist are null). */
export type PostClipInput = z.input<typeof postClipInput>;
export type PostClipRequest = z.output<typeof postClipInput>;

export const creatorOptions = z.object({
  tiktok_account_id: z.string(),
  privacy_level_options: z.array(z.string()),
  comment_disabled: z.boolean(),
  duet_disabled: z.boolean(),
  stitch_disabled: z.boolean(),
  max_video_post_duration_sec: z.number(),
  nickname: z.string().nullable(),
});
export type CreatorOptions = z.infer<typeof creatorOptions>;
