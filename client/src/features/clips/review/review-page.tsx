import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CheckCheck, Inbox, LoaderCircle } from 'lucide-react';
import { loadFailureDescription } from '@/api/errors';
import { reviewMessages, useApprovalLinks, useApproveClips, useReviewClips } from '@/api/review';
import { useConnectedAccounts } from '@/api/accounts';
import { EmptyState } from '@/components/empty-state';
import { LoadFailed } from '@/components/load-failed';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { AccountPostSettingsCard } from './account-post-settings';
import { LinkAnswers } from './link-answers';
import { ReviewCard, reviewCardId } from './review-card';
import { CLIP_PARAM } from '@/lib/paths';

/**
 * The clip a link names (/app/review?clip=ID, e.g. from a moment): its card is marked and scrolled
 * into view once the inbox has loaded it.
 */
function useLinkedCard(loadedIds: string | undefined): string | null {
  const [searchParams] = useSearchParams();
  const clipId = searchParams.get(CLIP_PARAM);
  const present = clipId !== null && loadedIds !== undefined && loadedIds.split('\n').includes(clipId);
  useEffect(() => {
    if (!present) return;
    const frame = window.requestAnimationFrame(() => document.getElementById(reviewCardId(clipId))?.scrollIntoView({ block: 'start' }));
    return () => window.cancelAnimationFrame(frame);
  }, [present, clipId]);
  return present ? clipId : null;
}

/** The review inbox: new clips of streamers in review mode, the longest waiting first. */
export function ReviewPage() {
  const clips = useReviewClips();
  const accounts = useConnectedAccounts();
  const links = useApprovalLinks().data ?? [];
  const linkOf = (clipId: string) => links.find((link) => link.clip_id === clipId);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const list = clips.data ?? [];
  // Clips approved or rejected since stay out of the selection.
  const chosen = list.filter((clip) => selected.has(clip.clip_id)).map((clip) => clip.clip_id);
  const titleOf = (clipId: string) => list.find((clip) => clip.clip_id === clipId)?.title ?? clipId;
  const approveMany = useApproveClips(titleOf);
  const linked = useLinkedCard(clips.data?.map((clip) => clip.clip_id).join('\n'));

  const select = (clipId: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(clipId);
      else next.delete(clipId);
      return next;
    });
  const allSelected = list.length > 0 && chosen.length === list.length;

  return (
    <>
      <PageHeader title="Review" description="Approve or reject new clips before they are posted." />
      <div className="space-y-6">
        <AccountPostSettingsCard />
        <LinkAnswers links={links} />
        {clips.isLoading || accounts.isLoading ? (
          <Skeleton className="h-64 w-full" />
        ) : clips.isError ? (
          <LoadFailed icon={Inbox} title={reviewMessages.loadFailed} description={loadFailureDescription(clips.error)} onRetry={() => void clips.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState icon={Inbox} title={reviewMessages.emptyTitle} description={reviewMessages.emptyDescription} />
        ) : (
          <>
            <div className="flex flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between">
              <Label htmlFor="review-select-all" className="cursor-pointer font-normal">
                <Checkbox
                  id="review-select-all"
                  checked={allSelected ? true : chosen.length > 0 ? 'indeterminate' : false}
                  onCheckedChange={(next) => setSelected(new Set(next === true ? list.map((clip) => clip.clip_id) : []))}
                />
                Select all ({list.length})
              </Label>
              <div className="flex flex-col gap-1 sm:items-end">
                <Button
                  variant="brand"
                  disabled={chosen.length === 0 || approveMany.isPending}
                  onClick={() => approveMany.mutate({ clip_ids: chosen }, { onSuccess: () => setSelected(new Set()) })}
                >
                  {approveMany.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <CheckCheck aria-hidden="true" />}
                  Approve selected ({chosen.length})
                </Button>
                <p className="text-xs text-muted-foreground">Each goes out with its best suggestion to its streamer&apos;s linked accounts.</p>
              </div>
            </div>
            <div className="space-y-4">
              {list.map((clip) => (
                <ReviewCard
                  key={clip.clip_id}
                  clip={clip}
                  accounts={accounts.data ?? []}
                  selected={selected.has(clip.clip_id)}
                  onSelectedChange={(on) => select(clip.clip_id, on)}
                  link={linkOf(clip.clip_id)}
                  highlighted={clip.clip_id === linked}
                />
              ))}
            </div>
          </>
        )}
      </div>
    </>
  );
}
