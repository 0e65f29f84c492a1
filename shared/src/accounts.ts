import { z } from 'zod';

/** Where clips can be posted. */
export const ACCOUNT_PLATFORMS = ['tiktok', 'youtube', 'instagram', 'facebook'] as const;
export type AccountPlatform = (typeof ACCOUNT_PLATFORMS)[number];

export const PLATFORM_LABELS: Record<AccountPlatform, string> = { tiktok: 'TikTok', youtube: 'YouTube', instagram: 'Instagram', facebook: 'Facebook' };

/** Platforms named in a sentence, in the platforms' own order: "TikTok, YouTube and Instagram". */
export function platformList(platforms: Iterable<AccountPlatform>): string {
  const named = new Set(platforms);
  const labels = ACCOUNT_PLATFORMS.filter((platform) => named.has(platform)).map((platform) => PLATFORM_LABELS[platform]);
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : (labels[0] ?? '');
}

export const UNKNOWN_PLATFORM = `Unknown platform: choose one of ${ACCOUNT_PLATFORMS.join(', ')}`;

/** A platform in a path (GET /api/accounts/{platform}/auth-url): anything else is a 400. */
export const platformField = z.enum(ACCOUNT_PLATFORMS, { error: UNKNOWN_PLATFORM });
export const platformInput = z.object({ platform: platformField });

/** The `type` of the message each platform's OAuth callback page sends to the window that opened it. */
export const authMessageType = (platform: AccountPlatform): `${AccountPlatform}-auth` => `${platform}-auth`;

/**
 * Platforms where someone must choose who sees a post (TikTok's privacy level, YouTube's privacy
 * status). Instagram Reels and Facebook Page Reels are public posts of a professional account.
 */
export const PRIVACY_PLATFORMS: readonly AccountPlatform[] = ['tiktok', 'youtube'];
export const choosesPrivacy = (platform: AccountPlatform): boolean => PRIVACY_PLATFORMS.includes(platform);

/** Whether the server can connect accounts of each platform (GET /api/accounts/platforms). */
export const platformAvailability = z.object({
  platform: z.enum(ACCOUNT_PLATFORMS),
  configured: z.boolean(),
  /** What to set when it is not configured. */
  message: z.string().nullable(),
});
export type PlatformAvailability = z.infer<typeof platformAvailability>;

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
