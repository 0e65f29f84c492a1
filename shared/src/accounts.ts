import { z } from 'zod';

/** Where clips can be posted. */
export const ACCOUNT_PLATFORMS = ['tiktok', 'youtube'] as const;
export type AccountPlatform = (typeof ACCOUNT_PLATFORMS)[number];

export const PLATFORM_LABELS: Record<AccountPlatform, string> = { tiktok: 'TikTok', youtube: 'YouTube' };

export const postStats = z.object({
  views: z.number().int().nonnegative(),
  likes: z.number().int().nonnegative(),
  comments: z.number().int().nonnegative(),
  shares: z.number().int().nonnegative().nullable(),
  fetched_at: z.string(),
});
export type PostStatsDto = z.infer<typeof postStats>;

/** One row of Settings' "Connected accounts" (GET /api/accounts): an account of any platform. */
export const connectedAccount = z.object({
  id: z.string(),
  platform: z.enum(ACCOUNT_PLATFORMS),
  /** The TikTok display name or the YouTube channel's title. */
  display_name: z.string(),
  /** The TikTok username or the channel's handle (without "@"), if any. */
  username: z.string().nullable(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
  linked_streamers: z.array(z.string()),
  /** reconnect: the platform refused the stored grant; posts wait until the user connects again. */
  status: z.enum(['ok', 'reconnect']),
  /** A YouTube account's uploads its Google project may still start today (the quota is the project's, shared by all its channels); null for other platforms and while YouTube is not configured. */
  uploads_left_today: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe("YouTube accounts: the uploads the server's Google project may still start today (until midnight Pacific; shared by all its channels). Null for other platforms and while YouTube is not configured"),
});
export type ConnectedAccount = z.infer<typeof connectedAccount>;
