import { useCallback, useState } from 'react';
import { toast } from 'sonner';
import { alreadyDownloading, isBusyStatus, type StartDownloadInput, type StatusEntry, type StatusMap } from '@clipshift/shared';
import { conflictMessage, toastFailure } from './errors';
import { preferencesToSend } from './settings';
import { trpc } from './trpc';

/** Download failure toasts of spec section 8 (the success toasts are the server's words). */
const downloadMessages = {
  startFailed: 'Failed to start download',
  startFailedFor: (name: string) => `Failed to start download for ${name}`,
  stopFailed: 'Failed to stop download',
} as const;

/** The latest run of every streamer that has run, polled every `pollMs`. */
export function useDownloadStatus(pollMs: number) {
  return trpc.downloads.status.useQuery(undefined, { refetchInterval: pollMs });
}

/** What a start means locally until the server says more (spec section 4). */
function startedEntry(startedAt: string): StatusEntry {
  return {
    status: 'downloading',
    clips_downloaded: 0,
    clips_total: 0,
    clips_failed: 0,
    started_at: startedAt,
    completed_at: null,
    error: null,
    progress: [],
  };
}

type StartDownloadRequest = Omit<StartDownloadInput, 'concurrency'>;

/** The names of the calls under way, so each streamer's button can say it is busy. */
function usePendingNames() {
  const [pendingNames, setPendingNames] = useState<ReadonlySet<string>>(new Set());
  const setPending = useCallback((name: string, pending: boolean) => {
    setPendingNames((current) => {
      const next = new Set(current);
      if (pending) next.add(name);
      else next.delete(name);
      return next;
    });
  }, []);
  const isPending = useCallback((name: string) => pendingNames.has(name), [pendingNames]);
  return { setPending, isPending };
}

/**
 * Starts a streamer's download with the user's concurrency (none sent when this browser has none
 * stored: the server then uses the one saved to the account). A streamer known to be busy is not
 * asked for at all; the server's own "already downloading" (a race) is shown the same way, as info.
 */
export function useStartDownload() {
  const utils = trpc.useUtils();
  const { setPending, isPending } = usePendingNames();

  const mutation = trpc.downloads.start.useMutation({
    onMutate: (input) => setPending(input.name, true),
    onSuccess: (result, input) => {
      toast.success(result.message);
      utils.downloads.status.setData(undefined, (current: StatusMap | undefined) => ({
        ...current,
        [input.name]: startedEntry(result.started_at),
      }));
      void utils.downloads.status.invalidate();
    },
    onError: (error, input) => {
      const conflict = conflictMessage(error);
      if (conflict) {
        toast.info(conflict);
        void utils.downloads.status.invalidate();
        return;
      }
      toastFailure(error, { fallback: downloadMessages.startFailed, offline: downloadMessages.startFailedFor(input.name), prefixed: true });
    },
    onSettled: (_result, _error, input) => setPending(input.name, false),
  });

  const { mutate } = mutation;
  const start = useCallback(
    (request: StartDownloadRequest) => {
      if (isBusyStatus(utils.downloads.status.getData()?.[request.name]?.status)) {
        toast.info(alreadyDownloading(request.name));
        return;
      }
      mutate({ ...request, concurrency: preferencesToSend().concurrency });
    },
    [mutate, utils],
  );

  return { start, isStarting: isPending };
}

/**
 * Asks a run to stop. The entry shows `stopping` at once and keeps it until the next status
 * refresh brings the server's word (spec section 4); a refused stop puts the entry back.
 */
export function useStopDownload() {
  const utils = trpc.useUtils();
  const mutation = trpc.downloads.stop.useMutation({
    onMutate: async ({ name }) => {
      await utils.downloads.status.cancel();
      const previous = utils.downloads.status.getData();
      utils.downloads.status.setData(undefined, (current: StatusMap | undefined) => {
        const entry = current?.[name];
        return entry ? { ...current, [name]: { ...entry, status: 'stopping' } } : current;
      });
      return { previous };
    },
    onSuccess: (result) => {
      toast.info(result.message);
    },
    onError: (error, _input, context) => {
      if (context?.previous) utils.downloads.status.setData(undefined, context.previous);
      toastFailure(error, { fallback: downloadMessages.stopFailed, prefixed: true });
      void utils.downloads.status.invalidate();
    },
  });
  const { mutate, isPending, variables } = mutation;
  const stop = useCallback((name: string) => mutate({ name }), [mutate]);
  const isStopping = useCallback((name: string) => isPending && variables?.name === name, [isPending, variables]);
  return { stop, isStopping };
}
