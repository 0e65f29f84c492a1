import { trpc } from './trpc';
import { useErrorToast } from './use-error-toast';

export const LOAD_STREAMERS_FAILED = 'Failed to load streamers';

/** The user's streamers, sorted by name, with the spec's toast when loading fails. */
export function useStreamerList(options: { refetchInterval?: number } = {}) {
  const query = trpc.streamers.list.useQuery(undefined, { refetchInterval: options.refetchInterval });
  useErrorToast(query, LOAD_STREAMERS_FAILED);
  return query;
}

/**
 * How a streamer is titled: Twitch's display name when it only changes the case of the name
 * ("PixelQueen" for pixelqueen), otherwise the name itself (the display name then shows beside it).
 */
export function streamerTitle(streamer: { name: string; display_name: string | null }): string {
  const display = streamer.display_name;
  return display !== null && display.toLowerCase() === streamer.name.toLowerCase() ? display : streamer.name;
}
