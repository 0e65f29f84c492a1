import { useCallback, useEffect, useMemo, useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { sortClips, type Clip, type ClipList } from '@clipshift/shared';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useStreamerList } from '@/api/streamers';
import { cn } from '@/lib/utils';
import type { ClipActions } from './shared/clip-actions';
import { ClipDetailsDialog } from './details/clip-details-dialog';
import { LinkedClip } from './details/linked-clip';
import { ClipViewToggle } from './list/clip-view-toggle';
import { ClipsContent } from './list/clips-content';
import { ClipsFilterBar } from './list/clips-filter-bar';
import { ClipsPagination } from './list/clips-pagination';
import { DeleteClipDialog } from './list/delete-clip-dialog';
import { downloadClip } from './shared/download-clip';
import { PostWizardDialog } from './post-wizard/post-wizard-dialog';
import { useClipFilters } from './list/use-clip-filters';
import { CLIP_PAGE_SIZE, useClipList, useDeleteClip } from '@/api/clips';
import { useSubtitleGeneration } from '@/api/subtitles';
import { useClipView } from './list/use-clip-view';
import { useDetailsState } from './details/use-details-state';

/** After deletions the last page can run empty: step back to the last page that has clips. */
function useStayWithinPages(list: ClipList | undefined, page: number, setPage: (page: number) => void, placeholder: boolean) {
  const lastPage = list ? Math.max(1, Math.ceil(list.total / CLIP_PAGE_SIZE)) : 1;
  const beyond = list !== undefined && !placeholder && page > lastPage;
  useEffect(() => {
    if (beyond) setPage(lastPage);
  }, [beyond, lastPage, setPage]);
}

export function ClipsPage() {
  const [view, setView] = useClipView();
  const filters = useClipFilters();
  const details = useDetailsState();
  const { generate, isGenerating, callsRunning } = useSubtitleGeneration(details.reopenIfShowing);
  const { query, refresh, removeClip } = useClipList(filters.applied, filters.page, callsRunning);
  const streamers = useStreamerList();
  const [deleteTarget, setDeleteTarget] = useState<Clip | null>(null);
  const [postTarget, setPostTarget] = useState<{ clip: Clip; description?: string } | null>(null);
  const [refreshing, setRefreshing] = useState(false);

  const onDeleted = useCallback(
    (clipId: string) => {
      setDeleteTarget(null);
      details.closeIfShowing(clipId);
      removeClip(clipId);
    },
    [details, removeClip],
  );
  const deletion = useDeleteClip(onDeleted);

  const actions = useMemo<ClipActions>(
    () => ({
      open: details.open,
      generateSubtitles: generate,
      isGenerating,
      download: downloadClip,
      requestDelete: setDeleteTarget,
      requestPost: (clip: Clip, description?: string) => setPostTarget({ clip, description }),
    }),
    [details.open, generate, isGenerating],
  );

  const page = query.data;
  const clips = useMemo(() => (page ? sortClips(page.clips, filters.sort) : undefined), [page, filters.sort]);
  useStayWithinPages(page, filters.page, filters.setPage, query.isPlaceholderData);
  const filtered = filters.applied.streamer !== '' || filters.applied.search !== '';

  const onRefresh = async () => {
    setRefreshing(true);
    try {
      // The streamer filter's choices may have changed too (new or deleted streamers).
      void streamers.refetch();
      await refresh();
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Clips"
        description="Watch, describe, subtitle and download the clips Clipshift has prepared for you."
        actions={
          <>
            <ClipViewToggle view={view} onViewChange={setView} />
            <Button variant="outline" size="sm" onClick={() => void onRefresh()} disabled={refreshing}>
              <RefreshCw className={cn(refreshing && 'animate-spin')} aria-hidden="true" />
              Refresh
            </Button>
          </>
        }
      />
      <div className="space-y-6">
        <ClipsFilterBar
          streamers={streamers.data ?? []}
          streamer={filters.streamer}
          onStreamerChange={filters.setStreamer}
          search={filters.search}
          onSearchChange={filters.setSearch}
          sort={filters.sort}
          onSortChange={filters.setSort}
        />
        <div aria-busy={query.isPlaceholderData || undefined} className={cn('transition-opacity', query.isPlaceholderData && 'opacity-60')}>
          <ClipsContent
            view={view}
            clips={clips}
            loading={query.isPending}
            error={query.error}
            filtered={filtered}
            actions={actions}
            onRetry={() => void onRefresh()}
          />
        </div>
        {page && page.total > 0 && (
          <ClipsPagination
            page={filters.page}
            pageSize={CLIP_PAGE_SIZE}
            total={page.total}
            shown={page.clips.length}
            onPageChange={filters.setPage}
            disabled={query.isPlaceholderData}
          />
        )}
      </div>
      <LinkedClip open={details.open} />
      <ClipDetailsDialog clip={details.clip} onClose={details.close} actions={actions} />
      <DeleteClipDialog
        clip={deleteTarget}
        pending={deletion.isPending}
        onCancel={() => setDeleteTarget(null)}
        onConfirm={(clip) => deletion.remove(clip.clip_id)}
      />
      <PostWizardDialog
        clip={postTarget?.clip ?? null}
        initialDescription={postTarget?.description}
        onClose={() => setPostTarget(null)}
        generating={isGenerating}
        onGenerateSubtitles={actions.generateSubtitles}
      />
    </>
  );
}
