import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import type { ApproveClipsResult, Hook, SaveAccountPostSettingsInput } from '@clipshift/shared';
import { toastFailure, useLoadErrorToast } from './errors';
import { trpc } from './trpc';

export const reviewMessages = {
  loadFailed: 'Failed to load the review inbox',
  approveFailed: 'Failed to approve clip',
  rejectFailed: 'Failed to reject clip',
  saveSettingsFailed: 'Failed to save the account’s post settings',
  hookSaved: 'Title card saved: it shows from the clip’s next render',
  hookSaveFailed: 'Failed to save the title card',
  emptyTitle: 'Nothing to review',
  emptyDescription: 'New clips of streamers in review mode wait here until you approve or reject them.',
  shareFailed: 'Failed to make an approval link',
  linksLoadFailed: 'Failed to load the approval links',
} as const;

/** How often the navigation's badge asks again: runs add clips in the background. */
const COUNT_REFRESH_MS = 30_000;

/** Clips waiting for review, the longest waiting first. */
export function useReviewClips() {
  const query = trpc.review.list.useQuery();
  useLoadErrorToast(query, reviewMessages.loadFailed);
  return query;
}

/** The number on the navigation's Review badge. */
export function useReviewCount(enabled: boolean) {
  return trpc.review.count.useQuery(undefined, { enabled, refetchInterval: COUNT_REFRESH_MS });
}

/** An approval or rejection changed the inbox, its badge and the clips' posts. */
function useInboxChanged() {
  const utils = trpc.useUtils();
  return () => {
    void utils.review.list.invalidate();
    void utils.review.count.invalidate();
    void utils.review.links.invalidate();
    void utils.clips.list.invalidate();
  };
}

/**
 * How often the inbox asks again about its approval links: an answer arrives from someone else's
 * phone, and then moves the clip out of the inbox.
 */
const LINKS_REFRESH_MS = 30_000;

/** The latest approval link of each clip shared lately; an answer seen here refreshes the inbox. */
export function useApprovalLinks() {
  const utils = trpc.useUtils();
  const query = trpc.review.links.useQuery(undefined, { refetchInterval: LINKS_REFRESH_MS });
  useLoadErrorToast(query, reviewMessages.linksLoadFailed);
  const answered = query.data
    ?.filter((link) => link.status === 'approved' || link.status === 'rejected')
    .map((link) => link.clip_id)
    .join('\n');
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (answered === undefined) return;
    // A new answer took its clip out of the inbox: the list and the badge show it at once.
    if (seen.current !== undefined && seen.current !== answered) {
      void utils.review.list.invalidate();
      void utils.review.count.invalidate();
    }
    seen.current = answered;
  }, [answered, utils]);
  return query;
}

/** Makes an approval link for a clip, with the choices an approval would take. */
export function useShareClip() {
  const utils = trpc.useUtils();
  return trpc.review.share.useMutation({
    onError: (error) => toastFailure(error, { fallback: reviewMessages.shareFailed, prefixed: true }),
    onSuccess: () => void utils.review.links.invalidate(),
  });
}

export function useApproveClip() {
  const changed = useInboxChanged();
  return trpc.review.approve.useMutation({
    onSuccess: (result) => toast.success(result.message),
    onError: (error) => toastFailure(error, { fallback: reviewMessages.approveFailed, prefixed: true }),
    onSettled: changed,
  });
}

export function useRejectClip() {
  const changed = useInboxChanged();
  return trpc.review.reject.useMutation({
    onSuccess: (result) => toast.success(result.message),
    onError: (error) => toastFailure(error, { fallback: reviewMessages.rejectFailed, prefixed: true }),
    onSettled: changed,
  });
}

/** "Approved 3 clips", and one error toast naming each clip that was not approved and why. */
function reportBulk(result: ApproveClipsResult, titleOf: (clipId: string) => string): void {
  if (result.approved > 0) toast.success(`Approved ${result.approved} clip${result.approved === 1 ? '' : 's'}`);
  if (result.failed.length > 0) toast.error(`Not approved: ${result.failed.map((failure) => `${titleOf(failure.clip_id)}: ${failure.message}`).join('; ')}`);
}

export function useApproveClips(titleOf: (clipId: string) => string) {
  const changed = useInboxChanged();
  return trpc.review.approveMany.useMutation({
    onSuccess: (result) => reportBulk(result, titleOf),
    onError: (error) => toastFailure(error, { fallback: reviewMessages.approveFailed, prefixed: true }),
    onSettled: changed,
  });
}

/** The privacy and interactions chosen once per account for approved and automatic posts. */
export function useAccountPostSettings() {
  const query = trpc.review.accountSettings.useQuery();
  useLoadErrorToast(query, reviewMessages.loadFailed);
  return query;
}

export function useSaveAccountPostSettings() {
  const utils = trpc.useUtils();
  return trpc.review.saveAccountSettings.useMutation({
    onSuccess: (saved) => {
      toast.success(`Saved the post settings of ${saved.account}`);
      void utils.review.accountSettings.invalidate();
    },
    onError: (error) => toastFailure(error, { fallback: reviewMessages.saveSettingsFailed, prefixed: true }),
  });
}

export type { SaveAccountPostSettingsInput };

/** Saves a clip's title card (its edit's `hook`; the rest of its edit stays as it is). */
export function useSaveClipHook(clipId: string) {
  const utils = trpc.useUtils();
  const mutation = trpc.studio.edit.useMutation({
    onSuccess: (clip) => {
      toast.success(reviewMessages.hookSaved);
      utils.clips.details.setData({ id: clipId }, clip);
      void utils.review.list.invalidate();
    },
    onError: (error) => toastFailure(error, { fallback: reviewMessages.hookSaveFailed, prefixed: true }),
  });
  const { mutate, isPending } = mutation;
  return { save: (hook: Hook, onSaved: () => void) => mutate({ id: clipId, hook }, { onSuccess: onSaved }), saving: isPending };
}
