import { z } from 'zod';

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
