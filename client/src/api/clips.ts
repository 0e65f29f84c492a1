import { useCallback, useEffect, useMemo, useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CLIP_PAGE_DEFAULT, CLIPS_POLL_MS, isRenderActive, isUploadInProgress, type Clip, type ClipDetails, type ClipList, type ListClipsInput } from '@clipshift/shared';
import { toastFailure } from './errors';
import { trpc } from './trpc';
import { useLatestRef } from '@/lib/use-latest-ref';

/** Clip toasts of spec section 8 that the browser words itself. */
export const clipMessages = {
  refreshed: 'Clips refreshed successfully',
  loadFailed: 'Failed to load clips',
  detailsFailed: 'Failed to load clip details',
  deleteFailed: 'Failed to delete clip',
  descriptionSaved: 'Description saved',
  descriptionSaveFailed: 'Failed to save description',
} as const;

export const CLIP_PAGE_SIZE = CLIP_PAGE_DEFAULT;
/**
 * While a clip's subtitle job or a post is under way, the page reloads this often so its progress
 * moves (the server saves it at most once a second); otherwise the 60 s reload applies.
 */
const ACTIVITY_POLL_MS = 2_000;

/** What the server filters by; an empty streamer means every streamer. */
export interface ClipQueryFilters {
  streamer: string;
  search: string;
}

/** A subtitle job or an upload of the clip is still going (as the server last said). */
function hasWorkUnderWay(clip: Pick<Clip, 'render' | 'posted_to'>): boolean {
  return isRenderActive(clip.render) || clip.posted_to.some((entry) => isUploadInProgress(entry.status));
}

function activityInterval(active: boolean): number | false {
  return active ? ACTIVITY_POLL_MS : false;
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

/**
 * One page of the user's clips under the applied filters, newest first. `working`: this page has
 * started work the list may not show yet (a subtitle call), so it polls fast meanwhile too.
 */
export function useClipList(filters: ClipQueryFilters, page: number, working = false) {
  const utils = trpc.useUtils();
  const input = useMemo(() => listInput(filters, page), [filters, page]);
  // Filter changes keep showing the previous page until the new one arrives (no flashing skeleton).
  const query = trpc.clips.list.useQuery(input, {
    placeholderData: keepPreviousData,
    // Opening the screen always asks again: the dashboard's checklist may have cached this very page
    // a moment before new clips arrived. The cached page shows meanwhile.
    refetchOnMount: 'always',
    refetchInterval: (current) => activityInterval(working || Boolean(current.state.data?.clips.some(hasWorkUnderWay))),
  });
  const { refetch } = query;

  // A poll never interrupts a load already under way (a filter change, the Refresh button).
  const reload = useCallback(() => void refetch({ cancelRefetch: false }), [refetch]);
  useReloadWhenOld(Math.max(query.dataUpdatedAt, query.errorUpdatedAt), reload);

  /** The Refresh button: the only reload that reports a failure (spec section 8). */
  const refresh = useCallback(async () => {
    const result = await refetch();
    if (result.isError) toastFailure(result.error, clipMessages.loadFailed);
    else toast.success(clipMessages.refreshed);
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

/**
 * The first page of all the user's clips with their total, as the Clips screen first asks for it,
 * so the two share one cache entry.
 */
export function useClipOverview({ enabled }: { enabled: boolean }) {
  return trpc.clips.list.useQuery(listInput({ streamer: '', search: '' }, 1), { enabled });
}

/** Marks every loaded clip list out of date (new clips have arrived): each reloads where it is shown. */
export function useInvalidateClipLists(): () => void {
  const utils = trpc.useUtils();
  return useCallback(() => void utils.clips.list.invalidate(), [utils]);
}

/**
 * A clip's details with its transcript, fetched fresh each time the caller mounts, and reloaded
 * often while its work goes on (or `working`: the caller knows of work the server may not show yet).
 */
export function useFreshClipDetails(clipId: string, working = false) {
  return trpc.clips.details.useQuery(
    { id: clipId },
    { staleTime: 0, refetchInterval: (current) => activityInterval(working || (current.state.data !== undefined && hasWorkUnderWay(current.state.data))) },
  );
}

/**
 * The details modal's copy of a clip. A failed load says so and calls `onFailed` (the modal
 * closes); a failure cached from an earlier opening does not.
 */
export function useClipDetails(clipId: string, onFailed: () => void, working = false) {
  const [openedAt] = useState(Date.now);
  const onFailedRef = useLatestRef(onFailed);

  const query = useFreshClipDetails(clipId, working);
  const failedAt = query.isError && query.errorUpdatedAt >= openedAt ? query.errorUpdatedAt : 0;
  const { error } = query;

  useEffect(() => {
    if (failedAt === 0) return;
    toastFailure(error, clipMessages.detailsFailed);
    onFailedRef.current();
  }, [failedAt, error, onFailedRef]);

  return query;
}

/** Deletes a clip; on success the caller takes it off the list and closes its details. */
export function useDeleteClip(onDeleted: (clipId: string) => void) {
  const onDeletedRef = useLatestRef(onDeleted);

  const mutation = trpc.clips.delete.useMutation({
    onSuccess: (result, { id }) => {
      toast.success(result.message);
      onDeletedRef.current(id);
    },
    onError: (error) => toastFailure(error, { fallback: clipMessages.deleteFailed, prefixed: true }),
  });

  const { mutate, isPending } = mutation;
  const remove = useCallback((clipId: string) => mutate({ id: clipId }), [mutate]);
  return { remove, isPending };
}

/** Saves the custom description or the chosen suggestion; the answer replaces the cached details. */
export function useUpdateDescriptions(clipId: string) {
  const utils = trpc.useUtils();
  const store = useCallback((clip: ClipDetails) => utils.clips.details.setData({ id: clipId }, clip), [utils, clipId]);
  const onError = (error: unknown) => toastFailure(error, { fallback: clipMessages.descriptionSaveFailed, prefixed: true });

  const saveMutation = trpc.clips.updateDescriptions.useMutation({
    onSuccess: (clip) => {
      store(clip);
      toast.success(clipMessages.descriptionSaved);
    },
    onError,
  });
  const selectMutation = trpc.clips.updateDescriptions.useMutation({ onSuccess: store, onError });

  const { mutate: saveCustom } = saveMutation;
  const { mutate: saveSelected } = selectMutation;
  const save = useCallback(
    (text: string) => saveCustom({ id: clipId, custom_description: text.trim() === '' ? null : text }),
    [saveCustom, clipId],
  );
  const select = useCallback((index: number) => saveSelected({ id: clipId, selected_description: index }), [saveSelected, clipId]);
  return { save, select, saving: saveMutation.isPending };
}
