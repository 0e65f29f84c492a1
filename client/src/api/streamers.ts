import { toast } from 'sonner';
import type { CreateStreamerInput } from '@clipshift/shared';
import { errorCode, toastFailure, useLoadErrorToast } from './errors';
import { trpc } from './trpc';

/** Streamer toasts of spec section 8 that the browser words itself. */
export const streamerMessages = {
  loadFailed: 'Failed to load streamers',
  added: 'Streamer added successfully',
  updated: 'Streamer updated successfully',
  saveFailed: 'Failed to save streamer',
  deleteFailed: 'Failed to delete streamer',
} as const;

/** The user's streamers, sorted by name, with the spec's toast when loading fails. */
export function useStreamerList(options: { refetchInterval?: number } = {}) {
  const query = trpc.streamers.list.useQuery(undefined, { refetchInterval: options.refetchInterval });
  useLoadErrorToast(query, streamerMessages.loadFailed);
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

/** A refusal because a download is running: the server's blocking message, shown unprefixed. */
function isBusyRefusal(error: unknown): boolean {
  return errorCode(error) === 'CONFLICT';
}

/** 'Error: {server message}', the busy refusal as it is, or the fallback when the server was not reached. */
function toastRefusal(error: unknown, fallback: string, busyUnprefixed: boolean): void {
  toastFailure(error, { fallback, prefixed: !(busyUnprefixed && isBusyRefusal(error)) });
}

export type StreamerFormMode = 'add' | 'edit';

interface SaveCallbacks {
  onSaved: () => void;
  /** The refusal, for the form to show beside its fields. */
  onRefused: (error: unknown) => void;
}

/** Adds or updates a streamer; a refusal is toasted here and handed to the form. */
export function useSaveStreamer(mode: StreamerFormMode, { onSaved, onRefused }: SaveCallbacks) {
  const utils = trpc.useUtils();
  const refused = {
    onError: (error: unknown) => {
      toastRefusal(error, streamerMessages.saveFailed, mode === 'edit');
      onRefused(error);
      // A lost race with a download: the busy state shows on the card after this refresh.
      if (isBusyRefusal(error)) void utils.downloads.status.invalidate();
    },
  };
  const saved = (message: string) => () => {
    toast.success(message);
    void utils.streamers.list.invalidate();
    onSaved();
  };
  const create = trpc.streamers.create.useMutation({ onSuccess: saved(streamerMessages.added), ...refused });
  const update = trpc.streamers.update.useMutation({ onSuccess: saved(streamerMessages.updated), ...refused });
  const save = (payload: CreateStreamerInput) => {
    if (mode === 'add') create.mutate(payload);
    else update.mutate(payload);
  };
  return { save, pending: create.isPending || update.isPending };
}

/** Deletes a streamer (its clips stay in the library); a busy refusal shows the blocking message. */
export function useDeleteStreamer(onDone: () => void) {
  const utils = trpc.useUtils();
  return trpc.streamers.delete.useMutation({
    onSuccess: (result) => {
      toast.success(result.message);
      void utils.streamers.list.invalidate();
      void utils.downloads.status.invalidate();
    },
    onError: (error) => {
      toastRefusal(error, streamerMessages.deleteFailed, true);
      if (isBusyRefusal(error)) void utils.downloads.status.invalidate();
    },
    onSettled: onDone,
  });
}

