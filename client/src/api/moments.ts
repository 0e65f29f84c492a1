import type { ListMomentsInput } from '@clipshift/shared';
import { useLoadErrorToast } from './errors';
import { trpc } from './trpc';

export const momentMessages = {
  loadFailed: 'Failed to load moments',
} as const;

/** Moments arrive while streams are live: an open Moments screen asks again this often. */
export const MOMENTS_POLL_MS = 10_000;

/** The user's moments, newest first, optionally of one streamer; reloaded every 10 s (or `pollMs`) while shown. */
export function useMoments(input: Partial<ListMomentsInput> = {}, options: { pollMs?: number } = {}) {
  const query = trpc.moments.list.useQuery(input, { refetchInterval: options.pollMs ?? MOMENTS_POLL_MS });
  useLoadErrorToast(query, momentMessages.loadFailed);
  return query;
}

/**
 * The clip ids waiting in the review inbox, so a moment's clip links there rather than to the
 * library while it waits; shares the inbox's cache, and stays quiet when it cannot load (the link
 * then goes to the library).
 */
export function useClipIdsInReview(enabled: boolean): ReadonlySet<string> {
  const { data } = trpc.review.list.useQuery(undefined, { enabled, refetchInterval: enabled ? MOMENTS_POLL_MS : false });
  return new Set(data?.map((clip) => clip.clip_id) ?? []);
}
