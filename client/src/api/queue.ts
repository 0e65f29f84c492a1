import { toast } from 'sonner';
import { isUploadInProgress, type QueueItem } from '@clipshift/shared';
import { toastFailure, useLoadErrorToast } from './errors';
import { trpc } from './trpc';

export const queueMessages = {
  loadFailed: 'Failed to load the posting queue',
  scheduleLoadFailed: 'Failed to load the posting schedule',
  saveFailed: 'Failed to save the posting schedule',
  saved: 'Posting schedule saved',
  cancelFailed: 'Failed to cancel the post',
  postNowFailed: 'Failed to post now',
  emptyTitle: 'Nothing waiting to post',
  emptyDescription: 'Automatic posts into an account’s posting slots wait here until their time. Set slots in Settings › Connected accounts.',
} as const;

/** The queue moves on its own (slots fire, uploads finish): look again every so often. */
const QUEUE_POLL_MS = 10_000;
/**
 * While a post is on its way (queued to go now, uploading, processing) it changes within seconds:
 * look as often as the clips screen does, so a post that went out leaves the queue at once.
 */
const QUEUE_ACTIVE_POLL_MS = 2_000;

function queuePollMs(items: readonly Pick<QueueItem, 'status'>[] | undefined): number {
  return items?.some((item) => isUploadInProgress(item.status)) ? QUEUE_ACTIVE_POLL_MS : QUEUE_POLL_MS;
}

/** Posts not yet finished, soonest first. */
export function useQueue() {
  const query = trpc.queue.list.useQuery(undefined, { refetchInterval: (current) => queuePollMs(current.state.data) });
  useLoadErrorToast(query, queueMessages.loadFailed);
  return query;
}

export function useSchedule(accountId: string) {
  const query = trpc.queue.schedule.useQuery({ id: accountId }, { refetchOnMount: 'always' });
  useLoadErrorToast(query, queueMessages.scheduleLoadFailed);
  return query;
}

export function useSaveSchedule(onSaved: () => void) {
  const utils = trpc.useUtils();
  return trpc.queue.saveSchedule.useMutation({
    onSuccess: (schedule, input) => {
      toast.success(queueMessages.saved);
      utils.queue.schedule.setData({ id: input.id }, schedule);
      onSaved();
    },
  });
}

export function useCancelQueued() {
  const utils = trpc.useUtils();
  return trpc.queue.cancel.useMutation({
    onSuccess: (result) => toast.success(result.message),
    onError: (error) => toastFailure(error, { fallback: queueMessages.cancelFailed, prefixed: true }),
    onSettled: () => void utils.queue.list.invalidate(),
  });
}

export function usePostNow() {
  const utils = trpc.useUtils();
  return trpc.queue.postNow.useMutation({
    onSuccess: (result) => toast.success(result.message),
    onError: (error) => toastFailure(error, { fallback: queueMessages.postNowFailed, prefixed: true }),
    onSettled: () => void utils.queue.list.invalidate(),
  });
}
