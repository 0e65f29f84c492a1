import { useCallback, useState } from 'react';
import { toast } from 'sonner';
import { isBusyStatus, type StartDownloadInput, type StatusEntry, type StatusMap } from '@clipshift/shared';
import { preferencesToSend } from './processing-preferences';
import { errorCode, isNetworkError, isUnauthorizedError, serverMessage, trpc } from './trpc';

/** Download toasts of spec section 8, shared by the dashboard and the streamers screen. */
export const downloadMessages = {
  started: (name: string) => `Started downloading clips for ${name}`,
  stopping: (name: string) => `Stopping download for ${name}`,
  alreadyDownloading: (name: string) => `Already downloading clips for ${name}`,
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

/** "Error: {server message}" when the server answered; `offline` when it could not be reached. */
function errorToast(error: unknown, fallback: string, offline: string): void {
  if (isUnauthorizedError(error)) return; // the sign-in redirect speaks for itself
  if (isNetworkError(error)) toast.error(offline);
  else toast.error(`Error: ${serverMessage(error) ?? fallback}`);
}

export type StartDownloadRequest = Omit<StartDownloadInput, 'concurrency'>;

/**
 * Starts a streamer's download with the user's concurrency (none sent when this browser has none
 * stored: the server then uses the one saved to the account). A streamer known to be busy is not
 * asked for at all; the server's own "already downloading" (a race) is shown the same way, as info.
 */
export function useStartDownload() {
  const utils = trpc.useUtils();
  const [pendingNames, setPendingNames] = useState<ReadonlySet<string>>(new Set());
  const setPending = useCallback((name: string, pending: boolean) => {
    setPendingNames((current) => {
      const next = new Set(current);
      if (pending) next.add(name);
      else next.delete(name);
      return next;
    });
  }, []);

  const mutation = trpc.downloads.start.useMutation({
    onMutate: (input) => setPending(input.name, true),
    onSuccess: (result, input) => {
      toast.success(downloadMessages.started(input.name));
      utils.downloads.status.setData(undefined, (current: StatusMap | undefined) => ({
        ...current,
        [input.name]: startedEntry(result.started_at),
      }));
      void utils.downloads.status.invalidate();
    },
    onError: (error, input) => {
      if (errorCode(error) === 'CONFLICT') {
        toast.info(serverMessage(error) ?? downloadMessages.alreadyDownloading(input.name));
        void utils.downloads.status.invalidate();
        return;
      }
      errorToast(error, downloadMessages.startFailed, downloadMessages.startFailedFor(input.name));
    },
    onSettled: (_result, _error, input) => setPending(input.name, false),
  });

  const { mutate } = mutation;
  const start = useCallback(
    (request: StartDownloadRequest) => {
      if (isBusyStatus(utils.downloads.status.getData()?.[request.name]?.status)) {
        toast.info(downloadMessages.alreadyDownloading(request.name));
        return;
      }
      mutate({ ...request, concurrency: preferencesToSend().concurrency });
    },
    [mutate, utils],
  );

  const isStarting = useCallback((name: string) => pendingNames.has(name), [pendingNames]);
  return { start, isStarting };
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
    onSuccess: (_result, { name }) => {
      toast.info(downloadMessages.stopping(name));
    },
    onError: (error, _input, context) => {
      if (context?.previous) utils.downloads.status.setData(undefined, context.previous);
      errorToast(error, downloadMessages.stopFailed, downloadMessages.stopFailed);
      void utils.downloads.status.invalidate();
    },
  });
  const { mutate, isPending, variables } = mutation;
  const stop = useCallback((name: string) => mutate({ name }), [mutate]);
  const isStopping = useCallback((name: string) => isPending && variables?.name === name, [isPending, variables]);
  return { stop, isStopping };
}
