/*
 * The twitch domain's public face: the user's connected Twitch account (connect, show, disconnect,
 * its refreshed token) and what it does with Twitch's official clip endpoints.
 */
export {
  completeTwitchAuthorization,
  disconnectTwitch,
  TWITCH_NOT_CONFIGURED,
  TWITCH_RECONNECT_NEEDED,
  TwitchNotConnected,
  TwitchReconnectNeeded,
  twitchAuthorizeUrl,
  twitchConnection,
  type TwitchCallbackResult,
} from './connection.ts';
export { createTwitchClip, officialClipFile, type OfficialClipFile, type TwitchClipOptions, type TwitchClipRequest } from './clips.ts';
