import { useCallback, useEffect, useMemo } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CLIP_PAGE_DEFAULT, CLIPS_POLL_MS, type ClipList, type ListClipsInput } from '@clipshift/shared';
import { isUnauthorizedError, trpc } from '@/lib/trpc';
import { clipMessages } from './clip-messages';
import { isPostInProgress } from './tiktok-posting';
import type { ClipQueryFilters } from './use-clip-filters';

export const CLIP_PAGE_SIZE = CLIP_PAGE_DEFAULT;
/** While a post is on its way to TikTok, the page reloads this often so its Posted state shows. */
export const POST_PROGRESS_POLL_MS = 5_000;

function postProgressInterval(list: ClipList | undefined): number | false {
  return list?.clips.some((clip) => clip.posted_to.some(isPostInProgress)) ? POST_PROGRESS_POLL_MS : false;
}

function listInput(filters: ClipQueryFilters, page: number): ListClipsInput {
  return {
    streamer: filters.streamer || undefined,
    search: filters.search || undefined,
    page,
    limit: CLIP_PAGE_SIZE,
  };
}

/**
 * Reloads once the last load (or failed attempt) is 60 s old (spec section 7). The timer restarts
 * with every load, so a manual refresh or a filter change postpones the next one.
 */
function useReloadWhenOld(lastLoadAt: number, reload: () => void) {
  useEffect(() => {
    if (lastLoadAt === 0) return;
    const wait = Math.max(0, lastLoadAt + CLIPS_POLL_MS - Date.now());
    const timer = window.setTimeout(reload, wait);
    return () => window.clearTimeout(timer);
  }, [lastLoadAt, reload]);
}

/** One page of the user's clips under the applied filters, newest first. */
export function useClipList(filters: ClipQueryFilters, page: number) {
  const utils = trpc.useUtils();
  const input = useMemo(() => listInput(filters, page), [filters, page]);
  // Filter changes keep showing the previous page until the new one arrives (no flashing skeleton).
  const query = trpc.clips.list.useQuery(input, {
    placeholderData: keepPreviousData,
    refetchInterval: (current) => postProgressInterval(current.state.data),
  });
  const { refetch } = query;

  // A poll never interrupts a load already under way (a filter change, the Refresh button).
  const reload = useCallback(() => void refetch({ cancelRefetch: false }), [refetch]);
  useReloadWhenOld(Math.max(query.dataUpdatedAt, query.errorUpdatedAt), reload);

  /** The Refresh button: the only reload that reports a failure (spec section 8). */
  const refresh = useCallback(async () => {
    const result = await refetch();
    if (result.isError) {
      if (!isUnauthorizedError(result.error)) toast.error(clipMessages.loadFailed);
    } else {
      toast.success(clipMessages.refreshed);
    }
  }, [refetch]);

  /** Takes a deleted clip off the page at once; the refetch that follows fixes the totals. */
  const removeClip = useCallback(
    (clipId: string) => {
      utils.clips.list.setData(input, (current: ClipList | undefined) =>
        current && { ...current, clips: current.clips.filter((clip) => clip.clip_id !== clipId), total: Math.max(0, current.total - 1) },
      );
      void utils.clips.list.invalidate();
    },
    [utils, input],
  );

  return { query, refresh, removeClip };
}
