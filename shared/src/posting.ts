import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH } from './constants.ts';
import { DESCRIPTION_REQUIRED, DESCRIPTION_TOO_LONG, wholePercent } from './clips.ts';
import { rowId } from './input.ts';
import { ACCOUNT_PLATFORMS, postStats } from './accounts.ts';
import { PRIVACY_LEVELS } from './tiktok.ts';
import { tiktokCommercial } from './tiktok-commercial.ts';
import { instagramPostOptions } from './reels.ts';
import { YOUTUBE_PRIVACY_NEEDED, YOUTUBE_PRIVACY_STATUSES, YOUTUBE_TITLE_BRACKETS, YOUTUBE_TITLE_MAX_LENGTH, YOUTUBE_TITLE_TOO_LONG } from './youtube.ts';

/*
 * Posting to accounts of any platform: the post input with each platform's options, the Upload
 * object, and how accounts are named. The wire names the REST contract fixed (tiktok_account_id,
 * tiktok_account_ids) stay, and take any platform's account id.
 */

/** "@username", or null for an account without one. */
export function accountUsername(username: string | null): string | null {
  return username ? `@${username}` : null;
}

/** How an account is named to people: "@username", else its display name. */
export function formatAccountHandle(account: { username: string | null; display_name: string }): string {
  return accountUsername(account.username) ?? account.display_name;
}

/** An account's or an upload's id in the path. */
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
  /** How much of the video the platform has received; null before the upload starts. */
  percent: wholePercent.nullable(),
  publish_id: z.string().nullable(),
  error: z.string().nullable(),
  /** What the platform did that was not asked for although the post went out (YouTube keeping the video private: YOUTUBE_PRIVATE_LOCK_WARNING). */
  warning: z.string().nullable().describe('What the platform did that was not asked for although the post went out, e.g. YouTube keeping the video private for an unaudited Google Cloud project'),
  /** When it goes (or went) to its platform: its posting slot, or when it was queued for an immediate post. */
  scheduled_for: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  platform: z.enum(ACCOUNT_PLATFORMS),
  /** The platform's id of the post (TikTok's public post id, the YouTube video id, the Instagram media id, the Facebook video id), once known. */
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
  /** Accounts of any platform, alongside tiktok_account_id(s) (which take any platform's id too). */
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
  /** Reels options for the Instagram accounts; absent: shared to the feed, no trial, no collaborators. */
  instagram: instagramPostOptions.optional(),
});
/** What a caller sends; PostClipRequest is what the server works with (ids that cannot exist are null). */
export type PostClipInput = z.input<typeof postClipInput>;
export type PostClipRequest = z.output<typeof postClipInput>;

