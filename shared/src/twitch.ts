import { z } from 'zod';

/** GET /api/twitch/connection: the user's connected Twitch account (rest-api.md "Moments"). */
export const twitchConnection = z.object({
  connected: z.boolean(),
  /** The account's Twitch login; null when none is connected. */
  login: z.string().nullable(),
  /** The scopes Twitch granted. */
  scopes: z.array(z.string()),
  /** 'reconnect' once Twitch refused the connection's refresh token (Reconnect needed); null when none is connected. */
  status: z.enum(['ok', 'reconnect']).nullable(),
});
export type TwitchConnection = z.infer<typeof twitchConnection>;

/** The popup's message to the opener after GET /api/twitch/callback. */
export const TWITCH_AUTH_MESSAGE = 'twitch-auth';
